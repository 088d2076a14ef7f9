"""Latency `stealthflow proxy --rewrite` adds per user message, first sent and re-sent, on this CPU.

One proxy per rewriter (none, ner-mask, local without a model = cue tagger + deterministic deletion,
local = the embedded model with the shipped adapter, what `--rewrite local` runs), all in this
process against MockOpenAI, deterministic recognizers for protect. Each ~1 KB user message (test-split
comments plus an email, so it carries a placeholder) goes through every proxy in turn (interleaved),
then is re-sent as history with a new short turn, as a chat client does: that rewrite comes from the
cache. Added latency = proxied with the rewriter - proxied with none, per message; p50 and max.

    OMP_NUM_THREADS=2 .venv/bin/python benchmarks/proxy_rewrite.py [--messages 5] [--chars 1000]

Writes benchmarks/results/proxy_rewrite.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

from stealthflow.anonymize.methods import build_method
from stealthflow.config import Settings
from stealthflow.data import load_labelled
from stealthflow.llm.pool import LLMPool
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.pipeline.rewrite import build_rewriter
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.proxy.app import create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.resources import split_path
from stealthflow.testing.loopback import serve
from stealthflow.testing.mock_openai import MockOpenAI

RESULTS = Path(__file__).parent / "results"
TOKEN = "bench-token"


def messages(count: int, chars: int) -> list[str]:
    """~`chars` of one test profile's comments each, ending with an email (a placeholder to keep)."""
    texts = []
    for profile in load_labelled(split_path("test"), count * 2, 0):
        text = "\n".join(c.text for c in profile.comments)[: chars - 40].rsplit(" ", 1)[0]
        if len(text) > chars // 2:
            texts.append(f"{text}\nMail me: user{len(texts)}@example.org")
    return texts[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=5)
    parser.add_argument("--chars", type=int, default=1000)
    args = parser.parse_args()
    texts = messages(args.messages, args.chars)
    settings, pool = Settings(), LLMPool()
    started = time.perf_counter()
    rewriters = {
        "none": None,
        "ner-mask": build_rewriter("ner-mask", settings, pool),
        "local, no model": build_method("local", settings, pool, {"deterministic": True}),
        "local": build_rewriter("local", settings, pool),
    }
    print(f"rewriters built in {time.perf_counter() - started:.1f} s")
    first = {name: [] for name in rewriters}
    resent = {name: [] for name in rewriters}
    rejected = dict.fromkeys(rewriters, 0)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        os.environ["STEALTHFLOW_VAULT_KEY"] = new_secret()
        config = ProtectConfig(vault_path=Path(tmp) / "vault.sqlite", key_source="env", llm_extractor=False)
        protector = Protector(config, open_vault(config), Detector())
        upstream = stack.enter_context(MockOpenAI())
        # rewrite_fail send: the time of every message sent, also of one the rewrite left not protected (a 422 otherwise)
        proxy_config = ProxyConfig(
            upstream="openai/mock", upstream_base=upstream.base_url, upstream_key_env="NO_KEY", rewrite_fail="send"
        )
        urls = {
            name: f"http://127.0.0.1:{stack.enter_context(serve(create_proxy_app(protector, proxy_config, TOKEN, rewriter)))}/v1/chat/completions"
            for name, rewriter in rewriters.items()
        }
        client = stack.enter_context(httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=600))

        def post(name: str, history: list[dict]) -> tuple[float, int]:
            start = time.perf_counter()
            response = client.post(urls[name], json={"model": "m", "messages": history})
            response.raise_for_status()
            return (time.perf_counter() - start) * 1000, int(response.headers.get("x-stealthflow-rewrite-rejected", 0))

        for i, text in enumerate(texts):
            turn = [{"role": "user", "content": text}]
            again = [*turn, {"role": "assistant", "content": "Noted."}, {"role": "user", "content": "Thanks."}]
            for name in rewriters:  # interleaved: every rewriter sees each message in the same conditions
                ms, was_rejected = post(name, turn)
                first[name].append(ms)
                rejected[name] += was_rejected
                resent[name].append(post(name, again)[0])
            print(
                f"message {i + 1}/{len(texts)} ({len(text)} chars): "
                + ", ".join(f"{n} {first[n][-1]:.0f} ms" for n in rewriters),
                flush=True,
            )
        protector.close()
    pool.close()

    def added(times: dict[str, list[float]], name: str) -> list[float]:
        return [t - base for t, base in zip(times[name], times["none"], strict=True)]

    rows = {
        name: {
            "first_p50_ms": statistics.median(added(first, name)),
            "first_max_ms": max(added(first, name)),
            "resent_p50_ms": statistics.median(added(resent, name)),
            "rejected": rejected[name],
        }
        for name in rewriters
        if name != "none"
    }
    result = {
        "messages": len(texts),
        "chars": statistics.mean(map(len, texts)),
        "cpus": os.cpu_count(),
        "omp_threads": os.environ.get("OMP_NUM_THREADS"),
        "none_p50_ms": statistics.median(first["none"]),
        "rewriters": rows,
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "proxy_rewrite.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        f"# proxy --rewrite: added latency per user message ({len(texts)} messages of ~{result['chars']:.0f} chars, {os.cpu_count()} CPUs)",
        "",
        f"Proxy with --rewrite none: p50 {result['none_p50_ms']:.1f} ms per request (protect + mock upstream).",
        "",
        "| rewrite | added, first sent (p50) | added, first sent (max) | added, re-sent as history (p50) | rejected |",
        "|---|---|---|---|---|",
        *(
            f"| {name} | {row['first_p50_ms']:.0f} ms | {row['first_max_ms']:.0f} ms | {row['resent_p50_ms']:.1f} ms | {row['rejected']} |"
            for name, row in rows.items()
        ),
    ]
    (RESULTS / "proxy_rewrite.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
