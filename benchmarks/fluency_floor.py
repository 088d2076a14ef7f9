"""The fluency score (utility/fluency.py) of the teacher's rewrites of train comments (which a person would post)
beside the same comments with the teacher's cue phrases deleted (the old deletion teacher, which leaves sentences
like "my night shift at."): where the local anonymizer's floor on the model's whole rewrite (`local.MODEL_FLOOR`)
comes from. Train split only. (The generalizer's single edits pass the acceptance gate and its hard floors,
`anonymize/gate.py`, measured by benchmarks/acceptance_gate.py.)

    python benchmarks/fluency_floor.py --limit 300 --out benchmarks/results/fluency_floor.json
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from stealthflow.data.evidence import find_phrase
from stealthflow.harvest.posts import delete_spans
from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites, shipped_teacher_file
from stealthflow.utility.fluency import FluencyScorer


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rewrites = [r for r in load_teacher_rewrites(shipped_teacher_file()).values() if r.cues]
    random.Random(args.seed).shuffle(rewrites)
    rewrites = rewrites[: args.limit]
    deleted = [
        delete_spans(r.text, [hit for c in r.cues if (hit := find_phrase(c.phrase, r.text))]) or r.text
        for r in rewrites
    ]
    scorer = FluencyScorer()
    teacher = [f.score for f in scorer.compare([r.text for r in rewrites], [r.rewrite for r in rewrites])]
    deletion = [f.score for f in scorer.compare([r.text for r in rewrites], deleted)]
    rows = {}
    for floor in (-2.5, -2.0, -1.5, -1.0, -0.5, 0.0):
        rows[floor] = {
            "teacher_passes": sum(s >= floor for s in teacher) / len(teacher),
            "deletion_passes": sum(s >= floor for s in deletion) / len(deletion),
        }
    summary = {
        "pairs": len(rewrites),
        "teacher_p10": percentile(teacher, 0.10),
        "teacher_median": percentile(teacher, 0.5),
        "deletion_median": percentile(deletion, 0.5),
        "by_floor": rows,
    }
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
