"""What a `stealthflow protect` call waits for before it reads its text: Python imports.

`import presidio_analyzer` loads transformers' pipeline machinery for engines stealthflow does
not use; `stealthflow/presidio_import.py` defers it. Each way runs in a fresh process, the ways
alternated, `--runs` times each; medians side by side:

- Presidio as stealthflow imports it (`import stealthflow.presidio_import`) against a plain
  `import presidio_analyzer` (before);
- whole CLI calls: `stealthflow protect --rewrite none` on a one-line post, with and without the
  PII tagger (a fresh vault under a temporary HOME).

    .venv/bin/python benchmarks/startup.py [--runs 5]

Writes benchmarks/results/startup.json and .md.
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
STEALTHFLOW = str(Path(sys.executable).with_name("stealthflow"))
POST = "My name is Priya Raghunathan and I live at 14 Jubilee Road, Pune."
WAYS = {
    "import presidio_analyzer (before)": [sys.executable, "-c", "import presidio_analyzer"],
    "import stealthflow.presidio_import (now)": [sys.executable, "-c", "import stealthflow.presidio_import"],
    "protect --rewrite none --no-tagger": [STEALTHFLOW, "protect", "--rewrite", "none", "--no-tagger", POST],
    "protect --rewrite none (tagger on)": [STEALTHFLOW, "protect", "--rewrite", "none", POST],
}


def seconds(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=300)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home, "XDG_DATA_HOME": f"{home}/data", "XDG_CONFIG_HOME": f"{home}/config", "STEALTHFLOW_TAGGER": "1"}
        env["STEALTHFLOW_VAULT_KEY"] = new_secret()
        for command in WAYS.values():
            seconds(command, env)  # warm the file cache
        times: dict[str, list[float]] = {way: [] for way in WAYS}
        for _ in range(args.runs):
            for way, command in WAYS.items():
                times[way].append(seconds(command, env))
    medians = {way: statistics.median(values) for way, values in times.items()}
    before, now = medians["import presidio_analyzer (before)"], medians["import stealthflow.presidio_import (now)"]
    lines = ["| way | median s | runs (s) |", "|---|---|---|"]
    lines += [f"| {way} | {medians[way]:.2f} | {', '.join(f'{t:.2f}' for t in values)} |" for way, values in times.items()]
    lines += ["", f"Presidio's import: {before:.2f} s -> {now:.2f} s ({before / now:.2f}x less; with the tagger on, part of the difference is paid later by its tokenizer's import); load average {os.getloadavg()[0]:.1f}."]
    print("\n".join(lines))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "startup.json").write_text(json.dumps({"runs": times, "medians": medians, "load_average": os.getloadavg()[0]}, indent=2) + "\n", encoding="utf-8")
    (RESULTS / "startup.md").write_text("# CLI start-up (benchmarks/startup.py)\n\n" + "\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
