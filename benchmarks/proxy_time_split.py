"""Where a proxied 1 KB request's added time goes: the proxy's stages timed in place, wall clock and CPU.

The proxy runs in this process (uvicorn on a loopback port, in a thread of its own, the PII tagger on, `--no-llm`, the
start-up heap frozen as `run_server` does), the mock upstream in a process of its own, and the requests are those of
`proxy_overhead.py --tagger` (1 KB of PII-bearing chat text, a new one each time, one session), after the same burst of
concurrent requests. Each request goes to the mock directly and through the proxy, one after the other, so the added
time is the difference of the pair. The stages are timed by wrapping the proxy's own functions for this run (nothing
in the library changes): the client waits while the proxy works, so the stages do not overlap. CPU: a function's is its
thread's CPU time while it runs; a coroutine's is the event loop thread's while it is in progress (the loop serves this
one request meanwhile, so that is the coroutine's own work and its I/O's, not the mock's, which runs in a process of
its own); and per request, each of the proxy's threads' CPU time (all but the client's, which is this one's main
thread): the event loop's, and the others' (detection's worker threads, the vault's checkpoints).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/proxy_time_split.py [--requests 200] [--stream]
    PYTHONPATH=/tmp/old/src .venv/bin/python benchmarks/proxy_time_split.py --name proxy_time_split_before  # old code

Prints, per stage, the median wall ms per request, its share of the median added time, its median CPU ms and their share
of the proxy's median CPU per request; nested stages are indented, a stage's rest is its time outside the stages listed
under it. Writes
the table to benchmarks/results/proxy_time_split_run.md (`--name`) and each stage's median to its .json.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import inspect
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import httpx

from stealthflow.placeholders.keys import new_secret
from stealthflow.testing.loopback import serve
from stealthflow.testing.mock_process import MockOpenAIProcess

sys.path.insert(0, str(Path(__file__).resolve().parent))

from proxy_overhead import BURST_SEEDS, TOKEN, call, prompt, throughput  # noqa: E402

RESULTS = Path(__file__).parent / "results"
SPENT: dict[str, float] = defaultdict(float)  # stage -> seconds in the request being timed
CPU = "CPU: "  # SPENT[CPU + stage]: the CPU seconds of its thread in a stage (a coroutine: of the event loop's thread)
LOOP, OTHERS, ALL = "event loop thread", "the other threads (detection workers, vault checkpoints)", "all its threads"
HANDLED = threading.Event()  # set when the handler timed returns (a stream's client may have its last byte before)
EVENT_LOOP: set[int] = set()  # the thread the chat handler runs in: the server's event loop


def timed(owner: object, name: str, stage: str) -> None:
    """Replace `owner.name` by a wrapper adding its wall time to `SPENT[stage]` (coroutines and async generators too),
    and its thread's CPU time to `SPENT[CPU + stage]` (steadier on a loaded machine)."""
    original = inspect.getattr_static(owner, name)
    unwrapped = original.__func__ if isinstance(original, staticmethod | classmethod) else original
    if inspect.isasyncgenfunction(unwrapped):

        async def wrapper(*args, **kwargs):  # the time between its items is the consumer's, not counted
            items = unwrapped(*args, **kwargs)
            while True:
                start, cpu = time.perf_counter(), time.thread_time()
                try:
                    item = await anext(items)
                except StopAsyncIteration:
                    return
                finally:
                    SPENT[stage] += time.perf_counter() - start
                    SPENT[CPU + stage] += time.thread_time() - cpu
                yield item

    elif inspect.iscoroutinefunction(unwrapped):

        async def wrapper(*args, **kwargs):
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return await unwrapped(*args, **kwargs)
            finally:
                SPENT[stage] += time.perf_counter() - start
                SPENT[CPU + stage] += time.thread_time() - cpu

    else:

        def wrapper(*args, **kwargs):
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return unwrapped(*args, **kwargs)
            finally:
                SPENT[stage] += time.perf_counter() - start
                SPENT[CPU + stage] += time.thread_time() - cpu

    functools.update_wrapper(wrapper, unwrapped)
    setattr(owner, name, staticmethod(wrapper) if isinstance(original, staticmethod) else wrapper)


