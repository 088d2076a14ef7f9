"""The workflow at API speed: how many calls it keeps in flight against a latency-bound server.

    python benchmarks/workflow_api.py [--profiles 480] [--first 10] [--rounds 5] [--limit 64]
        [--median 1.0] [--p99 6.0] [--lag 15]

A mock OpenAI-compatible server on loopback (`stealthflow.testing.MockOpenAI`) answers every
prompt kind of the workflow with a canned, well-formed answer (`testing.workflow_world`, a
synthetic labelled corpus), after a latency drawn per request from a seeded lognormal (median
`--median` s, p99 `--p99` s), and refuses (429) a request over its concurrency limit. Each server
runs in its own process (`testing.mock_process`), as an API or a vLLM server does: served from a
thread of this process it would take the GIL from the client being measured. Every
way below goes through litellm over real HTTP, with the same corpus, rounds and insight batches
of 10; in one run:

    (a) sequential  one profile after another, one call at a time (insight update after every 10)
    (b) reference   a thread pool of 8, a barrier after every stage of every batch of 10
    (c) strict      `generate`, insight_lag 0 (each batch waits for the previous batch's update)
    (d) pipelined   `generate`, `--lag` (default 2 × limit ÷ batch + 1: see below)
    (d') pipelined  (d) with insight_lag = limit ÷ batch (the window just holds `--limit` profiles)
    (d/2)           (d) against one server with half the limit
    (e) router      (d) through `model: router` over two servers, each with half the limit

The lag bounds the profiles admitted: batches n-1-lag.. n. A batch leaves that window only when
its slowest profile and then its insight update are done, so its finished profiles keep holding
places; with limit ÷ batch batches, about two thirds of the limit are busy (d'). Twice that keeps
the limit busy, at the price of prompts showing a memory up to `--lag` batches old.

(a)–(c) run on the first `--first` profiles: a loop whose batches wait for each other has the
same rate on 20 profiles as on 2,000, and at a 1 s latency it would take hours on the whole
corpus. (d), (d'), (d/2) and (e) need the whole corpus: with fewer profiles than slots, or only
a few times more, the run's tail (the last profiles' chains of calls, ~16 s each) dominates: on
120 profiles the tail alone holds (d) under ~60 % of the bound.

Prints profiles/min, the mean number of requests in flight (server time of all requests ÷ wall
time) and the ideal bound: limit ÷ calls per profile ÷ mean latency (per minute). Targets: (d) ≥ 3×
(b) and ≥ 80 % of the ideal bound; (e) ≥ 1.8× (d/2). Writes benchmarks/results/workflow_api.json
and .png.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import yaml
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner
from workflow_throughput import OneAtATime, sequential

from stealthflow.attack import CorrectnessJudge, LLMAttacker
from stealthflow.cli import app
from stealthflow.data import load_profiles
from stealthflow.insights import InsightLearner, InsightMemory
from stealthflow.llm import LLM, ModelConfig, build_llm
from stealthflow.testing.mock_process import MockOpenAIProcess
from stealthflow.testing.workflow_world import corpus_lines
from stealthflow.workflow.config import WorkflowConfig
from stealthflow.workflow.nodes import Steps

RESULTS = Path(__file__).resolve().parent / "results"
RESPOND = "stealthflow.testing.workflow_world:respond"  # what the mock servers answer
BATCH = 10


class PooledLLM:
    """The reference's insight update: its calls spread over the same pool of threads."""

    def __init__(self, llm: LLM, pool: ThreadPoolExecutor):
        self.llm, self.pool = llm, pool

    def chat_many(self, conversations, **overrides):
        return list(self.pool.map(lambda messages: self.llm.chat_many([messages], **overrides)[0], conversations))


