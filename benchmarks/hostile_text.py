"""Protect with the PII tagger on hostile text, the tagger run by torch and by its numpy runtime side by side,
and restore of a reply full of placeholder look-alikes.

    .venv/bin/python benchmarks/hostile_text.py [--sizes 250000 1000000] [--kinds ...] [--runtimes torch numpy]
    git worktree add /tmp/before main   # another revision's code, with its data/ and models/ beside src/
    .venv/bin/python benchmarks/hostile_text.py --runtimes numpy --before /tmp/before/src

For each kind of `stealthflow.testing.hostile` (a token of letters and digits, one of every printable
character, a base64 blob, words glued without spaces, words without a full stop, capitalised names and
numbers without a full stop, placeholder look-alikes), each size and each runtime of the shipped
student (`torch`: its torch module on 2 threads; `numpy`: what detection runs): `Protector.protect`'s
CPU and wall seconds with the tagger on (a throwaway vault file, a new session per text), seconds
per MB, and the ratio of each size's CPU time to the previous size's (linear: the ratio of the
sizes; quadratic: its square). The reference row is ordinary messages (data/pii_test.jsonl, one per
line) at the same sizes: word-like text, what the tagger was made for. Then restore of the
look-alikes text at each size (`--restore-sizes`). Prints a table and writes
benchmarks/results/hostile_text.json and .md. `--before SRC`: the same protection runs first with the
stealthflow of another source tree (in a child process), and the table sets its CPU seconds per MB
beside these (hostile_text_side_by_side.json and .md; `--name N`: N.json, N_side_by_side.json and so on).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stealthflow.config import ProtectConfig
from stealthflow.pii_tagger.model import SpanTagger, shipped_pii_tagger_dir
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.testing.hostile import KINDS, hostile_text

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tables import load_range, table  # noqa: E402

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


def tagged_detector(runtime: str) -> Detector:
    """The default detector with the shipped student run by `runtime`."""
    if runtime == "torch":
        import torch

        torch.set_num_threads(2)
    tagger = SpanTagger.load(shipped_pii_tagger_dir(), trainable=runtime == "torch")
    return Detector([*build_recognizers(), PiiTaggerRecognizer(tagger=tagger)], cache_entries=0)


def protection(kinds: list[str], sizes: list[int], runtimes: list[str], folder: Path) -> list[dict]:
    config = ProtectConfig(vault_path=folder / "vault.sqlite", key_source="env", llm_extractor=False)
    vault = open_vault(config, new_vault=True)
    rows = []
    print(
        f"{'runtime':8} {'kind':26} {'chars':>9} {'cpu s':>7} {'wall s':>7} {'cpu s/MB':>8} {'wall s/MB':>9}"
        f" {'x prev':>7} {'masked':>7}"
    )
    for runtime in runtimes:
        protector = Protector(config, vault, tagged_detector(runtime))
        protector.protect("warm up: Anna Berg, anna@example.org", f"{runtime}-warm-up")
        for number, kind in enumerate(kinds):
            previous = None
            for size in sizes:
                text = reference_text(size) if kind == REFERENCE else hostile_text(kind, size)
                session = f"{runtime}-{number}-{size}"  # no kind's words: "password cue-32000" is a password
                cpu, wall, protected = _timed(lambda text=text, session=session: protector.protect(text, session))
                ratio = cpu / previous if previous else None
                previous = max(cpu, 1e-3)
                row = {
                    "runtime": runtime,
                    "kind": kind,
                    "chars": size,
                    "cpu_s": round(cpu, 3),
                    "wall_s": round(wall, 3),
                    "cpu_s_per_mb": round(cpu * 1e6 / size, 2),
                    "wall_s_per_mb": round(wall * 1e6 / size, 2),
                    "cpu_ratio_to_previous": ratio and round(ratio, 2),
                    "masked": len(protected.spans),
                    "load_average": round(os.getloadavg()[0], 1),
                }
                rows.append(row)
                print(
                    f"{runtime:8} {kind:26} {size:>9} {cpu:>7.2f} {wall:>7.2f} {row['cpu_s_per_mb']:>8.2f}"
                    f" {row['wall_s_per_mb']:>9.2f} {ratio or 0:>7.2f} {row['masked']:>7}",
                    flush=True,
                )
    return rows


def markdown(rows: list[dict], runtimes: list[str]) -> str:
    """CPU and wall seconds per MB at each kind's largest size, a column pair per runtime, and the ratio."""
    largest = max(row["chars"] for row in rows)
    by = {(row["runtime"], row["kind"]): row for row in rows if row["chars"] == largest}
    kinds = list(dict.fromkeys(row["kind"] for row in rows))
    compared = len(runtimes) == 2
    header = ["kind", *(f"{runtime} CPU / wall s per MB" for runtime in runtimes), "masked"]
    header += [f"{runtimes[1]} / {runtimes[0]} CPU"] if compared else []
    body = [
        [
            kind,
            *(
                f"{by[runtime, kind]['cpu_s_per_mb']:.2f} / {by[runtime, kind]['wall_s_per_mb']:.2f}"
                for runtime in runtimes
            ),
            str(by[runtimes[-1], kind]["masked"]),
            *(
                [f"{by[runtimes[1], kind]['cpu_s'] / max(by[runtimes[0], kind]['cpu_s'], 1e-3):.2f}x"]
                if compared
                else []
            ),
        ]
        for kind in kinds
    ]
    lines = [
        f"# Protect with the PII tagger on {largest:,} characters of hostile text",
        "",
        f"`Protector.protect` (a vault file, a new session per text), CPU / wall seconds per MB; {load_range(rows)}.",
        "",
        *table(header, body),
    ]
    return "\n".join(lines) + "\n"


