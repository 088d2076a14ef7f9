"""Loading the base model, tokenizer and LoRA shape for training."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from stealthflow.training.recipes import LoRASettings, Recipe

if TYPE_CHECKING:
    from stealthflow.attack.probe import HiddenStateProbe


def base_model_path(spec: str) -> Path:
    """`embedded` -> the converted SmolLM2 checkpoint; `hf:PATH` or `PATH` -> that directory."""
    if spec == "embedded":
        from stealthflow.llm.embedded import converted_model_path

        return converted_model_path()
    path = Path(spec.removeprefix("hf:"))
    if not (path / "config.json").exists():
        raise FileNotFoundError(f"{spec}: no checkpoint (config.json) there; models are never downloaded")
    return path


def configure_torch(recipe: Recipe) -> None:
    import torch
    from transformers import set_seed

    if recipe.threads:
        torch.set_num_threads(recipe.threads)
    set_seed(recipe.seed)


def load_tokenizer(path: Path):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


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


def load_causal_lm(base: str, adapter: str | None = None, dtype: str = "float32"):
    """The base checkpoint (`embedded`, `hf:DIR` or DIR), with a LoRA adapter when given, and its tokenizer."""
    import torch
    from transformers import AutoModelForCausalLM

    path = base_model_path(base)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype))
    if adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, adapter)
    return model, load_tokenizer(path)


def load_probe_attacker(base: str, adapter: str | None, fitted: HiddenStateProbe, dtype: str = "float32"):
    """The base checkpoint (+ adapter) attacking with a probe fitted on its own hidden states
    (`attack/probe.py`, `HiddenStateProbe.load`); ProbeError when the probe was fitted on another model or adapter."""
    from stealthflow.attack.probe import ProbeAttacker, adapter_sha256

    fitted.check_reads(base, adapter_sha256(adapter))
    model, tokenizer = load_causal_lm(base, adapter, dtype)
    fitted.check_width(model.config.hidden_size)
    return ProbeAttacker(model, tokenizer, fitted)
