"""Latency the privacy proxy adds, and streamed throughput through it, against the mock upstream.

The same requests go to MockOpenAI directly and through `stealthflow proxy` (a subprocess, as a
user runs it: --no-llm --no-tagger, i.e. the deterministic recognizers), interleaved in one run,
the mock in a process of its own too (`testing.mock_process`, as a real upstream is: in the
client's process it would take the GIL from the client it measures),
for prompts of 1 KB, 10 KB and 100 KB (PII-bearing chat text, a new one per request), plain and streamed. Added latency
is the per-pair difference (proxied - direct), p50 and p99; beside it the proxy process's CPU time per
request (its mean: user + system) and the load average (on a shared machine the CPU time is the steadier
figure). Throughput: 64 concurrent streamed
requests (1 KB prompts) at a time, requests/s and SSE chunks/s, direct vs proxied.
Targets (issue 20): <= 3 ms p50 added at 1 KB, <= 50 ms at 100 KB.

`--tagger`: the proxy as installed by default, with the PII tagger, after a burst of concurrent
requests (a server that has served concurrent clients: its detection ran in several worker
threads), on the machine's cores. `--before SRC`
(with `--tagger`): a second proxy runs the code of another checkout's src/ (the tagger on torch),
beside this one, the requests interleaved across the direct path and both proxies.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/proxy_overhead.py [--requests 200 100 20] [--concurrent 64 --streams 256]
    .venv/bin/python benchmarks/proxy_overhead.py --tagger --requests 100 40 8 --concurrent 8 --streams 64
    git archive 002be98 src | tar -x -C /tmp/before   # code whose tagger runs on torch (and link models/, data/...)
    .venv/bin/python benchmarks/proxy_overhead.py --tagger --before /tmp/before/src --requests 100 0 0 --streams 0
    .venv/bin/python benchmarks/proxy_overhead.py --tagger --before /tmp/before/src --requests 0 0 0 --streams 0 \
        --hostile-chars 1000000

`--clause-tagger` (with `--tagger`): a second proxy of this checkout runs with `--clause-tagger`
(`protect.clause_tagger`), beside the default one, the requests interleaved as with `--before`.

`--languages en de`: the latency rows of each size for prompts in each of these languages, one language after the
other (English: the English student reads them; German: the multilingual student), e.g.

    .venv/bin/python benchmarks/proxy_overhead.py --tagger --languages en de --requests 100 0 0 --concurrent 8 \
        --streams 0 --out runs/proxy_overhead_tagger_1kb_languages

`--hostile-chars N`: one chat request of N characters of each hostile kind (`--hostile-kinds`, of
`stealthflow.testing.hostile`) to each proxy, plain: its wall seconds and the CPU seconds the proxy
process spent on it.

Writes the latency and throughput results to `--out STEM`.json and .md, the hostile ones to `--hostile-out STEM`.json
and .md; without them, benchmarks/results/ under the options' names: proxy_overhead[_tagger][_side_by_side|_clause_tagger],
proxy_hostile[_tagger][_side_by_side|_clause_tagger]. An existing file is not overwritten without `--force` (result_files.py):
the run stops before measuring.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil

from stealthflow.placeholders.keys import new_secret
from stealthflow.testing.hostile import KINDS, hostile_text
from stealthflow.testing.loopback import cli_command, free_port, wait_until_healthy
from stealthflow.testing.mock_openai import Reply, last_user_text
from stealthflow.testing.mock_process import MockOpenAIProcess

sys.path.insert(0, str(Path(__file__).resolve().parent))

from result_files import add_out_options, refuse_overwrite, result_stem, write_results  # noqa: E402
from tables import load_range, table  # noqa: E402

AFTER = Path(__file__).resolve().parent.parent / "src"
TOKEN = "bench-token-16-chars"
SIZES = {"1 KB": 1_000, "10 KB": 10_000, "100 KB": 100_000}
REPLY_CHARS = 600  # a typical answer; it starts with the prompt, so it carries placeholders back
FIRST = ["Anna", "Jonas", "Maria", "Wei", "Fatima", "Lucas", "Emma", "Noah"]
LAST = ["Berg", "Keller", "Rossi", "Zhang", "Haddad", "Silva", "Larsen", "Moreau"]
# Per language: a sentence with a name and an email, one with a phone number ({digits}: four digits), filler.
SENTENCES = {
    "en": (
        "My name is {first} {last} and my email is {email}.",
        "Call me at (415) 555-{digits} after six.",
        [
            "The quarterly report needs another pass before Friday.",
            "We moved the meeting to the small room on the third floor.",
            "Please keep the summary short and list the open questions first.",
            "The draft mentions the supplier twice; one mention is enough.",
        ],
    ),
    "de": (
        "Ich heiße {first} {last} und meine E-Mail-Adresse ist {email}.",
        "Ruf mich nach sechs unter 0171 234{digits} an.",
        [
            "Der Quartalsbericht braucht vor Freitag noch einen Durchgang.",
            "Wir haben das Treffen in den kleinen Raum im dritten Stock verlegt.",
            "Bitte halte die Zusammenfassung kurz und nenne zuerst die offenen Fragen.",
            "Der Entwurf erwähnt den Lieferanten zweimal, einmal genügt.",
        ],
    ),
}


def prompt(size: int, seed: int = 0, language: str = "en") -> str:
    """Chat text of about `size` characters in `language` with a name, an email or a phone every few sentences."""
    rng = random.Random(seed)
    named, phoned, filler = SENTENCES[language]
    parts, length = [], 0
    while length < size:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        sentence = rng.choice(
            [
                named.format(first=first, last=last, email=f"{first.lower()}.{last.lower()}@example.org"),
                phoned.format(digits=rng.randint(1000, 9999)),
                rng.choice(filler),
                rng.choice(filler),
            ]
        )
        parts.append(sentence)
        length += len(sentence) + 1
    return " ".join(parts)[:size]


def answer(body: dict) -> Reply:
    return Reply(content=last_user_text(body)[:REPLY_CHARS])


PIDS: dict[str, int] = {}  # each proxy's base URL -> its process id


@contextlib.contextmanager
def proxy_process(
    upstream_base: str, workdir: Path, tagger: bool = False, src: Path | None = None, options: tuple[str, ...] = ()
):
    """A proxy subprocess; `src`: run that source tree's stealthflow instead of the installed one; `options`: more
    of its command-line options."""
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        **({"PYTHONPATH": str(src)} if src else {}),
        "STEALTHFLOW_PROXY_TOKEN": TOKEN,
        "STEALTHFLOW_VAULT_KEY": new_secret(),
        "STEALTHFLOW_TAGGER": "1" if tagger else "0",
        "XDG_DATA_HOME": str(workdir / "data"),
        "XDG_CONFIG_HOME": str(workdir / "config"),
    }
    command = cli_command("proxy", "--upstream", "openai/mock-model")
    command += [
        "--upstream-base",
        upstream_base,
        "--port",
        str(port),
        "--no-llm",
        *([] if tagger else ["--no-tagger"]),
        *options,
    ]
    with (workdir / "proxy.log").open("w") as log:
        server = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        try:
            wait_until_healthy(
                server, port, 180, lambda: f"the proxy did not start: {(workdir / 'proxy.log').read_text()[-2000:]}"
            )
            PIDS[f"http://127.0.0.1:{port}/v1"] = server.pid
            yield f"http://127.0.0.1:{port}/v1"
        finally:
            server.terminate()
            server.wait(timeout=30)


def call(client: httpx.Client, base: str, body: dict) -> float:
    start = time.perf_counter()
    if body.get("stream"):
        with client.stream("POST", f"{base}/chat/completions", json=body) as response:
            response.raise_for_status()
            for _ in response.iter_lines():
                pass
    else:
        client.post(f"{base}/chat/completions", json=body).raise_for_status()
    return (time.perf_counter() - start) * 1000


def _cpu_seconds(base: str) -> float:
    """User and system CPU seconds the proxy serving `base` has spent so far."""
    return sum(psutil.Process(PIDS[base]).cpu_times()[:2])


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] if len(values) > 1 else values[0]


def latency_rows(
    direct_base: str, proxies: dict[str, str], requests: dict[str, int], languages: tuple[str, ...] = ("en",)
) -> list[dict]:
    """Per prompt language, size and streaming, per proxy (name -> base URL): the added latency against the direct
    path, every request sent to the direct path and to each proxy, in an order that rotates."""
    rows = []
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with httpx.Client(headers=headers, timeout=120) as client:
        for language, (size_label, size) in ((code, size) for code in languages for size in SIZES.items()):
            label = size_label if languages == ("en",) else f"{size_label} {language}"
            for stream in (False, True) if requests[size_label] else ():

                def body(seed: int, size=size, stream=stream, language=language) -> dict:
                    # A new text each time: the proxy remembers texts it has seen (a chat's re-sent
                    # history is cheap), and this measures the cost of a new message.
                    return {
                        "model": "mock-model",
                        "messages": [{"role": "user", "content": prompt(size, seed, language)}],
                        "stream": stream,
                    }

                bases = [direct_base, *proxies.values()]
                for base in bases:  # warm-up: connections, the vault's first entries
                    call(client, base, body(-1))
                times: list[list[float]] = [[] for _ in bases]
                cpu = {name: _cpu_seconds(base) for name, base in proxies.items()}
                for i in range(requests[size_label]):
                    request = body(i + 1000 * stream)
                    for turn in range(len(bases)):  # interleaved, each first in turn
                        which = (i + turn) % len(bases)
                        times[which].append(call(client, bases[which], request))
                direct = times[0]
                for name, proxied in zip(proxies, times[1:], strict=True):
                    added = [p - d for p, d in zip(proxied, direct, strict=True)]
                    rows.append(
                        {
                            "proxy": name,
                            "prompt": label,
                            "stream": stream,
                            "requests": requests[size_label],
                            "direct_p50_ms": statistics.median(direct),
                            "proxied_p50_ms": statistics.median(proxied),
                            "added_p50_ms": statistics.median(added),
                            "added_p99_ms": percentile(added, 99),
                            "added_ms_per_kb": statistics.median(added) / (size / 1000),
                            "proxy_cpu_ms": (_cpu_seconds(proxies[name]) - cpu[name]) * 1000 / requests[size_label],
                            "load_average": os.getloadavg()[0],
                        }
                    )
                    print(
                        f"{name}: {label:>6} stream={stream!s:5} added p50 {rows[-1]['added_p50_ms']:.1f} ms"
                        f"  p99 {rows[-1]['added_p99_ms']:.1f} ms",
                        flush=True,
                    )
    return rows


# Seeds of the prompts each run sends: the proxy remembers texts it has seen, so no run may send
# another's (the burst and the throughput run had sent the latency run's 1 KB prompts again: with
# the tagger, 0.62x the direct rate for remembered texts against 0.20x for new ones).
BURST_SEEDS, THROUGHPUT_SEEDS = 100_000, 200_000


async def throughput(base: str, concurrent: int, total: int, first_seed: int) -> dict:
    bodies = [
        {
            "model": "mock-model",
            "messages": [{"role": "user", "content": prompt(1_000, seed=first_seed + index)}],
            "stream": True,
        }
        for index in range(total)
    ]
    limits = httpx.Limits(max_connections=concurrent, max_keepalive_connections=concurrent)
    chunks = failed = 0
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=300, limits=limits) as client:
        queue = list(range(total))

        async def worker() -> None:
            nonlocal chunks, failed
            while queue:
                body = bodies[queue.pop()]
                try:
                    async with client.stream("POST", f"{base}/chat/completions", json=body) as response:
                        response.raise_for_status()
                        async for line in response.aiter_lines():
                            chunks += line.startswith("data: {")
                except httpx.TransportError:  # e.g. a keep-alive connection closed under us: counted, not fatal
                    failed += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrent)))
        seconds = time.perf_counter() - start
    done = total - failed
    return {"requests_per_s": done / seconds, "chunks_per_s": chunks / seconds, "seconds": seconds, "failed": failed}


def hostile_rows(proxies: dict[str, str], kinds: list[str], chars: int) -> list[dict]:
    """One plain request of `chars` characters of each hostile kind to each proxy (name -> base URL):
    wall seconds, and the CPU seconds of the proxy's process meanwhile."""
    rows = []
    with httpx.Client(headers={"Authorization": f"Bearer {TOKEN}"}, timeout=600) as client:
        for kind in kinds:
            body = {"model": "mock-model", "messages": [{"role": "user", "content": hostile_text(kind, chars)}]}
            for name, base in proxies.items():
                process = psutil.Process(PIDS[base])
                cpu = sum(process.cpu_times()[:2])
                start = time.perf_counter()
                status = client.post(f"{base}/chat/completions", json=body).status_code
                wall = time.perf_counter() - start
                rows.append(
                    {
                        "proxy": name,
                        "kind": kind,
                        "chars": chars,
                        "status": status,
                        "wall_s": round(wall, 2),
                        "proxy_cpu_s": round(sum(process.cpu_times()[:2]) - cpu, 2),
                        "load_average": round(os.getloadavg()[0], 1),
                    }
                )
                print(f"{name}: {kind} {chars} chars: {status}, {wall:.2f} s wall, {rows[-1]['proxy_cpu_s']} s CPU")
    return rows


