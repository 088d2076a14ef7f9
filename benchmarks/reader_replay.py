"""Which of the rewrites blind readers judged the current `local` method still produces, post by post.

The judged files (`benchmarks/results/fluency_reader_seed*.jsonl`, a first reader's and `*_second.jsonl`) hold
(original, rewrite) pairs with each reader's `fluent` and `faithful`. A pair is **rejected** when a reader judged it
not fluent, **accepted** when both judged it fluent and faithful. The current local anonymizer (as `anonymize
--method local` runs it, each line of a post apart) rewrites every original again; per kind, how many rewrites it
still produces word for word, and how many it now **changes or reports** (today's text differs from the judged rewrite,
or a marked phrase stays and the post is not protected, so it is not printed): of the rejected pairs the gain, of the
accepted ones the cost. Run it before and after a change (`--rows` keeps each pair with today's text).

`--causes` sorts the rejected pairs changed and printed as protected by what today's edits do, read with the rewrite's own
parse (`anonymize.syntax`) in the original's sentence (`causes`): a removal that leaves its head without its object
("missing object"), one that takes a thing a pro-form of the rest of the post points at ("dangling reference"), any
other removal of a modifier or adjunct ("dropped modifier"), a stand-in ("stand-in"), anything else ("other").

    python benchmarks/reader_replay.py --seeds 10,11,12,13,14,15,16,17,23 --causes --rows runs/replay.json
    python benchmarks/reader_replay.py --from-rows runs/replay.json --causes     # the same summary, no replay
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from reader_edits import edits

RESULTS = Path(__file__).parent / "results"
#: dependencies of a verb's or preposition's object: the removal leaves its head without it
OBJECT_DEPS = {"pobj", "dobj", "pcomp", "attr", "dative", "oprd", "xcomp", "ccomp"}


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


def edit_cause(original: str, old: str, new: str, start: int) -> str:
    """What one edit of `original` (`old` at `start` giving way to `new`) does, by the parse of its sentence: see the
    module; a dangling reference is one `referents.leaves_reference` finds in the original."""
    from stealthflow.anonymize import generalize, referents, syntax

    if new.strip():
        return "stand-in"
    first, last = generalize.sentence_bounds(original, start, start + len(old))
    span = syntax.phrase(original[first:last], start - first, start + len(old) - first)
    if span is None:
        return "other"
    head = syntax.head_of(span)
    if head.head == head:
        return "other"
    after = next((t for t in span.doc[span.end :] if t.pos_ != "ADV"), None)
    bare = all(t.pos_ in {"ADV", "PART"} or t.dep_ == "prt" for t in span.doc[head.head.i + 1 : span.start])
    if referents.leaves_reference(original[first:last], start - first, start + len(old) - first, original[last:]):
        return "dangling reference"
    if head.dep_ in OBJECT_DEPS or (after is None or after.is_punct) and head.head.i < span.start and bare:
        return "missing object"
    return "dropped modifier"


def causes(row: dict) -> set[str]:
    """The causes (`edit_cause`) of the edits turning a replay row's original into today's text."""
    return {edit_cause(row["original"], e.old, e.new, e.start) for e in edits(row["original"], row["today"])}


def summary(rows: list[dict], with_causes: bool = False) -> dict:
    """Per kind of pair: how many, how many today's code still produces word for word, how many it changes or reports
    (`reported`: marked phrases that stayed, languages not read), how many it still prints as they were judged; with
    `with_causes`, the causes of the rejected pairs whose today's text is changed and printed (`causes`)."""
    report = {}
    for kind in ("rejected", "accepted"):
        mine = [r for r in rows if r["kind"] == kind]
        still = [r for r in mine if _same(r["rewrite"], r["today"])]
        report[kind] = {
            "pairs": len(mine),
            "still_produced": len(still),
            "changed_or_reported": sum(not _same(r["rewrite"], r["today"]) or r["reported"] > 0 for r in mine),
            "still_printed": sum(not r["reported"] for r in still),
        }
        if with_causes and kind == "rejected":
            printed = [r for r in mine if not r["reported"] and not _same(r["original"], r["today"])]
            report[kind]["printed_changed"] = len(printed)
            report[kind]["causes"] = dict(Counter(c for r in printed for c in causes(r)))
    return report


def replay(seeds: list[int]) -> list[dict]:
    """Every judged pair of `seeds` with today's text of its original and how many phrases today's code reports."""
    from stealthflow.anonymize import build_method
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    pool = LLMPool()
    method = build_method("local", Settings(), pool, {})
    rows = []
    for kind, pairs in judged_pairs(seeds).items():
        lines = [p["original"].split("\n") for p in pairs]
        done = iter(method.rewrite_posts([line for post in lines for line in post]))
        for pair, post in zip(pairs, lines, strict=True):
            results = [next(done) for _ in post]
            row = {"kind": kind, "seed": pair["seed"], "id": pair["id"], "original": pair["original"]}
            row |= {"rewrite": pair["rewrite"], "today": "\n".join(r.text for r in results)}
            row["reported"] = sum(len(r.unprotected) + len(r.unread) for r in results)
            rows.append(row)
    pool.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="12,13,14,15,16,17,23")
    parser.add_argument("--rows", type=Path, help="JSON: every pair with today's rewrite")
    parser.add_argument("--from-rows", type=Path, help="summarise the rows of an earlier run instead of replaying")
    parser.add_argument("--causes", action="store_true", help="sort the rejected pairs changed and printed by cause")
    args = parser.parse_args()
    if args.from_rows:
        rows = json.loads(args.from_rows.read_text(encoding="utf-8"))
    else:
        rows = replay([int(s) for s in args.seeds.split(",")])
    if args.rows:
        args.rows.write_text(json.dumps(rows, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(json.dumps(summary(rows, args.causes), indent=1))


if __name__ == "__main__":
    main()
