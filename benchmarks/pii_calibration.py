"""The PII tagger's span calibrator (pii_tagger/calibration.py): built from every labelled natural set, measured
leave-one-set-out, and written beside the student.

    python benchmarks/pii_calibration.py [--out models/pii-tagger-student] [--json benchmarks/results/pii_calibration.json]

Sets: the marked validation splits data/tagger-natural/validation{,-b,-c,-d,-v}/, the value-annotated
benchmarks/data/pii-heldout{,-c,...,-i}/, data/pii_multilingual_test.jsonl and data/test.jsonl's comments (no
personal data: each span there is wrong). The detector runs twice: as shipped without the calibrator (before), and
keeping every tagger span whose student confidence reaches the config's token threshold (candidates). A candidate
is right when it overlaps an annotated value of its type (pii_registers.py's scoring). For each set, a calibrator
trained on the other sets (its floors and thresholds chosen on them) decides that set's candidates (after); the
figures are pii_registers.py's, per language, over every set. Last, a calibrator trained on all sets is saved
to `--out`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_marked import marked_rows  # noqa: E402
from pii_multilingual import overlaps  # noqa: E402
from pii_registers import gold_spans, score, table  # noqa: E402
from pii_session_flags import COMMENTS  # noqa: E402

from stealthflow.data.loader import load_profiles  # noqa: E402
from stealthflow.pii_tagger.model import load_pii_tagger  # noqa: E402
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer, span_floors  # noqa: E402
from stealthflow.pii_tagger.training.calibrate import (  # noqa: E402
    TAGGER_SOURCE,
    CalibrationConfig,
    Candidate,
    collect,
    probabilities,
    reaches,
    train,
)
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.language import shared_guesser  # noqa: E402
from stealthflow.placeholders.policy import ProtectConfig  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def labelled_sets() -> dict[str, list[dict]]:
    """Set name -> rows {"text", "lang", "pii": [{"value", "type"}]}."""
    sets: dict[str, list[dict]] = {}
    for folder in sorted((ROOT / "data" / "tagger-natural").glob("validation*")):
        sets[folder.name] = [
            {**row, "lang": path.stem} for path in sorted(folder.glob("*.txt")) for row in marked_rows(path)
        ]
    for folder in sorted((ROOT / "benchmarks" / "data").glob("pii-heldout*")):
        sets[folder.name] = [_read(line) for path in sorted(folder.glob("*.jsonl")) for line in _lines(path)]
    sets["pii_multilingual_test"] = [_read(line) for line in _lines(ROOT / "data" / "pii_multilingual_test.jsonl")]
    sets["test_comments"] = [
        {"text": c.text, "lang": "en", "pii": []} for p in load_profiles(COMMENTS) for c in p.comments if c.text.strip()
    ]
    return sets


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _read(line: str) -> dict:
    row = json.loads(line)
    if "pii" not in row:  # {"text", "spans": [[start, end, type]]}
        row["pii"] = [{"value": row["text"][s:e], "type": kind} for s, e, kind in row["spans"]]
    return row


def masked(spans) -> list[tuple[int, int, str]]:
    config = ProtectConfig()
    return [(s.start, s.end, s.type) for s in spans if config.masks(s.type, s.level)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the calibrator trained on every set here (a student's folder)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--limit", type=int, help="the first N texts of each set only (a quick check)")
    parser.add_argument("--beta", type=float, default=CalibrationConfig.beta, help="F-beta that chooses thresholds")
    parser.add_argument("--labels", nargs="+", default=CalibrationConfig.labels, help="the types calibrated")
    parser.add_argument(
        "--floors", nargs="+", help="student confidences a type's floor is chosen from ('own': the student's threshold)"
    )
    args = parser.parse_args()
    floors = tuple(None if f == "own" else float(f) for f in args.floors) if args.floors else CalibrationConfig.floors
    config = CalibrationConfig(beta=args.beta, labels=tuple(args.labels), floors=floors)
    sets = {name: chosen[: args.limit] for name, chosen in labelled_sets().items()}
    rows = [row for chosen in sets.values() for row in chosen]
    group_of = [name for name, chosen in sets.items() for _ in chosen]
    texts = [row["text"] for row in rows]
    before = Detector([*build_recognizers(), PiiTaggerRecognizer(calibrated=False)]).detect_many(texts)
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer(candidates=config.token_threshold)])
    found, features = collect(detector, texts)
    tagger, guesser = load_pii_tagger(), shared_guesser()
    candidates, where = [], []  # where: (text index, span index) of each candidate
    own_floors = [span_floors(tagger, guesser.guess(text).candidates) for text in texts]  # the student's thresholds
    for i, (row, spans, feats, own) in enumerate(zip(rows, found, features, own_floors, strict=True)):
        gold = gold_spans(row)
        for j, (span, feature) in enumerate(zip(spans, feats, strict=True)):
            if span.source == TAGGER_SOURCE and span.type in config.labels:
                right = overlaps((span.start, span.end, span.type), gold, typed=True)
                keeps = span.score >= own.get(span.type, 0.0)
                candidates.append(Candidate(feature, span.type, span.score, right, group_of[i], keeps))
                where.append((i, j))
    dropped = set()
    for name in sets:
        calibrator = train([c for c in candidates if c.group != name], config)
        inside = [k for k, c in enumerate(candidates) if c.group == name]
        chances = probabilities(calibrator.weights, [candidates[k] for k in inside])
        for k, p in zip(inside, chances, strict=True):
            c = candidates[k]
            if not reaches(c, calibrator.floors[c.label]) or p < calibrator.thresholds[c.label]:
                dropped.add(where[k])
    # an uncalibrated type (a secret) keeps the student's own threshold
    after = [
        [
            s
            for j, s in enumerate(spans)
            if (i, j) not in dropped
            and (s.source != TAGGER_SOURCE or s.type in config.labels or s.score >= own_floors[i].get(s.type, 0.0))
        ]
        for i, spans in enumerate(found)
    ]
    results = {}
    for label, predictions in (("before", before), ("after", after)):
        by_lang = defaultdict(list)
        for i, row in enumerate(rows):
            by_lang[row.get("lang", "?")].append(i)
        results[label] = {
            lang: score([rows[i] for i in chosen], [masked(predictions[i]) for i in chosen])
            for lang, chosen in sorted(by_lang.items())
        }
        others = [i for i, row in enumerate(rows) if row.get("lang") != "en"]
        results[label]["six languages"] = score([rows[i] for i in others], [masked(predictions[i]) for i in others])
        results[label]["all"] = score(rows, [masked(p) for p in predictions])
        print(f"## {label}\n\n{table(results[label])}\n")
    sizes = {name: len(chosen) for name, chosen in sets.items()}
    calibrator = train(candidates, config, {"trained_on": sizes, "candidates": len(candidates)})
    print("floors", calibrator.floors, "thresholds", calibrator.thresholds)
    if args.out:
        calibrator.save(args.out)
    if args.json:
        args.json.write_text(json.dumps({"sets": sizes, **results}, indent=2) + "\n")


if __name__ == "__main__":
    main()