def hand_offs() -> None:
    """Time a worker thread's hand-off both ways: from `to_thread.run_sync` to the call starting, and back."""
    import anyio.to_thread

    run_sync = anyio.to_thread.run_sync

    async def timed_run_sync(function, *args, **kwargs):
        marks: dict[str, float] = {}

        def inside(*inner):
            marks["start"] = time.perf_counter()
            try:
                return function(*inner)
            finally:
                marks["end"] = time.perf_counter()

        called = time.perf_counter()
        try:
            return await run_sync(inside, *args, **kwargs)
        finally:
            if marks:
                SPENT["thread hand-off"] += (marks["start"] - called) + (time.perf_counter() - marks["end"])

    anyio.to_thread.run_sync = timed_run_sync


# (stage, parent) in the order printed; each wraps the named function
STAGES = [
    ("handler (chat)", None),
    ("read the body", "handler (chat)"),
    ("walk the request (RequestTexts)", "handler (chat)"),
    ("thread hand-off", "handler (chat)"),
    ("protect_many", "handler (chat)"),
    ("detector", "protect_many"),
    ("tagger", "detector"),
    ("pattern recognizers", "detector"),
    ("language guess", "detector"),
    ("session's known values (_chosen)", "protect_many"),
    ("vault.issue (one transaction)", "protect_many"),
    ("write back (put)", "handler (chat)"),
    ("upstream call (aiohttp, mock included)", "handler (chat)"),
    ("upstream stream (aiohttp, mock included)", "handler (chat)"),
    ("restore the reply", "handler (chat)"),
    ("keep the restored texts (one transaction)", "handler (chat)"),
    ("the reply's resolver (Protector.resolver)", "handler (chat)"),
    ("the log line", "handler (chat)"),
    ("garbage collection (within the stages)", None),
]


def _within(root: str) -> set[str]:
    """`root` and the stages nested in it."""
    stages = {root}
    for stage, parent in STAGES:  # a parent is listed before its children
        if parent in stages:
            stages.add(stage)
    return stages


IN_A_WORKER = _within("protect_many")  # with the tagger on, a request is protected in a worker thread


def pattern_pass(detector) -> None:
    """Time the detector's pass of the pattern recognizers as a whole (its `words_kept` block): one timing per text,
    not one per recognizer (~120 a text), whose own cost would weigh in the figures."""
    words_kept = detector.words_kept

    @contextlib.contextmanager
    def timed_pass():
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            with words_kept():
                yield
        finally:
            SPENT["pattern recognizers"] += time.perf_counter() - start
            SPENT[CPU + "pattern recognizers"] += time.thread_time() - cpu

    detector.words_kept = timed_pass


