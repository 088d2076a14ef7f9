"""What a proxy request of many short strings costs against the same words as one text (security finding F5).

The same words (ordinary messages of data/pii_test.jsonl split at spaces, and the review's tokens `ab0 ab1 ...`, the
cheapest text per character to detect measured) go to the proxy as one request each way:
the whole as one user message (`one text`), and as a list of strings under `metadata` of `--words` words each
(`strings of N words`), plain requests through real HTTP to a proxy run in this process with the mock upstream (a
short fixed reply). Each request has a session of its own (no detection cache between them). For each shape: the
proxy's answer and the CPU seconds of the process (the median of `--repeats`), and the ratio of that time to the one
text's. `--before SRC`: the same runs, first with another checkout's src/ in a child process (its models/ and data/
beside it), the columns side by side; each tree runs in a fresh child, alternated (A B B A).

    .venv/bin/python benchmarks/request_strings.py [--kb 100] [--words 1 4 16 64] [--tagger] [--repeats 3] \
        [--contents messages tokens] [--name NAME]
    .venv/bin/python benchmarks/request_strings.py --before /work/snap29/src

Writes benchmarks/results/request_strings[_tagger].json and .md (`--name`: NAME.json and .md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tables import table  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
AFTER = Path(__file__).resolve().parent.parent / "src"
MESSAGES = Path(__file__).resolve().parent.parent / "data" / "pii_test.jsonl"
TOKEN = "bench-token-16-chars"
ONE = "one text"
CONTENTS = ("messages", "tokens")


def words(content: str, kilobytes: int) -> list[str]:
    """About `kilobytes` KB of words: those of data/pii_test.jsonl's messages (`messages`), or the review's tokens
    `ab0 ab1 ...` (`tokens`: the cheapest text per character to detect in one string measured)."""
    if content == "tokens":
        found = [f"ab{i}" for i in range(kilobytes * 1000)]
    else:
        lines = [json.loads(line)["text"] for line in MESSAGES.read_text(encoding="utf-8").splitlines() if line.strip()]
        found = " ".join(lines).split()
    out: list[str] = []
    size = 0
    while size < kilobytes * 1000:
        out.append(found[len(out) % len(found)])
        size += len(out[-1]) + 1
    return out


def bodies(kilobytes: int, per_string: list[int], contents: list[str]) -> dict[tuple[str, str], dict]:
    """One request per (content, shape), the shapes of one content holding the same words."""
    shapes = {}
    for content in contents:
        found = words(content, kilobytes)
        shapes[content, ONE] = {"model": "m", "messages": [{"role": "user", "content": " ".join(found)}]}
        for size in per_string:
            strings = [" ".join(found[i : i + size]) for i in range(0, len(found), size)]
            shapes[content, f"strings of {size} word{'s' if size > 1 else ''}"] = {
                "model": "m",
                "messages": [{"role": "user", "content": "Summarise the notes."}],
                "metadata": {"notes": strings},
            }
    return shapes


def child(args: argparse.Namespace) -> None:
    """Runs inside the tree to measure: prints one JSON row per shape."""
    import httpx

    from stealthflow.config import ProtectConfig
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.keys import new_secret
    from stealthflow.placeholders.recognizers import build_recognizers
    from stealthflow.proxy.app import create_proxy_app
    from stealthflow.proxy.config import ProxyConfig
    from stealthflow.testing.loopback import serve
    from stealthflow.testing.mock_openai import MockOpenAI, Reply

    tmp = Path(tempfile.mkdtemp(prefix="request-strings-"))
    os.environ["STEALTHFLOW_VAULT_KEY"] = new_secret()
    os.environ["MOCK_KEY"] = "k"
    config = ProtectConfig(vault_path=tmp / "vault.sqlite", key_source="env", llm_extractor=False, tagger=args.tagger)
    protector = Protector(
        config, open_vault(config), Detector(build_recognizers(config.recognizers, models=args.tagger))
    )
    shapes = bodies(args.kb, args.words, args.contents)
    with MockOpenAI(respond=lambda body: Reply("Noted.")) as upstream:
        proxy = ProxyConfig(upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY")
        with serve(create_proxy_app(protector, proxy, TOKEN)) as port, httpx.Client(timeout=900) as client:
            url = f"http://127.0.0.1:{port}/v1/chat/completions"
            warm = {"model": "m", "messages": [{"role": "user", "content": "Hi, I'm Anna Berg, anna@mailbox.org."}]}
            client.post(url, json=warm, headers={"Authorization": f"Bearer {TOKEN}"})
            count = 0
            for (content, name), body in shapes.items():
                seconds, statuses = [], set()
                raw = json.dumps(body)
                for _ in range(args.repeats):
                    count += 1
                    headers = {"Authorization": f"Bearer {TOKEN}", "x-stealthflow-session": f"run-{count}"}
                    started = time.process_time()
                    answer = client.post(url, content=raw, headers={**headers, "content-type": "application/json"})
                    seconds.append(time.process_time() - started)
                    statuses.add(answer.status_code)
                strings = len(body.get("metadata", {}).get("notes", [])) or 1
                row = {"content": content, "shape": name, "strings": strings, "body_bytes": len(raw)}
                row["status"] = sorted(statuses)
                print(json.dumps({**row, "cpu_s": statistics.median(seconds)}), flush=True)


def run_tree(src: Path, args: argparse.Namespace) -> list[dict]:
    command = [sys.executable, __file__, "--child", "--kb", str(args.kb), "--repeats", str(args.repeats)]
    command += ["--words", *map(str, args.words), "--contents", *args.contents, *(["--tagger"] if args.tagger else [])]
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=src.parent)
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kb", type=int, default=100, help="the words' size in KB")
    parser.add_argument("--words", type=int, nargs="+", default=[1, 4, 16, 64], help="words per string")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--contents", nargs="+", choices=CONTENTS, default=list(CONTENTS), help="the words sent")
    parser.add_argument("--name", help="the results' name (default request_strings[_tagger])")
    parser.add_argument("--tagger", action="store_true", help="detection with the PII tagger (the proxy's default)")
    parser.add_argument("--before", type=Path, help="another checkout's src/, measured beside this one")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    trees = {"after": AFTER, **({"before": args.before.resolve()} if args.before else {})}
    order = list(trees) + list(reversed(trees))  # A B B A: neither always runs first
    runs: dict[str, list[list[dict]]] = {name: [] for name in trees}
    for name in order:
        runs[name].append(run_tree(trees[name], args))
    merged: dict[str, list[dict]] = {}
    for name, rows in runs.items():
        merged[name] = [
            {**first, "cpu_s": statistics.median(run[i]["cpu_s"] for run in rows)} for i, first in enumerate(rows[0])
        ]
    header = ["words", "shape", "strings", "body KB"]
    for name in trees:
        header += [f"{name}: status", f"{name}: CPU s", f"{name}: x one text"]
    lines = []
    for i, row in enumerate(merged["after"]):
        line = [row["content"], row["shape"], f"{row['strings']:,}", f"{row['body_bytes'] / 1000:.0f}"]
        for name in trees:
            mine = merged[name][i]
            one = next(r for r in merged[name] if r["content"] == mine["content"] and r["shape"] == ONE)
            line += [
                "/".join(map(str, mine["status"])),
                f"{mine['cpu_s']:.3f}",
                f"{mine['cpu_s'] / one['cpu_s']:.1f}",
            ]
        lines.append(line)
    load = os.getloadavg()[0]
    title = (
        f"Proxy CPU per request, {args.kb} KB of words as one text and as strings under `metadata` "
        f"({'with' if args.tagger else 'without'} the PII tagger; median of {args.repeats} requests, "
        f"{len(order) // len(trees)} runs per tree; load {load:.1f})"
    )
    text = f"# {title}\n\n" + "\n".join(table(header, lines)) + "\n"
    print(text)
    name = args.name or "request_strings" + ("_tagger" if args.tagger else "")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.md").write_text(text, encoding="utf-8")
    (RESULTS / f"{name}.json").write_text(
        json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "trees": merged, "load": load}, indent=1)
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
