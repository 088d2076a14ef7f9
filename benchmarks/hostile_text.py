"""Detection with the PII tagger on hostile text, and restore of a reply full of placeholder look-alikes.

    .venv/bin/python benchmarks/hostile_text.py [--sizes 64000 256000 1000000] [--kinds ...]

For each kind of `stealthflow.testing.hostile` (a token of letters and digits, one of every printable
character, a base64 blob, words glued without spaces, words without a full stop, capitalised names and
numbers without a full stop, placeholder look-alikes) and each size: detection's CPU and wall seconds
with the tagger on (torch on 2 threads), seconds per MB, and the ratio of each size's CPU time to the
previous size's (linear: the ratio of the sizes, 4x here; quadratic: its square). The reference row
is ordinary messages (data/pii_test.jsonl, one per line) at the same sizes: what the tagger costs on
text it was made for. Then restore of the look-alikes text at each size (`--restore-sizes`).
Prints a table and writes benchmarks/results/hostile_text.json.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import torch

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.testing.hostile import KINDS, hostile_text

RESULTS = Path(__file__).resolve().parent / "results"
REFERENCE = "reference: messages"
MESSAGES = Path(__file__).resolve().parent.parent / "data" / "pii_test.jsonl"


def reference_text(size: int) -> str:
    lines = [json.loads(line)["text"] for line in MESSAGES.read_text(encoding="utf-8").splitlines() if line.strip()]
    text = "\n".join(lines)
    return (text * (size // len(text) + 1))[:size]


def _timed(run) -> tuple[float, float, object]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = run()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def detection(kinds: list[str], sizes: list[int]) -> list[dict]:
    detector = Detector(build_recognizers(models=True), cache_entries=0)
    detector.detect("warm up: Anna Berg, anna@example.org")
    rows = []
    print(
        f"{'kind':26} {'chars':>9} {'cpu s':>7} {'wall s':>7} {'cpu s/MB':>8} {'wall s/MB':>9} {'x prev':>7} {'spans':>6}"
    )
    for kind in kinds:
        previous = None
        for size in sizes:
            text = reference_text(size) if kind == REFERENCE else hostile_text(kind, size)
            cpu, wall, spans = _timed(lambda text=text: detector.detect(text))
            ratio = cpu / previous if previous else None
            previous = max(cpu, 1e-3)
            row = {
                "kind": kind,
                "chars": size,
                "cpu_s": round(cpu, 3),
                "wall_s": round(wall, 3),
                "cpu_s_per_mb": round(cpu * 1e6 / size, 2),
                "wall_s_per_mb": round(wall * 1e6 / size, 2),
                "cpu_ratio_to_previous": ratio and round(ratio, 2),
                "spans": len(spans),
            }
            rows.append(row)
            print(
                f"{kind:26} {size:>9} {cpu:>7.2f} {wall:>7.2f} {row['cpu_s_per_mb']:>8.2f} {row['wall_s_per_mb']:>9.2f}"
                f" {ratio or 0:>7.2f} {len(spans):>6}",
                flush=True,
            )
    return rows


def restore(sizes: list[int]) -> list[dict]:
    """Restore (the session's values loaded, a real vault file) of a reply of placeholder look-alikes."""
    from stealthflow.config import ProtectConfig
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.keys import new_secret

    rows = []
    os.environ["STEALTHFLOW_VAULT_KEY"] = new_secret()  # a throwaway vault's key
    with tempfile.TemporaryDirectory() as folder:
        config = ProtectConfig(vault_path=Path(folder) / "vault.sqlite", key_source="env", llm_extractor=False)
        protector = Protector(config, open_vault(config, new_vault=True), Detector(build_recognizers()))
        protector.protect("mail anna@example.org or call +44 20 7946 0958, key sk-proj-9fQxT2mZ8rLk4vWc", "bench")
        for size in sizes:
            text = hostile_text("placeholder look-alikes", size)
            cpu, wall, _ = _timed(lambda text=text: protector.restore(text, "bench"))
            rows.append({"chars": size, "cpu_s": round(cpu, 3), "wall_s": round(wall, 3)})
            print(f"restore, placeholder look-alikes {size:>10} chars: {cpu:.2f} s CPU, {wall:.2f} s wall", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64_000, 256_000, 1_000_000])
    parser.add_argument("--kinds", nargs="*", default=[*KINDS, REFERENCE], choices=[*KINDS, REFERENCE])
    parser.add_argument("--restore-sizes", type=int, nargs="*", default=[1_000_000, 10_000_000])
    args = parser.parse_args()
    torch.set_num_threads(2)
    rows = detection(args.kinds, args.sizes) if args.kinds else []
    restored = restore(args.restore_sizes)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "hostile_text.json").write_text(
        json.dumps({"sizes": args.sizes, "rows": rows, "restore": restored}, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
