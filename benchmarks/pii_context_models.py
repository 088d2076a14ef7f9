"""Fit the context models of pii_tagger/context_model.py on the annotated development sets: the name gates of the six
other languages (`NAME_CONTEXT_FILE`) and of English (`NAME_CONTEXT_ENGLISH_FILE`), and the models of the EMPLOYER and
HEALTH spans a filter keeps outside English with nothing of its word lists around them (`UNLISTED_FILES`,
filters/unlisted.py).

    python benchmarks/pii_context_models.py table runs/context_spans.jsonl   # the labelled spans (~4 min)
    python benchmarks/pii_context_models.py fit runs/context_spans.jsonl --write

`table` runs the detector as `protect` builds it, one text at a time, with every gate but these models, over the
six-language and English files of every annotated set in benchmarks/data/pii-heldout*/ and pii-train-*/ but `HELD_BACK`
(sets kept for the figures), and writes each REAL_NAME, EMPLOYER and HEALTH span of the tagger: its label, its set,
whether its text is English, whether its filter kept it for its context model to decide (`unlisted`), whether it
overlaps an annotated value of its label, and its context terms' buckets (no text).

`fit`, per model, fits a logistic regression (sklearn, training only) on the spans it reads: every REAL_NAME span of
the six languages (`REAL_NAME`) or of English (`REAL_NAME_EN`); the unlisted EMPLOYER and HEALTH spans of the six
languages. Its L2 strength is chosen by the area under the ROC curve of
leave-one-set-out predictions, and its threshold on those out-of-fold predictions by a rule fixed before any held-back
set was scored:
- EMPLOYER, HEALTH (spans the filter dropped before): the lowest threshold whose kept spans are right at least as often
  as the spans the word lists keep (the listed ones' share in the same table): what it lets in is no less precise
  than what was kept;
- REAL_NAME (spans kept before): the highest threshold whose dropped spans are at least `NAME_DROPPED_WRONG` wrong:
  it drops at least nine false names for each true one.
`--write` stores each model refitted on all its spans, gating the texts of its languages only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from stealthflow.pii_tagger.context_model import (
    NAME_CONTEXT_ENGLISH_FILE,
    NAME_CONTEXT_FILE,
    UNLISTED_FILES,
    ContextModel,
    hashed_terms,
)
from stealthflow.pii_tagger.filters.unlisted import CONTEXT_DECIDES
from stealthflow.resources import resource_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_registers import gold_spans  # noqa: E402
from pii_verifiers import CONTEXT_BUCKETS as BUCKETS  # noqa: E402
from pii_verifiers import CONTEXT_WINDOW as WINDOW  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
HELD_BACK = (
    "pii-heldout-zo",
    "pii-heldout-zp",
    "pii-heldout-zq",
    "pii-heldout-zr",
    "pii-heldout-zs",
)  # never fitted on
STRENGTHS = (0.1, 0.3, 1.0, 3.0, 10.0)  # the inverse L2 strengths tried
NAME_DROPPED_WRONG = 0.9  # the share of wrong spans among those the name gate drops, out of fold, at least
FILES = {"REAL_NAME": NAME_CONTEXT_FILE, "REAL_NAME_EN": NAME_CONTEXT_ENGLISH_FILE, **UNLISTED_FILES}  # model -> file
ENGLISH_MODELS = ("REAL_NAME_EN",)


def development_files() -> list[Path]:
    """The six-language (pii_languages*) and English (pii_registers*) files of every annotated set but `HELD_BACK`."""
    files = [
        path
        for kind in ("languages", "registers")
        for folder in ("pii-heldout*", "pii-train-*")
        for path in sorted(DATA.glob(f"{folder}/pii_{kind}*.jsonl"))
    ]
    return [path for path in files if path.parent.name not in HELD_BACK]


def label_of(model: str) -> str:
    return model.removesuffix("_EN")


def detector_without_these_models():
    from stealthflow.pii_tagger.context_model import shipped_context_models
    from stealthflow.pii_tagger.reader import shipped_readers
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    others = [model for model in shipped_context_models() if model.reads is None and model.label != "REAL_NAME"]
    gates = (*others, *(reader for reader in shipped_readers() if reader.label != "REAL_NAME"))
    return Detector([*build_recognizers(), PiiTaggerRecognizer(gates=gates)])


def table(out: Path) -> None:
    detector = detector_without_these_models()
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = 0
    with out.open("w", encoding="utf-8") as sink:
        for path in development_files():
            for number, line in enumerate(path.open(encoding="utf-8")):
                record = json.loads(line)
                text, values = record["text"], gold_spans(record)
                for span in detector.deterministic(text):
                    if span.type not in FILES or span.source != "pii_tagger":
                        continue
                    row = {
                        "label": span.type,
                        "set": path.parent.name,
                        "english": path.name.startswith("pii_registers"),
                        "text": f"{path.parent.name}:{number}",
                        "unlisted": CONTEXT_DECIDES in span.reason,
                        "right": any(a < span.end and span.start < b and kind == span.type for a, b, kind in values),
                        "terms": hashed_terms(text, span.start, span.end, WINDOW, BUCKETS),
                    }
                    sink.write(json.dumps(row) + "\n")
                    rows += 1
    print(f"{rows} REAL_NAME, EMPLOYER and HEALTH spans of the tagger from {len(development_files())} files -> {out}")


def fit(path: Path, name: str, write: bool) -> None:
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score

    label, english = label_of(name), name in ENGLISH_MODELS
    table_rows = [
        row
        for line in path.open(encoding="utf-8")
        if (row := json.loads(line))["label"] == label and row.get("english", False) == english
    ]
    gates_kept = label == "REAL_NAME"  # else it judges the spans the filter dropped before (`unlisted`)
    rows = table_rows if gates_kept else [row for row in table_rows if row["unlisted"]]
    indices = [bucket for row in rows for bucket in row["terms"]]
    pointers = np.cumsum([0] + [len(row["terms"]) for row in rows])
    x = csr_matrix((np.ones(len(indices)), indices, pointers), shape=(len(rows), BUCKETS))
    y = np.array([row["right"] for row in rows])
    sets = sorted({row["set"] for row in rows})
    group = np.array([sets.index(row["set"]) for row in rows])
    print(f"{name}: {len(rows)} spans it reads ({y.sum()} right) in {len(sets)} sets")
    best = None
    for strength in STRENGTHS:
        out_of_fold = np.zeros(len(rows))
        for held in range(len(sets)):
            train = group != held
            model = LogisticRegression(C=strength, max_iter=3000).fit(x[train], y[train])
            out_of_fold[~train] = model.predict_proba(x[~train])[:, 1]
        auc = roc_auc_score(y, out_of_fold)
        print(f"  C {strength}: leave-one-set-out AUC {auc:.3f}")
        if best is None or auc > best[0]:
            best = (auc, strength, out_of_fold)
    auc, strength, out_of_fold = best
    grid = [float(t) for t in np.round(np.arange(0.05, 1.0, 0.05), 2)]
    for t in grid:
        kept = out_of_fold >= t
        print(
            f"  threshold {t:.2f}: keeps {(kept & y).sum()} of {y.sum()} right, {(kept & ~y).sum()} of {(~y).sum()} wrong"
        )
    if gates_kept:
        rule = f"the highest whose out-of-fold dropped spans are at least {NAME_DROPPED_WRONG:.0%} wrong"
        passing = [t for t in grid if (out_of_fold < t).any() and np.mean(~y[out_of_fold < t]) >= NAME_DROPPED_WRONG]
        threshold = max(passing, default=None)
    else:
        floor = float(np.mean([row["right"] for row in table_rows if not row["unlisted"]]))
        rule = f"the lowest whose out-of-fold kept spans are right at least as often as those the word lists keep ({floor:.3f})"
        threshold = min(
            (t for t in grid if (out_of_fold >= t).any() and np.mean(y[out_of_fold >= t]) >= floor), default=None
        )
    if threshold is None:
        raise SystemExit(f"{name}: no threshold meets the rule: {rule}")
    kept = out_of_fold >= threshold
    print(
        f"  chosen: C {strength}, threshold {threshold}, {rule} (keeps {(kept & y).sum()} right, {(kept & ~y).sum()} wrong)"
    )
    if write:
        full = LogisticRegression(C=strength, max_iter=3000).fit(x, y)
        weights = tuple(float(w) for w in full.coef_[0])
        reads = None if gates_kept else CONTEXT_DECIDES
        english_threshold, others_threshold = (threshold, 0.0) if english else (0.0, threshold)
        model = ContextModel(
            WINDOW, float(full.intercept_[0]), weights, english_threshold, others_threshold, label, reads
        )
        read = "every" if gates_kept else "the unlisted"
        files, ungated = (
            ("English", "texts not read as English") if english else ("six-language", "texts read as English")
        )
        chosen = (
            f"fitted by benchmarks/pii_context_models.py on {read} {label} span of the tagger ({len(rows)}) in the "
            f"{files} files of {', '.join(sets)}; C {strength} by leave-one-set-out AUC ({auc:.3f}); threshold "
            f"{threshold}: {rule}; {ungated} are not gated"
        )
        target = resource_dir("data") / FILES[name]
        target.write_text(json.dumps(model.to_json(chosen=chosen)) + "\n", encoding="utf-8")
        print(f"  wrote {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    table_command = commands.add_parser("table", help="the labelled spans of the development sets")
    table_command.add_argument("out", type=Path)
    fit_command = commands.add_parser("fit", help="fit each label's model and choose its threshold")
    fit_command.add_argument("table", type=Path)
    fit_command.add_argument("--labels", nargs="+", default=list(FILES), choices=list(FILES))
    fit_command.add_argument("--write", action="store_true", help="write the models' files under data/pii-tagger/")
    args = parser.parse_args()
    if args.command == "table":
        table(args.out)
    else:
        for label in args.labels:
            fit(args.table, label, args.write)


if __name__ == "__main__":
    main()
