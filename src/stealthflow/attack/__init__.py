"""Attribute-inference attackers, their answer parser and the correctness judge."""

from stealthflow.lazy import lazy_exports

_EXPORTS = {
    "judge": ("CorrectnessJudge", "correctness_vector", "rule_verdict", "top1_correct"),
    "llm_attacker": ("LLMAttacker", "attack_messages"),
    "parser": ("parse_attack",),
    "types": ("Attacker", "AttackResult", "AttributeGuess", "Verdict"),
}
__getattr__ = lazy_exports(__name__, _EXPORTS)
__all__ = sorted(name for names in _EXPORTS.values() for name in names)
