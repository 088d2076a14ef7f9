"""Which stage of the local anonymizer made each edit blind readers rejected, and of what kind it is.

Reads judged pairs (`benchmarks/results/fluency_reader_seed*.jsonl`: original, rewrite, fluent, faithful, note) and
keeps the rejected ones (not fluent or not faithful). The local anonymizer (as `anonymize --method local` runs it,
no adapter shipped: per-phrase generalization) rewrites each rejected original again; where it still prints the judged
rewrite, its change list says which stage made each edit (`by`: `generalized`, a stand-in; `removed`, a removal with
nothing in its place; `clause` / `sentence`, the fallback; `model`, the rewrite model). An edit's kind is
`reader_replay.edit_cause`'s, read from the parse of its sentence in the original: a stand-in, a bare head (words taken
from before a noun that stays: "Chuo line" -> "Line"), a missing object (a verb or preposition left without its
object), a dangling reference, any other dropped modifier or adjunct.
Rejected posts the code no longer rewrites the same way are counted apart (`no longer made`).

`--since FILE` (the `--replay` of an earlier code version): the stages and kinds are those of the edits that version
still made, and the code run now rewrites only those posts again: per (stage, kind), how many of its edits it still
makes (the same old words giving way to the same new ones) and how many it still prints (its post not reported).

    python benchmarks/rewrite_drops.py benchmarks/results/fluency_reader_seed*.jsonl --replay runs/drops.jsonl
    python benchmarks/rewrite_drops.py benchmarks/results/fluency_reader_seed*.jsonl --since runs/drops.jsonl \
        --replay runs/drops_now.jsonl
    (`--replay FILE`: the replay written by an earlier run, read instead of rewriting again when it holds every post)
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from reader_edits import Edit, edits
from reader_replay import edit_cause


def rejected(paths: list[Path]) -> list[dict]:
    rows = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if not (row["fluent"] and row["faithful"]):
                rows.append(dict(row, file=path.name))
    return rows


def replay(originals: list[str], cache: Path | None) -> dict[str, dict]:
    """Per original, the local anonymizer's rewrite, how, changes and the phrases it reports unprotected."""
    if cache and cache.exists():
        done = {r["original"]: r for r in map(json.loads, cache.read_text(encoding="utf-8").splitlines())}
        if set(originals) <= set(done):
            return done
    from stealthflow.anonymize import build_method
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    method = build_method("local", Settings(), LLMPool(), {})
    rewrites = method.rewrite_posts(originals)
    done = {
        o: {"original": o, "rewrite": r.text, "how": r.how, "changes": r.changes, "unprotected": r.unprotected}
        for o, r in zip(originals, rewrites, strict=True)
    }
    if cache:
        cache.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in done.values()), encoding="utf-8")
    return done


def staged_edits(original: str, rewrite: str, changes: list[dict]) -> list[tuple[str, str, Edit]]:
    """The word-level edits (`reader_edits.edits`) turning `original` into `rewrite`, each with the stage that made it
    (the `by` of the change list entry it lies in) and its kind (`reader_replay.edit_cause`)."""
    spans, cursor = [], 0
    for change in changes:
        at = original.find(change["phrase"], cursor) if change["phrase"] else -1
        if at >= 0:
            spans.append((at, at + len(change["phrase"]), change["by"]))
            cursor = at + len(change["phrase"])
    found = []
    for edit in edits(original, rewrite):
        stage = next((by for start, end, by in spans if start <= edit.start < max(end, start + 1)), "other")
        found.append((stage, edit_cause(original, edit.old, edit.new, edit.start), edit))
    return found


def table(rows: list[dict], replays: dict[str, dict], now: dict[str, dict] | None = None) -> dict:
    """Per (stage, kind), the edits of the rejected rewrites the local anonymizer (`replays`) still makes, one per
    verdict; with `now` (a later version's replay of those posts), how many of them it still makes and prints."""
    counts: Counter = Counter()
    made: Counter = Counter()
    printed: Counter = Counter()
    examples: dict[tuple[str, str], list[str]] = {}
    posts: Counter = Counter()
    for row in rows:
        mine = replays[row["original"]]
        if mine["rewrite"] != row["rewrite"]:
            posts["no longer made"] += 1
            continue
        posts["still made"] += 1
        later = now.get(row["original"]) if now else None
        kept = {(e.old, e.new) for e in edits(row["original"], later["rewrite"])} if later else set()
        for stage, cause, edit in staged_edits(row["original"], row["rewrite"], mine["changes"]):
            counts[stage, cause] += 1
            made[stage, cause] += (edit.old, edit.new) in kept
            printed[stage, cause] += (edit.old, edit.new) in kept and not later["unprotected"]
            examples.setdefault((stage, cause), []).append(f"{edit.old!r} -> {edit.new!r}")
    return {
        "posts": dict(posts),
        "edits": [
            {"stage": s, "kind": k, "edits": n, "examples": sorted(set(examples[(s, k)]))[:4]}
            | ({"still_made": made[s, k], "still_printed": printed[s, k]} if now else {})
            for (s, k), n in counts.most_common()
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("judged", type=Path, nargs="+")
    parser.add_argument("--replay", type=Path)
    parser.add_argument("--since", type=Path, help="an earlier version's --replay: count what the code run now changes")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = rejected(args.judged)
    if args.since:
        before = {r["original"]: r for r in map(json.loads, args.since.read_text(encoding="utf-8").splitlines())}
        made = [r["original"] for r in rows if before[r["original"]]["rewrite"] == r["rewrite"]]
        summary = {
            "rejected_verdicts": len(rows),
            **table(rows, before, replay(list(dict.fromkeys(made)), args.replay)),
        }
    else:
        replays = replay(list(dict.fromkeys(r["original"] for r in rows)), args.replay)
        summary = {"rejected_verdicts": len(rows), **table(rows, replays)}
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
