"""What makes a training output reproducible: the seed, the exact library versions and the
resolved recipe, saved next to every adapter."""

from __future__ import annotations

import json
import platform
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import yaml

LIBRARIES = ("stealthflow", "torch", "transformers", "trl", "peft", "datasets", "accelerate", "deepspeed", "vllm")


def library_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            continue
    return versions


def save_run_info(directory: Path, recipe: Any, **extra: Any) -> None:
    """`recipe.yaml` (resolved, reusable as `--recipe`) and `run_info.json` (+ versions, extra facts)."""
    directory.mkdir(parents=True, exist_ok=True)
    resolved = recipe.model_dump(mode="json")
    (directory / "recipe.yaml").write_text(yaml.safe_dump(resolved, sort_keys=False), encoding="utf-8")
    info = {"recipe": resolved, "seed": recipe.seed, "versions": library_versions(), **extra}
    (directory / "run_info.json").write_text(json.dumps(info, indent=2, default=str), encoding="utf-8")
