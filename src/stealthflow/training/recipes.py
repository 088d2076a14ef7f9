"""Training recipes: one YAML file per recipe (see `training/*.yaml`), typed here.

A recipe names the base model, the LoRA shape, and one section per stage. Anything trl's
`SFTConfig` / `GRPOConfig` accepts that is not modelled here goes under `trainer:` (e.g.
`deepspeed`, `gradient_checkpointing`, `vllm_mode`) and is passed through unchanged, so the
GPU recipe can use every trl feature without this file growing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt

from stealthflow.llm.config import ModelConfig


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LoRASettings(_Section):
    r: int = Field(8, ge=1)
    alpha: int = 16
    dropout: float = Field(0.05, ge=0, lt=1)
    target_modules: str | list[str] = "all-linear"
    top_layers: int | None = Field(
        None,
        ge=1,
        description="adapt only the last N transformer layers: backward stops below them (CPU time); null = all",
    )


class SFTSettings(_Section):
    data: str = Field(description="a `stealthflow harvest` output directory (its `sft/` is used)")
    epochs: float = Field(1.0, gt=0)
    learning_rate: float = 1e-4
    batch_size: int = Field(2, ge=1)
    gradient_accumulation_steps: int = Field(4, ge=1)
    max_length: int = Field(2048, ge=16)
    max_examples: PositiveInt | dict[str, NonNegativeInt] | None = Field(
        None,
        description="train on a seeded random subset (CPU budgets): N rows, or at most N rows per kind, "
        "e.g. {attack: 64} (kinds not named are kept whole; 0 leaves a kind out)",
    )
    balance_options: float = Field(
        0.0,
        ge=0,
        le=1,
        description="attack rows answered by an option: repeat each (commonest option's rows of its attribute / "
        "its option's rows) ** x times, rounded, so the rarer options weigh more (0: as harvested, 1: balanced)",
    )
    logging_steps: int = Field(1, ge=1)
    save_steps: int = Field(25, ge=1)
    trainer: dict[str, Any] = Field(default_factory=dict, description="extra trl SFTConfig arguments")


class GRPOSettings(_Section):
    data: str | None = Field(None, description="harvest output directory (its `grpo/`); default: sft.data")
    adapter: str | None = Field(None, description="SFT adapter to start from; default: <output_dir>/sft/adapter")
    max_steps: int = Field(20, ge=1)
    learning_rate: float = 1e-5
    batch_size: int = Field(2, ge=1, description="completions per device step (a multiple of num_generations)")
    num_generations: int = Field(2, ge=2)
    max_completion_length: int = Field(256, ge=8)
    max_prompt_tokens: PositiveInt | None = Field(
        None, description="leave out (never cut) prompts longer than this many tokens: bounds CPU time; null = all"
    )
    temperature: float = Field(1.0, gt=0)
    beta: float = Field(0.0, ge=0, description="KL weight; 0 = no reference model")
    cues: Literal["evidence", "tagger"] = Field(
        "evidence",
        description="evidence reward: which phrases a prompt names. evidence: the strong attacker's (what the SFT teacher "
        "removed); tagger: the cue tagger's marks, as `--method local` builds its prompts, so removing the evidence the "
        "tagger missed earns reward (comments where it marks nothing are left out: local never sends them to the model)",
    )
    cue_tagger: str | None = Field(
        None, description="grpo.cues: tagger — the cue tagger's directory; default: the shipped models/cue-tagger"
    )
    reward: Literal["attack", "evidence", "self-attack"] = Field(
        "attack",
        description="attack: the frozen attacker's guesses on a whole-profile rewrite; "
        "evidence: per post, the share of the strong attacker's evidence removed (+ classifier_weight x the classifier's drop); "
        "self-attack: per post, the evidence removed and 1 - the frozen SFT adapter's probability of the true option "
        "on the rewrite (attack_weight; attack/choice.py), utility with the fluency gate's credit (fluency_weight)",
    )
    attack_weight: float = Field(
        0.5,
        ge=0,
        le=1,
        description="self-attack reward: weight of the choice attacker's 1 - p(true option) in the privacy term",
    )
    self_attacker: Literal["choice", "probe"] = Field(
        "choice",
        description="self-attack reward: who reads the rewrite. choice: the frozen SFT adapter answering by option "
        "likelihood (attack/choice.py); probe: a logistic-regression probe on the model's own hidden states "
        "(attack/probe.py, grpo.probe)",
    )
    probe: str | None = Field(
        None,
        description="self_attacker: probe — its artefact (benchmarks/dual_probe.py fit); default: the shipped "
        "base-model probe. It reads the states of the model it was fitted on: the base model alone, or with the "
        "frozen SFT adapter (any other adapter is refused)",
    )
    choice_normalise: bool = Field(
        False,
        description="self-attack reward: score each option by its mean log-probability per token (else summed)",
    )
    fluency_weight: float = Field(
        0.5, ge=0, le=1, description="self-attack reward: weight of the fluency gate's credit in the utility term"
    )
    classifier_weight: float = Field(
        0.5,
        ge=0,
        le=1,
        description="evidence reward: weight of the classifier attacker's probability drop in the privacy term",
    )
    reward_lambda: float = Field(0.5, ge=0, le=1, description="reward = λ·privacy + (1-λ)·utility")
    min_utility: float = Field(
        0.1, ge=0, le=1, description="a rewrite keeping less of its input (mean BLEU/ROUGE) is garbled: reward 0"
    )
    attacker: ModelConfig | None = Field(
        None, description="the attacker inside the reward; default: the frozen SFT model"
    )
    attacker_max_new_tokens: int = Field(256, ge=8, description="answer length of the default attacker")
    attacker_batch_size: int = Field(8, ge=1)
    logging_steps: int = Field(1, ge=1)
    save_steps: int = Field(10, ge=1)
    trainer: dict[str, Any] = Field(default_factory=dict, description="extra trl GRPOConfig arguments (use_vllm, ...)")


class Recipe(_Section):
    name: str
    base_model: str = Field("embedded", description="embedded, hf:PATH or a local checkpoint path (never downloaded)")
    output_dir: str
    seed: int = 42
    device: Literal["cpu", "auto"] = Field("cpu", description="cpu forces CPU; auto lets accelerate place the model")
    dtype: Literal["float32", "bfloat16"] = "float32"
    threads: int | None = Field(None, ge=1, description="torch threads on CPU")
    lora: LoRASettings = Field(default_factory=LoRASettings)
    sft: SFTSettings
    grpo: GRPOSettings = Field(default_factory=GRPOSettings)

    @property
    def output(self) -> Path:
        return Path(self.output_dir)

    def grpo_data(self) -> str:
        return self.grpo.data or self.sft.data

    def sft_adapter(self) -> Path:
        return Path(self.grpo.adapter) if self.grpo.adapter else self.output / "sft" / "adapter"


def load_recipe(path: str | Path, overrides: dict[str, Any] | None = None) -> Recipe:
    """A recipe from YAML; `overrides` maps dotted keys ("sft.epochs") to values."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping at the top level")
    for dotted, value in (overrides or {}).items():
        target = data
        *parents, leaf = dotted.split(".")
        for key in parents:
            target = target.setdefault(key, {})
            if not isinstance(target, dict):
                raise ValueError(f"override {dotted!r}: {key!r} is not a section")
        target[leaf] = value
    return Recipe.model_validate(data)
