"""A package's public names, imported from their modules when first used (PEP 562).

`from stealthflow.pipeline.records import Record` then costs the records module only, not the
protector, the recognizers and the models behind the package's other names: a command answers its
`--help` or an argument error before anything heavy is imported (benchmarks/startup.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable


def lazy_exports(package: str, exports: dict[str, tuple[str, ...]]) -> Callable[[str], object]:
    """A module `__getattr__` for `package`: `exports` maps a submodule to the names it exports."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> object:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{where[name]}"), name)

    return __getattr__
