"""Fit the name candidates' judge (pii_tagger/name_candidates.py) on annotated text and choose its thresholds.

    python benchmarks/pii_name_candidates.py table runs/name_candidates.jsonl --files /work/realtrain1/real_pii.jsonl \
        /work/realtrain2/real_pii.jsonl /work/real32/real_pii.jsonl /work/real31/real_pii_heldout.jsonl
    python benchmarks/pii_name_candidates.py fit runs/name_candidates.jsonl --write
    python benchmarks/pii_name_candidates.py heldout runs/name_candidates.jsonl --files REAL ... --real-sets SET ...

`table` runs the detector as `protect` builds it (one text at a time) with a judge that keeps no candidate and records
each one's features, over the synthetic sets the name verifier is fitted on (pii_verifiers.py `NAME_FIT_SETS`, the
texts the students did not train on) and the real files given (each a set named by its folder, outside the
repository). A candidate is right when it overlaps an annotated value (any type, as benchmarks/pii_registers.py counts
precision), a name when it overlaps an annotated REAL_NAME or USERNAME; "covered" when a span of the detector holds it
anyway. No text is written, only features and labels.

`fit` fits a gradient-boosted tree ensemble (sklearn, training only) and chooses its thresholds out of fold on the real
sets (`REAL_SETS` or `--real-sets`, leave one set out: fitted on the synthetic rows and the other real sets, scored on
the one left out): per route (texts read as English, texts in the six other languages) the lowest score on a grid of
0.02 at which the candidates kept out of fold are at least `PRECISION` right and flag at most one in `CLEAN_PER_FLAG`
of the route's real passages without personal data that the detector leaves unflagged. `--write` stores the ensemble
fitted on every row with those thresholds in data/pii-tagger/name_candidates.json. `heldout` scores each real file
given with the detector and a judge fitted and chosen so without that file's set
(benchmarks/results/pii_name_misses.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_registers import gold_spans  # noqa: E402
from pii_verifiers import NAME_FIT_SETS, annotated_files, overlapping, read_rows, trained_on, trees_of  # noqa: E402

from stealthflow.pii_tagger.name_candidates import (  # noqa: E402
    CANDIDATES_FILE,
    CandidateJudge,
)
from stealthflow.pii_tagger.route import may_be_english  # noqa: E402
from stealthflow.resources import resource_dir  # noqa: E402

# The real annotated sets the shipped judge is fitted and its thresholds chosen on (their folders' names); `--real-sets`
# others (the refit on real d-m too, not shipped: benchmarks/results/pii_name_misses.md).
REAL_SETS = ("realtrain1", "realtrain2", "real32", "real31")
TREES, DEPTH, RATE = 150, 3, 0.05  # as the name verifier's
PRECISION = 0.80
CLEAN_PER_FLAG = 200
GRID = [step / 50 for step in range(25, 50)]
NAMES = ("REAL_NAME", "USERNAME")


class Recorder(CandidateJudge):
    """A judge that keeps no candidate and records each one's place and features."""

    def __init__(self):
        super().__init__("REAL_NAME", (((-1, 0.0, 0, 0, 0.0),),), 0.0, 0.0, 1.0, 1.0)
        object.__setattr__(self, "seen", [])

    def judge(self, rows, places):
        self.seen += [(*place, row) for place, row in zip(places, rows, strict=True)]
        return [0.0] * len(rows)


