"""Attackers by name, for the loop's `--attackers llm,classifier`.

`llm` is the Staab-style LLM attacker on the attacker model; `classifier` the stylometric
classifier; `probe` the shipped probe on the embedded model's own hidden states (`attack/probe.py`).
The last two load their modules only when one is built. Other attackers register a
`factory(settings, pool) -> Attacker` with `register_attacker`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from stealthflow.attack.llm_attacker import LLMAttacker
from stealthflow.attack.types import Attacker
from stealthflow.llm.pool import LLMPool

if TYPE_CHECKING:
    from stealthflow.config import Settings

AttackerFactory = Callable[["Settings", LLMPool], Attacker]
_ATTACKERS: dict[str, AttackerFactory] = {}


def register_attacker(name: str, factory: AttackerFactory) -> None:
    _ATTACKERS[name] = factory


def attacker_names() -> list[str]:
    return sorted(_ATTACKERS)


def default_attackers(settings: "Settings") -> list[str]:
    """What `attack` runs when no attacker is named: the classifier while the attacker model is the embedded one,
    the LLM attacker on any other model. The embedded 135M model answered 1 of 40 test profiles in the requested
    format and is below chance on every attribute; the classifier's pooled top-1 on the 200 test profiles is 0.62
    vs majority 0.51 (docs/attack.md, `benchmarks/attacker_strength.py`)."""
    return ["classifier"] if settings.attacker_model().model == "embedded" else ["llm"]


def build_attackers(names: list[str], settings: "Settings", pool: LLMPool) -> list[Attacker]:
    known = attacker_names()
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ValueError(f"unknown attackers {unknown or names}; choose from {', '.join(known)}")
    return [_ATTACKERS[name](settings, pool) for name in dict.fromkeys(names)]


def _classifier(settings: "Settings", pool: LLMPool) -> Attacker:
    from stealthflow.attack.classifier import load_classifier_attacker

    return load_classifier_attacker(settings.classifier)


def _probe(settings: "Settings", pool: LLMPool) -> Attacker:
    """The shipped probe reads the model it was fitted on, the embedded one (no adapter), whatever the attacker
    model: it is fitted on that model's hidden states."""
    from stealthflow.attack.probe import SHIPPED_PROBE, HiddenStateProbe, load_probe_attacker

    return load_probe_attacker("embedded", None, HiddenStateProbe.load(SHIPPED_PROBE))


register_attacker("llm", lambda settings, pool: LLMAttacker(pool.get(settings.attacker_model())))
register_attacker("classifier", _classifier)
register_attacker("probe", _probe)
