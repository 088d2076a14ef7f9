"""The base model, LoRA shape and trainer arguments for training (checkpoints load through `llm.checkpoints`)."""

from __future__ import annotations

import re

from stealthflow.llm.checkpoints import base_model_path, load_causal_lm
from stealthflow.training.recipes import LoRASettings, Recipe


def configure_torch(recipe: Recipe) -> None:
    import torch
    from transformers import set_seed

    if recipe.threads:
        torch.set_num_threads(recipe.threads)
    set_seed(recipe.seed)


def load_base_model(recipe: Recipe):
    import torch
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(base_model_path(recipe.base_model), dtype=getattr(torch, recipe.dtype))


def lora_config(settings: LoRASettings, model):
    from peft import LoraConfig

    targets = settings.target_modules
    if settings.top_layers is not None:
        targets = top_layer_linears(model, settings.top_layers, targets)
    return LoraConfig(
        r=settings.r,
        lora_alpha=settings.alpha,
        lora_dropout=settings.dropout,
        target_modules=targets,
        task_type="CAUSAL_LM",
    )


def top_layer_linears(model, top_layers: int, targets: str | list[str]) -> list[str]:
    """Full names of the linear layers (of `targets`, or all) in the model's last `top_layers` blocks.

    Below the lowest adapted block nothing needs a gradient, so backward stops there.
    """
    import torch

    first = model.config.num_hidden_layers - top_layers
    names = []
    for name, module in model.named_modules():
        block = re.search(r"\.layers\.(\d+)\.", name)
        if not isinstance(module, torch.nn.Linear) or block is None or int(block.group(1)) < first:
            continue
        if targets == "all-linear" or name.rsplit(".", 1)[-1] in targets:
            names.append(name)
    if not names:
        raise ValueError(f"lora.top_layers={top_layers}: no linear layer matched target_modules={targets!r}")
    return names


def trainer_args(recipe: Recipe, stage: str) -> dict:
    """The trl config arguments a stage (`sft`, `grpo`) takes from its section of the recipe: checkpoints under
    OUTPUT/STAGE/checkpoints, learning rate, batch size, logging and saving steps; those of the device and dtype (trl
    defaults to bf16, which fails on CPU); the section's `trainer:` extras last, over the device's (a modelled field
    given there too is an error)."""
    settings = getattr(recipe, stage)
    device = {
        "use_cpu": recipe.device == "cpu",
        "bf16": recipe.dtype == "bfloat16",
        "seed": recipe.seed,
        "data_seed": recipe.seed,
        "report_to": [],
        "disable_tqdm": True,
        "save_total_limit": 2,
        "activation_checkpointing": False,  # +35 % time on CPU; the GPU recipe turns it on
    }
    return dict(
        output_dir=str(recipe.output / stage / "checkpoints"),
        learning_rate=settings.learning_rate,
        per_device_train_batch_size=settings.batch_size,
        logging_steps=settings.logging_steps,
        save_steps=settings.save_steps,
        **(device | settings.trainer),
    )


def load_choice_attacker(
    base: str,
    adapter: str | None = None,
    normalise: bool = False,
    dtype: str = "float32",
    calibration: float = 0.0,
    cue_first: int | None = None,
):
    """The base checkpoint (`embedded`, `hf:DIR` or DIR), with a LoRA adapter when given, as a frozen choice
    attacker; `calibration`: its alpha (attack/choice.py); `cue_first`: it reads that many words, the sentences
    the shipped cue tagger marks for the asked attribute first (`anonymize.cues.CueFirst`)."""
    from stealthflow.attack.choice import ChoiceAttacker

    model, tokenizer = load_causal_lm(base, adapter, dtype)
    read = None
    if cue_first is not None:
        from stealthflow.anonymize.cues import CueFirst, load_cue_tagger

        read = CueFirst(load_cue_tagger(), cue_first)
    return ChoiceAttacker(model, tokenizer, normalise, calibration, read)
