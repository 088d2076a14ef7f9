"""Where the generalizer's meaning floor comes from (`anonymize.meaning.MEANING_FLOOR`): the MiniLM cosine of each
teacher edit's generalization to the words it replaced (`TeacherCue.core`: "Leeds" -> "my city"), over the shipped
teacher rewrites (train comments and standalone posts; no test text), as percentiles; edits that only drop words
are left out. Beside them, the cosines of stand-ins read as fitting or not.

    python benchmarks/meaning_floor.py --out benchmarks/results/meaning_floor.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from stealthflow.anonymize.generalize import teacher_cues
from stealthflow.anonymize.meaning import nearness

#: (phrase, stand-in) pairs the generalizer chose, read by hand: fitting, and meaning another thing
READ = {
    "fits": [
        ("an ER nurse", "my line of work"),
        ("Leeds", "my city"),
        ("my husband", "my partner"),
        ("30", "a certain age"),
    ],
    "another thing": [("Bristol", "a person"), ("Mass General", "this area"), ("Harvard Law", "my line of work")],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    edits = {(cue.phrase[start:end], generalized) for cue in teacher_cues() for start, end, generalized in [cue.core()]}
    pairs = sorted((a, b) for a, b in edits if a.strip() and b.strip())
    own = np.array(nearness(pairs))
    summary = {
        "edits": len(pairs),
        "teacher_cosine": dict(zip(("p10", "p25", "median"), np.percentile(own, [10, 25, 50]).round(3).tolist())),
        "read": {
            kind: {f"{a} -> {b}": round(c, 3) for (a, b), c in zip(found, nearness(found))}
            for kind, found in READ.items()
        },
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
