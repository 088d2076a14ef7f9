"""`stealthflow tagger finance-reader`: train the finance reader (pii_tagger/finance_reader.py) from a recipe
(training/pii-finance-reader-multilingual.yaml).

Its examples are the sentences of marked message files (one message a line, each value marked in place as
[value](TYPE): the annotated and the negative training texts) of the recipe's languages that hold one of the cues: a
currency sign, or a word that is in at least `cue_min_values` sentences holding a FINANCE value and in no more than
1 / `cue_min_share` times as many sentences in all, counted in those files (the cues are learnt here, from the data,
and shipped in the card). Each word piece is labelled inside a FINANCE value (1) or not (0); MiniLM's bottom `layers`
run and its top `top_layers` with a two-way token head are fine-tuned on them. A random `validation_share` of the
messages is held out: the card reports how many of their FINANCE values the reader finds at the threshold, and how
many of its spans are on none.
"""

from __future__ import annotations

import json
import random
import time
import zlib
from collections import Counter
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from stealthflow.data import DataError
from stealthflow.pii_tagger.finance_reader import CARD, CURRENCY, MAX_PIECES, WEIGHTS, sentences, words_of
from stealthflow.pii_tagger.training.data import read_marked
from stealthflow.pii_tagger.training.minilm_tuning import freeze_all_but, shipped_state, trained_layers, tune


class FinanceReaderRecipe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    marked: dict[str, list[Path]]  # language -> marked message files ([value](TYPE)), globs allowed
    out: Path
    layers: int = Field(3, ge=1, le=6)  # MiniLM's bottom N layers are run: fewer is faster per sentence
    top_layers: int = Field(3, ge=1, le=6)  # of those, the top N are trained (and shipped) with the head
    cue_min_values: int = Field(3, ge=1)
    cue_min_share: float = Field(0.2, gt=0, le=1)
    epochs: float = Field(3.0, gt=0)
    learning_rate: float = 5e-5
    batch_size: int = 16
    threshold: float = Field(0.5, ge=0.5, le=1)  # the score a run of word pieces keeps from (choose it on dev sets)
    validation_share: float = Field(0.1, ge=0, lt=1)
    threads: int = 2
    seed: int = 0


def load_finance_reader_recipe(path: Path, overrides: dict[str, object] | None = None) -> FinanceReaderRecipe:
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return FinanceReaderRecipe.model_validate(raw | (overrides or {}))


def _files(patterns: list[Path]) -> list[Path]:
    found = []
    for pattern in patterns:
        matches = sorted(Path().glob(str(pattern))) if any(c in str(pattern) for c in "*?[") else [pattern]
        if not matches or not all(path.exists() for path in matches):
            raise DataError(f"{pattern}: no such file")
        found += matches
    return found


def sentence_examples(recipe: FinanceReaderRecipe) -> list[dict]:
    """{"text", "finance": [(start, end)], "lang", "group"} per sentence of the recipe's files (`group`: its message)."""
    examples = []
    for language, patterns in recipe.marked.items():
        for path in _files(patterns):
            for number, (text, spans) in enumerate(read_marked(path)):
                values = [(a, b) for a, b, kind in spans if kind == "FINANCE"]
                for start, end in sentences(text):
                    inside = [(max(a, start) - start, min(b, end) - start) for a, b in values if a < end and start < b]
                    group = f"{path.name}:{number}"
                    examples.append({"text": text[start:end], "finance": inside, "lang": language, "group": group})
    return examples


def learn_cues(examples: list[dict], min_values: int, min_share: float) -> dict[str, list[str]]:
    """Per language, the words (not numbers) of at least `min_values` sentences holding a FINANCE value that hold one
    in at least `min_share` of the sentences they are in."""
    cues = {}
    for language in sorted({e["lang"] for e in examples}):
        inside, every = Counter(), Counter()
        for example in (e for e in examples if e["lang"] == language):
            words = words_of(example["text"])
            every.update(words)
            if example["finance"]:
                inside.update(words)
        cues[language] = sorted(
            w for w, n in inside.items() if n >= min_values and n / every[w] >= min_share and not w.isdigit()
        )
    return cues


