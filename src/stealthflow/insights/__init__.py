"""Contrastive insight memory: rules per attribute, learned from what beat the attacker."""

from stealthflow.insights.learner import InsightLearner
from stealthflow.insights.memory import InsightMemory, Rule
from stealthflow.insights.ops import Operation, parse_operations
from stealthflow.insights.protection import attacker_beaten, contrastive_pairs, first_success

__all__ = [
    "InsightLearner",
    "InsightMemory",
    "Operation",
    "Rule",
    "attacker_beaten",
    "contrastive_pairs",
    "first_success",
    "parse_operations",
]
