"""The PII tagger's span calibrator (pii_tagger/training/calibration.py, a tool that is not shipped): trained on every
labelled natural set, measured leave-one-set-out.

    python benchmarks/pii_calibration.py [--beta 0.5] [--json benchmarks/results/pii_calibration.json] [--review FILE...]

Sets: the marked validation splits data/tagger-natural/validation{,-b,-c,-d,-v}/, the value-annotated
benchmarks/data/pii-heldout{,-c,...,-i}/ and data/pii_multilingual_test.jsonl (data/test.jsonl is a test split of
other benchmarks: left out). The detector runs as shipped (before) and with the tagger at the config's lower token
threshold; the tagger spans the lower threshold adds beside the shipped ones, and the shipped tagger spans of the
calibrated types, are the candidates (a shipped span keeps its shape). A candidate is right when it overlaps an
annotated value of any type (masking does not depend on the type; recall is counted the same way). For each set, a
calibrator trained on the other sets (its floors and thresholds chosen on them) decides that set's candidates
(after); the figures are pii_registers.py's, per language, over every set.

Acceptance rule (fixed before scoring): a calibrator may ship only if, leave-one-set-out, its recall is not lower
than the uncalibrated student's in ANY language (to 0.002) and six-language precision is higher, AND on an outside
reviewer's texts (/work/rev-span) the detector with it masks at least as many values as the student alone in every
column (cue-less names, conditions in chat, "in hospital with X", hand-written values). This script checks the
first part and prints the verdict; `--review FILE...` counts, for the second, the values masked before and after,
lost and gained, with the calibrator trained on every set.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_marked import marked_rows  # noqa: E402
from pii_multilingual import overlaps  # noqa: E402
from pii_registers import gold_spans, score, table  # noqa: E402

from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer  # noqa: E402
from stealthflow.pii_tagger.training.calibrate import (  # noqa: E402
    CalibrationConfig,
    CandidateRecognizer,
    calibrated,
    candidates_in,
    keeps,
    probabilities,
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


RECALL_SLACK = 0.002  # the acceptance rule's tolerance on a language's recall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the figures and the calibrator trained on every set here")
    parser.add_argument(
        "--review", nargs="+", type=Path, default=[], help='outside texts ({"text"} per line): masked before -> after'
    )
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
    before = Detector([*build_recognizers(), PiiTaggerRecognizer()]).detect_many(texts)
    lower = Detector([*build_recognizers(), CandidateRecognizer(config.token_threshold)]).detect_many(texts)
    guesser = shared_guesser()
    candidates, where = [], []  # where: (text index, span) of each candidate
    for i, (row, kept, found) in enumerate(zip(rows, before, lower, strict=True)):
        gold = gold_spans(row)
        languages = guesser.guess(row["text"]).candidates
        for span, candidate in candidates_in(row["text"], kept, found, languages, config.labels):
            right = overlaps((span.start, span.end, span.type), gold)  # of any type
            candidates.append(replace(candidate, right=right, group=group_of[i], language=row.get("lang", "?")))
            where.append((i, span))
    decided = defaultdict(list)  # text index -> the candidates kept
    for name in sets:
        calibrator = train([c for c in candidates if c.group != name], config)
        inside = [k for k, c in enumerate(candidates) if c.group == name]
        chances = probabilities(calibrator.weights, [candidates[k] for k in inside])
        for k, p in zip(inside, chances, strict=True):
            if keeps(calibrator, candidates[k], p):
                decided[where[k][0]].append(where[k][1])
    after = [calibrated(kept, decided[i], config.labels) for i, kept in enumerate(before)]
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
    verdict = accepted(results["before"], results["after"])
    print("acceptance rule, leave-one-set-out part:", "met" if verdict else "NOT met")
    sizes = {name: len(chosen) for name, chosen in sets.items()}
    calibrator = train(candidates, config, {"trained_on": sizes, "candidates": len(candidates)})
    print("floors", calibrator.floors, "thresholds", calibrator.thresholds)
    review = {path.name: reviewed(path, calibrator, config) for path in args.review}
    for name, counts in review.items():
        print(name, counts)
    if args.json:
        figures = {
            "sets": sizes,
            **results,
            "leave_one_set_out_rule_met": verdict,
            "review": review,
            "calibrator": calibrator.to_json(),
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


def reviewed(path: Path, calibrator, config: CalibrationConfig) -> dict[str, int]:
    """On outside texts: spans masked before (the student alone) and after (with `calibrator`), masked before and
    overlapped by no span after (lost), masked after and overlapping no span before (gained)."""
    texts = [json.loads(line)["text"] for line in _lines(path)]
    before = Detector([*build_recognizers(), PiiTaggerRecognizer()]).detect_many(texts)
    lower = Detector([*build_recognizers(), CandidateRecognizer(config.token_threshold)]).detect_many(texts)
    guesser = shared_guesser()
    counts = dict.fromkeys(("before", "after", "lost", "gained"), 0)
    for text, kept, found in zip(texts, before, lower, strict=True):
        pairs = candidates_in(text, kept, found, guesser.guess(text).candidates, config.labels)
        chosen = [span for span, c in pairs if keeps(calibrator, c, calibrator.probability(c.features))]
        old, new = masked(kept), masked(calibrated(kept, chosen, config.labels))
        counts["before"] += len(old)
        counts["after"] += len(new)
        counts["lost"] += sum(not overlaps(span, new) for span in old)
        counts["gained"] += sum(not overlaps(span, old) for span in new)
    return counts


def accepted(before: dict, after: dict) -> bool:
    """The acceptance rule's leave-one-set-out part: no language's recall lower (to RECALL_SLACK), six-language
    precision higher."""
    languages = [group for group in before if group not in ("six languages", "all")]
    recall_kept = all(after[g]["recall"] >= before[g]["recall"] - RECALL_SLACK for g in languages)
    return recall_kept and after["six languages"]["precision"] > before["six languages"]["precision"]


if __name__ == "__main__":
    main()
