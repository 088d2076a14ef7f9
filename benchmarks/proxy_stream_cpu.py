"""CPU time of the proxy's streamed path in process, from the upstream's SSE bytes to the bytes sent to the client.

Each reply is the first 600 characters of one of `proxy_overhead.py`'s 1 KB prompts, its e-mails, phone numbers and
introduced names as placeholders (a stand-in for protect: the resolver gives their values back, under the proxy's
`RestoreScope`), streamed as the mock upstream streams it: an event per 4 characters, a finish event, `[DONE]`. The
path is the proxy's: SSE lines (`upstream._SSELines`), each chunk parsed and checked (`upstream._chunk`), restored a
read at a time (`ReplyRestorer.chunks`; a tree without it: `chunk` per chunk) and written as SSE (`orjson`). Two
ways of reading: the whole reply in one network read (a fast upstream, or a busy proxy), and a chunk per read (an
upstream paced by its tokens). Milliseconds of CPU per reply, the best of `--passes`; `--before SRC` measures another
tree's src in a child process, side by side. Both trees must restore the same text: each stream's joined text and the
counts are compared.

    .venv/bin/python benchmarks/proxy_stream_cpu.py --before /tmp/main/src
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))

from proxy_overhead import prompt  # noqa: E402
from tables import table  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
REPLY_CHARS, CHUNK_CHARS = 600, 4
STAND_INS = {  # what protect would have masked in the prompts (`proxy_overhead.SENTENCES`)
    "EMAIL": re.compile(r"\S+@\S+\w"),
    "PHONE": re.compile(r"\(415\) 555-\d{4}"),
    "REAL_NAME": re.compile(r"(?<=is )[A-Z]\w+ [A-Z]\w+"),
}


def reply(seed: int) -> tuple[str, dict]:
    """A reply with placeholders, and the value of each."""
    text, values = prompt(1_000, seed), {}
    for kind, pattern in STAND_INS.items():
        numbers = iter(range(1, 1_000))

        def placeholder(match: re.Match, kind: str = kind, numbers=numbers) -> str:
            values[kind, number := next(numbers)] = match[0]
            return f"<{kind}_{number}>"

        text = pattern.sub(placeholder, text)
    return text[:REPLY_CHARS], values


def events(text: str) -> list[bytes]:
    def event(delta: dict, finish: str | None = None) -> bytes:
        chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m"}
        return b"data: " + orjson.dumps({**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    pieces = [event({"role": "assistant", "content": ""})]
    pieces += [event({"content": text[at : at + CHUNK_CHARS]}) for at in range(0, len(text), CHUNK_CHARS)]
    return [piece + b"\n\n" for piece in [*pieces, event({}, "stop"), b"data: [DONE]"]]


def streamed(sse: list[bytes], values: dict, per_read: int) -> tuple[list[bytes], object]:
    """The bytes the proxy writes for this stream read `per_read` events at a time, and its restorer."""
    from stealthflow.config import ProtectConfig
    from stealthflow.placeholders.scope import RestoreScope
    from stealthflow.proxy import upstream
    from stealthflow.proxy.replies import ReplyRestorer

    scope = RestoreScope(None, ProtectConfig().guarded_types())
    restorer = ReplyRestorer(lambda ref: scope.withholds(ref) or values.get((ref.type, ref.index)))
    restore = getattr(restorer, "chunks", lambda batch: [restorer.chunk(chunk) for chunk in batch])
    lines, written = upstream._SSELines(), []
    for at in range(0, len(sse), per_read):
        data = [line[5:].strip() for line in lines.feed(b"".join(sse[at : at + per_read])) if line.startswith("data:")]
        batch = [upstream._chunk(item) for item in data if item != "[DONE]"]
        written.append(b"".join(b"data: " + orjson.dumps(chunk) + b"\n\n" for chunk in restore(batch)))
    return written, restorer


def measure(replies: int, passes: int) -> dict:
    cases = [(events(text), values) for text, values in map(reply, range(replies))]
    result = {}
    for name, per_read in (("one read", 10**6), ("a chunk per read", 1)):
        best = float("inf")
        for _ in range(passes):
            start = time.process_time()
            for sse, values in cases:
                streamed(sse, values, per_read)
            best = min(best, (time.process_time() - start) * 1000 / replies)
        outputs = [streamed(sse, values, per_read) for sse, values in cases]
        text = "".join(
            (json.loads(line[6:])["choices"] or [{}])[0].get("delta", {}).get("content") or ""
            for written, _ in outputs
            for line in b"".join(written).decode().split("\n\n")
            if line.startswith("data: {")
        )
        result[name] = {
            "ms_per_reply": round(best, 3),
            "text_sha256": hashlib.sha256(text.encode()).hexdigest()[:16],
            "restored": sum(restorer.restored for _, restorer in outputs),
            "withheld": sum(len(restorer.withheld) for _, restorer in outputs),
        }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=40)
    parser.add_argument("--passes", type=int, default=7)
    parser.add_argument("--before", help="another tree's src: measured in a child process, side by side")
    parser.add_argument("--json", action="store_true", help="print the measurement as JSON only (the child's output)")
    args = parser.parse_args()
    after = measure(args.replies, args.passes)
    if args.json:
        print(json.dumps(after))
        return
    before = None
    if args.before:
        child = [sys.executable, __file__, "--json", "--replies", str(args.replies), "--passes", str(args.passes)]
        env = {**os.environ, "PYTHONPATH": args.before}
        before = json.loads(subprocess.run(child, env=env, check=True, capture_output=True, text=True).stdout)
    body = []
    for name, row in after.items():
        was = before[name] if before else None
        same = "" if was is None else "yes" if {**was, "ms_per_reply": 0} == {**row, "ms_per_reply": 0} else "NO"
        ratio = f"{row['ms_per_reply'] / was['ms_per_reply']:.2f}x" if was else ""
        body.append([name, f"{was['ms_per_reply']:.2f}" if was else "", f"{row['ms_per_reply']:.2f}", ratio, same])
    lines = [
        f"# The proxy's streamed path in process: {args.replies} replies of {REPLY_CHARS} characters in "
        f"{CHUNK_CHARS}-character chunks",
        "",
        f"Milliseconds of CPU per reply, best of {args.passes} passes; load average {os.getloadavg()[0]:.1f} on the "
        f"machine's {os.cpu_count()} cores.",
        "",
        *table(["read", "before", "this tree", "ratio", "same text and counts"], body),
    ]
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "proxy_stream_cpu.json").write_text(json.dumps({"before": before, "after": after}, indent=1) + "\n")
    (RESULTS / "proxy_stream_cpu.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
