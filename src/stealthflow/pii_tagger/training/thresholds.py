"""Per-type span thresholds for a PII tagger, chosen on its template-held-out validation split (never
on a test set): for each label, the confidence the recognizer's spans (shaped and filtered, as
detection keeps them) must reach for the best F1 on that label. A threshold above 0.5 (the token
threshold, which every span's mean probability already reaches: no span dropped) is chosen only where
it gains at least MIN_GAIN of F1 over 0.5, so noise on the validation set does not move it.
"""

from __future__ import annotations

import json
from pathlib import Path

from stealthflow.pii_tagger.model import CARD_DATA, TaggedSpan
from stealthflow.pii_tagger.training.data import TAGGER_LABELS, Example, read_marked, validation_split
from stealthflow.pii_tagger.training.metrics import span_metrics

CANDIDATES = tuple(round(0.5 + 0.05 * step, 2) for step in range(10))  # 0.50 .. 0.95
MIN_GAIN = 0.005


def card_validation(tagger_dir: Path, limit: int | None = None) -> list[Example]:
    """The tagger's validation split, rebuilt from its card (`train_messages`, the recipe's seed)."""
    card = json.loads((tagger_dir / CARD_DATA).read_text(encoding="utf-8"))
    examples = validation_split(card["train_messages"], card["recipe"]["seed"])
    return examples[:limit] if limit else examples


def marked(paths: list[Path]) -> list[Example]:
    """Natural messages to choose on beside the generated split: their marked values of the tagger's types."""
    return [
        Example(text, [span for span in spans if span[2] in TAGGER_LABELS], path.name)
        for path in paths
        for text, spans in read_marked(path)
    ]


def detected(tagger_dir: Path, texts: list[str]) -> list[list[TaggedSpan]]:
    """The recognizer's spans (the tagger of `tagger_dir`, its spans shaped and filtered) per text."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer

    recognizer = PiiTaggerRecognizer(str(tagger_dir))
    found = []
    for start in range(0, len(texts), 256):
        found += recognizer.find_many(texts[start : start + 256])
    return [[TaggedSpan(s.start, s.end, s.type, s.score) for s in spans] for spans in found]


def choose(
    examples: list[Example],
    predictions: list[list[TaggedSpan]],
    labels: list[str],
    candidates=CANDIDATES,
    max_recall_loss: float | None = None,
) -> dict[str, dict[str, float]]:
    """Per label: the chosen threshold and its validation precision, recall and F1, with the F1 at the
    lowest candidate (`f1_lowest`): the best F1, unless it gains less than MIN_GAIN over the lowest.
    `max_recall_loss`: only thresholds whose recall is at most this much below the lowest's compete."""
    gold = [(example.text, example.spans) for example in examples]
    chosen = {}
    for label in labels:
        rows = [_row(gold, predictions, label, threshold) for threshold in candidates]
        lowest = rows[0]
        allowed = [
            row for row in rows if max_recall_loss is None or row["recall"] >= lowest["recall"] - max_recall_loss - 1e-9
        ] or [lowest]  # a label without gold values (recall undefined) keeps the lowest
        best = max(allowed, key=lambda row: row["f1"] - 1e-9 * row["threshold"])  # a tie keeps the lower threshold
        chosen[label] = {**(best if best["f1"] >= lowest["f1"] + MIN_GAIN else lowest), "f1_lowest": lowest["f1"]}
    return chosen


def _row(gold, predictions: list[list[TaggedSpan]], label: str, threshold: float) -> dict[str, float]:
    kept = [[p for p in spans if p.label == label and p.score >= threshold] for spans in predictions]
    row = span_metrics(gold, kept, [label], same_label=True)[label]
    precision, recall = row["precision"], row["recall"]
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return {"threshold": threshold, "precision": precision, "recall": recall, "f1": f1}


def write_thresholds(tagger_dir: Path, chosen: dict[str, dict[str, float]]) -> None:
    """Record the thresholds in the tagger's card (`span_thresholds`, read by SpanTagger.load)."""
    path = tagger_dir / CARD_DATA
    card = json.loads(path.read_text(encoding="utf-8"))
    card["span_thresholds"] = {label: row["threshold"] for label, row in chosen.items()}
    path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
