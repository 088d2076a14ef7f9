"""Workflow throughput: the LangGraph loop vs a plain sequential per-profile loop, one run.

    OMP_NUM_THREADS=2 python benchmarks/workflow_throughput.py [--profiles 8] [--rounds 2] [--sample random|first]
        [--new-tokens 384] [--threads 2]

Same corpus (--profiles labelled test profiles: a seeded random sample, which has the corpus's
length mix, or the first ones, which are among the longest), same embedded model loaded once, same
steps (attack original → (anonymize → attack → utility) × rounds, then one insight update),
no response cache, rule-based verdicts (no judge calls) so both ways make the same calls:
1. backend alone: the profiles' first attack prompts in one `generate_batch` call (batched
   tokens/s the hardware gives; the better of two runs), and the same prompts one at a time;
2. workflow: every profile's graph in flight at once (the LLM client batches their calls);
3. sequential: the same node functions for one profile after another, one call at a time;
4. backend alone again, on exactly the requests the workflow made, all given at once: the
   batched tokens/s of the workflow's own mix of prompts and answer lengths, without the
   waiting that a profile's next call must do for its previous answer.
Prints profiles/minute of each way, their ratio, and tokens/s of the workflow against both
batched references (generated tokens / wall-clock seconds, prompts included).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from stealthflow.attack import CorrectnessJudge, LLMAttacker, attack_messages
from stealthflow.data import load_profiles
from stealthflow.insights import InsightLearner, InsightMemory
from stealthflow.llm import ChatRequest, ModelConfig, build_llm
from stealthflow.workflow.config import WorkflowConfig
from stealthflow.workflow.graph import build_graph
from stealthflow.workflow.nodes import Steps
from stealthflow.workflow.runner import run_profiles

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results"


class Recording:
    """Wraps a backend and keeps every request it is given (admitted ones included)."""

    def __init__(self, backend):
        self.inner, self.requests = backend, []

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def generate_admitting(self, jobs, admit, finish):
        def recorded_admit(params, free):
            admitted = admit(params, free)
            self.requests += [job.request for job in admitted]
            return admitted

        self.requests += [job.request for job in jobs]
        return self.inner.generate_admitting(jobs, recorded_admit, finish)


class OneAtATime:
    """The LLM seen by the sequential loop: `chat_many` becomes a loop of single calls."""

    def __init__(self, llm):
        self.llm = llm

    def chat_many(self, conversations, **overrides):
        return [self.llm.chat_many([messages], **overrides)[0] for messages in conversations]


def sequential(steps: Steps, profile) -> dict:
    """The plain loop: the workflow's own node functions, called in order, no graph."""
    state = {"profile": profile, "records": []}

    def merge(update):
        state.update({**update, "records": state["records"] + update.get("records", [])})

    merge(steps.attack_original(state))
    while steps.next_step(state) == "anonymize":
        for node in (steps.anonymize, steps.attack, steps.utility):
            merge(node(state))
    return state


