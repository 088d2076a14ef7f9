"""Fold a LoRA adapter into its base model: a plain checkpoint usable as `--model hf:PATH`."""

from __future__ import annotations

from pathlib import Path

from stealthflow.llm.checkpoints import base_model_path, load_tokenizer


def merge_adapter(base_model: str, adapter: str | Path, out: str | Path, dtype: str = "float32") -> Path:
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    base = AutoModelForCausalLM.from_pretrained(base_model_path(base_model), dtype=getattr(torch, dtype))
    merged = PeftModel.from_pretrained(base, str(adapter)).merge_and_unload()
    out = Path(out)
    merged.save_pretrained(out)
    load_tokenizer(Path(adapter)).save_pretrained(out)  # the adapter's copy carries the chat template
    return out
