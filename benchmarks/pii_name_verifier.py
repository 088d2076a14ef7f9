"""Fit the PII tagger's name verifier (pii_tagger/verifier.py) on the annotated development sets.

    python benchmarks/pii_name_verifier.py table runs/name_spans.jsonl      # every name the tagger keeps, labelled
    python benchmarks/pii_name_verifier.py fit runs/name_spans.jsonl --write # the model and thresholds -> data/

`table` runs the detector as `protect` builds it (one text at a time) over every annotated set but the final check
(pii-heldout-w), with a verifier that keeps every name and records its features; each name the tagger keeps is right
when it overlaps an annotated value (any type, as benchmarks/pii_registers.py counts precision). Besides the names,
each text's annotated REAL_NAME values and which of them the other spans (every span but the tagger's names) find,
and whether the other spans flag a text without personal data, so `fit` can tell recall and texts flagged at any
threshold. No value's text is written, only features and labels.

`fit` splits by set (`FIT_SETS` to fit a gradient-boosted tree ensemble, sklearn, training only; `CHOOSE_SETS` to
choose the thresholds): of the pairs (texts read as English, texts in the six other languages) on a grid of 0.02, the
one that flags the fewest texts without personal data on the choice sets while REAL_NAME recall there, English and
six-language files each, falls by at most `--budget` (1.5 points) against keeping every name.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_registers import gold_spans  # noqa: E402

from stealthflow.pii_tagger.verifier import FEATURES, WEIGHTS, Name, NameVerifier, features  # noqa: E402
from stealthflow.resources import resource_dir  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "benchmarks" / "data"
FIT_SETS = ("pii-heldout", *(f"pii-heldout-{s}" for s in "cdefghijklm"), "pii_test", "pii_multilingual_test")
TREES, DEPTH, RATE = 150, 3, 0.05  # the ensemble's size, each tree's depth, its learning rate
CHOOSE_SETS = tuple(f"pii-heldout-{s}" for s in "nopqruv")  # w: the final check, scored once after the choice


class Recorder:
    """A verifier that keeps every name and records each one's features (the text it was read in too)."""

    def __init__(self):
        self.seen: list[tuple[str, int, int, list[float]]] = []

    def least(self, languages: frozenset[str]) -> float:
        return 0.0

    def judge_many(self, names: list[Name]) -> list[float]:
        self.seen += [(name.text, name.start, name.end, features(*name)) for name in names]
        return [1.0] * len(names)


def annotated_files() -> list[tuple[str, str, Path]]:
    """(set, kind, file) of every annotated file but the final check's: kind "en" for English registers, "ml" for
    the six languages."""
    files = []
    for name in FIT_SETS + CHOOSE_SETS:
        if name == "pii_test":
            files.append((name, "en", ROOT / "data" / "pii_test.jsonl"))
        elif name == "pii_multilingual_test":
            files.append((name, "ml", ROOT / "data" / "pii_multilingual_test.jsonl"))
        else:
            for path in sorted((SETS / name).glob("pii_*.jsonl")):
                files.append((name, "en" if "registers" in path.name else "ml", path))
    return files


