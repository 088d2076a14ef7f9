"""What the PII tagger costs when a server's worker threads call it (torch_threads.py).

A server runs detection off its event loop, in worker threads (`anyio.to_thread.run_sync`, as
the proxy does), for the life of one event loop. Torch's OpenMP gives each thread that runs a
parallel op a team of its own, and throttles every team once the process holds more OpenMP
threads than CPUs. Each way runs in a fresh process (that state lasts a process's life), on
1 KB texts, torch set to 2 threads: first a burst of 2 concurrent clients, then 1 client.

- main thread: one caller, the main thread, runs the detector itself (a command's case);
- workers, torch as set: the clients' worker threads run the model on the 2 threads set
  (stealthflow before torch_threads.py);
- workers, one torch thread each: the same clients; a worker thread runs the model on one (now).

    .venv/bin/python benchmarks/tagger_threads.py [--texts 80 --passes 3]

Writes benchmarks/results/tagger_threads.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
WAYS = {
    "main": "main thread",
    "workers-torch-as-set": "workers, torch as set (before)",
    "workers-one-thread": "workers, one torch thread each (now)",
}


def measure(way: str, count: int, passes: int) -> dict:
    """Regex + tagger wall ms per KB: the median of `passes` passes over `count` 1 KB texts with
    2 concurrent clients, then with 1 (after one warm-up pass)."""
    import anyio
    import torch

    sys.path.insert(0, str(Path(__file__).parent))
    from pii_detection import build_set, kilobyte_messages

    from stealthflow.pii_tagger.model import SpanTagger
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    torch.set_num_threads(2)
    if way == "workers-torch-as-set":  # the model's methods as they were: every thread runs them as set
        SpanTagger.load = classmethod(SpanTagger.load.__func__.__wrapped__)
        SpanTagger.token_probabilities = SpanTagger.token_probabilities.__wrapped__
    texts = kilobyte_messages(build_set(400, seed=7), count, seed=11)
    detector = Detector(build_recognizers(models=True))

    async def one_pass(clients: int) -> float:
        async def client(share: list[str]) -> None:
            for text in share:
                if way == "main":
                    detector.deterministic(text)
                else:
                    await anyio.to_thread.run_sync(detector.deterministic, text)

        start = time.perf_counter()
        async with anyio.create_task_group() as group:
            for first in range(clients):
                group.start_soon(client, texts[first::clients])
        return (time.perf_counter() - start) * 1000 / (sum(map(len, texts)) / 1000)

    async def server() -> dict:  # one event loop throughout, as a server has: its worker threads live on
        await one_pass(2)
        burst = [await one_pass(2) for _ in range(passes)]
        after = [await one_pass(1) for _ in range(passes)]
        return {
            "burst": statistics.median(burst),
            "after": statistics.median(after),
            "passes": {"burst": burst, "after": after},
        }

    return anyio.run(server) | {"load_average": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=80)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--way", choices=list(WAYS), help=argparse.SUPPRESS)  # one way, in this process
    args = parser.parse_args()
    if args.way:
        print(json.dumps(measure(args.way, args.texts, args.passes)))
        return
    env = {key: value for key, value in os.environ.items() if key != "OMP_NUM_THREADS"}
    results = {}
    for way, label in WAYS.items():
        command = [sys.executable, __file__, "--way", way, "--texts", str(args.texts), "--passes", str(args.passes)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        results[way] = json.loads(done.stdout.strip().splitlines()[-1])
        print(
            f"{label}: {results[way]['burst']:.2f} ms/KB with 2 clients, then {results[way]['after']:.2f} with 1",
            flush=True,
        )
    base = results["main"]["after"]
    lines = [
        "# PII tagger cost with worker threads (torch_threads.py)",
        "",
        f"Regex + tagger (the shipped student), 1 KB texts, torch set to 2 threads, {args.texts} texts x {args.passes} passes (median),",
        "each way in a fresh process with one event loop: a burst of 2 concurrent clients, then 1 client.",
        "",
        "| way | ms per KB, 2 clients | then 1 client | 1 client / main thread |",
        "|---|---|---|---|",
        *(
            f"| {label} | {results[way]['burst']:.2f} | {results[way]['after']:.2f} | {results[way]['after'] / base:.2f}x |"
            for way, label in WAYS.items()
        ),
    ]
    print("\n".join(lines[5:]))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "tagger_threads.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    (RESULTS / "tagger_threads.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
