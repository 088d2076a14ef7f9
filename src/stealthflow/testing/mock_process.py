"""A `MockOpenAI` in its own process, for benchmarks that must not share the client's CPU.

A real API or vLLM server runs in another process (another machine even): a mock served from a
thread of the benchmark's own process would take the GIL from the client it is measuring. Same
server, same seeded lognormal latency; its counters come back over `GET /mock/stats`.

    with MockOpenAIProcess(respond="stealthflow.testing.workflow_world:respond", max_concurrent=32) as upstream:
        ...  # upstream.base_url; upstream.stats() -> {"requests", "request_seconds", "peak_in_flight"}
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

import httpx

from stealthflow.testing.mock_openai import MockOpenAI, lognormal_delay


class MockOpenAIProcess:
    def __init__(
        self,
        respond: str = "stealthflow.testing.mock_openai:echo",
        median: float = 0.0,
        p99: float = 6.0,
        seed: int = 0,
        max_concurrent: int | None = None,
        chunk_chars: int = 3,
    ):
        """`respond` is a `module:function` path (a function cannot cross the process boundary); `median` 0: no delay."""
        self.args = [
            "--respond",
            respond,
            "--median",
            str(median),
            "--p99",
            str(p99),
            "--seed",
            str(seed),
            "--chunk-chars",
            str(chunk_chars),
        ]
        if max_concurrent is not None:
            self.args += ["--max-concurrent", str(max_concurrent)]
        self._process: subprocess.Popen | None = None
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stats(self) -> dict:
        return httpx.get(f"http://127.0.0.1:{self.port}/mock/stats", timeout=10).json()

    def __enter__(self) -> MockOpenAIProcess:
        # stdin stays open as the child's lifeline: closing it (or dying) stops the server
        self._process = subprocess.Popen(
            [sys.executable, "-m", __name__, *self.args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        line = self._process.stdout.readline()
        if not line.strip().isdigit():
            self.__exit__()
            raise RuntimeError("the mock server process did not start")
        self.port = int(line)
        return self

    def __exit__(self, *exc) -> None:
        if self._process is not None:
            self._process.stdin.close()
            self._process.wait(timeout=30)
            self._process = None


def main() -> None:
    parser = argparse.ArgumentParser(
        description="serve a MockOpenAI on a free loopback port; prints the port, stops when stdin closes"
    )
    parser.add_argument("--respond", required=True, help="module:function answering each chat request")
    parser.add_argument("--median", type=float, default=0.0)
    parser.add_argument("--p99", type=float, default=6.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-concurrent", type=int, default=None)
    parser.add_argument("--chunk-chars", type=int, default=3, help="characters per streamed chunk")
    args = parser.parse_args()
    module, _, name = args.respond.partition(":")
    respond = getattr(importlib.import_module(module), name)
    delay = lognormal_delay(args.median, args.p99, seed=args.seed) if args.median else 0.0
    with MockOpenAI(
        respond=respond, delay=delay, max_concurrent=args.max_concurrent, chunk_chars=args.chunk_chars
    ) as server:
        print(server.port, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
