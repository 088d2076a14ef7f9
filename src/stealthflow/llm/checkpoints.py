"""Loading a local causal LM checkpoint for reading its scores or states (not for chat generation: that is
`llm.transformers_backend`): the base model (`embedded`, `hf:DIR` or DIR), an optional LoRA adapter, and its
tokenizer. Attackers that read the model (`attack/probe.py`) and training (`training/`) both load it here."""

from __future__ import annotations

from pathlib import Path


def base_model_path(spec: str) -> Path:
    """`embedded` -> the converted SmolLM2 checkpoint; `hf:PATH` or `PATH` -> that directory."""
    if spec == "embedded":
        from stealthflow.llm.embedded import converted_model_path

        return converted_model_path()
    path = Path(spec.removeprefix("hf:"))
    if not (path / "config.json").exists():
        raise FileNotFoundError(f"{spec}: no checkpoint (config.json) there; models are never downloaded")
    return path


def load_tokenizer(path: Path):
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def load_causal_lm(base: str, adapter: str | None = None, dtype: str = "float32"):
    """The base checkpoint (`embedded`, `hf:DIR` or DIR), with a LoRA adapter when given, and its tokenizer."""
    import torch
    import transformers
    from transformers import AutoModelForCausalLM

    transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar in a command's output
    path = base_model_path(base)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype))
    if adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, adapter)
    return model, load_tokenizer(path)
