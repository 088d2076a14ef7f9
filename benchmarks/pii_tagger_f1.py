"""PII taggers side by side on every development set, pooled into English and six-language F1: the detector as
`stealthflow protect` builds it (recognizers and each `--tagger`, default levels), scored as
benchmarks/pii_registers.py scores (a masked span is right when it overlaps an annotated value; a value is found when
a masked span overlaps it), the counts of all sets added before precision, recall and F1 are taken.

    python benchmarks/pii_tagger_f1.py --tagger models/pii-tagger-student --tagger runs/CANDIDATE --json OUT

Sets: benchmarks/data/pii-heldout-c..i (English registers, language files) and the hand-marked
data/tagger-natural/validation-{b,c,d,v}/ (one file a language). Held-back sets outside that list are not read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_marked import marked_rows  # noqa: E402
from pii_multilingual import overlaps, predict  # noqa: E402
from pii_registers import gold_spans  # noqa: E402

from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
HELDOUT = [REPO / f"benchmarks/data/pii-heldout-{name}" for name in "cdefghi"]
MARKED = [REPO / f"data/tagger-natural/validation-{name}" for name in "bcdv"]


def development_rows() -> list[dict]:
    """Every development text with its language ("lang") and annotated values ("pii")."""
    rows = [
        json.loads(line)
        for folder in HELDOUT
        for path in sorted(folder.glob("pii_*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    for folder in MARKED:
        for path in sorted(folder.glob("*.txt")):
            rows += [row | {"lang": path.stem} for row in marked_rows(path)]
    return rows


def counts(rows: list[dict], predictions: list[list]) -> Counter:
    tally = Counter()
    for row, spans in zip(rows, predictions, strict=True):
        gold = gold_spans(row)
        tally["texts"] += 1
        tally["values"] += len(gold)
        tally["found"] += sum(overlaps(span, spans) for span in gold)
        tally["masked"] += len(spans)
        tally["right"] += sum(overlaps(span, gold) for span in spans)
        tally["texts_without_pii"] += not gold
        tally["flagged"] += bool(spans) and not gold
    return tally


def figures(tally: Counter) -> dict:
    precision = tally["right"] / tally["masked"] if tally["masked"] else 0.0
    recall = tally["found"] / tally["values"] if tally["values"] else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "flagged_without_pii": f"{tally['flagged']}/{tally['texts_without_pii']}",
        **dict(tally),
    }


def score_tagger(tagger: str, rows: list[dict]) -> dict:
    predictions = predict(Detector(build_recognizers(models=True, model=tagger)), [row["text"] for row in rows])
    groups = {"English": [i for i, row in enumerate(rows) if row["lang"] == "en"]}
    groups["six languages"] = [i for i, row in enumerate(rows) if row["lang"] != "en"]
    groups |= {
        code: [i for i, row in enumerate(rows) if row["lang"] == code] for code in sorted({r["lang"] for r in rows})
    }
    return {
        group: figures(counts([rows[i] for i in chosen], [predictions[i] for i in chosen]))
        for group, chosen in groups.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tagger", action="append", required=True, help="a tagger's directory (repeatable)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    rows = development_rows()
    results = {tagger: score_tagger(tagger, rows) for tagger in args.tagger}
    print("| tagger | group | texts | values | precision | recall | F1 | texts without PII flagged |")
    print("|---|---|---|---|---|---|---|---|")
    for tagger, groups in results.items():
        for group, r in groups.items():
            print(
                f"| {tagger} | {group} | {r['texts']} | {r['values']} | {r['precision']:.3f} | {r['recall']:.3f} | "
                f"{r['f1']:.3f} | {r['flagged_without_pii']} |"
            )
    if args.json:
        sets = [str(path.relative_to(REPO)) for path in HELDOUT + MARKED]
        args.json.write_text(json.dumps({"sets": sets, **results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