def reference_style(steps: Steps, profiles, threads: int = 8) -> None:
    """Batches of 10; every stage (attack the originals, then per round anonymize, attack, utility,
    then the insight update) runs over a pool of `threads` and waits for all before the next."""
    with ThreadPoolExecutor(threads) as pool:
        for start in range(0, len(profiles), BATCH):
            states = [{"profile": p, "records": []} for p in profiles[start : start + BATCH]]

            def stage(node, states=states):
                for state, update in zip(states, pool.map(node, states), strict=True):  # the barrier
                    state.update({**update, "records": state["records"] + update.get("records", [])})

            stage(steps.attack_original)
            for _ in range(steps.config.rounds):
                for node in (steps.anonymize, steps.attack, steps.utility):
                    stage(node)
            steps.memory = InsightLearner(PooledLLM(steps.anonymizer, pool), steps.config.insights).update(
                steps.memory, [s["records"] for s in states]
            )


def sequential_loop(steps: Steps, profiles) -> None:
    learner = InsightLearner(OneAtATime(steps.anonymizer), steps.config.insights)
    for start in range(0, len(profiles), BATCH):
        states = [sequential(steps, p) for p in profiles[start : start + BATCH]]
        steps.memory = learner.update(steps.memory, [s["records"] for s in states])


def node_steps(base_url: str, args, concurrency: int) -> Steps:
    llm = build_llm(
        ModelConfig(model="openai/mock-model", api_base=base_url, concurrency=concurrency, timeout=60, max_retries=4)
    )
    llm.linger_seconds = 0.0  # one call at a time needs no batching window
    config = WorkflowConfig(rounds=args.rounds, batch_size=BATCH)
    return Steps(llm, [LLMAttacker(llm)], CorrectnessJudge(llm), config, memory=InsightMemory())


