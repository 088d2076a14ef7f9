"""Rows per second of `stealthflow batch protect` on Ray Data against the single-process
`stealthflow protect -i`, on one corpus, side by side in one run.

The corpus: `--rows` 1 KB messages from the PII detection benchmark (pii_detection.py: PII
sentences of every type, a distractor in four), detection as configured by default (the
deterministic recognizers and the PII tagger), placeholders only (`--rewrite none`).

- single process: `stealthflow protect -i FILE --style hmac --rewrite none` in a subprocess,
  wall time from start to exit (start-up included), and its steady rate (the rows after the first
  16, timed by the progress of its output file);
- batch, 1 and 2 workers: `run_job` on a local Ray (started once, 2 CPUs), wall time of the job
  (actor start-up included) and its steady rate (the rows after the first block, from that
  block's end to the last block's end). Scaling efficiency = steady rate with 2 workers / (2 x
  the rate with 1). RSS per actor: the largest resident set of each Ray map worker seen during
  the job. The projection for N machines multiplies the measured 2-worker steady rate; it is a
  projection, not a measurement.

    .venv/bin/python benchmarks/batch.py [--rows 300]

Writes benchmarks/results/batch.json.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from stealthflow.testing.loopback import cli_command

RESULTS = Path(__file__).parent / "results"
HOME = tempfile.mkdtemp(prefix="stealthflow-batch-bench-")  # never the user's vault or key
os.environ["XDG_DATA_HOME"] = os.path.join(HOME, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(HOME, "config")
os.environ["STEALTHFLOW_VAULT_KEY"] = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
os.environ.setdefault("OMP_NUM_THREADS", "1")


def corpus(path: Path, rows: int) -> int:
    sys.path.insert(0, str(Path(__file__).parent))
    from pii_detection import build_set, kilobyte_messages

    texts = kilobyte_messages(build_set(400, seed=7), rows, seed=7)
    path.write_text("".join(json.dumps({"id": f"m{i}", "text": t}) + "\n" for i, t in enumerate(texts)))
    return sum(len(t.encode()) for t in texts)


def single_process(path: Path, out: Path) -> dict:
    """The CLI's wall time, and its steady rate from the output file's growth."""
    command = cli_command("protect", "-i", str(path))
    command += ["-o", str(out), "-s", "bench", "--style", "hmac", "--rewrite", "none"]
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen: list[tuple[float, int]] = []
    while process.poll() is None:
        lines = out.read_text().count("\n") if out.exists() else 0
        if lines and (not seen or seen[-1][1] != lines):
            seen.append((time.monotonic(), lines))
        time.sleep(0.01)
    wall = time.monotonic() - started
    rows = out.read_text().count("\n")
    seen.append((time.monotonic(), rows))
    (t0, r0), (t1, r1) = seen[0], seen[-1]
    return {
        "rows": rows,
        "wall_s": round(wall, 2),
        "rows_per_s_wall": round(rows / wall, 1),
        "rows_per_s_steady": round((r1 - r0) / (t1 - t0), 1) if t1 > t0 else None,
    }


def worker_rss() -> dict[int, int]:
    """RSS in bytes of each Ray map worker (its process title names the operator)."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"MapWorker" in title:
                status = Path(f"/proc/{pid}/status").read_text()
                found[int(pid)] = (
                    int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS"))) * 1024
                )
        except (OSError, StopIteration):
            continue
    return found


def batch(path: Path, out: Path, workers: int, block_bytes: int) -> dict:
    from stealthflow.batch import Job, Pools, run_job
    from stealthflow.config import load_settings
    from stealthflow.pipeline.protector import open_vault

    settings = load_settings()
    vault = open_vault(settings.protect)
    blocks: list[tuple[float, int]] = []
    rss: dict[int, int] = {}

    def on_progress(progress) -> None:
        blocks.append((time.monotonic(), progress.rows))
        for pid, size in worker_rss().items():
            rss[pid] = max(rss.get(pid, 0), size)

    started = time.monotonic()
    result = run_job(
        str(path),
        out,
        settings,
        vault,
        Job(session="bench", block_bytes=block_bytes),
        Pools(workers=workers),
        on_progress=on_progress,
    )
    wall = time.monotonic() - started
    vault.close()
    (t0, r0), (t1, r1) = blocks[0], blocks[-1]
    return {
        "workers": workers,
        "rows": result.rows,
        "failed": len(result.failures),
        "wall_s": round(wall, 2),
        "rows_per_s_wall": round(result.rows / wall, 1),
        "rows_per_s_steady": round((r1 - r0) / (t1 - t0), 1),
        "rss_per_actor_mb": sorted(round(size / 2**20) for size in rss.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--block-kb", type=int, default=24)
    args = parser.parse_args()
    import ray

    work = Path(HOME) / "work"
    work.mkdir()
    size = corpus(work / "in.jsonl", args.rows)
    load_before = os.getloadavg()
    single = single_process(work / "in.jsonl", work / "single.jsonl")
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=200 * 2**20, log_to_driver=False)
    try:
        runs = [batch(work / "in.jsonl", work / f"out-{n}", n, args.block_kb * 1024) for n in (1, 2)]
    finally:
        ray.shutdown()
    one, two = runs
    efficiency = two["rows_per_s_steady"] / (2 * one["rows_per_s_steady"])
    result = {
        "corpus": {"rows": args.rows, "bytes": size, "block_kb": args.block_kb},
        "machine": {
            "cpus": os.cpu_count(),
            "load_before": [round(x, 2) for x in load_before],
            "load_after": [round(x, 2) for x in os.getloadavg()],
        },
        "single_process_cli": single,
        "batch": runs,
        "scaling_efficiency_1_to_2_workers": round(efficiency, 2),
        "projection_not_measured": {
            f"{n} machines x 2 workers": {
                "rows_per_s": round(n * two["rows_per_s_steady"]),
                "hours_per_100_GB_of_1_KB_rows": round(100e9 / 1024 / (n * two["rows_per_s_steady"]) / 3600, 1),
            }
            for n in (1, 10, 100)
        },
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "batch.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"{'':24}{'wall s':>8}{'rows/s wall':>13}{'rows/s steady':>15}  RSS per actor (MB)")
    print(
        f"{'single-process CLI':24}{single['wall_s']:>8}{single['rows_per_s_wall']:>13}{single['rows_per_s_steady'] or '-':>15}"
    )
    for run in runs:
        print(
            f"{'batch, ' + str(run['workers']) + ' worker(s)':24}{run['wall_s']:>8}{run['rows_per_s_wall']:>13}{run['rows_per_s_steady']:>15}  {run['rss_per_actor_mb']}"
        )
    print(
        f"scaling efficiency 1 -> 2 workers: {efficiency:.2f}; load {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    for name, row in result["projection_not_measured"].items():
        print(
            f"projection (not measured), {name}: {row['rows_per_s']} rows/s, {row['hours_per_100_GB_of_1_KB_rows']} h per 100 GB of 1 KB rows"
        )


if __name__ == "__main__":
    main()