def collections() -> None:
    """Time the garbage collector's runs (in whichever stage they fall: their time is counted there too)."""
    started: list[float] = []

    def timer(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            SPENT["garbage collection (within the stages)"] += time.perf_counter() - started[0]

    gc.callbacks.append(timer)


def instrument() -> None:
    from starlette.requests import Request

    import stealthflow.placeholders.detector as detector
    import stealthflow.proxy.app as proxy_app
    import stealthflow.proxy.upstream as upstream
    from stealthflow.pipeline.protector import Protector
    from stealthflow.placeholders.vault import Vault
    from stealthflow.proxy.history import RestoredReplies
    from stealthflow.proxy.messages import RequestTexts
    from stealthflow.proxy.replies import ReplyRestorer

    timed(Request, "body", "read the body")
    timed(RequestTexts, "__init__", "walk the request (RequestTexts)")
    timed(RequestTexts, "put", "write back (put)")
    timed(Protector, "protect_many", "protect_many")
    timed(Protector, "_detect", "detector")
    timed(Protector, "_chosen", "session's known values (_chosen)")
    timed(detector.Detector, "_run_on_pieces", "tagger")
    pattern_pass(detector)
    timed(detector, "read", "language guess")
    timed(Vault, "issue", "vault.issue (one transaction)")
    timed(upstream.OpenAIUpstream, "complete", "upstream call (aiohttp, mock included)")
    timed(upstream.OpenAIUpstream, "stream", "upstream stream (aiohttp, mock included)")
    timed(ReplyRestorer, "whole", "restore the reply")
    timed(ReplyRestorer, "chunks", "restore the reply")
    timed(ReplyRestorer, "tail", "restore the reply")
    timed(RestoredReplies, "keep", "keep the restored texts (one transaction)")
    timed(Protector, "resolver", "the reply's resolver (Protector.resolver)")
    timed(proxy_app, "_log", "the log line")
    hand_offs()
    collections()


def thread_seconds() -> dict[int, tuple[str, float]]:
    """Each of the proxy's threads (all but this process's main thread, the client's): its kind and CPU seconds so far."""
    seconds = {}
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.ident is None:
            continue
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            kind = LOOP if thread.ident in EVENT_LOOP else OTHERS
            seconds[thread.ident] = kind, time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    return seconds


def add_thread_cpu(before: dict[int, tuple[str, float]]) -> None:
    """Add each kind of the proxy's threads' CPU seconds since `before` (`thread_seconds`) to `SPENT[CPU + kind]`."""
    for ident, (kind, seconds) in thread_seconds().items():
        spent = seconds - before.get(ident, (kind, 0.0))[1]
        SPENT[CPU + kind] += spent
        SPENT[CPU + ALL] += spent


def handler_timer(app) -> None:
    """Time the chat route's whole handler (the streamed reply's body included: `EventStream` is sent within it)."""
    from starlette.routing import Route

    for route in app.router.routes:
        if isinstance(route, Route) and route.path == "/v1/chat/completions":
            inner = route.app

            async def timed_route(scope, receive, send, inner=inner):
                EVENT_LOOP.add(threading.get_ident())
                start, cpu = time.perf_counter(), time.thread_time()
                try:
                    await inner(scope, receive, send)
                finally:
                    SPENT["handler (chat)"] += time.perf_counter() - start
                    SPENT[CPU + "handler (chat)"] += time.thread_time() - cpu
                    HANDLED.set()

            route.app = timed_route


def build_app(upstream_base: str, workdir: Path):
    os.environ.update(
        STEALTHFLOW_VAULT_KEY=new_secret(),
        STEALTHFLOW_TAGGER="1",
        XDG_DATA_HOME=str(workdir / "data"),
        XDG_CONFIG_HOME=str(workdir / "config"),
    )
    from stealthflow.cli.app import protect_settings, user_protector
    from stealthflow.proxy.app import create_proxy_app

    settings = protect_settings(None, None, None, llm_extractor=False, tagger=True)
    config = settings.proxy.model_validate(
        {**settings.proxy.model_dump(), "upstream": "openai/mock-model", "upstream_base": upstream_base}
    )
    protector = user_protector(settings)
    protector.start_detection_helpers()
    return create_proxy_app(protector, config, TOKEN), protector


def run(requests: int, stream: bool, concurrent: int) -> dict:
    instrument()
    with contextlib.ExitStack() as stack:
        upstream = stack.enter_context(MockOpenAIProcess(respond="benchmarks.proxy_overhead:answer", chunk_chars=4))
        app, protector = build_app(upstream.base_url, Path(stack.enter_context(tempfile.TemporaryDirectory())))
        stack.callback(protector.close)
        handler_timer(app)
        gc.freeze()
        port = stack.enter_context(serve(app))
        base = f"http://127.0.0.1:{port}/v1"
        asyncio.run(throughput(base, concurrent, concurrent * 4, BURST_SEEDS))
        rows: list[dict[str, float]] = []
        with httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=120) as client:
            for warm in range(5):
                body = {"model": "mock-model", "messages": [{"role": "user", "content": prompt(1_000, -1 - warm)}]}
                call(client, upstream.base_url, body | {"stream": stream})
                call(client, base, body | {"stream": stream})
            for i in range(requests):
                body = {
                    "model": "mock-model",
                    "messages": [{"role": "user", "content": prompt(1_000, 300_000 + i)}],
                    "stream": stream,
                }
                SPENT.clear()
                HANDLED.clear()
                threads = thread_seconds()
                proxied = call(client, base, body)
                HANDLED.wait(10)
                add_thread_cpu(threads)
                row = {stage: seconds * 1000 for stage, seconds in SPENT.items()}
                row["direct"] = call(client, upstream.base_url, body)
                row["proxied"] = proxied
                rows.append(row)
    return {"requests": requests, "stream": stream, "load_average": os.getloadavg()[0], "rows": rows}


