"""Does `generate` keep its API busy? Requests in flight against a fixed-latency server, over time.

    python benchmarks/workflow_concurrency.py [--limit 40] [--concurrency 32] [--latency 0.5] [--lag L]

A `MockOpenAI` on loopback, in its own process (`testing.mock_process`), answers every prompt kind
of the workflow (`testing.workflow_world`: attacker guesses, anonymizer rewrites, judge and
insight answers) after exactly `--latency` seconds, and takes at most `--concurrency` requests at
once (one more gets a 429). It records when each request started and ended. Two ways, one run:

    (a) client alone  the same number of calls through the same litellm client, all submitted at
                      once: what the client itself keeps in flight on this machine now
    (b) generate      `stealthflow generate --limit N` with `model.concurrency` and
                      `workflow.max_concurrency` = `--concurrency`, every other workflow key at its
                      default (`insight_lag` too, unless `--lag`)

Mean in flight = the server's request time ÷ wall time, over the whole command (imports and
setup included) and over the API window (first request sent to last answer); the longest gap
with nothing in flight inside that window; peak; calls; this process's CPU per call, over the
command and over the API window (what competes with the client's event loop for the GIL). A
timeline prints the mean in flight per second of (b). Writes
benchmarks/results/workflow_concurrency.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.llm import ModelConfig, build_llm
from stealthflow.testing.mock_openai import in_flight_over
from stealthflow.testing.mock_process import MockOpenAIProcess
from stealthflow.testing.workflow_world import corpus_lines
from stealthflow.workflow.config import WorkflowConfig

RESULTS = Path(__file__).resolve().parent / "results"
RESPOND = "stealthflow.testing.workflow_world:respond"


def endpoint(server: MockOpenAIProcess, concurrency: int) -> dict:
    return {
        "model": "openai/mock-model",
        "api_base": server.base_url,
        "concurrency": concurrency,
        "timeout": 60,
        "max_retries": 4,
    }


def run_generate(server: MockOpenAIProcess, work: Path, limit: int, concurrency: int, lag: int | None) -> None:
    data = work / "corpus.jsonl"
    data.write_text("\n".join(corpus_lines(limit)) + "\n")
    workflow = {"max_concurrency": concurrency} | ({"insight_lag": lag} if lag is not None else {})
    config = work / "generate.yaml"
    config.write_text(yaml.safe_dump({"model": endpoint(server, concurrency), "workflow": workflow}))
    args = ["generate", "--data", str(data), "--out", str(work / "run"), "--config", str(config)]
    result = CliRunner().invoke(app, [*args, "--limit", str(limit)])
    if result.exit_code != 0:
        raise RuntimeError(f"generate failed: {result.output[-2000:]}")
    failed = json.loads((work / "run" / "progress.json").read_text())["failed"]
    if failed:
        raise RuntimeError(f"{len(failed)} profiles failed, e.g. {next(iter(failed.values()))}")


def run_client_alone(server: MockOpenAIProcess, calls: int, concurrency: int) -> None:
    llm = build_llm(ModelConfig(**endpoint(server, concurrency)))
    try:
        llm.chat_many(
            [[{"role": "user", "content": f"Below are the ground truth and a prediction {i}"}] for i in range(calls)]
        )
    finally:
        llm.close()


def measure(name: str, run, concurrency: int, latency: float) -> dict:
    """Run `run(server)` against a fresh mock server; the in-flight figures from the server's own spans."""
    with MockOpenAIProcess(respond=RESPOND, median=latency, p99=latency, max_concurrent=concurrency) as server:
        with CpuClock() as clock:
            run(server)
        start, end = clock.samples[0][0], clock.samples[-1][0]
        stats = server.stats()
    spans = sorted(stats["spans"])
    first, last = spans[0][0], max(e for _, e in spans)
    return {
        "name": name,
        "calls": stats["requests"],
        "seconds": end - start,
        "api_seconds": last - first,
        "before_first_call": first - start,  # imports, setup, the first prompt built
        "after_last_answer": end - last,  # the last commit, the summary and its plot
        "mean_in_flight": in_flight_over(spans, start, end),
        "mean_in_flight_api": in_flight_over(spans, first, last),
        "peak_in_flight": stats["peak_in_flight"],
        "longest_idle_gap": longest_idle_gap(spans),
        "client_cpu_ms_per_call": (clock.at(end) - clock.at(start)) / max(stats["requests"], 1) * 1000,
        # this process's CPU between the first call and the last answer: the work on the request path
        "client_cpu_ms_per_call_api": (clock.at(last) - clock.at(first)) / max(stats["requests"], 1) * 1000,
        "timeline": [round(in_flight_over(spans, t, t + 1.0), 1) for t in _seconds(first, last)],
    }