def side_by_side(before: list[dict], after: list[dict]) -> str:
    """CPU seconds per MB of each kind, runtime and size, before and after, and their ratio."""
    was = {(row["runtime"], row["kind"], row["chars"]): row for row in before}
    header = [
        "runtime",
        "kind",
        "chars",
        "before CPU s/MB",
        "after CPU s/MB",
        "after / before",
        "masked before / after",
    ]
    body = [
        [
            row["runtime"],
            row["kind"],
            f"{row['chars']:,}",
            f"{old['cpu_s_per_mb']:.2f}",
            f"{row['cpu_s_per_mb']:.2f}",
            f"{row['cpu_s'] / max(old['cpu_s'], 1e-3):.2f}x",
            f"{old['masked']} / {row['masked']}",
        ]
        for row in after
        for old in [was[row["runtime"], row["kind"], row["chars"]]]
    ]
    lines = [
        "# Protect with the PII tagger on hostile text, another revision (before) against this one",
        "",
        f"`Protector.protect` (a vault file, a new session per text), CPU seconds per MB; {load_range(before + after)}.",
        "",
        *table(header, body),
    ]
    return "\n".join(lines) + "\n"


def run_before(source: Path, args: argparse.Namespace) -> list[dict]:
    """This benchmark's protection rows with the stealthflow of `source` (a src/ directory), in a child process."""
    with tempfile.TemporaryDirectory() as folder:
        rows = Path(folder) / "rows.json"
        command = [sys.executable, __file__, "--sizes", *map(str, args.sizes), "--kinds", *args.kinds]
        command += ["--runtimes", *args.runtimes, "--rows-to", str(rows)]
        subprocess.run(command, env={**os.environ, "PYTHONPATH": str(source)}, check=True)
        return json.loads(rows.read_text(encoding="utf-8"))


def restore(sizes: list[int]) -> list[dict]:
    """Restore (the session's values loaded, a real vault file) of a reply of placeholder look-alikes."""
    rows = []
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
    parser.add_argument("--sizes", type=int, nargs="+", default=[250_000, 1_000_000])
    parser.add_argument("--kinds", nargs="*", default=[*KINDS, REFERENCE], choices=[*KINDS, REFERENCE])
    parser.add_argument("--runtimes", nargs="+", default=["torch", "numpy"], choices=["torch", "numpy"])
    parser.add_argument("--restore-sizes", type=int, nargs="*", default=[1_000_000, 10_000_000])
    parser.add_argument("--before", type=Path, help="also run the protection with this src/ directory's code, first")
    parser.add_argument("--name", default="hostile_text", help="the results' file name, before _side_by_side.md")
    parser.add_argument("--rows-to", type=Path, help=argparse.SUPPRESS)  # the child of --before: its rows, nothing else
    args = parser.parse_args()
    os.environ["STEALTHFLOW_VAULT_KEY"] = new_secret()  # the throwaway vaults' key
    before = run_before(args.before.resolve(), args) if args.before else None
    with tempfile.TemporaryDirectory() as folder:
        rows = protection(args.kinds, args.sizes, args.runtimes, Path(folder)) if args.kinds else []
    if args.rows_to:
        args.rows_to.write_text(json.dumps(rows), encoding="utf-8")
        return
    RESULTS.mkdir(exist_ok=True)
    if before is not None:
        table = side_by_side(before, rows)
        (RESULTS / f"{args.name}_side_by_side.json").write_text(
            json.dumps({"sizes": args.sizes, "before": before, "after": rows}, indent=2) + "\n", encoding="utf-8"
        )
        (RESULTS / f"{args.name}_side_by_side.md").write_text(table, encoding="utf-8")
        print(table)
        return
    restored = restore(args.restore_sizes)
    (RESULTS / f"{args.name}.json").write_text(
        json.dumps({"sizes": args.sizes, "rows": rows, "restore": restored}, indent=2) + "\n", encoding="utf-8"
    )
    if rows:
        table = markdown(rows, args.runtimes)
        (RESULTS / f"{args.name}.md").write_text(table, encoding="utf-8")
        print(table)


if __name__ == "__main__":
    main()
