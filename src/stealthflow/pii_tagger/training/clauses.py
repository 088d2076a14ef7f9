"""`stealthflow tagger clauses`: train the clause tagger (pii_tagger/clauses.py) from a recipe
(training/pii-clause-tagger.yaml).

Its examples are sentences (`clauses.sentences`) of the annotated files the recipe's `recipes` (readers' recipes) name
that exist ({"text", "pii": [{"value", "type"}]}): every sentence holding a HEALTH or FINANCE value, each of its word
pieces labelled by the value it falls in (nothing, HEALTH, FINANCE), and `negatives` times as many sentences holding
none (a seeded sample; all there are at most). MiniLM's bottom `layers` (the embeddings frozen) and a three-way token
head are fine-tuned on them (`reader.fine_tune`) and written as the runtime reads them (fp16).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from stealthflow.pii_tagger.clauses import CARD, LABELS, WEIGHTS, sentences
from stealthflow.pii_tagger.reader import MAX_PIECES
from stealthflow.pii_tagger.training.reader import fine_tune, occurrences, read_lines, recipe_fields


class ClauseRecipe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    recipes: list[Path]  # readers' recipes: the annotated files they name are its data (those that exist)
    out: Path
    negatives: float = Field(4.0, gt=0)  # sentences without a value per one with
    layers: int = Field(3, ge=1, le=6)  # MiniLM's bottom N layers, all trained (the embeddings frozen)
    epochs: float = Field(2.0, gt=0)
    learning_rate: float = 5e-5
    batch_size: int = 16
    threshold: float = Field(0.9, ge=0, le=1)  # a word piece's probability a span is made of (chosen on development)
    floor: float = Field(0.3, ge=0, le=1)  # the student's probability a sentence must reach to be read
    threads: int = 2
    seed: int = 0


def load_clause_recipe(path: Path, overrides: dict[str, object] | None = None) -> ClauseRecipe:
    return ClauseRecipe.model_validate(recipe_fields(path) | (overrides or {}))


def annotated_files(recipe: ClauseRecipe) -> list[Path]:
    """The annotated files its `recipes` name that exist (real passages are kept outside the repository), sorted."""
    named = {Path(f) for path in recipe.recipes for f in recipe_fields(path).get("annotated", [])}
    return sorted(path for path in named if path.exists())


def labelled_sentences(files: list[Path], tokenizer) -> tuple[list, list]:
    """(sentences holding a HEALTH or FINANCE value, sentences without one), each (word-piece ids, labels)."""
    holding, without = [], []
    for path in files:
        for row in read_lines(path):
            text = row["text"]
            values = [
                (a, b, LABELS.index(item["type"]))
                for item in row.get("pii", [])
                if item["type"] in LABELS
                for a, b in occurrences(text, item["value"])
            ]
            for low, high in sentences(text):
                encoded = tokenizer(
                    text[low:high], return_offsets_mapping=True, truncation=True, max_length=MAX_PIECES + 2
                )
                labels = [
                    -100 if b <= a else max([k for x, y, k in values if x < low + b and low + a < y], default=0)
                    for a, b in encoded["offset_mapping"]
                ]
                (holding if any(label > 0 for label in labels) else without).append((encoded["input_ids"], labels))
    return holding, without


def train_clause_tagger(recipe: ClauseRecipe, log=print, recipe_path: str = "") -> dict:
    """Train, write clause_tagger.safetensors and clause_tagger.json (the card); return the card."""
    import torch
    from safetensors.torch import save_file

    from stealthflow.pii_tagger.model import base_model

    files = annotated_files(recipe)
    torch.manual_seed(recipe.seed)
    torch.set_num_threads(recipe.threads)
    model, tokenizer = base_model(len(LABELS), recipe.layers)
    holding, without = labelled_sentences(files, tokenizer)
    random.Random(recipe.seed).shuffle(without)
    data = holding + without[: int(recipe.negatives * len(holding))]
    log(f"{len(files)} files: {len(holding)} sentences with a value, {len(without)} without ({len(data)} in all)")
    for name, parameter in model.named_parameters():
        parameter.requires_grad = "embeddings" not in name
    started = time.time()
    fine_tune(model, data, recipe.epochs, recipe.learning_rate, recipe.batch_size, recipe.seed, log)
    recipe.out.mkdir(parents=True, exist_ok=True)
    kept = {k: v.contiguous().half() for k, v in model.state_dict().items() if "embeddings" not in k}
    save_file(kept, str(recipe.out / WEIGHTS))
    card = {
        "layers": recipe.layers,
        "threshold": recipe.threshold,
        "floor": recipe.floor,
        "files": [str(path) for path in files],
        "sentences_with_a_value": len(holding),
        "sentences_without": min(len(without), len(data) - len(holding)),
        "seconds": round(time.time() - started),
        "recipe": recipe.model_dump(mode="json") | {"path": recipe_path},
    }
    (recipe.out / CARD).write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    return card