def hostile_markdown(rows: list[dict], tagger: bool) -> str:
    body = [
        [r["proxy"], r["kind"], f"{r['chars']:,}", str(r["status"]), f"{r['wall_s']:.2f}", f"{r['proxy_cpu_s']:.2f}"]
        for r in rows
    ]
    lines = [
        f"# One chat request of hostile text through the proxy ({'the PII tagger on' if tagger else '`--no-tagger`'})",
        "",
        f"A plain request to the mock upstream; wall seconds and CPU seconds of the proxy's process; {load_range(rows)}.",
        "",
        *table(["proxy", "kind", "chars", "status", "wall s", "proxy CPU s"], body),
    ]
    return "\n".join(lines) + "\n"


LATENCY_HEADER = ["proxy", "prompt", "streamed", "requests", "direct p50 ms", "proxied p50 ms", "added p50 ms"]
LATENCY_HEADER += ["added p99 ms", "added ms/KB", "proxy CPU ms per request", "load average"]


def markdown(rows: list[dict], flow: dict | None, tagger: bool) -> str:
    body = [
        [r["proxy"], r["prompt"], "yes" if r["stream"] else "no", str(r["requests"])]
        + [f"{r[key]:.1f}" for key in ("direct_p50_ms", "proxied_p50_ms", "added_p50_ms", "added_p99_ms")]
        + [f"{r['added_ms_per_kb']:.2f}"]
        + [f"{r[key]:.1f}" if key in r else "" for key in ("proxy_cpu_ms", "load_average")]  # not in older results
        for r in rows
    ]
    lines = [
        "# Proxy overhead (mock upstream, `--no-llm`, the PII tagger on, after a burst of concurrent requests)"
        if tagger
        else "# Proxy overhead (mock upstream, `--no-llm --no-tagger`)",
        "",
        f"Load average {os.getloadavg()[0]:.1f} on the machine's {os.cpu_count()} cores at the end of the run.",
        "",
        *table(LATENCY_HEADER, body),
    ]
    names = list(dict.fromkeys(r["proxy"] for r in rows))
    if len(names) == 2:  # side by side: the second proxy's added p50 against the first's
        first = {(r["prompt"], r["stream"]): r["added_p50_ms"] for r in rows if r["proxy"] == names[0]}
        lines += ["", f"Added p50, {names[1]} / {names[0]}:", ""]
        lines += [
            f"- {r['prompt']}, {'streamed' if r['stream'] else 'plain'}: {r['added_p50_ms'] / first[r['prompt'], r['stream']]:.2f}x"
            for r in rows
            if r["proxy"] == names[1]
        ]
    if flow is None:
        return "\n".join(lines) + "\n"
    d, p = flow["direct"], flow["proxied"]
    lines += [
        "",
        f"{flow['concurrent']} concurrent streams, {flow['total']} streamed requests (1 KB prompts, {REPLY_CHARS}-char replies in {flow['chunk_chars']}-char chunks):",
        "",
        *table(
            ["", "requests/s", "SSE chunks/s", "failed (connection errors)"],
            [
                ["direct", f"{d['requests_per_s']:.1f}", f"{d['chunks_per_s']:.0f}", str(d["failed"])],
                ["proxied", f"{p['requests_per_s']:.1f}", f"{p['chunks_per_s']:.0f}", str(p["failed"])],
                [
                    "ratio",
                    f"{p['requests_per_s'] / d['requests_per_s']:.2f}",
                    f"{p['chunks_per_s'] / d['chunks_per_s']:.2f}",
                    "",
                ],
            ],
        ),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, nargs=3, default=[200, 100, 20], metavar=("1KB", "10KB", "100KB"))
    parser.add_argument("--concurrent", type=int, default=64)
    parser.add_argument("--streams", type=int, default=256, help="streamed requests in the throughput run")
    parser.add_argument("--chunk-chars", type=int, default=4, help="characters per upstream SSE chunk (about a token)")
    parser.add_argument(
        "--tagger",
        action="store_true",
        help="the proxy with the PII tagger (its default), after a burst of concurrent requests",
    )
    parser.add_argument(
        "--before", type=Path, help="with --tagger: also a proxy running this src/ directory (another checkout's code)"
    )
    parser.add_argument(
        "--clause-tagger",
        action="store_true",
        help="with --tagger: also a proxy of this checkout with --clause-tagger, beside the default one",
    )
    parser.add_argument("--hostile-chars", type=int, default=0, help="one request of this many characters per kind")
    parser.add_argument(
        "--languages",
        nargs="+",
        choices=list(SENTENCES),
        default=["en"],
        help="the prompts' languages, one after the other",
    )
    add_out_options(parser, "proxy_overhead[_tagger][_side_by_side]", "the latency and throughput results")
    parser.add_argument(
        "--hostile-out",
        type=Path,
        help="path stem of the hostile results (default: benchmarks/results/proxy_hostile[_tagger][_side_by_side].*)",
    )
    parser.add_argument(
        "--hostile-kinds",
        nargs="+",
        choices=list(KINDS),
        default=["alnum token", "printable token", "base64 blob", "glued words"],
    )
    args = parser.parse_args()
    requests = dict(zip(SIZES, args.requests, strict=True))
    if (args.before or args.clause_tagger) and not args.tagger:
        parser.error("--before and --clause-tagger compare proxies with the tagger: add --tagger")
    if args.before and args.clause_tagger:
        parser.error("--before or --clause-tagger, not both")
    named = ("_tagger" if args.tagger else "") + ("_side_by_side" if args.before else "")
    named += "_clause_tagger" if args.clause_tagger else ""
    stem = result_stem(args.out, "proxy_overhead" + named) if any(args.requests) or args.streams else None
    hostile_stem = result_stem(args.hostile_out, "proxy_hostile" + named) if args.hostile_chars else None
    for planned in (stem, hostile_stem):
        if planned is not None:
            refuse_overwrite(planned, args.force)
    sources: dict[str, tuple[Path | None, tuple[str, ...]]] = {"this checkout": (None, ())}  # name -> (src, options)
    if args.before:
        sources = {"before": (args.before.resolve(), ()), "this checkout": (AFTER, ())}
    if args.clause_tagger:
        sources = {"default": (None, ()), "--clause-tagger": (None, ("--clause-tagger",))}

    with contextlib.ExitStack() as stack:
        upstream = stack.enter_context(
            MockOpenAIProcess(respond="benchmarks.proxy_overhead:answer", chunk_chars=args.chunk_chars)
        )  # run from the repository root
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        proxies = {
            name: stack.enter_context(proxy_process(upstream.base_url, tmp / str(number), args.tagger, src, options))
            for number, (name, (src, options)) in enumerate(sources.items())
        }
        if args.tagger:
            for base in proxies.values():  # the burst: detection in several worker threads
                asyncio.run(throughput(base, args.concurrent, args.concurrent * 4, BURST_SEEDS))
        rows = latency_rows(upstream.base_url, proxies, requests, tuple(args.languages))
        hostile = hostile_rows(proxies, args.hostile_kinds, args.hostile_chars) if args.hostile_chars else []
        flow = None
        if args.streams:
            flow = {"concurrent": args.concurrent, "total": args.streams, "chunk_chars": args.chunk_chars}
            flow["direct"] = asyncio.run(throughput(upstream.base_url, args.concurrent, args.streams, THROUGHPUT_SEEDS))
            flow["proxied"] = asyncio.run(
                throughput(list(proxies.values())[-1], args.concurrent, args.streams, THROUGHPUT_SEEDS)
            )
    if hostile:
        print(hostile_markdown(hostile, args.tagger))
        texts = {".json": json.dumps(hostile, indent=2) + "\n", ".md": hostile_markdown(hostile, args.tagger)}
        print(f"wrote {write_results(hostile_stem, texts, args.force)}.json and .md", file=sys.stderr)
    if not rows and flow is None:
        return
    table = markdown(rows, flow, args.tagger)
    print(table)
    texts = {".json": json.dumps({"latency": rows, "throughput": flow}, indent=2) + "\n", ".md": table}
    print(f"wrote {write_results(stem, texts, args.force)}.json and .md", file=sys.stderr)


if __name__ == "__main__":
    main()