def timed(llm, work) -> dict:
    before = (llm.stats.completion_tokens, llm.stats.calls, llm.stats.batches)
    start = time.perf_counter()
    result = work()
    seconds = time.perf_counter() - start
    tokens, calls, batches = (
        after - b for after, b in zip((llm.stats.completion_tokens, llm.stats.calls, llm.stats.batches), before)
    )
    return {"seconds": seconds, "tokens": tokens, "calls": calls, "batches": batches, "result": result}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profiles", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--sample", choices=["random", "first"], default="random", help="which test profiles (random: seeded)"
    )
    parser.add_argument(
        "--new-tokens", type=int, default=ModelConfig().max_new_tokens, help="default: the config default"
    )
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "2")))
    args = parser.parse_args()
    console = Console(width=130)
    labelled = [p for p in load_profiles(REPO / "data/test.jsonl") if p.labelled()]
    profiles = (
        random.Random(0).sample(labelled, args.profiles) if args.sample == "random" else labelled[: args.profiles]
    )
    llm = build_llm(ModelConfig(max_new_tokens=args.new_tokens, batch_size=args.profiles, threads=args.threads))
    config = WorkflowConfig(rounds=args.rounds, batch_size=args.profiles, llm_judge=False)

    def make_steps(model):
        return Steps(model, [LLMAttacker(model)], CorrectnessJudge(), config, memory=InsightMemory())

    # 1. the backend alone, on the profiles' first attack prompts
    requests = [ChatRequest.of(attack_messages(p.text, list(p.labelled())), llm.params) for p in profiles]
    prompt_tokens = [len(llm.backend.encode(r)) for r in requests]
    console.print(
        f"attack prompts: {statistics.median(prompt_tokens):.0f} tokens median, {min(prompt_tokens)}-{max(prompt_tokens)}"
    )
    llm.backend.generate_batch(requests[:1])  # warm-up

    def batched_rate(batch) -> float:
        start = time.perf_counter()
        return sum(c.completion_tokens for c in llm.backend.generate_batch(batch)) / (time.perf_counter() - start)

    # The best of two runs: this short measurement varies by ~25 % on a shared VM, and it is the
    # target's denominator, so the faster run is the strict reference.
    batched = max(batched_rate(requests), batched_rate(requests))
    start = time.perf_counter()
    single = sum(llm.backend.generate_batch([r])[0].completion_tokens for r in requests) / (time.perf_counter() - start)

    # 2. the workflow: all graphs in flight, then the batch's insight update
    steps = make_steps(llm)
    graph = build_graph(steps)

    def workflow():
        states = run_profiles(graph, profiles, len(profiles), args.rounds)
        failed = [s for s in states if isinstance(s, BaseException)]
        if failed:
            raise failed[0]
        return InsightLearner(llm, config.insights).update(steps.memory, [s["records"] for s in states])

    console.print("running the workflow ...")
    llm.backend = recorder = Recording(llm.backend)
    flow = timed(llm, workflow)
    llm.backend = recorder.inner

    # 3. the sequential loop: same nodes, one profile and one call at a time
    linger, llm.linger_seconds = llm.linger_seconds, 0.0  # no batching window to wait for
    seq_steps = make_steps(llm)

    def loop():
        states = [sequential(seq_steps, p) for p in profiles]
        return InsightLearner(OneAtATime(llm), config.insights).update(seq_steps.memory, [s["records"] for s in states])

    console.print("running the sequential loop ...")
    seq = timed(llm, loop)
    llm.linger_seconds = linger

    # 4. the backend alone on the workflow's own requests, all at once
    console.print(f"replaying the workflow's {len(recorder.requests)} requests in one batch ...")
    same_mix = batched_rate(recorder.requests)

    rows = {
        "workflow": flow,
        "sequential": seq,
    }
    title = f"{len(profiles)} {args.sample} profiles × {args.rounds} rounds, {llm.info.model_id} {llm.backend.dtype}, {args.threads} threads, ≤ {args.new_tokens} new tokens"
    table = Table(title=title)
    for column in ("way", "seconds", "LLM calls", "batches", "generated tokens", "profiles/min", "tokens/s"):
        table.add_column(column, justify="right")
    summary = {}
    for name, row in rows.items():
        per_minute = len(profiles) / row["seconds"] * 60
        rate = row["tokens"] / row["seconds"]
        summary[name] = {key: row[key] for key in ("seconds", "calls", "batches", "tokens")} | {
            "profiles_per_minute": per_minute,
            "tokens_per_second": rate,
        }
        table.add_row(
            name,
            f"{row['seconds']:.1f}",
            str(row["calls"]),
            str(row["batches"]),
            str(row["tokens"]),
            f"{per_minute:.2f}",
            f"{rate:.1f}",
        )
    table.add_row("backend, batch of all", "", str(len(requests)), "1", "", "", f"{batched:.1f}")
    table.add_row("backend, one at a time", "", str(len(requests)), str(len(requests)), "", "", f"{single:.1f}")
    table.add_row(
        "backend, the workflow's requests at once", "", str(len(recorder.requests)), "1", "", "", f"{same_mix:.1f}"
    )
    console.print(table)
    speedup = summary["workflow"]["profiles_per_minute"] / summary["sequential"]["profiles_per_minute"]
    share = summary["workflow"]["tokens_per_second"] / batched
    share_same_mix = summary["workflow"]["tokens_per_second"] / same_mix
    console.print(f"workflow vs sequential: {speedup:.2f}× profiles/min (target ≥ 4×)")
    console.print(
        f"workflow tokens/s vs backend batched tokens/s: {share:.0%} of the attack-prompt batch, {share_same_mix:.0%} of its own requests at once (target ≥ 85 %)"
    )
    RESULTS.mkdir(parents=True, exist_ok=True)
    summary |= {
        "attack_prompt_tokens": prompt_tokens,
        "dtype": llm.backend.dtype,
        "backend_batched_tokens_per_second": batched,
        "backend_single_tokens_per_second": single,
        "backend_same_requests_tokens_per_second": same_mix,
        "speedup": speedup,
        "share_of_batched": share,
        "share_of_same_requests_batched": share_same_mix,
        "args": vars(args),
    }
    (RESULTS / f"workflow_throughput-{args.sample}-{args.new_tokens}.json").write_text(json.dumps(summary, indent=2))
    llm.close()


if __name__ == "__main__":
    main()
