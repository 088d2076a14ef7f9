"""Natural comments without explicit PII through the CLI as a user runs it: every comment of
data/test.jsonl (1 969; a blind review of every flag found no personal data) in one
`stealthflow protect --rewrite none --no-llm` session, with a fresh vault and key in a temporary
directory, and the PII tagger of `--tagger` (`--clause-tagger`: with the clause tagger). Prints the
comments flagged (any span masked), by the masked spans' types and recognizers.

    python benchmarks/pii_session_flags.py [--tagger DIR] [--clause-tagger] [--texts FILE] [--limit N]
        [--without NAME ...] [--show] [--json OUT]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from stealthflow.data.loader import load_profiles
from stealthflow.placeholders.recognizers import recognizer_names

COMMENTS = Path(__file__).resolve().parent.parent / "data" / "test.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tagger", help="a tagger's directory (default: the shipped one)")
    parser.add_argument("--clause-tagger", action="store_true", help="with the clause tagger (protect.clause_tagger)")
    parser.add_argument("--limit", type=int, help="the first N comments only")
    parser.add_argument(
        "--texts", type=Path, help="texts without PII, one a line, instead of data/test.jsonl's comments"
    )
    parser.add_argument("--without", nargs="+", default=[], help="recognizers left out (a gain's before)")
    parser.add_argument("--show", action="store_true", help="print each masked value (the comments hold no PII)")
    parser.add_argument(
        "--json", type=Path, help="also write each flagged comment's spans (type, recognizer, value) here"
    )
    args = parser.parse_args()
    if args.texts:
        texts = [line for line in args.texts.read_text(encoding="utf-8").splitlines() if line.strip()][: args.limit]
    else:
        texts = [c.text for p in load_profiles(COMMENTS) for c in p.comments if c.text.strip()][: args.limit]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "in.jsonl").write_text(
            "".join(json.dumps({"id": str(i), "text": text}) + "\n" for i, text in enumerate(texts)), encoding="utf-8"
        )
        config = {"vault_path": str(work / "vault.sqlite"), "key_source": "env"}
        if args.without:
            config["recognizers"] = [name for name in recognizer_names() if name not in args.without]
        if args.tagger:
            config["tagger_model"] = str(Path(args.tagger).resolve())
        if args.clause_tagger:
            config["clause_tagger"] = True
        (work / "config.yaml").write_text(json.dumps({"protect": config}), encoding="utf-8")
        key = base64.b64encode(secrets.token_bytes(32)).decode()
        command = [str(Path(sys.executable).parent / "stealthflow"), "protect", "-c", str(work / "config.yaml")]
        command += ["-i", str(work / "in.jsonl"), "-o", str(work / "out.jsonl"), "--rewrite", "none", "--no-llm"]
        subprocess.run(command + ["--session", "bench"], check=True, env=os.environ | {"STEALTHFLOW_VAULT_KEY": key})
        records = [json.loads(line) for line in (work / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    flagged = [r for r in records if r["spans"]]
    spans = [(s, texts[int(r["id"])]) for r in flagged for s in r["spans"]]
    print(f"{len(flagged)} of {len(records)} comments flagged ({100 * len(flagged) / len(records):.1f} %)")
    print("spans by type:", dict(Counter(s["type"] for s, _ in spans).most_common()))
    print("spans by recognizer:", dict(Counter(s["source"] for s, _ in spans).most_common()))
    if args.json:
        rows = [
            {
                "id": int(r["id"]),
                "spans": [[s["type"], s["source"], texts[int(r["id"])][s["start"] : s["end"]]] for s in r["spans"]],
            }
            for r in flagged
        ]
        args.json.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    if args.show:
        for s, text in spans:
            print(f"{s['type']:<12} {s['source']:<16} {text[s['start'] : s['end']]!r}")


if __name__ == "__main__":
    main()
