"""`stealthflow tagger reader`: train a reader (pii_tagger/reader.py) from a recipe (training/pii-health-reader.yaml,
training/pii-name-reader.yaml).

Its examples are spans of the recipe's `label` in their sentence, each labelled a private person's (1) or not (0):
- the spans of the label the detector's tagger keeps (its verifiers on, the gates off) in annotated files of
  `benchmarks/pii_registers.py`'s format ({"text", "lang", "pii": [{"value", "type"}]}; the rows of the recipe's
  `languages`), labelled as that benchmark scores them: 1 when the span overlaps an annotated value;
- written mentions ({"text", "lang", "mentions": [{"value", "personal"}]}; no "lang": English; the rows of the
  recipe's `languages`): every occurrence of each mention, labelled by its `personal`, and the tagger's spans of the
  label there, 1 when they overlap a personal mention;
- with the recipe's `matches`, in both, the matches of the pattern recognizers its reader reads at run time
  (`read_by_reader`: a name after "this is" or a sign-off, a titled name), labelled as the tagger's spans.
MiniLM's top layers and a two-way token head are fine-tuned on the word pieces of each span (the others are not
scored), on a random `validation_share` of the texts held out, whose ROC AUC (the reader's against the shipped context
model's of the label, if one is shipped) the card reports.
"""

from __future__ import annotations

import json
import random
import time
import zlib
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from stealthflow.data import DataError
from stealthflow.pii_tagger.reader import CARD, MATCHED, MAX_PIECES, WEIGHTS
from stealthflow.sentence_ends import span_in_piece


class ReaderRecipe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # the tagger's spans it reads (PHONE, EMAIL: the pattern recognizers' matches)
    label: Literal["HEALTH", "REAL_NAME", "FINANCE", "ADDRESS", "EMPLOYER", "PHONE", "EMAIL", "CREDENTIAL"] = "HEALTH"
    annotated: list[Path] = []  # pii_registers.py files: the tagger's spans of the label, labelled by the annotation
    mentions: list[Path] = []  # written mentions labelled personal or not (each row's "lang", default English)
    # the pattern recognizers' matches its reader reads at run time (`read_by_reader`) are examples too, not only the
    # tagger's spans (PHONE, EMAIL: the matches alone, always)
    matches: bool = False
    languages: list[str] = ["en"]  # the annotated rows read; the reader reads these languages' texts (reader.py)
    out: Path
    layers: int = Field(6, ge=1, le=6)  # MiniLM's bottom N layers are run: fewer is faster per span
    top_layers: int = Field(3, ge=1, le=6)  # of those, the top N are trained (and shipped) with the head
    epochs: float = Field(3.0, gt=0)
    learning_rate: float = 5e-5
    batch_size: int = 16
    window: int = Field(20, ge=1)  # words read on either side of a span, within its sentence (local_piece)
    threshold: float = Field(0.5, ge=0, le=1)  # the score a span keeps from (choose it on annotated real text)
    # the score a span no word list shows keeps from (filters/unlisted.py `GATES_DECIDE`); 0: `threshold`
    gates_decide_threshold: float = Field(0.0, ge=0, le=1)
    validation_share: float = Field(0.1, ge=0, lt=1)
    threads: int = 2
    seed: int = 0
    # a second reading by the multilingual sentence encoder, averaged with MiniLM's (pii_tagger/sentence_head.py)
    sentence_head: bool = False
    head_width: int = Field(256, ge=1)  # the head's hidden units


def load_reader_recipe(path: Path, overrides: dict[str, object] | None = None) -> ReaderRecipe:
    return ReaderRecipe.model_validate(recipe_fields(path) | (overrides or {}))


def recipe_fields(path: Path, seen: tuple[Path, ...] = ()) -> dict:
    """A recipe file's fields over those of the file its `base` names (a path from the repository's root, as the
    recipes' other paths), so readers of the same sets and schedule name them once
    (training/pii-reader-multilingual-base.yaml)."""
    if path in seen:
        raise DataError(f"{path}: its `base` leads back to itself")
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise DataError(f"{seen[-1] if seen else path}: {exc}") from exc
    base = raw.pop("base", None)
    return raw if base is None else recipe_fields(Path(base), (*seen, path)) | raw


