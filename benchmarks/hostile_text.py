"""Detection with the PII tagger on hostile text: long runs without spaces or full stops.

    .venv/bin/python benchmarks/hostile_text.py [--sizes 64000 256000 1000000]

For each kind of `stealthflow.testing.hostile` (a token of letters and digits, one of every printable
character, a base64 blob, words glued without spaces, words without a full stop) and each size:
detection's CPU and wall seconds with the tagger on (torch on 2 threads), and the ratio of each
size's time to the previous size's (linear: the ratio of the sizes, 4x here; quadratic: its square).
Prints a table and writes benchmarks/results/hostile_text.json.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.testing.hostile import KINDS, hostile_text

RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64_000, 256_000, 1_000_000])
    args = parser.parse_args()
    torch.set_num_threads(2)
    detector = Detector(build_recognizers(models=True))
    detector.detect("warm up: Anna Berg, anna@example.org")
    rows = []
    print(f"{'kind':22} {'chars':>9} {'cpu s':>7} {'wall s':>7} {'x prev':>7} {'spans':>6}")
    for kind in KINDS:
        previous = None
        for size in args.sizes:
            text = hostile_text(kind, size)
            cpu, wall = time.process_time(), time.perf_counter()
            spans = detector.detect(text)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            ratio = cpu / previous if previous else None
            previous = max(cpu, 1e-3)
            rows.append(
                {
                    "kind": kind,
                    "chars": size,
                    "cpu_s": round(cpu, 3),
                    "wall_s": round(wall, 3),
                    "cpu_ratio_to_previous": ratio and round(ratio, 2),
                    "spans": len(spans),
                }
            )
            print(f"{kind:22} {size:>9} {cpu:>7.2f} {wall:>7.2f} {ratio or 0:>7.2f} {len(spans):>6}", flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "hostile_text.json").write_text(
        json.dumps({"sizes": args.sizes, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
