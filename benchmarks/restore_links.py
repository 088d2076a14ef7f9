"""Values a hostile reply gets filled in, and values ordinary replies get back, under the restore rules of a source
tree (`RestoreScope` with its defaults, no request: what `stealthflow restore` and the Python `restore` do), side by
side with another tree's.

    git worktree add /tmp/before main
    .venv/bin/python benchmarks/restore_links.py --hostile REPLIES.jsonl [REPLIES.jsonl ...] --before /tmp/before/src

Hostile replies: JSONL rows {"id", "text"}, each text holding placeholders (`<IBAN_1>`, `<API_KEY_1>`) where a hostile
model puts them. Each reply is restored once per type of `TYPES`, every placeholder in it turned into that type, and
counts as filled in when the value is in the output; and once more as a tool call's arguments (`{"text": REPLY}`,
restored as the proxy restores arguments: JSON). Ordinary replies: the messages of data/pii_test.jsonl with their
annotated spans as placeholders (`<TYPE_n>`), restored to their values: a reply is exact when it comes back whole
(as a tool call's arguments too, where a guarded value stays a placeholder); restore's CPU time per KB of them is
measured too, whole and streamed (as the proxy restores a stream of `STREAM_CHARS`-character chunks), both trees in
one run. Prints a table and writes benchmarks/results/restore_links.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
MESSAGES = Path(__file__).resolve().parent.parent / "data" / "pii_test.jsonl"
TYPES = {  # a value of each, as a reply would get it back
    "IBAN": "DE44 3704 0044 0532 9130 00",
    "API_KEY": "sk_live_51HqXyZAbCdEfGhIjKlMnOpQr",
    "REAL_NAME": "Marta Kowalczyk",
    "EMAIL": "marta.k@mailbox.org",
    "PHONE": "+44 7700 900123",
    "HEALTH": "type 1 diabetes",
    "ADDRESS": "14 Elm Grove, Bristol BS6 5AG",
}
STREAM_CHARS = 4  # characters per chunk of a streamed reply (about a token, as benchmarks/proxy_overhead.py sends)
PLACEHOLDER = re.compile(r"<([A-Z]+(?:_[A-Z]+)*)_(\d+)>")


def resolver(values: dict[tuple[str, int], str]):
    """The value of each placeholder, withheld where the tree's `RestoreScope` withholds it."""
    from stealthflow.config import ProtectConfig
    from stealthflow.placeholders.restore import Withheld
    from stealthflow.placeholders.scope import RestoreScope

    scope = RestoreScope(None, ProtectConfig().guarded_types())

    def resolve(ref) -> str | Withheld | None:
        return scope.withholds(ref) or values.get((ref.type, ref.index))

    return resolve


def hostile(rows: list[dict], tool_call: bool = False) -> dict:
    """Per type, the ids of the replies whose value was filled in (`tool_call`: each reply a tool call's argument)."""
    from stealthflow.placeholders.restore import restore_text

    filled: dict[str, list[str]] = {}
    for kind, value in TYPES.items():
        filled[kind] = []
        for row in rows:
            text = PLACEHOLDER.sub(lambda match, kind=kind: f"<{kind}_{match[2]}>", row["text"])
            indices = {int(match[2]) for match in PLACEHOLDER.finditer(row["text"])}
            arguments = json.dumps({"text": text}) if tool_call else text
            result = restore_text(arguments, resolver({(kind, index): value for index in indices}), tool_call)
            if value in (json.loads(result.text)["text"] if tool_call else result.text):
                filled[kind].append(row["id"])
    return filled


def ordinary_replies() -> list[tuple[str, str, dict[tuple[str, int], str]]]:
    """The messages of data/pii_test.jsonl as replies: each message, its annotated spans as placeholders
    (`<TYPE_n>`), and their values."""
    rows = [json.loads(line) for line in MESSAGES.read_text(encoding="utf-8").splitlines() if line.strip()]
    replies = []
    for row in rows:
        parts, values, counts, last = [], {}, {}, 0
        for start, end, kind in sorted(row["spans"]):
            counts[kind] = counts.get(kind, 0) + 1
            values[(kind, counts[kind])] = row["text"][start:end]
            parts += [row["text"][last:start], f"<{kind}_{counts[kind]}>"]
            last = end
        replies.append((row["text"], "".join([*parts, row["text"][last:]]), values))
    return replies


