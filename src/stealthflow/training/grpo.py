"""GRPO from the SFT adapter (trl `GRPOTrainer`), rewarded by the frozen SFT model's attacks.

The policy is the SFT adapter, trainable. The attacker inside the reward is a separate,
frozen copy (by default the same base + SFT adapter, loaded through the LLM layer), so the
policy cannot make its own judge weaker. `grpo.reward` picks the reward (rewards.py): `attack`
(whole profiles), `evidence` or `self-attack` (per post; the latter with that frozen attacker on
each rewrite). Per-step reward parts go to `rewards.jsonl` and `rewards.png`; trl's own log to `log.jsonl`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from stealthflow.attack import LLMAttacker
from stealthflow.llm import ModelConfig, build_llm
from stealthflow.llm.checkpoints import base_model_path, load_tokenizer
from stealthflow.training.models import configure_torch, load_base_model, trainer_args
from stealthflow.training.plots import plot_curves, read_jsonl
from stealthflow.training.recipes import Recipe
from stealthflow.training.repro import save_run_info
from stealthflow.training.rewards import AnonymizationReward, ClassifierDrop, EvidenceReward, SelfAttackReward
from stealthflow.training.stage import already_finished, dataset_dir, train_and_save

REWARD_CURVES = ["reward_mean", "anonymity_mean", "utility_mean", "attacker_accuracy"]
EVIDENCE_CURVES = [
    "reward_mean",
    "evidence_removed_mean",
    "classifier_drop_mean",
    "utility_mean",
    "zero_variance_groups",
]
SELF_ATTACK_CURVES = [
    "reward_mean",
    "evidence_removed_mean",
    "self_anonymity_mean",
    "fluency_mean",
    "utility_mean",
    "attacker_accuracy",
]


def attacker_config(recipe: Recipe) -> ModelConfig:
    """The recipe's attacker, or the frozen SFT model (greedy, so rewards are deterministic)."""
    if recipe.grpo.attacker is not None:
        return recipe.grpo.attacker
    return ModelConfig(
        model=f"hf:{base_model_path(recipe.base_model)}",
        adapter=str(recipe.sft_adapter()),
        dtype=recipe.dtype,
        temperature=0.0,
        max_new_tokens=recipe.grpo.attacker_max_new_tokens,
        batch_size=recipe.grpo.attacker_batch_size,
        threads=recipe.threads,
    )


def _step_tracker(reward: AnonymizationReward | EvidenceReward):
    from transformers import TrainerCallback

    class StepTracker(TrainerCallback):
        """Tells the reward which optimizer step its completions belong to (for its log)."""

        def on_step_begin(self, args, state, control, **kwargs):
            reward.step = state.global_step + 1

    return StepTracker()


def short_prompts(dataset, tokenizer, max_tokens: int | None):
    """The rows whose prompt (chat template applied) has at most `max_tokens` tokens."""
    if max_tokens is None:
        return dataset

    def tokens(row) -> int:
        return len(
            tokenizer.apply_chat_template(row["prompt"], add_generation_prompt=True, return_dict=True)["input_ids"]
        )

    kept = dataset.filter(lambda row: tokens(row) <= max_tokens)
    if len(kept) == 0:
        raise ValueError(
            f"no GRPO prompt has at most {max_tokens} tokens (grpo.max_prompt_tokens); raise it or set it to null"
        )
    return kept


def tagger_prompts(dataset, tagger):
    """The rows re-prompted with the phrases the cue tagger marks in each comment (the reward still
    scores the strong attacker's evidence); rows where it marks nothing are dropped."""
    from datasets import Dataset

    from stealthflow.anonymize.cues import find_cues
    from stealthflow.anonymize.local import cue_messages

    rows = dataset.to_list()
    cues = find_cues(tagger, [row["source_text"] for row in rows])
    kept = [
        row | {"prompt": cue_messages(row["source_text"], spans)}
        for row, spans in zip(rows, cues, strict=True)
        if spans
    ]
    if not kept:
        raise ValueError(
            "the cue tagger marks nothing in any GRPO comment (grpo.cues: tagger); use grpo.cues: evidence"
        )
    return Dataset.from_list(kept)


def build_grpo_trainer(recipe: Recipe, reward: AnonymizationReward, callbacks: list | None = None):
    from datasets import load_from_disk
    from peft import PeftModel
    from trl import GRPOConfig, GRPOTrainer

    configure_torch(recipe)
    adapter = recipe.sft_adapter()
    if not (adapter / "adapter_config.json").exists():
        raise FileNotFoundError(f"{adapter}: no SFT adapter (run `stealthflow train sft` first, or set grpo.adapter)")
    settings = recipe.grpo
    tokenizer = load_tokenizer(adapter)
    dataset = load_from_disk(str(dataset_dir(recipe.grpo_data(), "grpo")))
    if settings.cues == "tagger":
        from stealthflow.anonymize.cues import load_cue_tagger

        dataset = tagger_prompts(dataset, load_cue_tagger(settings.cue_tagger))
    dataset = short_prompts(dataset, tokenizer, settings.max_prompt_tokens).shuffle(seed=recipe.seed)
    args = GRPOConfig(
        max_steps=settings.max_steps,
        num_generations=settings.num_generations,
        max_completion_length=settings.max_completion_length,
        temperature=settings.temperature,
        beta=settings.beta,
        **trainer_args(recipe, "grpo"),
    )
    # After the config: with DeepSpeed ZeRO-3 in it, the weights load already sharded.
    model = PeftModel.from_pretrained(load_base_model(recipe), str(adapter), is_trainable=True)
    return GRPOTrainer(
        model=model,
        reward_funcs=[reward],
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
        callbacks=[_step_tracker(reward), *(callbacks or [])],
    )


