"""Blind readers' verdicts on the place stand-ins that replaced a name, and which of them the current code still allows.

Each judged pair of the given files (`benchmarks/results/fluency_reader_seed*.jsonl`) is split into its edits as
`benchmarks/reader_edits.py` does (rejected: the post was judged not fluent or not faithful and the note names the
edit; accepted: the post was judged fluent and faithful). Kept: the edits whose new words are a place stand-in
(`generalize.place_stand_ins`: places.yaml, generic.yaml's location and birthplace ones) in place of a name. Per
edit: whether the current kind rules still allow that stand-in for that name in its sentence (`generalize.allowed`),
and, given `--rewrites` (the JSONL `reader_edits.py --rewrites` writes), whether the replayed rewrite still makes
it. Prints the counts by verdict, then each rejected edit judged unfaithful and each accepted one no longer allowed;
`--out` writes both as JSON (`benchmarks/results/place_stand_ins.json`).

    python benchmarks/place_stand_ins.py benchmarks/results/fluency_reader_seed*.jsonl --rewrites runs/replay.jsonl \
        --out benchmarks/results/place_stand_ins.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from reader_edits import _LEADING, Edit, edits, judged_edits

from stealthflow.anonymize import generalize, syntax


def place_edit(edit: Edit) -> tuple[str, int, syntax.Slot] | None:
    """(sentence, start of the old words in it, their slot) when `edit` put a place stand-in in place of a name."""
    new = edit.new.casefold().strip()
    if not edit.old or not {new, _LEADING.sub("", new)} & generalize.place_stand_ins():
        return None
    first, last = generalize.sentence_bounds(edit.original, edit.start, edit.start + len(edit.old))
    sentence, start = edit.original[first:last], edit.start - first
    where = syntax.slot(sentence, start, start + len(edit.old))
    return (sentence, start, where) if where is not None and where.name else None


def still_allowed(edit: Edit, sentence: str, start: int, where: syntax.Slot) -> bool:
    """The current kind rules allow the edit's stand-in for its name (for either place attribute)."""
    end = start + len(edit.old)
    return any(generalize.allowed(edit.new, sentence, start, end, a, where) for a in ("location", "pobp"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("judged", type=Path, nargs="+", help="fluency_reader_seed*.jsonl files")
    parser.add_argument("--rewrites", type=Path, help="reader_edits.py --rewrites output: the current rewrites")
    parser.add_argument("--out", type=Path, help="write the counts and the listed edits here (JSON)")
    args = parser.parse_args()
    rows = [json.loads(line) for path in args.judged for line in path.read_text(encoding="utf-8").splitlines()]
    unfaithful = {(row["original"], row["rewrite"]) for row in rows if not row["faithful"]}
    rewrites = {}
    if args.rewrites:
        for line in args.rewrites.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            rewrites[row["original"]] = {
                (e.old.casefold(), e.new.casefold()) for e in edits(row["original"], row["rewrite"])
            }
    counts: Counter = Counter()
    listed = []
    for row in rows:
        for edit in judged_edits([row]):
            if (found := place_edit(edit)) is None:
                continue
            allowed = still_allowed(edit, *found)
            made = rewrites.get(edit.original)
            still = None if made is None else (edit.old.casefold(), edit.new.casefold()) in made
            label = "rejected, unfaithful" if (row["original"], row["rewrite"]) in unfaithful else edit.label
            counts[label, "judged"] += 1
            counts[label, "no longer allowed"] += not allowed
            counts[label, "still made"] += bool(still)
            if label == "rejected, unfaithful" or label == "accepted" and not allowed:
                listed.append(f"{label}: {edit.old!r} -> {edit.new!r}: allowed now {allowed}, still made {still}")
    for (label, what), n in sorted(counts.items()):
        print(f"{label}: {what} {n}")
    print("\n".join(listed))
    if args.out:
        found = {"judged": [str(path) for path in args.judged], "rewrites": str(args.rewrites or "")}
        found["counts"] = {f"{label}: {what}": n for (label, what), n in sorted(counts.items())}
        args.out.write_text(json.dumps({**found, "listed": listed}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
