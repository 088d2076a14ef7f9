"""Attribute-inference attackers, their answer parser and the correctness judge."""

from stealthflow.attack.judge import CorrectnessJudge, correctness_vector, rule_verdict, top1_correct
from stealthflow.attack.llm_attacker import LLMAttacker, attack_messages
from stealthflow.attack.parser import parse_attack
from stealthflow.attack.types import Attacker, AttackResult, AttributeGuess, Verdict

__all__ = [
    "AttackResult",
    "Attacker",
    "AttributeGuess",
    "CorrectnessJudge",
    "LLMAttacker",
    "Verdict",
    "attack_messages",
    "correctness_vector",
    "parse_attack",
    "rule_verdict",
    "top1_correct",
]