def read_rows(path: Path) -> list[dict]:
    """Rows as {"text", "pii": [{"value", "type"}]} (files with offsets, "spans", converted)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        if "pii" not in row:
            row["pii"] = [{"value": row["text"][s:e], "type": kind} for s, e, kind in row.get("spans", [])]
    return rows


def overlapping(span: tuple[int, int], others) -> list[int]:
    return [i for i, (s, e, *_) in enumerate(others) if s < span[1] and span[0] < e]


def table(out: Path) -> None:
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.policy import ProtectConfig
    from stealthflow.placeholders.recognizers import build_recognizers

    recorder = Recorder()
    recognizers = [
        PiiTaggerRecognizer(verifier=recorder) if isinstance(recognizer, PiiTaggerRecognizer) else recognizer
        for recognizer in build_recognizers(models=True)
    ]
    detector, config = Detector(recognizers), ProtectConfig()
    with out.open("w", encoding="utf-8") as sink:
        for name, kind, path in annotated_files():
            for index, row in enumerate(read_rows(path)):
                recorder.seen.clear()
                text = row["text"]
                spans = [s for s in detector.detect(text) if config.masks(s.type, s.level)]
                gold = gold_spans(row)
                names = [(s, e) for s, e, t in gold if t == "REAL_NAME"]
                others = [(s.start, s.end) for s in spans if not (s.source == "pii_tagger" and s.type == "REAL_NAME")]
                candidates = []
                for piece, start, end, values in recorder.seen:
                    offset = 0 if piece == text else text.find(piece)
                    if offset < 0:
                        continue
                    where = (start + offset, end + offset)
                    candidates.append(
                        {"right": bool(overlapping(where, gold)), "names": overlapping(where, names), "x": values}
                    )
                sink.write(
                    json.dumps(
                        {
                            "set": name,
                            "kind": kind,
                            "row": index,
                            "lang": row.get("lang", "en" if kind == "en" else "?"),
                            "clean": not gold,
                            "names": len(names),
                            "names_found_apart": [bool(overlapping(n, others)) for n in names],
                            "flagged_apart": bool(others) and not gold,
                            "candidates": candidates,
                        }
                    )
                    + "\n"
                )
            print(f"{name} {path.name}: done", file=sys.stderr, flush=True)


def outcome(rows: list[dict], keep) -> dict:
    """REAL_NAME values found, texts without personal data flagged, names kept right/wrong, when a candidate is kept
    where `keep(candidate)`."""
    found = total = flagged = clean = right = wrong = 0
    for row in rows:
        kept = [c for c in row["candidates"] if keep(c)]
        total += row["names"]
        found += sum(apart or any(i in c["names"] for c in kept) for i, apart in enumerate(row["names_found_apart"]))
        clean += row["clean"]
        flagged += row["clean"] and (row["flagged_apart"] or bool(kept))
        right += sum(c["right"] for c in kept)
        wrong += sum(not c["right"] for c in kept)
    return {"names": total, "found": found, "clean": clean, "flagged": flagged, "right": right, "wrong": wrong}


def kept(candidate: dict, english: float, others: float) -> bool:
    """Whether the verifier keeps a candidate at these thresholds (`NameVerifier.least`, by its `english` feature)."""
    return candidate["score"] >= (english if candidate["x"][FEATURES.index("english")] else others)


def trees_of(model) -> tuple:
    """The trees of a fitted sklearn GradientBoostingClassifier (binary) as `NameVerifier.trees`."""
    trees = []
    for (estimator,) in model.estimators_:
        tree = estimator.tree_
        trees.append(
            tuple(
                (int(tree.feature[i]) if tree.children_left[i] >= 0 else -1, float(tree.threshold[i]),
                 int(tree.children_left[i]), int(tree.children_right[i]), float(tree.value[i, 0, 0]))
                for i in range(tree.node_count)
            )
        )  # fmt: skip
    return tuple(trees)


def fit(path: Path, budget: float, write: bool) -> None:
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier

    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    train = [c for row in rows if row["set"] in FIT_SETS for c in row["candidates"]]
    x = np.array([c["x"] for c in train], dtype=float)
    y = np.array([c["right"] for c in train], dtype=int)
    model = GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, random_state=0).fit(
        x, y
    )
    base = float(model._raw_predict_init(x[:1])[0, 0])
    verifier = NameVerifier(trees_of(model), base, RATE, 0.0, 0.0)
    candidates = [c for row in rows for c in row["candidates"]]
    for c, score in zip(candidates, verifier.scores([c["x"] for c in candidates]), strict=True):
        c["score"] = score
    assert np.abs(np.array(verifier.scores(x.tolist())) - model.predict_proba(x)[:, 1]).max() < 1e-9
    chosen_rows = {kind: [r for r in rows if r["set"] in CHOOSE_SETS and r["kind"] == kind] for kind in ("en", "ml")}
    before = {kind: outcome(chosen, lambda c: True) for kind, chosen in chosen_rows.items()}
    best = (0, 0.0, 0.0)  # texts flagged fewer, minus the thresholds (English, others): of equals, the lowest
    steps = [step / 50 for step in range(50)]
    for english in steps:
        for others in steps:
            keep = partial(kept, english=english, others=others)
            after = {kind: outcome(chosen, keep) for kind, chosen in chosen_rows.items()}
            if all(100 * (before[k]["found"] - after[k]["found"]) / before[k]["names"] <= budget for k in after):
                best = max(best, (sum(before[k]["flagged"] - after[k]["flagged"] for k in after), -english, -others))
    english, others = -best[1], -best[2]
    verifier = NameVerifier(verifier.trees, verifier.base, verifier.rate, english, others)
    keep = partial(kept, english=english, others=others)
    report = {"fit_names": len(train), "fit_right": int(y.sum()), "thresholds": [english, others], "by_set": {}}
    by_set = defaultdict(list)
    for row in rows:
        by_set[(row["set"], row["kind"])].append(row)
    for (name, kind), chosen in sorted(by_set.items()):
        report["by_set"][f"{name} {kind}"] = {
            "before": outcome(chosen, lambda c: True),
            "after": outcome(chosen, keep),
        }
    for kind, chosen in chosen_rows.items():
        report[f"choose_{kind}"] = {"before": before[kind], "after": outcome(chosen, keep)}
    print(json.dumps({k: v for k, v in report.items() if k != "by_set"}, indent=1))
    print("importances:", dict(zip(FEATURES, (round(w, 3) for w in model.feature_importances_), strict=True)))
    if write:
        chosen_text = (
            f"fitted on {', '.join(FIT_SETS)} ({len(train)} names the tagger kept); thresholds (texts read as English, as others): "
            f"{english}, {others}, of 0-0.98 by 0.02 those that flag the fewest texts without personal data, costing at most {budget} points of REAL_NAME recall on {', '.join(CHOOSE_SETS)} (English and six-language "
            f"files each): on them, texts without personal data flagged "
            + "; ".join(
                f"{kind} {report[f'choose_{kind}']['before']['flagged']} -> {report[f'choose_{kind}']['after']['flagged']}"
                f" of {report[f'choose_{kind}']['before']['clean']}, names found "
                f"{report[f'choose_{kind}']['before']['found']} -> {report[f'choose_{kind}']['after']['found']}"
                f" of {report[f'choose_{kind}']['before']['names']}"
                for kind in ("en", "ml")
            )
        )
        target = resource_dir("data") / WEIGHTS
        stored = verifier.to_json(chosen=chosen_text)
        trees = stored.pop("trees")
        lines = json.dumps(stored, indent=1, ensure_ascii=False)[:-2] + ',\n "trees": [\n'  # one line a tree
        lines += ",\n".join("  " + json.dumps(tree, separators=(",", ":")) for tree in trees) + "\n ]\n}\n"
        target.write_text(lines, encoding="utf-8")
        print(f"wrote {target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    table_command = commands.add_parser("table", help="the labelled table of names the tagger keeps")
    table_command.add_argument("out", type=Path)
    fit_command = commands.add_parser("fit", help="fit the verifier and choose its threshold")
    fit_command.add_argument("table", type=Path)
    fit_command.add_argument("--budget", type=float, default=1.5, help="REAL_NAME recall points it may cost")
    fit_command.add_argument("--write", action="store_true", help=f"write data/{WEIGHTS}")
    args = parser.parse_args()
    if args.command == "table":
        table(args.out)
    else:
        fit(args.table, args.budget, args.write)


if __name__ == "__main__":
    main()