def generate(data: Path, out: Path, model: dict, workflow: dict) -> None:
    config = out.parent / f"{out.name}.yaml"
    config.write_text(yaml.safe_dump({"model": model, "workflow": workflow}))
    result = CliRunner().invoke(
        app,
        [
            "generate",
            "--data",
            str(data),
            "--out",
            str(out),
            "--config",
            str(config),
            "--insights-out",
            str(out.parent / f"{out.name}-insights.json"),
        ],
    )
    if result.exit_code != 0:
        raise RuntimeError(f"generate failed: {result.output[-2000:]}")
    failed = json.loads((out / "progress.json").read_text())["failed"]
    if failed:
        raise RuntimeError(f"{len(failed)} profiles failed, e.g. {next(iter(failed.values()))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profiles", type=int, default=480, help="corpus of (d), (d'), (d/2), (e)")
    parser.add_argument("--first", type=int, default=10, help="(a)-(c) run on the first N of them")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--limit", type=int, default=64, help="concurrent requests a server accepts")
    parser.add_argument("--median", type=float, default=1.0, help="median latency, s")
    parser.add_argument("--p99", type=float, default=6.0, help="99th percentile latency, s")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--lag", type=int, default=None, help="insight_lag of (d), (d/2), (e); default 2 × limit ÷ batch + 1"
    )
    parser.add_argument("--only", default="a,b,c,d,d',d/2,e", help="comma-separated ways to run")
    args = parser.parse_args()
    console = Console(width=140)
    sigma = math.log(args.p99 / args.median) / 2.3263
    mean_latency = args.median * math.exp(sigma**2 / 2)
    work = Path(tempfile.mkdtemp(prefix="workflow_api-"))
    data = work / "corpus.jsonl"
    data.write_text("\n".join(corpus_lines(args.profiles)) + "\n")
    first = work / "first.jsonl"
    first.write_text("\n".join(corpus_lines(args.profiles)[: args.first]) + "\n")
    window_lag = math.ceil(args.limit / BATCH)  # the window just holds `limit` profiles
    lag = args.lag if args.lag is not None else 2 * window_lag + 1
    half = args.limit // 2

    def servers(*limits: int) -> list[MockOpenAIProcess]:
        return [
            MockOpenAIProcess(
                respond=RESPOND, median=args.median, p99=args.p99, seed=args.seed + i, max_concurrent=limit
            )
            for i, limit in enumerate(limits)
        ]

    def endpoint(server: MockOpenAIProcess, concurrency: int) -> dict:
        return {
            "model": "openai/mock-model",
            "api_base": server.base_url,
            "timeout": 60,
            "max_retries": 4,
            "concurrency": concurrency,
        }

    pipelined = {"rounds": args.rounds, "batch_size": BATCH, "insight_lag": lag, "max_concurrency": args.limit}
    ways = {
        "a": (
            "(a) sequential",
            args.first,
            [args.limit],
            lambda s: sequential_loop(node_steps(s[0].base_url, args, 1), load_profiles(first)),
        ),
        "b": (
            "(b) reference: 8 threads, barrier per stage",
            args.first,
            [args.limit],
            lambda s: reference_style(node_steps(s[0].base_url, args, args.limit), load_profiles(first)),
        ),
        "c": (
            "(c) generate, strict (insight_lag 0)",
            args.first,
            [args.limit],
            lambda s: generate(
                first,
                work / "strict",
                endpoint(s[0], args.limit),
                {"rounds": args.rounds, "batch_size": BATCH, "insight_lag": 0},
            ),
        ),
        "d": (
            f"(d) generate, pipelined (insight_lag {lag})",
            args.profiles,
            [args.limit],
            lambda s: generate(data, work / "pipelined", endpoint(s[0], args.limit), pipelined),
        ),
        "d'": (
            f"(d') generate, pipelined (insight_lag {window_lag})",
            args.profiles,
            [args.limit],
            lambda s: generate(
                data, work / "window", endpoint(s[0], args.limit), pipelined | {"insight_lag": window_lag}
            ),
        ),
        "d/2": (
            f"(d/2) pipelined, one server limited to {half}",
            args.profiles,
            [half],
            lambda s: generate(data, work / "half", endpoint(s[0], half), pipelined | {"max_concurrency": half}),
        ),
        "e": (
            f"(e) pipelined, router over 2 servers × {half}",
            args.profiles,
            [half, half],
            lambda s: generate(
                data,
                work / "router",
                {
                    "model": "router",
                    "timeout": 60,
                    "max_retries": 4,
                    "routing_strategy": "least-busy",
                    "model_list": [
                        {k: v for k, v in endpoint(x, half).items() if k not in ("timeout", "max_retries")} for x in s
                    ],
                },
                pipelined,
            ),
        ),
    }
    chosen = args.only.split(",")
    console.print(
        f"latency: lognormal, median {args.median} s, p99 {args.p99} s (mean {mean_latency:.3f} s); limit {args.limit}; "
        f"{args.rounds} rounds; corpus {args.profiles} synthetic profiles, (a)-(c) on the first {args.first}"
    )
    results = {}
    for key in chosen:
        name, profiles, limits, run = ways[key]
        with ExitStack() as stack:
            mocks = [stack.enter_context(server) for server in servers(*limits)]
            console.print(f"running {name} on {profiles} profiles ...")
            start, cpu_start = time.perf_counter(), time.process_time()
            run(mocks)
            seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
            stats = [m.stats() for m in mocks]
        requests = sum(s["requests"] for s in stats)  # 429s and their retries included
        served = sum(s["request_seconds"] for s in stats)
        results[key] = {
            "name": name,
            "profiles": profiles,
            "seconds": seconds,
            "requests": requests,
            "requests_per_profile": requests / profiles,
            "profiles_per_minute": profiles / seconds * 60,
            "mean_in_flight": served / seconds,
            "peak_in_flight": max(s["peak_in_flight"] for s in stats),
            "mean_latency_measured": served / max(requests, 1),
            "limit": sum(limits),
            "client_cpu_ms_per_request": cpu
            / max(requests, 1)
            * 1000,  # this process, all its threads (the servers run in others)
        }
        console.print(
            f"  {seconds:.1f} s, {results[key]['profiles_per_minute']:.1f} profiles/min, {results[key]['mean_in_flight']:.1f} in flight, "
            f"client CPU {cpu / seconds:.0%} of a core ({results[key]['client_cpu_ms_per_request']:.1f} ms per request)"
        )
    report(console, results, args, mean_latency, lag)


