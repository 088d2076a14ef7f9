"""Span-level precision / recall of a tagger against gold character spans."""

from __future__ import annotations

from collections import Counter

from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.training.train import Example


def f_beta(precision: float, recall: float, beta: float = 1.0) -> float:
    """The F-beta of a precision and a recall (0 when both are 0): beta > 1 weighs recall more."""
    weighted = beta * beta * precision + recall
    return (1 + beta * beta) * precision * recall / weighted if weighted > 0 else 0.0


def covered(span: tuple[int, int], predicted: list[TaggedSpan]) -> float:
    """Share of the span's characters inside some predicted span."""
    start, end = span
    chars = set()
    for p in predicted:
        chars.update(range(max(start, p.start), min(end, p.end)))
    return len(chars) / max(end - start, 1)


def span_metrics(
    examples: list[Example], predictions: list[list[TaggedSpan]], labels: list[str], same_label: bool = False
) -> dict[str, dict[str, float]]:
    """Per label and "all": recall (a gold span is found when >= half its characters are tagged,
    with its own label when `same_label`) and precision (a tagged span is right when it overlaps
    a gold span, of its label when `same_label`)."""
    gold_found, gold_total, tagged_right, tagged_total = Counter(), Counter(), Counter(), Counter()
    for (_, gold), predicted in zip(examples, predictions, strict=True):
        for start, end, label in gold:
            gold_total[label] += 1
            gold_found[label] += (
                covered((start, end), [p for p in predicted if p.label == label or not same_label]) >= 0.5
            )
        for p in predicted:
            tagged_total[p.label] += 1
            tagged_right[p.label] += any(
                p.start < end and start < p.end and (label == p.label or not same_label) for start, end, label in gold
            )
    rows = {}
    for label in [*labels, "all"]:
        found, total, right, tagged = (
            sum(c.values()) if label == "all" else c[label]
            for c in (gold_found, gold_total, tagged_right, tagged_total)
        )
        rows[label] = {
            "spans": total,
            "recall": found / total if total else float("nan"),
            "tagged": tagged,
            "precision": right / tagged if tagged else float("nan"),
        }
    return rows