def cued(example: dict, cues: dict[str, set[str]]) -> bool:
    return bool(CURRENCY.search(example["text"])) or not words_of(example["text"]).isdisjoint(cues[example["lang"]])


def encode(tokenizer, example: dict) -> tuple[list[int], list[int]]:
    """(word-piece ids, labels: 1 inside a FINANCE value, 0 outside, -100 on [CLS] and [SEP]) of a sentence."""
    encoded = tokenizer(example["text"], return_offsets_mapping=True, truncation=True, max_length=MAX_PIECES + 2)
    labels = [
        -100 if a == b else int(any(a < end and start < b for start, end in example["finance"]))
        for a, b in encoded["offset_mapping"]
    ]
    return encoded["input_ids"], labels


def train_finance_reader(recipe: FinanceReaderRecipe, log=print, recipe_path: str = "") -> dict:
    """Learn the cues, train, score the held-out messages, write reader.safetensors and reader.json; return the card."""
    import torch
    from safetensors.torch import save_file

    from stealthflow.pii_tagger.model import base_model

    if recipe.top_layers > recipe.layers:
        raise DataError(f"top_layers ({recipe.top_layers}) must not exceed layers ({recipe.layers})")
    examples = sentence_examples(recipe)
    held = {g for g in {e["group"] for e in examples} if zlib.crc32(g.encode()) % 1000 < recipe.validation_share * 1000}
    train = [e for e in examples if e["group"] not in held]
    cues = learn_cues(train, recipe.cue_min_values, recipe.cue_min_share)
    chosen = [e for e in train if cued(e, {k: set(v) for k, v in cues.items()})]
    if not any(e["finance"] for e in chosen):
        raise DataError("no FINANCE value in the recipe's files")
    log(f"{len(chosen)} cued sentences of {len(train)} ({sum(bool(e['finance']) for e in chosen)} holding a value)")
    torch.manual_seed(recipe.seed)
    torch.set_num_threads(recipe.threads)
    model, tokenizer = base_model(2, recipe.layers)
    trained = trained_layers(recipe.layers, recipe.top_layers)
    freeze_all_but(model, trained)
    started = time.time()
    encoded = [encode(tokenizer, e) for e in chosen]
    tune(
        model,
        encoded,
        epochs=recipe.epochs,
        learning_rate=recipe.learning_rate,
        batch_size=recipe.batch_size,
        shuffle=random.Random(recipe.seed),
        log=log,
    )
    recipe.out.mkdir(parents=True, exist_ok=True)
    save_file(shipped_state(model, trained), str(recipe.out / WEIGHTS))
    card = {
        "layers": recipe.layers,
        "languages": sorted(recipe.marked),
        "cues": cues,
        "threshold": recipe.threshold,
        "examples": len(chosen),
        "seconds": round(time.time() - started),
        "recipe": recipe.model_dump(mode="json"),
    }
    (recipe.out / CARD).write_text(json.dumps(card, ensure_ascii=False), encoding="utf-8")
    card["validation"] = held_out_figures(recipe.out, [e for e in examples if e["group"] in held])
    (recipe.out / CARD).write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return card


def held_out_figures(directory: Path, examples: list[dict]) -> dict:
    """FINANCE values of the held-out sentences found by the reader in `directory`, and its spans on no value."""
    from stealthflow.pii_tagger.finance_reader import read_finance_reader

    reader = read_finance_reader(directory)
    found = reader.find_many([e["text"] for e in examples], [frozenset({e["lang"]}) for e in examples])
    values = sum(len(e["finance"]) for e in examples)
    hit = sum(any(a < y and x < b for x, y, _ in spans) for e, spans in zip(examples, found) for a, b in e["finance"])
    wrong = sum(
        not any(a < y and x < b for a, b in e["finance"]) for e, spans in zip(examples, found) for x, y, _ in spans
    )
    return {"sentences": len(examples), "values": values, "found": hit, "spans_on_no_value": wrong}
