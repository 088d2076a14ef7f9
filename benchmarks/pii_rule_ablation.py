"""What each family of the PII tagger's rules is worth: the whole detector (patterns + the shipped
tagger) with every rule on, then with one family off at a time, on text the rules were not written from.

    python benchmarks/pii_rule_ablation.py [--comments 600]

- data/pii_test.jsonl: the independent test set (400 messages, 80 without PII; benchmarks/pii_testset.py,
  never used to choose a rule): precision / recall of the tagger's types (MemPrivacy matching, as
  benchmarks/pii_detection.py scores them), messages without PII flagged;
- the first `--comments` comments of data/test.jsonl (natural comments without explicit PII): how many
  the tagger flags.

A family off keeps every span its check would have dropped (the label's whole `in_context`, the shape
checks, or one shared check). The model runs once per text; only the rules change between runs.
Writes benchmarks/results/pii_rule_ablation.json.
"""

from __future__ import annotations

import argparse
import itertools
import json
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

from pii_detection import TYPE_LEVELS, score, test_messages
from rich.console import Console
from rich.table import Table

from stealthflow.pii_tagger import filters
from stealthflow.pii_tagger.filters import address, employer, finance, health, real_name
from stealthflow.pii_tagger.model import load_pii_tagger
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

RESULTS = Path(__file__).resolve().parent / "results"
COMMENTS = Path(__file__).resolve().parent.parent / "data" / "test.jsonl"
TAGGER_TYPES = ("REAL_NAME", "ADDRESS", "EMPLOYER", "HEALTH", "FINANCE", "CREDENTIAL")
console = Console(width=160)


def _keep(*_args) -> str:
    return "(family off)"


def _never(*_args) -> bool:
    return False


# family -> the (module, attribute, replacement) patches that turn it off
FAMILIES: dict[str, list[tuple[object, str, object]]] = {
    "shape checks (plausible), every label": [(module, "plausible", _keep) for module in filters.FILTERS.values()],
    **{
        f"{label.lower()} filter (in_context)": [(module, "in_context", _keep)]
        for label, module in filters.FILTERS.items()
    },
    "another's life (health, finance, employer)": [(m, "anothers_life", _never) for m in (health, finance, employer)],
    "public life talked about (name, address)": [(m, "public_talk", _never) for m in (real_name, address)],
}


class _Memo:
    """The shipped tagger, its forward passes remembered per text (the rules change between runs, not the model)."""

    def __init__(self, tagger):
        self.tagger, self.labels, self.span_thresholds, self.seen = tagger, tagger.labels, tagger.span_thresholds, {}

    def tag_many(self, texts, batch_size=16, settled=None):
        settled = settled or [[] for _ in texts]
        keys = [(text, tuple(ranges)) for text, ranges in zip(texts, settled, strict=True)]
        new = [key for key in dict.fromkeys(keys) if key not in self.seen]
        if new:
            found = self.tagger.tag_many([t for t, _ in new], batch_size, [list(r) for _, r in new])
            self.seen.update(zip(new, found, strict=True))
        return [self.seen[key] for key in keys]


def _comments(count: int) -> list[str]:
    def texts(node):
        if isinstance(node, dict):
            if isinstance(node.get("text"), str):
                yield node["text"]
            for value in node.values():
                yield from texts(value)
        elif isinstance(node, list):
            for value in node:
                yield from texts(value)

    lines = COMMENTS.read_text(encoding="utf-8").splitlines()
    return list(itertools.islice((t for line in lines if line.strip() for t in texts(json.loads(line))), count))


def measure(tagger: _Memo, messages, comments: list[str]) -> dict:
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer(tagger=tagger)])
    scored = score(messages, detector.detect_many([m.text for m in messages]))
    rows = [scored["by_key"][t] for t in TAGGER_TYPES if t in scored["by_key"]]
    gold, predicted = sum(row["gold"] for row in rows), sum(row["predicted"] for row in rows)
    found = sum(row["recall"] * row["gold"] for row in rows if row["gold"])
    right = sum(row["precision"] * row["predicted"] for row in rows if row["predicted"])
    flagged = sum(
        any(s.source == "pii_tagger" for s in spans) for spans in detector.detect_many(comments)
    )  # patterns are the same in every run
    return {
        "precision": right / predicted if predicted else float("nan"),
        "recall": found / gold if gold else float("nan"),
        "test_without_pii_flagged": scored["distractors_flagged"],
        "test_without_pii": scored["distractors"],
        "comments_flagged_by_tagger": flagged,
        "comments": len(comments),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--comments", type=int, default=600)
    args = parser.parse_args()
    import torch

    torch.set_num_threads(1)
    assert set(TAGGER_TYPES) <= set(TYPE_LEVELS)
    tagger, messages, comments = _Memo(load_pii_tagger(None)), test_messages(), _comments(args.comments)
    results = {"all rules on": measure(tagger, messages, comments)}
    for family, patches in FAMILIES.items():
        with ExitStack() as stack:
            for module, attribute, replacement in patches:
                stack.enter_context(mock.patch.object(module, attribute, replacement))
            results[f"without {family}"] = measure(tagger, messages, comments)
    table = Table("run", "precision", "recall", "test texts w/o PII flagged", "comments flagged")
    for name, row in results.items():
        table.add_row(
            name,
            f"{row['precision']:.3f}",
            f"{row['recall']:.3f}",
            f"{row['test_without_pii_flagged']} of {row['test_without_pii']}",
            f"{row['comments_flagged_by_tagger']} of {row['comments']}",
        )
    console.print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "pii_rule_ablation.json").write_text(json.dumps(results, indent=2))
    console.print(f"wrote {RESULTS / 'pii_rule_ablation.json'}")


if __name__ == "__main__":
    main()