class CpuClock:
    """This process's CPU time (all threads), sampled every 50 ms against the wall clock."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()

    def _sample(self) -> None:
        self.samples.append((time.time(), time.process_time()))

    def _loop(self) -> None:
        while not self._stop.wait(0.05):
            self._sample()

    def at(self, moment: float) -> float:
        """CPU seconds used by `moment` (the last sample before it)."""
        return max((cpu for wall, cpu in self.samples if wall <= moment), default=self.samples[0][1])

    def __enter__(self) -> CpuClock:
        self._sample()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()


def longest_idle_gap(spans: list[tuple[float, float]]) -> float:
    """Longest stretch between the first start and the last end with no request in flight."""
    gap, busy_until = 0.0, spans[0][1]
    for start, end in spans:
        gap = max(gap, start - busy_until)
        busy_until = max(busy_until, end)
    return gap


def _seconds(first: float, last: float) -> list[float]:
    return [first + i for i in range(int(last - first) + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=40, help="profiles (generate --limit)")
    parser.add_argument(
        "--concurrency", type=int, default=32, help="server limit = model.concurrency = max_concurrency"
    )
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per request (fixed)")
    parser.add_argument("--lag", type=int, default=None, help="workflow.insight_lag (default: the workflow's default)")
    args = parser.parse_args()
    defaults = WorkflowConfig(max_concurrency=args.concurrency)
    lag = args.lag if args.lag is not None else defaults.lag
    work = Path(tempfile.mkdtemp(prefix="workflow_concurrency-"))
    print(
        f"generate --limit {args.limit}: {defaults.batch_size} profiles per batch, {defaults.rounds} rounds, "
        f"max_concurrency {args.concurrency}, insight_lag {lag}"
        + (" (the default)" if args.lag is None else "")
        + f"; server: {args.latency} s per request, at most {args.concurrency} at once",
        flush=True,
    )
    generate = measure(
        "(b) generate",
        lambda server: run_generate(server, work, args.limit, args.concurrency, args.lag),
        args.concurrency,
        args.latency,
    )
    alone = measure(
        "(a) client alone",
        lambda server: run_client_alone(server, generate["calls"], args.concurrency),
        args.concurrency,
        args.latency,
    )
    rows = [alone, generate]
    columns = {
        "calls": "calls",
        "seconds": "wall s",
        "before_first_call": "to 1st call s",
        "api_seconds": "API window s",
        "after_last_answer": "after s",
        "mean_in_flight": "in flight (wall)",
        "mean_in_flight_api": "in flight (API)",
        "peak_in_flight": "peak",
        "longest_idle_gap": "longest gap s",
        "client_cpu_ms_per_call": "CPU ms/call",
        "client_cpu_ms_per_call_api": "(in API window)",
    }
    print(f"{'':18}" + "".join(f"{title:>17}" for title in columns.values()))
    for row in rows:
        cells = [f"{row[c]:.1f}" if isinstance(row[c], float) else str(row[c]) for c in columns]
        print(f"{row['name']:18}" + "".join(f"{c:>17}" for c in cells))
    print(f"(b) in flight per second: {' '.join(f'{x:g}' for x in generate['timeline'])}")
    print(
        f"(b) ÷ (a), mean in flight over the API window: {generate['mean_in_flight_api'] / alone['mean_in_flight_api']:.0%}"
    )
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "workflow_concurrency.json").write_text(
        json.dumps({"args": vars(args), "insight_lag": lag, "ways": rows}, indent=2)
    )


if __name__ == "__main__":
    sys.exit(main())
