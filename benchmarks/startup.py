"""How long a cold `stealthflow` call takes: the code before against this checkout, side by side.

Each way runs in a fresh process (a cold CLI: nothing imported, the models' files in the OS
cache), the code before and after alternated, `--runs` times each; per way the median wall time
and the median CPU time (user + system of the process). On a shared, busy machine the wall time
follows the load; the CPU time is what the call itself costs. The ways:

- `protect --rewrite none` (with and without the PII tagger) and `protect` (the default rewrite,
  `local`) on a one-line post with cues (a fresh vault under a temporary HOME; the embedded model
  converted once, beforehand); each side's output is compared: the same text, the same detection;
- argument errors (`--rewrite locl`) and empty stdin, which must be answered before any model loads;
- `--help`.

    git worktree add /tmp/before d7f258a
    .venv/bin/python benchmarks/startup.py --before /tmp/before/src [--runs 3]

Writes benchmarks/results/startup.json and .md (`--out NAME`: NAME.json and .md). `python -X importtime -c "import stealthflow.cli"`
and a profiler (`python -m cProfile -s cumulative -m stealthflow.cli ...`) say where the time goes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stealthflow.placeholders.keys import new_secret

RESULTS = Path(__file__).parent / "results"
AFTER = Path(__file__).resolve().parent.parent / "src"
CLI = [sys.executable, "-c", "import sys; from stealthflow.cli import main; sys.argv[0] = 'stealthflow'; main()"]
POST = "Twelve years as an ER nurse and the rent here in Leeds keeps going up. Mail me: anna.berg@example.org"
WAYS: dict[str, tuple[list[str], str | None]] = {  # way -> (arguments, stdin)
    "protect --rewrite none": (["protect", "--rewrite", "none", POST], None),
    "protect --rewrite none --no-tagger": (["protect", "--rewrite", "none", "--no-tagger", POST], None),
    "protect (default rewrite)": (["protect", POST], None),
    "protect --rewrite locl (error)": (["protect", "--rewrite", "locl", POST], None),
    "protect - (empty stdin: error)": (["protect", "-"], ""),
    "--help": (["--help"], None),
}


def measure(args: list[str], stdin: str | None, env: dict) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, stdout and exit code) of one fresh process."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(CLI + args, env=env, input=stdin or "", capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, f"{done.stdout}(exit {done.returncode})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--before", type=Path, required=True, help="the src/ directory of the code before (a git worktree)"
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ways", help="comma-separated subset of the ways (default: all)")
    parser.add_argument("--out", default="startup", help="results name: benchmarks/results/NAME.json and .md")
    args = parser.parse_args()
    ways = {way: WAYS[way] for way in (args.ways.split(",") if args.ways else WAYS)}
    sources = {"before": args.before.resolve(), "after": AFTER}
    load_at_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as home:
        base = {
            **os.environ,
            "HOME": home,
            "XDG_DATA_HOME": f"{home}/data",
            "XDG_CONFIG_HOME": f"{home}/config",
            "OMP_NUM_THREADS": "1",
        }
        base["STEALTHFLOW_VAULT_KEY"] = new_secret()
        base["STEALTHFLOW_CACHE_DIR"] = base.get("STEALTHFLOW_CACHE_DIR") or str(
            Path.home() / ".cache" / "stealthflow"
        )  # the converted model, kept
        envs = {side: {**base, "PYTHONPATH": str(src)} for side, src in sources.items()}
        for env in envs.values():
            for way_args, stdin in ways.values():
                measure(way_args, stdin, env)  # warm the file cache (and convert the model once)
        runs: dict[str, dict[str, list[tuple[float, float]]]] = {way: {side: [] for side in sources} for way in ways}
        outputs: dict[str, dict[str, set[str]]] = {way: {side: set() for side in sources} for way in ways}
        for _ in range(args.runs):
            for way, (way_args, stdin) in ways.items():
                for side, env in envs.items():
                    wall, cpu, output = measure(way_args, stdin, env)
                    runs[way][side].append((wall, cpu))
                    outputs[way][side].add(output)
    medians = {
        way: {side: [statistics.median(t[i] for t in times) for i in (0, 1)] for side, times in sides.items()}
        for way, sides in runs.items()
    }
    same = {way: len(sides["before"] | sides["after"]) == 1 for way, sides in outputs.items()}
    lines = [
        "| way | wall s before | wall s after | CPU s before | CPU s after | same output |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {way} | {m['before'][0]:.2f} | {m['after'][0]:.2f} | {m['before'][1]:.2f} | {m['after'][1]:.2f} | {'yes' if same[way] else 'NO'} |"
        for way, m in medians.items()
    ]
    lines += [
        "",
        f"Medians of {args.runs} fresh processes per way and side, alternated; load average {load_at_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores).",
    ]
    print("\n".join(lines))
    RESULTS.mkdir(exist_ok=True)
    body = {
        "runs": runs,
        "medians": medians,
        "same_output": same,
        "load_average": {"start": load_at_start, "end": os.getloadavg()[0]},
        "before": str(args.before),
    }
    (RESULTS / f"{args.out}.json").write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    (RESULTS / f"{args.out}.md").write_text(
        "# CLI start-up (benchmarks/startup.py)\n\n" + "\n".join(lines) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