def read_lines(path: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: {exc}") from exc


def occurrences(text: str, value: str) -> list[tuple[int, int]]:
    found, start = [], 0
    while value and (at := text.find(value, start)) >= 0:
        found.append((at, at + len(value)))
        start = at + 1
    return found


def _marks(row: dict) -> list[tuple[int, int, int]]:
    """(start, end, personal) of every occurrence of a written row's mentions; an occurrence inside a longer mention's
    is that one's ("Max" within "Max Verstappen", a private child's name within a public figure's)."""
    marks: list[tuple[int, int, int]] = []
    for mention in sorted(row["mentions"], key=lambda m: -len(m["value"])):
        for start, end in occurrences(row["text"], mention["value"]):
            if not any(a < end and start < b for a, b, _ in marks):
                marks.append((start, end, int(mention["personal"])))
    return marks


def _tagger_spans(texts: list[str], label: str) -> list[list[tuple[int, int]]]:
    """The spans of `label` the routed tagger keeps in each text with its verifiers and no gate; for a label the tagger
    does not tag (PHONE, EMAIL), the matches of the pattern recognizers read by its reader (`_matches`)."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.pii_tagger.verifier import shipped_verifiers

    if label in MATCHED:
        return _matches(texts, label)
    recognizer = PiiTaggerRecognizer(verifiers=shipped_verifiers(), gates=())
    return [[(s.start, s.end) for s in found if s.type == label] for found in recognizer.find_many(texts)]


def _matches(texts: list[str], label: str) -> list[list[tuple[int, int]]]:
    """The matches in each text of the pattern recognizers read by the reader of `label` (`read_by_reader`)."""
    from stealthflow.placeholders.recognizers import build_recognizers

    found = [r.find_many(texts) for r in build_recognizers() if r.read_by_reader == label]
    return [[(s.start, s.end) for spans in matches for s in spans] for matches in zip(*found, strict=True)]


def _spans(texts: list[str], label: str, matches: bool) -> list[list[tuple[int, int]]]:
    """`_tagger_spans`, and with `matches` the pattern recognizers' matches its reader reads too (`_matches`)."""
    spans = _tagger_spans(texts, label)
    if not matches or label in MATCHED:
        return spans
    return [sorted(set(tagged) | set(matched)) for tagged, matched in zip(spans, _matches(texts, label), strict=True)]


def reader_examples(
    annotated: list[Path],
    mentions: list[Path],
    languages: list[str] | None = None,
    label: str = "HEALTH",
    matches: bool = False,
) -> list[dict]:
    """{"text", "start", "end", "personal", "group", "lang"} per example (`group`: its text, for splitting; an
    annotated text's also "clean": it holds no personal data); rows of `languages` only (default English); with
    `matches`, the pattern recognizers' matches the reader reads are examples too (`_spans`)."""
    examples = []
    languages = languages or ["en"]
    rows = [row for path in annotated for row in read_lines(path) if row.get("lang", "en") in languages]
    for n, (row, spans) in enumerate(zip(rows, _spans([r["text"] for r in rows], label, matches), strict=True)):
        values = [at for value in row.get("pii", []) for at in occurrences(row["text"], value["value"])]
        for start, end in spans:
            right = any(a < end and start < b for a, b in values)
            example = {"text": row["text"], "start": start, "end": end, "personal": int(right), "group": f"a{n}"}
            examples.append(example | {"clean": not row.get("pii"), "lang": row.get("lang", "en")})
    written = [row for path in mentions for row in read_lines(path) if row.get("lang", "en") in languages]
    for n, (row, spans) in enumerate(zip(written, _spans([r["text"] for r in written], label, matches), strict=True)):
        marks = _marks(row)
        unmarked = set(spans) - {(a, b) for a, b, _ in marks}
        labelled = marks + [(a, b, int(any(p and a < e and s < b for s, e, p in marks))) for a, b in unmarked]
        for start, end, personal in labelled:
            example = {"text": row["text"], "start": start, "end": end, "personal": personal, "group": f"m{n}"}
            examples.append(example | {"lang": row.get("lang", "en")})
    return examples


def encode(tokenizer, example: dict, window: int) -> tuple[list[int], list[int]] | None:
    """(word-piece ids, labels: the example's on its span's pieces, -100 elsewhere) of its sentence, or None when its
    span falls outside the pieces read."""
    piece, start, end = span_in_piece(example["text"], example["start"], example["end"], window)
    encoded = tokenizer(piece, return_offsets_mapping=True, truncation=True, max_length=MAX_PIECES + 2)
    labels = [example["personal"] if b > a and a < end and start < b else -100 for a, b in encoded["offset_mapping"]]
    return (encoded["input_ids"], labels) if any(label != -100 for label in labels) else None


def _split(recipe: ReaderRecipe, examples: list[dict]) -> tuple[list[dict], list[dict]]:
    """(training, validation) examples: a random `validation_share` of the texts (their `group`) held out."""
    held = {g for g in {e["group"] for e in examples} if zlib.crc32(g.encode()) % 1000 < recipe.validation_share * 1000}
    return [e for e in examples if e["group"] not in held], [e for e in examples if e["group"] in held]


def _examples(recipe: ReaderRecipe) -> list[dict]:
    examples = reader_examples(recipe.annotated, recipe.mentions, recipe.languages, recipe.label, recipe.matches)
    if not examples:
        raise DataError(f"no {recipe.label} example in the recipe's files")
    return examples


def train_sentence_head(recipe: ReaderRecipe, train: list[dict]):
    """The perceptron of a sentence head (pii_tagger/sentence_head.py) fit on the training examples' sentence
    features (scikit-learn's, early stopping on a tenth of them)."""
    from sklearn.neural_network import MLPClassifier

    from stealthflow.pii_tagger.sentence_head import SentenceHead, features

    model = MLPClassifier((recipe.head_width,), alpha=1e-3, max_iter=60, early_stopping=True, random_state=recipe.seed)
    pieces = [span_in_piece(e["text"], e["start"], e["end"], recipe.window) for e in train]
    model.fit(features(pieces), [e["personal"] for e in train])
    (hidden, out), (hidden_bias, out_bias) = model.coefs_, model.intercepts_
    return SentenceHead(hidden, hidden_bias, out[:, 0], float(out_bias[0]))


def add_sentence_head(recipe: ReaderRecipe, log=print, recipe_path: str = "") -> dict:
    """Train the sentence head alone into the reader the recipe wrote (`out`, its MiniLM layers kept), score the
    held-out texts again, rewrite the card; return it."""
    card_path = recipe.out / CARD
    if not card_path.exists():
        raise DataError(f"{recipe.out}: no reader there to add a sentence head to (train it first)")
    started = time.time()
    card = json.loads(card_path.read_text(encoding="utf-8"))
    recipe = recipe.model_copy(update={"sentence_head": True})
    train, validation = _split(recipe, _examples(recipe))
    card |= _with_head(recipe, train, validation, log)
    card["head_seconds"] = round(time.time() - started)
    card_path.write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    return card | {"seconds": card["head_seconds"]}


def _with_head(recipe: ReaderRecipe, train: list[dict], validation: list[dict], log) -> dict:
    """Train and write the sentence head; the card's fields for it (the held-out AUC with MiniLM alone and with both)."""
    from safetensors.numpy import save_file

    from stealthflow.pii_tagger.sentence_head import HEAD

    log(f"sentence head: {len(train)} examples")
    head = train_sentence_head(recipe, train)
    save_file(head.tensors(), str(recipe.out / HEAD))
    fields = {"sentence_head": HEAD, "recipe": recipe.model_dump(mode="json")}
    if validation and len({e["personal"] for e in validation}) == 2:
        from dataclasses import replace

        from stealthflow.pii_tagger.reader import read_reader

        reader = replace(read_reader(recipe.out), head=None)
        fields["validation_auc_minilm"] = _auc(reader.read, validation)
        fields["validation_auc"] = _auc(replace(reader, head=head).read, validation)
    return fields


def _auc(score, validation: list[dict]) -> float:
    """The held-out examples' ROC AUC under `score` (candidates -> their scores: a reader's `read`, a context model's
    `judge_many`)."""
    from sklearn.metrics import roc_auc_score

    from stealthflow.pii_tagger.candidate import Candidate

    candidates = [Candidate(e["text"], e["start"], e["end"], 0.0, frozenset({e["lang"]}), False) for e in validation]
    return round(float(roc_auc_score([e["personal"] for e in validation], score(candidates))), 3)


def train_reader(recipe: ReaderRecipe, log=print, recipe_path: str = "") -> dict:
    """Train, score the held-out texts, write reader.safetensors and reader.json (the card) and, with
    `sentence_head`, head.safetensors; return the card."""
    import numpy as np
    import torch
    from safetensors.torch import save_file

    from stealthflow.pii_tagger.context_model import shipped_context_model
    from stealthflow.pii_tagger.model import base_model

    train, validation = _split(recipe, _examples(recipe))
    if recipe.top_layers > recipe.layers:
        raise DataError(f"top_layers ({recipe.top_layers}) must not exceed layers ({recipe.layers})")
    torch.manual_seed(recipe.seed)
    torch.set_num_threads(recipe.threads)
    model, tokenizer = base_model(2, recipe.layers)
    encoded = [x for x in (encode(tokenizer, e, recipe.window) for e in train) if x]
    trained = tuple(f"encoder.layer.{n}." for n in range(recipe.layers - recipe.top_layers, recipe.layers))
    for name, parameter in model.named_parameters():
        parameter.requires_grad = name.startswith("classifier") or any(part in name for part in trained)
    started = time.time()
    fine_tune(model, encoded, recipe.epochs, recipe.learning_rate, recipe.batch_size, recipe.seed, log)
    state = {
        k: v.contiguous()
        for k, v in model.state_dict().items()
        if k.startswith("classifier") or any(p in k for p in trained)
    }
    recipe.out.mkdir(parents=True, exist_ok=True)
    save_file({k: v.half() for k, v in state.items()}, str(recipe.out / WEIGHTS))
    card = {
        "label": recipe.label,
        "layers": recipe.layers,
        "window": recipe.window,
        "languages": recipe.languages,
        "threshold": recipe.threshold,
        "gates_decide_threshold": recipe.gates_decide_threshold,
        "examples": len(train),
        "validation_examples": len(validation),
        "seconds": round(time.time() - started),
        "recipe": recipe.model_dump(mode="json"),
    }
    (recipe.out / CARD).write_text(json.dumps(card), encoding="utf-8")  # read back below (`read_reader`)
    if validation and len({e["personal"] for e in validation}) == 2:
        from stealthflow.pii_tagger.reader import read_reader

        card["validation_auc"] = _auc(read_reader(recipe.out).read, validation)
        if context := shipped_context_model(recipe.label):
            card["validation_auc_context_model"] = _auc(context.judge_many, validation)
        card["validation_personal_share"] = round(float(np.mean([e["personal"] for e in validation])), 3)
    if recipe.sentence_head:
        card |= _with_head(recipe, train, validation, log)
    (recipe.out / CARD).write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    return card


def fine_tune(
    model,
    encoded: list[tuple[list[int], list[int]]],
    epochs: float,
    learning_rate: float,
    batch_size: int,
    seed: int,
    log,
) -> None:
    """Fine-tune the parameters of a token-classification `model` that require a gradient on (word-piece ids, their
    labels: -100 where not scored) examples, `epochs` times over in shuffled batches padded to their longest (AdamW, a
    linear warm-up over the first twentieth of the steps, then a linear decay); leave it in eval mode. `log` hears the
    loss every 50 steps."""
    import torch

    shuffle = random.Random(seed)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=learning_rate)
    steps = max(1, int(len(encoded) / batch_size * epochs))
    warmup = max(1, steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1, (s + 1) / warmup) * max(0, 1 - s / steps))
    started, step = time.time(), 0
    model.train()
    while step < steps:
        shuffle.shuffle(encoded)
        for first in range(0, len(encoded), batch_size):
            batch = encoded[first : first + batch_size]
            width = max(len(ids) for ids, _ in batch)
            ids = torch.tensor([i + [0] * (width - len(i)) for i, _ in batch])
            attention = torch.tensor([[1] * len(i) + [0] * (width - len(i)) for i, _ in batch])
            labels = torch.tensor([lab + [-100] * (width - len(lab)) for _, lab in batch])
            loss = model(input_ids=ids, attention_mask=attention, labels=labels).loss
            loss.backward()
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            step += 1
            if step % 50 == 0 or step == steps:
                log(f"step {step}/{steps}: loss {loss.item():.3f}, {time.time() - started:.0f} s")
            if step >= steps:
                break
    model.eval()
