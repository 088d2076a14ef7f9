"""Span thresholds for a PII tagger, chosen on its template-held-out validation split and natural
validation messages (never on a test set).

Per type: for each label, the confidence the recognizer's spans (shaped and filtered, as detection keeps
them) must reach for the best F1 on that label. A threshold above 0.5 (the token threshold, which every
span's mean probability already reaches: no span dropped) is chosen only where it gains at least MIN_GAIN
of F1 over 0.5, so noise on the validation set does not move it.

Per language (`choose_by_language`), the rule: for each language the guesser gives a validation message
and each label with at least MIN_VALUES marked values of that language, the threshold from the type's own
up to 0.95 with the best F0.5 (precision weighs more: a false alarm mangles a text nobody asked to
change) among those losing at most `max_recall_loss` of that language's recall at the type's threshold,
kept only where it is higher than the type's and gains at least MIN_GAIN of F0.5. A secret's label (PL4,
always masked) is not raised.

With a clean-text budget (`max_clean_flagged`), that constraint comes first: a language's label whose threshold
flags more than that share of the language's validation messages without PII is raised to the lowest candidate
within it (the recall budget does not hold it back), or, where none is, to the one flagging fewest.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from stealthflow.pii_tagger.model import CARD_DATA, SpanTagger, TaggedSpan
from stealthflow.pii_tagger.training.data import TAGGER_LABELS, Example, read_marked, validation_split
from stealthflow.pii_tagger.training.metrics import f_beta, span_metrics
from stealthflow.placeholders.types import TYPE_LEVELS, Level

CANDIDATES = tuple(round(0.5 + 0.05 * step, 2) for step in range(10))  # 0.50 .. 0.95
MIN_GAIN = 0.005
MIN_VALUES = 5  # a language's marked values of a label below which its type's threshold holds
BY_LANGUAGE_BETA = 0.5


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


def detected(tagger: SpanTagger, texts: list[str]) -> list[list[TaggedSpan]]:
    """The recognizer's spans (`tagger`'s, shaped and filtered, no threshold applied: every span competes)
    per text."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer

    tagger = copy.copy(tagger)
    tagger.span_thresholds, tagger.language_thresholds = {}, {}
    recognizer = PiiTaggerRecognizer(tagger=tagger)
    found = []
    for start in range(0, len(texts), 256):
        found += recognizer.find_many(texts[start : start + 256])
    return [[TaggedSpan(s.start, s.end, s.type, s.score) for s in spans] for spans in found]


def guessed_languages(texts: list[str]) -> list[str | None]:
    """Each text's likeliest language, as detection guesses it (`placeholders.language`)."""
    from stealthflow.placeholders.language import shared_guesser

    return [shared_guesser().guess(text).language for text in texts]


def choose(
    examples: list[Example],
    predictions: list[list[TaggedSpan]],
    labels: list[str],
    candidates=CANDIDATES,
    max_recall_loss: float | None = None,
    beta: float = 1.0,
) -> dict[str, dict[str, float]]:
    """Per label: the chosen threshold and its validation precision, recall and F-beta (`f`, F1 by default),
    with the F-beta at the lowest candidate (`f_lowest`): the best, unless it gains less than MIN_GAIN over
    the lowest. `max_recall_loss`: only thresholds whose recall is at most this much below the lowest's compete."""
    gold = [(example.text, example.spans) for example in examples]
    chosen = {}
    for label in labels:
        rows = [_row(gold, predictions, label, threshold, beta) for threshold in candidates]
        lowest = rows[0]
        allowed = [
            row for row in rows if max_recall_loss is None or row["recall"] >= lowest["recall"] - max_recall_loss - 1e-9
        ] or [lowest]  # a label without gold values (recall undefined) keeps the lowest
        best = max(allowed, key=lambda row: row["f"] - 1e-9 * row["threshold"])  # a tie keeps the lower threshold
        chosen[label] = {**(best if best["f"] >= lowest["f"] + MIN_GAIN else lowest), "f_lowest": lowest["f"]}
    return chosen


