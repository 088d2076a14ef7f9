"""Training the local anonymizer: LoRA-SFT on harvested examples, then GRPO with self-attack rewards."""

from stealthflow.training.grpo import run_grpo
from stealthflow.training.merge import merge_adapter
from stealthflow.training.recipes import Recipe, load_recipe
from stealthflow.training.rewards import AnonymizationReward, RewardParts
from stealthflow.training.sft import run_sft

__all__ = ["AnonymizationReward", "Recipe", "RewardParts", "load_recipe", "merge_adapter", "run_grpo", "run_sft"]
