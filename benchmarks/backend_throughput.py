"""Generation throughput of the embedded backend at batch sizes 1, 8, 32 in fp32 and bf16,
beside every other local backend that is installed, and the prompt-processing speed of each
dtype on a long attacker prompt, measured in one run.

    python benchmarks/backend_throughput.py [--new-tokens 64] [--threads 2]

Tokens/s = generated tokens / wall-clock seconds of the generate calls (prompt processing
included), over the same prompts for every configuration. Prompt tokens/s = tokens of the
longest test profile's attacker prompt / seconds to answer it with one token.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from stealthflow.attack import attack_messages
from stealthflow.data import load_profiles
from stealthflow.llm import ChatRequest, GenerationParams
from stealthflow.llm.embedded import converted_model_path, gguf_path
from stealthflow.llm.transformers_backend import TransformersBackend

REPO = Path(__file__).resolve().parent.parent


def prompts(n: int) -> list[list[dict]]:
    profiles = load_profiles(REPO / "data/test.jsonl", limit=n)
    return [
        [
            {
                "role": "user",
                "content": f"Rewrite this comment in your own words, keeping every detail:\n{p.comments[0].text[:600]}",
            }
        ]
        for p in profiles
    ]


def measure(backend, conversations, params) -> tuple[float, int, float]:
    requests = [ChatRequest.of(c, params) for c in conversations]
    start = time.perf_counter()
    completions = []
    for i in range(0, len(requests), backend.max_batch_size):
        completions += backend.generate_batch(requests[i : i + backend.max_batch_size])
    seconds = time.perf_counter() - start
    tokens = sum(c.completion_tokens for c in completions)
    return tokens / seconds, tokens, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--new-tokens", type=int, default=64)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    args = parser.parse_args()
    params = GenerationParams(max_new_tokens=args.new_tokens)
    console = Console(width=150)
    console.print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, {args.threads} threads, {args.new_tokens} new tokens/request"
    )
    table = Table(title="generation throughput (tokens/s)")
    for column in ("backend", "dtype", "batch", "requests", "tokens", "seconds", "tokens/s", "vs batch 1"):
        table.add_column(column, justify="right")
    path = converted_model_path()
    longest = max(load_profiles(REPO / "data/test.jsonl"), key=lambda p: len(p.text))
    prefill = ChatRequest.of(
        attack_messages(longest.text, list(longest.labelled())), GenerationParams(max_new_tokens=1)
    )
    prompt_rates = {}
    for dtype in ("float32", "bfloat16"):
        baseline = None
        for batch in (1, 8, 32):
            backend = TransformersBackend(path, dtype=dtype, batch_size=batch, threads=args.threads)
            conversations = prompts(max(batch, 2))  # batch 1 still averages two requests
            measure(backend, conversations[:1], GenerationParams(max_new_tokens=4))  # warm-up
            rate, tokens, seconds = measure(backend, conversations, params)
            baseline = baseline or rate
            table.add_row(
                "embedded (transformers)",
                dtype,
                str(batch),
                str(len(conversations)),
                str(tokens),
                f"{seconds:.1f}",
                f"{rate:.1f}",
                f"{rate / baseline:.2f}×",
            )
            if batch == 1:
                start = time.perf_counter()
                (answer,) = backend.generate_batch([prefill])
                prompt_rates[dtype] = (answer.prompt_tokens, answer.prompt_tokens / (time.perf_counter() - start))
            backend.close()
    try:
        from stealthflow.llm.llamacpp_backend import LlamaCppBackend

        backend = LlamaCppBackend(str(gguf_path()), threads=args.threads)
    except RuntimeError as exc:
        table.add_row("llama.cpp", "Q4_1", "1", "-", "-", "-", "not installed", escape(str(exc).split(":")[-1].strip()))
    else:
        rate, tokens, seconds = measure(backend, prompts(4), params)
        table.add_row("llama.cpp", "Q4_1", "1", "4", str(tokens), f"{seconds:.1f}", f"{rate:.1f}", "")
    table.add_row("litellm", "-", "-", "-", "-", "-", "n/a", "remote: bound by the provider, not this machine")
    console.print(table)
    for dtype, (tokens, rate) in prompt_rates.items():
        console.print(f"prompt processing, {dtype}: {rate:.0f} prompt tokens/s ({tokens}-token attacker prompt)")
    console.print(
        f"float32 vs bfloat16 prompt processing: {prompt_rates['float32'][1] / prompt_rates['bfloat16'][1]:.1f}×"
    )


if __name__ == "__main__":
    main()
