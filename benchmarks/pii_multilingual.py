"""Explicit PII in six languages: the detector as `stealthflow protect` builds it (recognizers and
the tagger, default levels), scored per language on the held-out hand-written set
(data/pii_multilingual_test.jsonl), or with `--dev N` on N Faker-generated development messages
(benchmarks/pii_multilingual_dev.py), and the added cost of language detection on 1 KB of English.

    python benchmarks/pii_multilingual.py [--dev 600] [--no-tagger] [--json OUT]

A predicted span is right when it overlaps an annotated span of its type. Figures per language:
precision, recall per type, the share of texts without PII that get a span, and the share of the
texts' characters masked outside the annotated values.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.language import COVERED, OTHERS, LinguaGuesser
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.placeholders.recognizers import build_recognizers

TEST_SET = Path(__file__).resolve().parent.parent / "data" / "pii_multilingual_test.jsonl"
TYPES = ("REAL_NAME", "ADDRESS", "PHONE", "EMAIL", "IBAN", "NATIONAL_ID", "EMPLOYER", "HEALTH")


Span = tuple[int, int, str]  # (start, end, type)


def overlaps(span: Span, others: list[Span], typed: bool = False) -> bool:
    start, end, kind = span
    return any(s < end and start < e and (not typed or k == kind) for s, e, k in others)


class Unasked:
    """What a detector masks that no annotation asks for, over texts: texts without PII that get a span,
    and characters masked outside the annotated values (pii_registers.py counts them alike)."""

    def __init__(self) -> None:
        self.empty = self.flagged = self.outside = self.chars = 0

    def add(self, text: str, gold: list[Span], spans: list[Span]) -> None:
        if not gold:
            self.empty += 1
            self.flagged += bool(spans)
        inside = {i for start, end, _ in gold for i in range(start, end)}
        self.outside += len({i for s, e, _ in spans for i in range(s, e)} - inside)
        self.chars += len(text)

    def figures(self) -> dict:
        return {
            "flagged_without_pii": f"{self.flagged}/{self.empty}",
            "chars_masked_outside": round(self.outside / self.chars, 4) if self.chars else 0.0,
        }


def score(rows: list[dict], predictions: list[list[Span]]) -> dict:
    """Per-language figures over `rows` ({"text", "spans"}) and their predicted (start, end, type)."""
    found, gold_count, right, predicted, unasked = Counter(), Counter(), 0, 0, Unasked()
    for row, spans in zip(rows, predictions, strict=True):
        gold = [tuple(span) for span in row["spans"]]
        for span in gold:
            gold_count[span[2]] += 1
            found[span[2]] += overlaps(span, spans, typed=True)
        predicted += len(spans)
        right += sum(overlaps(span, gold, typed=True) for span in spans)
        unasked.add(row["text"], gold, spans)
    recall = {kind: round(found[kind] / gold_count[kind], 3) for kind in TYPES if gold_count[kind]}
    return {
        "texts": len(rows),
        "spans": sum(gold_count.values()),
        "precision": round(right / predicted, 3) if predicted else None,
        "recall": round(sum(found.values()) / sum(gold_count.values()), 3) if gold_count else None,
        "recall_by_type": recall,
        **unasked.figures(),
    }


def predict(detector: Detector, texts: list[str]) -> list[list[Span]]:
    config = ProtectConfig()
    return [
        [(s.start, s.end, s.type) for s in spans if config.masks(s.type, s.level)]
        for spans in detector.detect_many(texts)
    ]


def detection_cost(repeats: int = 200) -> dict:
    """ms that telling the language adds to 1 KB of English prose (median of `repeats`)."""
    sentence = "I moved to a new flat last month and the landlord still has not fixed the heating, so I wrote to the agency again. "
    text = (sentence * (1024 // len(sentence) + 1))[:1024]
    guesser = LinguaGuesser()
    started = time.perf_counter()
    guesser.guess(text)  # models load on first use
    first = time.perf_counter() - started
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        guesser.guess(text)
        times.append((time.perf_counter() - started) * 1000)
    return {"ms_per_kb": round(statistics.median(times), 3), "first_call_s": round(first, 2)}


def table(results: dict[str, dict]) -> str:
    lines = [
        "| language | texts | spans | precision | recall | "
        + " | ".join(TYPES)
        + " | texts without PII flagged | chars masked outside values |",
        "|" + "---|" * (len(TYPES) + 7),
    ]
    for code, r in results.items():
        by_type = " | ".join(f"{r['recall_by_type'][t]:.2f}" if t in r["recall_by_type"] else "–" for t in TYPES)
        precision, recall = (f"{r[key]:.3f}" if r[key] is not None else "–" for key in ("precision", "recall"))
        lines.append(
            f"| {code} | {r['texts']} | {r['spans']} | {precision} | {recall} | {by_type} | {r['flagged_without_pii']} | {100 * r['chars_masked_outside']:.2f} % |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dev", type=int, default=0, help="score N generated development messages instead of the held-out set"
    )
    parser.add_argument("--no-tagger", action="store_true", help="without the English PII tagger")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--errors", action="store_true", help="with --dev: print each message whose spans differ")
    args = parser.parse_args()
    if args.dev:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from pii_multilingual_dev import generate

        rows = generate(args.dev)
    else:
        rows = [json.loads(line) for line in TEST_SET.read_text(encoding="utf-8").splitlines()]
    cost = detection_cost()  # first: the models' load is part of it
    detector = Detector(build_recognizers(models=not args.no_tagger))
    predictions = predict(detector, [row["text"] for row in rows])
    languages = [
        reading.guess.language for _, reading in detector.detect_many_with_languages([row["text"] for row in rows])
    ]
    results = {}
    for code in OTHERS:
        chosen = [i for i, row in enumerate(rows) if row["lang"] == code]
        results[code] = score([rows[i] for i in chosen], [predictions[i] for i in chosen])
        results[code]["detected_as_own_language"] = f"{sum(languages[i] == code for i in chosen)}/{len(chosen)}"
    results["all"] = score(rows, predictions)
    if args.dev and args.errors:
        for row, spans, language in zip(rows, predictions, languages, strict=True):
            if sorted(map(tuple, row["spans"])) != sorted(spans):
                print(
                    language,
                    repr(row["text"]),
                    [row["text"][s:e] + "/" + k for s, e, k in row["spans"]],
                    "->",
                    [row["text"][s:e] + "/" + k for s, e, k in spans],
                )
    print(table(results))
    print(
        "\nlanguage detected as written: "
        + ", ".join(f"{code} {results[code]['detected_as_own_language']}" for code in OTHERS)
    )
    print(
        "detected languages:",
        dict(Counter(str(language) for language in languages)),
        f"(covered: {', '.join(COVERED)})",
    )
    print(
        f"language detection on 1 KB of English: {cost['ms_per_kb']} ms (first call, loading the models: {cost['first_call_s']} s)"
    )
    if args.json:
        args.json.write_text(json.dumps({"results": results, "language_detection": cost}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