def median(rows: list[dict], stage: str) -> float:
    return statistics.median(row.get(stage, 0.0) for row in rows)


def report(result: dict) -> str:
    rows = result["rows"]
    added = statistics.median(row["proxied"] - row["direct"] for row in rows)
    spent = median(rows, CPU + ALL)
    depth = {None: -1}
    children: dict[str | None, list[str]] = defaultdict(list)
    for stage, parent in STAGES:
        depth[stage] = depth[parent] + 1
        children[parent].append(stage)
    lines = [
        f"{result['requests']} {'streamed' if result['stream'] else 'plain'} requests of 1 KB, load average "
        f"{result['load_average']:.1f}; medians per request (ms), shares of the added time and of the proxy's CPU",
        "",
        "| stage | wall ms | share | CPU ms | share of CPU |",
        "|---|---:|---:|---:|---:|",
        f"| direct to the mock | {median(rows, 'direct'):.2f} | | | |",
        f"| through the proxy | {median(rows, 'proxied'):.2f} | | | |",
        f"| **added by the proxy** | **{added:.2f}** | 100 % | | |",
        f"| **the proxy's CPU, {ALL}** | | | **{spent:.2f}** | 100 % |",
    ]

    def line(stage: str, level: int, ms: float | None, cpu: float | None) -> str:
        wall = "| | |" if ms is None else f"| {ms:.2f} | {100 * ms / added:.0f} % |"
        used = " | |" if cpu is None else f" {cpu:.2f} | {100 * cpu / spent:.0f} % |"
        return f"| {'&nbsp;&nbsp;' * level}{stage} {wall}{used}"

    def cpu_of(stage: str) -> float | None:
        return median(rows, CPU + stage) if any(CPU + stage in row for row in rows) else None

    for kind in (LOOP, OTHERS):
        lines.append(line(kind, 1, None, cpu_of(kind)))
    for stage, _ in STAGES:
        if not any(stage in row for row in rows):
            continue
        lines.append(line(stage, depth[stage] + 1, median(rows, stage), cpu_of(stage)))
        if children[stage]:
            rest = statistics.median(
                row.get(stage, 0.0) - sum(row.get(child, 0.0) for child in children[stage]) for row in rows
            )
            same_thread = [child for child in children[stage] if child not in IN_A_WORKER or stage in IN_A_WORKER]
            cpu_rest = statistics.median(
                row.get(CPU + stage, 0.0) - sum(row.get(CPU + child, 0.0) for child in same_thread) for row in rows
            )
            lines.append(line("rest", depth[stage] + 2, rest, cpu_rest if cpu_of(stage) is not None else None))
    outside = statistics.median(row["proxied"] - row["direct"] - row.get("handler (chat)", 0.0) for row in rows)
    # the client's hop to the proxy and back, less the direct call (whose upstream share the handler holds); a stream's
    # handler holds the mock's whole stream, which the direct call waits for too: negative there
    lines.append(line("outside the handler, less the direct call", 1, outside, None))
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--stream", action="store_true", help="streamed requests")
    parser.add_argument("--concurrent", type=int, default=8, help="concurrent requests of the burst before")
    parser.add_argument("--name", default="proxy_time_split_run", help="the results' file name, without .json/.md")
    args = parser.parse_args()
    result = run(args.requests, args.stream, args.concurrent)
    write(result, RESULTS / args.name)


def write(result: dict, path: Path) -> None:
    """`path`.md: the table (`report`); `path`.json: the run's settings and each stage's median, in ms."""
    path.parent.mkdir(exist_ok=True)
    keys = sorted({key for row in result["rows"] for key in row})
    medians = {key: round(median(result["rows"], key), 4) for key in keys}
    summary = {key: value for key, value in result.items() if key != "rows"} | {"median_ms": medians}
    path.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")
    path.with_suffix(".md").write_text(report(result))
    print(report(result))


if __name__ == "__main__":
    main()