def run_grpo(recipe: Recipe, callbacks: list | None = None, on_skip: Callable[[str], None] | None = None) -> Path:
    """Train (or resume) and return the GRPO adapter directory."""
    out = recipe.output / "grpo"
    adapter = out / "adapter"
    if already_finished(out, on_skip):
        return adapter
    out.mkdir(parents=True, exist_ok=True)
    closing = None
    if recipe.grpo.reward == "evidence":
        reward, curves, judge = evidence_reward(recipe, out), EVIDENCE_CURVES, {"reward": "evidence"}
    elif recipe.grpo.reward == "self-attack":
        (reward, described), curves = self_attack_reward(recipe, out), SELF_ATTACK_CURVES
        judge = {"reward": "self-attack", "attacker": described}
    else:
        closing = build_llm(attacker_config(recipe))
        reward = AnonymizationReward(
            LLMAttacker(closing),
            recipe.grpo.reward_lambda,
            log_path=out / "rewards.jsonl",
            min_utility=recipe.grpo.min_utility,
        )
        curves = REWARD_CURVES
        judge = {"reward": recipe.grpo.reward, "attacker": attacker_config(recipe).model_dump()}
    try:
        facts = train_and_save(build_grpo_trainer(recipe, reward, callbacks), out)
    finally:
        if closing is not None:
            closing.close()
    logged = read_jsonl(out / "rewards.jsonl")
    plot_curves(logged, "step", curves, out / "rewards.png", f"GRPO reward ({recipe.name})")
    save_run_info(out, recipe, stage="grpo", **judge, **facts, reward_trend=reward_trend(logged))
    return adapter


def reward_trend(logged: list[dict]) -> dict | None:
    """Mean reward of the first and the last quarter of the steps, and a bootstrap CI on their
    difference (steps resampled with their quarter): did GRPO raise the reward?"""
    import numpy as np

    from stealthflow.stats import percentile_bootstrap

    by_step = {row["step"]: row["reward_mean"] for row in logged}  # a resumed run logs a step once more
    rewards = [by_step[step] for step in sorted(by_step)]
    quarter = len(rewards) // 4
    if quarter < 2:
        return None
    first, last = rewards[:quarter], rewards[-quarter:]
    values = first + last
    late = [0.0] * quarter + [1.0] * quarter

    def difference(reward, is_late):
        return np.nanmean(np.where(is_late == 1, reward, np.nan), -1) - np.nanmean(
            np.where(is_late == 0, reward, np.nan), -1
        )

    estimate = percentile_bootstrap([values, late], difference)
    return {
        "steps": len(rewards),
        "first_quarter_mean": float(np.mean(first)),
        "last_quarter_mean": float(np.mean(last)),
        "difference": estimate[0] if estimate else None,
        "difference_ci": [estimate[1], estimate[2]] if estimate else None,
    }


def evidence_reward(recipe: Recipe, out: Path) -> EvidenceReward:
    """The per-post reward, with the shipped classifier attacker over the train profiles."""
    from stealthflow.attack.classifier import StylometricClassifier
    from stealthflow.attack.embeddings import SentenceEmbedder
    from stealthflow.data import load_profiles
    from stealthflow.resources import split_path

    settings = recipe.grpo
    drop = None
    if settings.classifier_weight > 0:
        profiles = {p.id: p for p in load_profiles(split_path("train"))}
        drop = ClassifierDrop(StylometricClassifier.load(), SentenceEmbedder(), profiles)
    return EvidenceReward(
        drop,
        settings.reward_lambda,
        settings.classifier_weight,
        settings.num_generations,
        out / "rewards.jsonl",
        settings.min_utility,
    )


def self_attack_reward(recipe: Recipe, out: Path) -> tuple[SelfAttackReward, dict]:
    """The dual model's per-post reward: its self-attacker (`self_attacker`) on the rewrite, the evidence term,
    fluency; and what attacked, for the run's record."""
    from stealthflow.utility.fluency import shared_scorer

    settings = recipe.grpo
    attacker, described = self_attacker(recipe)
    reward = SelfAttackReward(
        attacker,
        shared_scorer(),
        settings.reward_lambda,
        settings.attack_weight,
        settings.fluency_weight,
        settings.num_generations,
        out / "rewards.jsonl",
        settings.min_utility,
    )
    return reward, described


def self_attacker(recipe: Recipe) -> tuple[object, dict]:
    """The attacker inside the self-attack reward (anything with `choose_many`) and its description: the frozen
    SFT adapter answering by choice, or a probe on the hidden states of the model it was fitted on (the base model
    alone, or with the frozen SFT adapter)."""
    from stealthflow.training.models import load_choice_attacker

    settings, sft = recipe.grpo, str(recipe.sft_adapter())
    if settings.self_attacker == "choice":
        attacker = load_choice_attacker(recipe.base_model, sft, settings.choice_normalise, recipe.dtype)
        return attacker, {"choice": sft, "normalise": settings.choice_normalise}
    from stealthflow.attack.probe import (
        PROBE_ATTRIBUTES,
        SHIPPED_PROBE,
        HiddenStateProbe,
        ProbeError,
        load_probe_attacker,
    )

    probe = Path(settings.probe) if settings.probe else SHIPPED_PROBE
    fitted = HiddenStateProbe.load(probe)
    missing = sorted(set(PROBE_ATTRIBUTES) - set(fitted.attributes))
    if missing:
        raise ProbeError(f"{probe}: the reward asks every attribute with options; the probe has none for {missing}")
    adapter = sft if fitted.metadata.get("adapter_sha256") else None
    return load_probe_attacker(recipe.base_model, adapter, fitted, recipe.dtype), {
        "probe": str(probe),
        "adapter": adapter,
    }
