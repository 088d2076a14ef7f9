"""Blind readers' judgments of `local` rewrites, edit by edit, and which of those edits the current code still makes.

Each line of a judged file (`benchmarks/results/fluency_reader_seed*.jsonl`) is an (original, rewrite) pair with a
reader's `fluent`, `faithful` and one-line `note`. The pair is split into its edits (a word-level diff: what left
the original, what stands in its place). An edit is **rejected** when its post was judged not fluent or not
faithful and the note names it (quotes its old or its new words), **accepted** when its post was judged fluent and
faithful; any other edit is not counted.

Per run: the judged edits (rejected, accepted); `--kinds`: how readers judged the generic stand-ins
(data/generalize/generic.yaml) by what they replaced (a common noun, a name, number or adjective of one of the
stand-in attribute's `names` kinds, or of another kind); unless `--no-replay`: the current local anonymizer
(deterministic, the shipped cue tagger, as `benchmarks/local_dev.py` runs it) rewrites every original again, and
the share of rejected and of accepted edits it still makes (the same old words giving way to the same new ones),
the posts it changes, the marked phrases it reports unprotected, and seconds per post. The code versions of the
files differ, so the replay compares code versions on the same edits: run it before and after a change.

    python benchmarks/reader_edits.py benchmarks/results/fluency_reader_seed[78].jsonl --rewrites runs/replay.jsonl
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

_TOKEN = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]")
_LEADING = re.compile(r"^(?:(?:in|at|on|from|to|for|of|with|by|during|near|around|a|an|the|my|our)\s+)+")


@dataclass(frozen=True)
class Edit:
    old: str  # the words of the original that left ("" for an insertion)
    new: str  # the words in their place ("" for a removal)
    start: int  # where `old` starts in the original
    label: str | None = None  # "rejected", "accepted", or None (not counted)
    original: str = ""


def edits(original: str, rewrite: str) -> list[Edit]:
    """The word-level edits turning `original` into `rewrite`."""
    a = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(original)]
    b = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(rewrite)]
    matcher = difflib.SequenceMatcher(a=[t[0] for t in a], b=[t[0] for t in b], autojunk=False)
    found = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        old = original[a[i1][1] : a[i2 - 1][2]] if i2 > i1 else ""
        new = rewrite[b[j1][1] : b[j2 - 1][2]] if j2 > j1 else ""
        found.append(Edit(old, new, a[i1][1] if i1 < len(a) else len(original), original=original))
    return found


def label(row: dict, edit: Edit) -> str | None:
    """ "accepted" when the post was judged fluent and faithful; "rejected" when it was not and the reader's note
    quotes the edit's old or new words; else None."""
    if row["fluent"] and row["faithful"]:
        return "accepted"
    note = row["note"].casefold()
    named = (s.casefold().strip(" .,'\"") for s in (edit.new, edit.old))
    return "rejected" if any(len(s) >= 2 and s in note for s in named) else None


def judged_edits(rows: list[dict]) -> list[Edit]:
    """Every counted edit of the judged pairs."""
    found = []
    for row in rows:
        for edit in edits(row["original"], row["rewrite"]):
            if (verdict := label(row, edit)) is not None:
                found.append(Edit(edit.old, edit.new, edit.start, verdict, edit.original))
    return found


def key(edit: Edit) -> tuple[str, str]:
    return edit.old.casefold(), edit.new.casefold()


def still_made(judged: list[Edit], rewrites: dict[str, str]) -> dict[str, float]:
    """Per label, the share of `judged` edits that the rewrite of their original (`rewrites`) makes too."""
    made: dict[str, set] = {}
    for original, rewrite in rewrites.items():
        made[original] = {key(e) for e in edits(original, rewrite)}
    shares = {}
    for verdict in ("rejected", "accepted"):
        mine = [e for e in judged if e.label == verdict]
        shares[verdict] = round(sum(key(e) in made.get(e.original, ()) for e in mine) / max(1, len(mine)), 3)
    return shares


def stand_in_attributes(new: str) -> set[str]:
    """The attributes of generic.yaml whose stand-ins `new` is (behind a preposition or determiner)."""
    from stealthflow.anonymize.generalize import FORMS, generic_lexicon

    forms: dict[str, set[str]] = {}
    for attribute, stand in generic_lexicon().items():
        for form in FORMS:
            for word in getattr(stand, form):
                forms.setdefault(word.casefold(), set()).add(attribute)
    text = new.casefold().strip()
    return forms.get(text) or forms.get(_LEADING.sub("", text)) or set()


def stand_in_kinds(judged: list[Edit]) -> dict[str, dict[str, int]]:
    """How readers judged the generic stand-ins by what they replaced: a common noun, or a name, number or
    adjective of one of the attribute's `names` kinds (`generalize.name_kinds`) or of another kind."""
    from stealthflow.anonymize import generalize, syntax

    table: dict[str, Counter] = {}
    for edit in judged:
        attributes = stand_in_attributes(edit.new) if edit.old else set()
        if not attributes:
            continue
        first, last = generalize.sentence_bounds(edit.original, edit.start, edit.start + len(edit.old))
        sentence, start = edit.original[first:last], edit.start - first
        where = syntax.slot(sentence, start, start + len(edit.old))
        if where is None:
            continue
        kind = generalize.slot_kind(sentence, start, start + len(edit.old), attributes, where)
        table.setdefault(kind, Counter())[edit.label] += 1
    return {kind: dict(counts) for kind, counts in table.items()}


def replay(originals: list[str]) -> tuple[list, float]:
    """The current local anonymizer's rewrite of each original, and seconds per post."""
    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.generalize import Generalizer
    from stealthflow.anonymize.local import LocalAnonymizer
    from stealthflow.utility.fluency import shared_scorer

    anonymizer = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer))
    started = time.time()
    results = anonymizer.rewrite_posts(originals)
    return results, (time.time() - started) / max(1, len(originals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("judged", type=Path, nargs="+", help="fluency_reader_seed*.jsonl files")
    parser.add_argument("--kinds", action="store_true", help="readers' verdicts on stand-ins by what they replaced")
    parser.add_argument("--no-replay", action="store_true", help="do not rewrite the originals again")
    parser.add_argument("--rewrites", type=Path, help="write the replayed rewrites here (JSONL)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [json.loads(line) for path in args.judged for line in path.read_text(encoding="utf-8").splitlines()]
    judged = judged_edits(rows)
    summary: dict = {"pairs": len(rows), "edits": dict(Counter(e.label for e in judged))}
    if args.kinds:
        summary["stand_ins"] = stand_in_kinds(judged)
    if not args.no_replay:
        originals = list(dict.fromkeys(row["original"] for row in rows))
        results, seconds = replay(originals)
        summary["still_made"] = still_made(judged, {o: r.text for o, r in zip(originals, results, strict=True)})
        summary["posts_changed"] = round(
            sum(r.text != o for o, r in zip(originals, results, strict=True)) / len(originals), 3
        )
        summary["unprotected_per_post"] = round(sum(len(r.unprotected) for r in results) / len(originals), 3)
        summary["seconds_per_post"] = round(seconds, 2)
        if args.rewrites:
            args.rewrites.write_text(
                "".join(
                    json.dumps({"original": o, "rewrite": r.text, "unprotected": r.unprotected}) + "\n"
                    for o, r in zip(originals, results, strict=True)
                ),
                encoding="utf-8",
            )
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
