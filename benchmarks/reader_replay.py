"""Which of the rewrites blind readers judged the current `local` method still produces, post by post.

The judged files (`benchmarks/results/fluency_reader_seed*.jsonl`, a first reader's and `*_second.jsonl`) hold
(original, rewrite) pairs with each reader's `fluent` and `faithful`. A pair is **rejected** when a reader judged it
not fluent, **accepted** when both judged it fluent and faithful. The current local anonymizer (as `anonymize
--method local` runs it, each line of a post apart) rewrites every original again; per kind, how many rewrites it
still produces word for word. Run it before and after a change (`--rows` keeps each pair with today's text).

    python benchmarks/reader_replay.py --seeds 12,13,14,15,16,17,23 --rows runs/replay.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

RESULTS = Path(__file__).parent / "results"


def judged_pairs(seeds: list[int]) -> dict[str, list[dict]]:
    """{"rejected": [...], "accepted": [...]}: each pair with its original, rewrite, seed and id."""
    pairs: dict[tuple[int, int], dict] = {}
    for seed in seeds:
        for suffix in ("", "_second"):
            for line in (RESULTS / f"fluency_reader_seed{seed}{suffix}.jsonl").read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                pair = pairs.setdefault((seed, row["id"]), {**row, "seed": seed, "verdicts": []})
                pair["verdicts"].append((row["fluent"], row["faithful"]))
    rejected = [p for p in pairs.values() if not all(fluent for fluent, _ in p["verdicts"])]
    accepted = [p for p in pairs.values() if len(p["verdicts"]) == 2 and all(all(v) for v in p["verdicts"])]
    return {"rejected": rejected, "accepted": accepted}


def _same(a: str, b: str) -> bool:
    return a.split() == b.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="12,13,14,15,16,17,23")
    parser.add_argument("--rows", type=Path, help="JSON: every pair with today's rewrite")
    args = parser.parse_args()
    from stealthflow.anonymize import build_method
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    pool = LLMPool()
    method = build_method("local", Settings(), pool, {})
    report, rows = {}, []
    for kind, pairs in judged_pairs([int(s) for s in args.seeds.split(",")]).items():
        lines = [p["original"].split("\n") for p in pairs]
        done = iter(method.rewrite_posts([line for post in lines for line in post]))
        for pair, post in zip(pairs, lines, strict=True):
            today = "\n".join(next(done).text for _ in post)
            rows.append(
                {"kind": kind, "seed": pair["seed"], "id": pair["id"], "rewrite": pair["rewrite"], "today": today}
            )
        mine = [r for r in rows if r["kind"] == kind]
        report[kind] = {"pairs": len(pairs), "still_produced": sum(_same(r["rewrite"], r["today"]) for r in mine)}
    pool.close()
    if args.rows:
        args.rows.write_text(json.dumps(rows, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
