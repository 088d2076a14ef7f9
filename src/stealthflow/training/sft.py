"""LoRA-SFT on harvested anonymization + attack examples (trl `SFTTrainer`).

Rows arrive as `messages`; the last (assistant) turn becomes the completion and everything
before it the prompt, so trl puts the loss on the assistant answer only. Interrupted runs
resume from the last checkpoint; a finished run is not trained again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from stealthflow.llm.checkpoints import base_model_path, load_tokenizer
from stealthflow.training.models import configure_torch, load_base_model, lora_config, trainer_args
from stealthflow.training.plots import plot_curves
from stealthflow.training.recipes import Recipe
from stealthflow.training.repro import save_run_info
from stealthflow.training.stage import already_finished, dataset_dir, train_and_save


def to_prompt_completion(row: dict) -> dict:
    messages = row["messages"]
    if not messages or messages[-1]["role"] != "assistant":
        raise ValueError(f"row of profile {row.get('profile_id')!r} does not end with an assistant turn")
    return {"prompt": messages[:-1], "completion": messages[-1:]}


def load_sft_dataset(recipe: Recipe):
    from datasets import load_from_disk

    dataset = load_from_disk(str(dataset_dir(recipe.sft.data, "sft"))).shuffle(seed=recipe.seed)
    dataset = dataset.select(subset(dataset["kind"], recipe.sft.max_examples))
    if recipe.sft.balance_options:
        keys = [option_key(row) for row in dataset]
        dataset = dataset.select(balanced(keys, recipe.sft.balance_options)).shuffle(seed=recipe.seed)
    return dataset.map(to_prompt_completion, remove_columns=dataset.column_names)


def option_key(row: dict) -> tuple[str, str] | None:
    """(attribute, option) of a choice attack row; None for any other row."""
    if row["kind"] != "attack" or len(row["attributes"]) != 1:
        return None
    return row["attributes"][0], row["messages"][-1]["content"]


def balanced(keys: list[tuple[str, str] | None], exponent: float) -> list[int]:
    """Row indices with each keyed row repeated round((its attribute's commonest option count / its option's
    count) ** exponent) times; rows without a key once."""
    counts = Counter(key for key in keys if key is not None)
    commonest = Counter()
    for (attribute, _), n in counts.items():
        commonest[attribute] = max(commonest[attribute], n)
    repeats = [1 if key is None else round((commonest[key[0]] / counts[key]) ** exponent) for key in keys]
    return [index for index, times in enumerate(repeats) for _ in range(times)]


def subset(kinds: list[str], limit: int | dict[str, int] | None) -> list[int]:
    """Indices of the first `limit` rows, or of the first `limit[kind]` rows of each named kind."""
    if limit is None:
        return list(range(len(kinds)))
    if isinstance(limit, int):
        return list(range(min(limit, len(kinds))))
    taken: Counter[str] = Counter()
    chosen = []
    for index, kind in enumerate(kinds):
        if kind not in limit or taken[kind] < limit[kind]:
            taken[kind] += 1
            chosen.append(index)
    return chosen


def build_sft_trainer(recipe: Recipe, callbacks: list | None = None):
    from trl import SFTConfig, SFTTrainer

    configure_torch(recipe)
    dataset = load_sft_dataset(recipe)
    tokenizer = load_tokenizer(base_model_path(recipe.base_model))
    settings = recipe.sft
    args = SFTConfig(
        num_train_epochs=settings.epochs,
        gradient_accumulation_steps=settings.gradient_accumulation_steps,
        max_length=settings.max_length,
        completion_only_loss=True,
        **trainer_args(recipe, "sft"),
    )
    model = load_base_model(recipe)  # after the config: with DeepSpeed ZeRO-3 in it, weights load sharded
    return SFTTrainer(
        model=model,
        args=args,
        train_dataset=dataset,
        processing_class=tokenizer,
        peft_config=lora_config(recipe.lora, model),
        callbacks=callbacks,
    )


def run_sft(recipe: Recipe, callbacks: list | None = None, on_skip: Callable[[str], None] | None = None) -> Path:
    """Train (or resume) and return the adapter directory (adapter + tokenizer + chat template)."""
    out = recipe.output / "sft"
    adapter = out / "adapter"
    if already_finished(out, on_skip):
        return adapter
    trainer = build_sft_trainer(recipe, callbacks)
    facts = train_and_save(trainer, out)
    history = trainer.state.log_history
    plot_curves(history, "step", ["loss"], out / "loss.png", f"SFT loss ({recipe.name})")
    final_loss = next((e["loss"] for e in reversed(history) if "loss" in e), None)
    # trl drops rows whose answer lies wholly beyond max_length: say how many were used.
    save_run_info(out, recipe, stage="sft", examples=len(trainer.train_dataset), final_loss=final_loss, **facts)
    return adapter