def report(console: Console, results: dict, args, mean_latency: float, lag: int) -> None:
    calls = results.get("d", next(iter(results.values())))["requests_per_profile"]
    table = Table(
        title=f"limit {args.limit}, lognormal latency median {args.median} s / p99 {args.p99} s, {args.rounds} rounds, {calls:.1f} calls per profile"
    )
    for column in (
        "way",
        "profiles",
        "seconds",
        "requests/profile",
        "profiles/min",
        "mean in flight",
        "peak in flight",
        "ideal bound",
        "share of bound",
    ):
        table.add_column(column, justify="right")
    for row in results.values():
        row["ideal_bound_per_minute"] = row["limit"] / row["requests_per_profile"] / mean_latency * 60
        row["share_of_ideal"] = row["profiles_per_minute"] / row["ideal_bound_per_minute"]
        table.add_row(
            row["name"],
            str(row["profiles"]),
            f"{row['seconds']:.1f}",
            f"{row['requests_per_profile']:.1f}",
            f"{row['profiles_per_minute']:.1f}",
            f"{row['mean_in_flight']:.1f}",
            str(row["peak_in_flight"]),
            f"{row['ideal_bound_per_minute']:.1f}",
            f"{row['share_of_ideal']:.0%}",
        )
    console.print(table)
    checks = {}
    if {"d", "b"} <= results.keys():
        checks["d_vs_b"] = results["d"]["profiles_per_minute"] / results["b"]["profiles_per_minute"]
        console.print(f"(d) vs (b): {checks['d_vs_b']:.2f}× (target ≥ 3×)")
    if "d" in results:
        checks["d_share_of_ideal"] = results["d"]["share_of_ideal"]
        console.print(f"(d) vs the ideal bound: {checks['d_share_of_ideal']:.0%} (target ≥ 80 %)")
    if {"e", "d/2"} <= results.keys():
        checks["e_vs_half"] = results["e"]["profiles_per_minute"] / results["d/2"]["profiles_per_minute"]
        console.print(f"(e) vs one server with half the limit: {checks['e_vs_half']:.2f}× (target ≥ 1.8×)")
    if args.median != 1.0:
        console.print(
            f"[yellow]latency scaled: median {args.median} s instead of 1 s (same shape); the ratios are what carry over[/]"
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "workflow_api.json").write_text(
        json.dumps(
            {"args": vars(args), "mean_latency": mean_latency, "insight_lag": lag, "ways": results, "checks": checks},
            indent=2,
        )
    )
    plot(results, RESULTS / "workflow_api.png", args)


def plot(results: dict, path: Path, args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [row["name"].split(" ", 1)[0] for row in results.values()]
    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    left.bar(names, [row["profiles_per_minute"] for row in results.values()], color="tab:blue", label="measured")
    left.scatter(
        names,
        [row["ideal_bound_per_minute"] for row in results.values()],
        color="tab:red",
        marker="_",
        s=400,
        label="ideal bound",
    )
    left.set(ylabel="profiles / min", title="throughput")
    left.legend(loc="upper left")
    right.bar(names, [row["mean_in_flight"] for row in results.values()], color="tab:green")
    right.bar(names, [row["limit"] for row in results.values()], fill=False, edgecolor="grey", label="limit")
    right.set(ylabel="requests", title="mean requests in flight")
    right.legend(loc="upper left")
    figure.suptitle(f"workflow at API latency (lognormal median {args.median} s, p99 {args.p99} s)", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


if __name__ == "__main__":
    sys.exit(main())
