"""Attackers by name, for the loop's `--attackers llm,classifier`.

`llm` is the Staab-style LLM attacker on the attacker model. Other attackers register a
`factory(settings, pool) -> Attacker` with `register_attacker` (the classifier attacker
does so when its module is imported; list it in `_BUILTIN_MODULES`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from stealthflow.attack.llm_attacker import LLMAttacker
from stealthflow.attack.types import Attacker
from stealthflow.llm.pool import LLMPool

if TYPE_CHECKING:
    from stealthflow.config import Settings

AttackerFactory = Callable[["Settings", LLMPool], Attacker]
_ATTACKERS: dict[str, AttackerFactory] = {}
# Modules that register attackers when imported (lazy: some load models).
_BUILTIN_MODULES: tuple[str, ...] = ("stealthflow.attack.classifier",)


def register_attacker(name: str, factory: AttackerFactory) -> None:
    _ATTACKERS[name] = factory


def attacker_names() -> list[str]:
    for module in _BUILTIN_MODULES:
        importlib.import_module(module)
    return sorted(_ATTACKERS)


def build_attackers(names: list[str], settings: "Settings", pool: LLMPool) -> list[Attacker]:
    known = attacker_names()
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ValueError(f"unknown attackers {unknown or names}; choose from {', '.join(known)}")
    return [_ATTACKERS[name](settings, pool) for name in dict.fromkeys(names)]


register_attacker("llm", lambda settings, pool: LLMAttacker(pool.get(settings.attacker_model())))