def choose_by_language(
    examples: list[Example],
    predictions: list[list[TaggedSpan]],
    languages: list[str | None],
    type_thresholds: dict[str, float],
    labels: list[str],
    max_recall_loss: float,
    max_clean_flagged: float | None = None,
) -> dict[str, dict[str, dict[str, float]]]:
    """language -> label -> the chosen row (`choose`'s, with `clean_flagged`), where the rule of this module's
    docstring raises the type's threshold (`type_thresholds`, 0.5 where it has none) for that language."""
    chosen: dict[str, dict[str, dict[str, float]]] = {}
    for language in sorted({language for language in languages if language}):
        indices = [i for i, guessed in enumerate(languages) if guessed == language]
        subset, found = [examples[i] for i in indices], [predictions[i] for i in indices]
        for label in labels:
            values = sum(span[2] == label for example in subset for span in example.spans)
            if values < MIN_VALUES or TYPE_LEVELS[label] == Level.PL4:
                continue
            floor = type_thresholds.get(label, CANDIDATES[0])
            candidates = [floor] + [
                threshold for threshold in CANDIDATES if threshold > floor + 1e-9
            ]  # the type's own first
            row = choose(subset, found, [label], candidates, max_recall_loss, BY_LANGUAGE_BETA)[label]
            if max_clean_flagged is not None:
                row = within_clean_budget(subset, found, label, row, candidates, max_clean_flagged)
            if row["threshold"] > floor + 1e-9:
                chosen.setdefault(language, {})[label] = {**row, "values": values}
    return chosen


def clean_flagged(examples: list[Example], predictions: list[list[TaggedSpan]], label: str, threshold: float) -> float:
    """The share of `examples` without PII on which `label` has a span at `threshold` or above (0 without any)."""
    clean = [found for example, found in zip(examples, predictions) if not example.spans]
    flagged = sum(any(p.label == label and p.score >= threshold for p in found) for found in clean)
    return flagged / len(clean) if clean else 0.0


def within_clean_budget(
    examples: list[Example],
    predictions: list[list[TaggedSpan]],
    label: str,
    row: dict[str, float],
    candidates: list[float],
    budget: float,
) -> dict[str, float]:
    """`row` (a chosen threshold's), or the row of the lowest higher candidate that flags at most `budget` of the
    messages without PII (the one flagging fewest where none does); each with its `clean_flagged` share."""
    higher = [threshold for threshold in candidates if threshold >= row["threshold"] - 1e-9]
    rates = {threshold: clean_flagged(examples, predictions, label, threshold) for threshold in higher}
    within = [threshold for threshold in higher if rates[threshold] <= budget + 1e-9]
    threshold = within[0] if within else min(higher, key=lambda t: (rates[t], t))
    if threshold == higher[0]:
        return {**row, "clean_flagged": rates[threshold]}
    gold = [(example.text, example.spans) for example in examples]
    raised = _row(gold, predictions, label, threshold, BY_LANGUAGE_BETA)
    return {**raised, "f_lowest": row["f_lowest"], "clean_flagged": rates[threshold]}


def _row(
    gold, predictions: list[list[TaggedSpan]], label: str, threshold: float, beta: float = 1.0
) -> dict[str, float]:
    kept = [[p for p in spans if p.label == label and p.score >= threshold] for spans in predictions]
    row = span_metrics(gold, kept, [label], same_label=True)[label]
    precision, recall = row["precision"], row["recall"]
    return {"threshold": threshold, "precision": precision, "recall": recall, "f": f_beta(precision, recall, beta)}


def write_thresholds(tagger_dir: Path, chosen: dict[str, dict[str, float]]) -> None:
    """Record the thresholds in the tagger's card (`span_thresholds`, read by SpanTagger.load)."""
    path = tagger_dir / CARD_DATA
    card = json.loads(path.read_text(encoding="utf-8"))
    card["span_thresholds"] = {label: row["threshold"] for label, row in chosen.items()}
    path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")


def write_language_thresholds(tagger_dir: Path, chosen: dict[str, dict[str, dict[str, float]]]) -> None:
    """Record the thresholds by language in the tagger's card (`span_thresholds_by_language`)."""
    path = tagger_dir / CARD_DATA
    card = json.loads(path.read_text(encoding="utf-8"))
    card["span_thresholds_by_language"] = {
        language: {label: row["threshold"] for label, row in rows.items()} for language, rows in chosen.items()
    }
    path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
