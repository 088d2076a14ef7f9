"""Harvest: a run's trajectories -> SFT and GRPO datasets (trl conversational format)."""

from stealthflow.harvest.build import REFERENCE_MODEL, HarvestConfig, collect, harvest
from stealthflow.harvest.examples import best_round, format_attack_answer, privacy_gained
from stealthflow.harvest.trajectories import load_trajectories

__all__ = [
    "REFERENCE_MODEL",
    "HarvestConfig",
    "best_round",
    "collect",
    "format_attack_answer",
    "harvest",
    "load_trajectories",
    "privacy_gained",
]
