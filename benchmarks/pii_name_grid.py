"""Names with no cue before them (benchmarks/data/pii-name-grid/grid.jsonl): how many the detector masks whole as
REAL_NAME, by group and by language; the detector as `stealthflow protect` builds it.

    python benchmarks/pii_name_grid.py [--json FILE]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

GRID = Path(__file__).resolve().parent / "data" / "pii-name-grid" / "grid.jsonl"


def masked_whole(row: dict, spans) -> bool:
    start = row["text"].index(row["name"])
    return any(s.type == "REAL_NAME" and s.start <= start and s.end >= start + len(row["name"]) for s in spans)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="also write the counts here")
    args = parser.parse_args()
    rows = [json.loads(line) for line in GRID.read_text(encoding="utf-8").splitlines()]
    found = Detector(build_recognizers(models=True)).detect_many([row["text"] for row in rows])
    masked, total = Counter(), Counter()
    for row, spans in zip(rows, found, strict=True):
        for key in (row["group"], f"lang {row['lang']}", "all"):
            total[key] += 1
            masked[key] += masked_whole(row, spans)
    counts = {key: f"{masked[key]}/{total[key]}" for key in total}
    for key, value in counts.items():
        print(f"{key:36s} {value}")
    if args.json:
        args.json.write_text(json.dumps(counts, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