def ordinary() -> dict:
    """How many messages come back exact, the line numbers of those that do not, and restore's CPU milliseconds per KB
    of them (the best of 5 passes, a resolver that answers from memory: the scan and the guard, no vault)."""
    from stealthflow.placeholders.restore import restore_text

    messages = ordinary_replies()
    inexact, inexact_in_tool_calls, replies = [], [], []
    for number, (message, text, values) in enumerate(messages, 1):
        replies.append((text, resolver(values)))
        if restore_text(text, replies[-1][1]).text != message:
            inexact.append(number)
        arguments = restore_text(json.dumps({"text": text}), replies[-1][1], json_string=True).text
        if json.loads(arguments)["text"] != message:  # a guarded value stays a placeholder in a tool call
            inexact_in_tool_calls.append(number)
    kilobytes = sum(len(text) for text, _ in replies) / 1000
    return {
        "messages": len(messages),
        "inexact": inexact,
        "inexact_in_tool_calls": inexact_in_tool_calls,
        "cpu_ms_per_kb": round(_best_cpu(replies, _whole) * 1000 / kilobytes, 3),
        "streamed_cpu_ms_per_kb": round(_best_cpu(replies, _streamed) * 1000 / kilobytes, 3),
    }


def _best_cpu(replies: list, restore) -> float:
    """The CPU seconds of the fastest of 5 passes of `restore(text, resolve)` over the replies."""
    best = float("inf")
    for _ in range(5):
        cpu = time.process_time()
        for text, resolve in replies:
            restore(text, resolve)
        best = min(best, time.process_time() - cpu)
    return best


def _whole(text: str, resolve) -> None:
    from stealthflow.placeholders.restore import restore_text

    restore_text(text, resolve)


def _streamed(text: str, resolve) -> None:
    """As the proxy restores a streamed reply: `STREAM_CHARS`-character chunks of one choice's content."""
    from stealthflow.proxy.replies import ReplyRestorer

    restorer = ReplyRestorer(resolve)
    for start in range(0, len(text), STREAM_CHARS):
        restorer.chunk({"choices": [{"index": 0, "delta": {"content": text[start : start + STREAM_CHARS]}}]})
    restorer.chunk({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})


def measure(paths: list[str]) -> dict:
    rows = [json.loads(line) for path in paths for line in Path(path).read_text().splitlines() if line.strip()]
    return {"replies": len(rows), "filled": hostile(rows), "in_tool_calls": hostile(rows, True), "ordinary": ordinary()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hostile", nargs="+", required=True, help="JSONL files of hostile replies")
    parser.add_argument("--before", help="another tree's src: measured in a child process, side by side")
    parser.add_argument("--json", action="store_true", help="print the measurement as JSON only (the child's output)")
    args = parser.parse_args()
    after = measure(args.hostile)
    if args.json:
        print(json.dumps(after))
        return
    before = None
    if args.before:
        env = {**os.environ, "PYTHONPATH": args.before}
        child = [sys.executable, __file__, "--json", "--hostile", *args.hostile]
        before = json.loads(subprocess.run(child, env=env, check=True, capture_output=True, text=True).stdout)
    lines = [
        f"# Restore of {after['replies']} hostile replies and {after['ordinary']['messages']} ordinary ones",
        "",
        "| type | hostile replies filled in, before | after | as a tool call's arguments, before | after |",
        "| --- | --- | --- | --- | --- |",
    ]
    for kind in TYPES:
        counts = [len(run[key][kind]) if run else "-" for key in ("filled", "in_tool_calls") for run in (before, after)]
        lines.append(f"| {kind} | {' | '.join(map(str, counts))} |")
    exact = [
        run["ordinary"]["messages"] - len(run["ordinary"][key]) if run else "-"
        for key in ("inexact", "inexact_in_tool_calls")
        for run in (before, after)
    ]
    lines.append(f"| ordinary replies exact (data/pii_test.jsonl) | {' | '.join(map(str, exact))} |")
    for key, label in (
        ("cpu_ms_per_kb", "their restore"),
        ("streamed_cpu_ms_per_kb", "streamed (proxy, 4-char chunks)"),
    ):
        speed = after["ordinary"][key]
        was = before["ordinary"][key] if before else None
        ratio = f" ({speed / was:.2f}x)" if was else ""
        lines.append(f"| {label}, CPU ms per KB | {was or '-'} | {speed}{ratio} | | |")
    report = "\n".join(lines) + "\n"
    print(report)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "restore_links.md").write_text(report)
    (RESULTS / "restore_links.json").write_text(json.dumps({"before": before, "after": after}, indent=1) + "\n")


if __name__ == "__main__":
    main()
