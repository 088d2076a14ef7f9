"""Anonymization methods by name: what `anonymize --method` and `evaluate --methods` accept.

A method turns profiles into anonymized texts. Loop methods (`aa`, `stealth`) also return
the text after every round, which the evaluation needs for its trade-off curve.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from stealthflow.config import Settings
from stealthflow.data.schema import Profile
from stealthflow.llm.pool import LLMPool


@dataclass
class Anonymized:
    profile_id: str
    text: str
    rounds: list[str] = field(default_factory=list)  # text after round 1..N (last == text)
    parsed: bool = True  # False when the model's answer could not be read and the text was kept
    details: dict[str, Any] = field(default_factory=dict)


ProgressCallback = Callable[[int], None]  # called with the number of profiles just finished


class Method(Protocol):
    name: str

    def anonymize_many(self, profiles: list[Profile], on_progress: ProgressCallback | None = None) -> list[Anonymized]: ...


MethodFactory = Callable[[Settings, LLMPool, dict[str, Any]], Method]
_METHODS: dict[str, MethodFactory] = {}
# Modules that register built-in methods when imported (kept lazy: some pull heavy deps).
_BUILTIN_MODULES = ("stealthflow.anonymize.standard", "stealthflow.workflow.methods", "stealthflow.anonymize.ner_mask")


def register_method(name: str, factory: MethodFactory) -> None:
    _METHODS[name] = factory


def _load_builtins() -> None:
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)


def method_names() -> list[str]:
    _load_builtins()
    return sorted(_METHODS)


def build_method(name: str, settings: Settings, pool: LLMPool, options: dict[str, Any] | None = None) -> Method:
    _load_builtins()
    if name not in _METHODS:
        raise ValueError(f"unknown method {name!r}; choose from {', '.join(method_names())}")
    return _METHODS[name](settings, pool, options or {})
