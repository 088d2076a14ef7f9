"""The scripts of training/ (not a package) loaded as modules, for their tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

TRAINING = Path(__file__).resolve().parent.parent / "training"


def training_script(name: str) -> ModuleType:
    """training/NAME.py, loaded."""
    spec = importlib.util.spec_from_file_location(name, TRAINING / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