def detector_with(judge: CandidateJudge, **options):
    """The detector as `protect` builds it, its name candidates judged by `judge` (`options`: the Detector's)."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    recognizers = [
        PiiTaggerRecognizer(candidates=judge) if isinstance(recognizer, PiiTaggerRecognizer) else recognizer
        for recognizer in build_recognizers(models=True)
    ]
    return Detector(recognizers, **options)


def table(out: Path, files: tuple[Path, ...]) -> None:
    from stealthflow.placeholders.language import shared_guesser
    from stealthflow.placeholders.policy import ProtectConfig

    recorder = Recorder()
    detector, config = detector_with(recorder), ProtectConfig()
    chosen = [
        (name, kind, path) for name, kind, path in annotated_files(files) if name in NAME_FIT_SETS or path in files
    ]
    with out.open("w", encoding="utf-8") as sink:
        for name, kind, path in chosen:
            for index, row in enumerate(read_rows(path)):
                if trained_on(name, row):
                    continue
                recorder.seen.clear()
                text = row["text"]
                spans = [(s.start, s.end) for s in detector.detect(text) if config.masks(s.type, s.level)]
                gold = gold_spans(row)
                names = [(s, e) for s, e, t in gold if t in NAMES]
                candidates = []
                for piece, start, end, x in recorder.seen:
                    offset = 0 if piece == text else text.find(piece)
                    if offset >= 0:
                        where = (start + offset, end + offset)
                        candidates.append(
                            {"right": bool(overlapping(where, gold)), "name": bool(overlapping(where, names))}
                            | {"covered": bool(overlapping(where, spans)), "x": x}
                        )
                record = {"set": name, "row": index, "clean": not gold, "flagged": bool(spans) and not gold}
                record["english"] = may_be_english(shared_guesser().guess(text).candidates)
                sink.write(json.dumps(record | {"candidates": candidates}) + "\n")
            print(f"{name} {path.name}: done", file=sys.stderr, flush=True)


def fitted(rows: list[dict]):
    import numpy as np
    from sklearn.ensemble import GradientBoostingClassifier

    x = np.array([c["x"] for r in rows for c in r["candidates"]], dtype=float)
    y = np.array([c["right"] for r in rows for c in r["candidates"]], dtype=int)
    model = GradientBoostingClassifier(n_estimators=TREES, max_depth=DEPTH, learning_rate=RATE, random_state=0)
    model.fit(x, y)
    base = float(model._raw_predict_init(x[:1])[0, 0])
    judge = CandidateJudge("REAL_NAME", trees_of(model), base, RATE, 0.0, 0.0)
    assert np.abs(np.array(judge.scores(x[:200].tolist())) - model.predict_proba(x[:200])[:, 1]).max() < 1e-9
    return judge


def outcome(rows: list[dict], least: float, typed: str = "name") -> dict:
    """What the candidates scoring `least` or more add on `rows` (each candidate's out-of-fold "score"); `typed`: the
    candidates' key that tells one of the type looked for ("names" counts them)."""
    kept = [c for r in rows for c in r["candidates"] if c["score"] >= least and not c["covered"]]
    flagged = sum(
        1 for r in rows if r["clean"] and not r["flagged"] and any(c["score"] >= least for c in r["candidates"])
    )
    return {
        "kept": len(kept),
        "right": sum(c["right"] for c in kept),
        "names": sum(c[typed] for c in kept),
        "flagged": flagged,
        "clean": sum(r["clean"] for r in rows),
    }


def choose(records: list[dict], real_sets: tuple[str, ...], show: bool = False) -> tuple[dict, dict]:
    """The thresholds per route (texts read as English, "en"; the six other languages, "others") chosen out of fold on
    `real_sets` (leave one set out: fitted on the other rows of `records`, scored on the one left out), and the grid's
    figures per route."""
    synthetic = [r for r in records if not r["set"].startswith("real")]
    for held in real_sets:
        judge = fitted(synthetic + [r for r in records if r["set"] in real_sets and r["set"] != held])
        left_out = [c for r in records if r["set"] == held for c in r["candidates"]]
        for c, score in zip(left_out, judge.scores([c["x"] for c in left_out]) if left_out else [], strict=True):
            c["score"] = score
        if show:
            print(f"fold {held}: {len(left_out)} candidates scored", file=sys.stderr, flush=True)
    real = [r for r in records if r["set"] in real_sets]
    chosen, report = {}, {}
    for route, is_english in (("en", True), ("others", False)):
        rows = [r for r in real if r["english"] == is_english]
        grid = {least: outcome(rows, least) for least in GRID}
        report[route] = {f"{least:.2f}": figures for least, figures in grid.items()}
        passing = [
            least
            for least, o in grid.items()
            if o["kept"] and o["right"] >= PRECISION * o["kept"] and o["flagged"] * CLEAN_PER_FLAG <= o["clean"]
        ]
        chosen[route] = min(passing) if passing else 1.01
        if show:
            print(route, f"chosen {chosen[route]:.2f}", json.dumps(grid.get(chosen[route], {})))
            for least, o in grid.items():
                print(f"  {least:.2f} {o}")
    return chosen, report


def chosen_judge(records: list[dict], real_sets: tuple[str, ...], show: bool = False) -> tuple[CandidateJudge, dict]:
    """The judge fitted on every row of `records` with the thresholds `choose` picks on `real_sets`, and the grid's
    figures at them."""
    chosen, report = choose(records, real_sets, show)
    judge = fitted(records)
    judge = CandidateJudge("REAL_NAME", judge.trees, judge.base, judge.rate, chosen["en"], chosen["others"])
    return judge, {route: report[route].get(f"{chosen[route]:.2f}") for route in chosen}


def read_table(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def synthetic_and(records: list[dict], real_sets: tuple[str, ...]) -> list[dict]:
    """The rows of `records` from the synthetic sets and from the real sets in `real_sets`."""
    return [r for r in records if not r["set"].startswith("real") or r["set"] in real_sets]


def fit(path: Path, write: bool, real_sets: tuple[str, ...] = REAL_SETS) -> None:
    records = synthetic_and(read_table(path), real_sets)
    judge, out_of_fold = chosen_judge(records, real_sets, show=True)
    if write:
        about = {
            "chosen": (
                f"fitted on {', '.join(sorted({r['set'] for r in records}))} (benchmarks/pii_name_candidates.py); "
                f"thresholds out of fold on {', '.join(real_sets)} (leave one set out): per route the lowest at which "
                f"the kept candidates are {PRECISION:.0%} right and flag at most 1 in {CLEAN_PER_FLAG} clean passages"
            ),
            "out_of_fold": out_of_fold,
        }
        target = resource_dir("data") / CANDIDATES_FILE
        target.write_text(json.dumps(judge.to_json(**about)) + "\n", encoding="utf-8")
        print(f"wrote {target}")


def heldout(path: Path, files: tuple[Path, ...], out: Path | None, real_sets: tuple[str, ...] = REAL_SETS) -> None:
    """Each real file scored by the detector with a judge that never saw it: fitted on the table's other rows (of
    `real_sets` and the synthetic sets), its thresholds chosen leaving one set out over the other sets of `real_sets`;
    the files' figures pooled, by language and in all, as benchmarks/pii_registers.py counts them (one text at a time,
    default levels)."""
    from pii_multilingual import predict
    from pii_registers import scored_by, type_table
    from pii_registers import table as figures

    records = read_table(path)
    rows, predictions, thresholds = [], [], {}
    for file in files:
        name = file.resolve().parent.name
        others = tuple(s for s in real_sets if s != name)
        judge, _ = chosen_judge(synthetic_and(records, others), others)
        thresholds[name] = (judge.threshold, judge.threshold_others)
        print(f"{name}: thresholds {judge.threshold:.2f} / {judge.threshold_others:.2f}", file=sys.stderr, flush=True)
        texts = read_rows(file)
        rows += texts
        predictions += predict(detector_with(judge, cache_entries=0), [row["text"] for row in texts])
    results = scored_by(rows, predictions, "lang")
    print(figures(results))
    print(type_table(results))
    if out:
        out.write_text(json.dumps(results | {"thresholds": thresholds}, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    table_command = commands.add_parser("table", help="the labelled candidates")
    table_command.add_argument("out", type=Path)
    table_command.add_argument("--files", nargs="*", type=Path, default=[], help="annotated real files")
    fit_command = commands.add_parser("fit", help="fit the judge and choose its thresholds")
    fit_command.add_argument("table", type=Path)
    fit_command.add_argument("--write", action="store_true", help="write data/pii-tagger/name_candidates.json")
    held_command = commands.add_parser("heldout", help="score real files, each with a judge fitted without it")
    held_command.add_argument("table", type=Path)
    held_command.add_argument("--files", nargs="+", type=Path, required=True, help="annotated real files")
    held_command.add_argument("--json", type=Path, help="also write the pooled figures here")
    for command in (fit_command, held_command):
        command.add_argument(
            "--real-sets", nargs="+", default=list(REAL_SETS), help="the real sets fitted and chosen on"
        )
    args = parser.parse_args()
    if args.command == "table":
        table(args.out, tuple(args.files))
    elif args.command == "fit":
        fit(args.table, args.write, tuple(args.real_sets))
    else:
        heldout(args.table, tuple(args.files), args.json, tuple(args.real_sets))


if __name__ == "__main__":
    main()
