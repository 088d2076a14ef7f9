"""Which of the rewrites blind readers judged the current `local` method still produces, post by post.

The judged files (`benchmarks/results/fluency_reader_seed*.jsonl`, a first reader's and `*_second.jsonl`) hold
(original, rewrite) pairs with each reader's `fluent` and `faithful`. A pair is **rejected** when a reader judged it
not fluent, **accepted** when both judged it fluent and faithful. The current local anonymizer (as `anonymize
--method local` runs it, each line of a post apart) rewrites every original again; per kind, how many rewrites it
still produces word for word, and how many it now **changes or reports** (today's text differs from the judged rewrite,
or a marked phrase stays and the post is not protected, so it is not printed): of the rejected pairs the gain, of the
accepted ones the cost. Run it before and after a change (`--rows` keeps each pair with today's text).

`--unfaithful` also counts as rejected a pair a reader judged fluent but not faithful. `--edits` adds the same count
edit by edit (`benchmarks/reader_edits.py`: an edit is rejected when its post was judged not fluent or not faithful and
the reader's note names it, accepted when its post was judged fluent and faithful): of each reader-labelled edit,
whether today's text still makes it (the same old words giving way to the same new ones) or not (refused, or another
edit in its place).

`--rejects` sorts the edits the notes name in pairs judged not fluent or not faithful by `edit_cause` (with "bare
head": words taken from before a noun that stays), and counts how many today's text still makes.

`--causes` sorts the rejected pairs changed and printed as protected by what today's edits do, read with the rewrite's own
parse (`anonymize.syntax`) in the original's sentence (`causes`): a removal that leaves its head without its object
("missing object"), one that takes a thing a pro-form of the rest of the post points at ("dangling reference"), any
other removal of a modifier or adjunct ("dropped modifier"), a stand-in ("stand-in"), anything else ("other").

    python benchmarks/reader_replay.py --seeds 10,11,12,13,14,15,16,17,23 --causes --rows runs/replay.json
    python benchmarks/reader_replay.py --from-rows runs/replay.json --causes     # the same summary, no replay
    python benchmarks/reader_replay.py --seeds 51,53 --unfaithful --edits --rows runs/replay_51-53.json
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from reader_edits import _TOKEN, Edit, edits, key, label

RESULTS = Path(__file__).parent / "results"
#: dependencies of a verb's or preposition's object: the removal leaves its head without it
OBJECT_DEPS = {"pobj", "dobj", "pcomp", "attr", "dative", "oprd", "xcomp", "ccomp"}
#: dependencies of the words before a noun that say which or what kind it is
BEFORE_NOUN = {"compound", "amod", "nummod", "nmod", "quantmod"}


def judged_pairs(seeds: list[int], unfaithful: bool = False) -> dict[str, list[dict]]:
    """{"rejected": [...], "accepted": [...]}: each pair with its original, rewrite, seed, id, each reader's verdict
    and note; rejected when a reader judged it not fluent (with `unfaithful`, or not faithful)."""
    pairs: dict[tuple[int, int], dict] = {}
    for seed in seeds:
        for suffix in ("", "_second"):
            for line in (RESULTS / f"fluency_reader_seed{seed}{suffix}.jsonl").read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                pair = pairs.setdefault((seed, row["id"]), {**row, "seed": seed, "verdicts": [], "notes": []})
                pair["verdicts"].append((row["fluent"], row["faithful"]))
                pair["notes"].append(row["note"])
    needed = all if unfaithful else lambda verdict: verdict[0]
    rejected = [p for p in pairs.values() if not all(needed(v) for v in p["verdicts"])]
    accepted = [p for p in pairs.values() if len(p["verdicts"]) == 2 and all(all(v) for v in p["verdicts"])]
    return {"rejected": rejected, "accepted": accepted}


def _same(a: str, b: str) -> bool:
    return a.split() == b.split()


def edit_cause(original: str, old: str, new: str, start: int) -> str:
    """What one edit of `original` (`old` at `start` giving way to `new`) does, by the parse of its sentence: see the
    module; a dangling reference is one `referents.leaves_reference` finds in the original. A **bare head** is an edit
    that takes only words standing before a noun that stays ("Printed boarding" of "Printed boarding passes." ->
    "Passes.", "one" of "a one bedroom", "Lebak" of "Lebak Bulus"), whether the diff shows it as a removal or as the
    noun capitalised in their place."""
    from stealthflow.anonymize import generalize, referents, syntax

    if new.strip() and old.casefold().endswith(" " + new.casefold().strip()):
        old = old[: len(old) - len(new.strip())].rstrip()  # "Printed boarding passes" -> "Passes": a removal
        new = ""
    if new.strip():
        return "stand-in"
    first, last = generalize.sentence_bounds(original, start, start + len(old))
    span = syntax.phrase(original[first:last], start - first, start + len(old) - first)
    if span is None:
        return "other"
    head = syntax.head_of(span)
    if head.head == head:
        return "other"
    if head.head.i >= span.end and head.head.pos_ in {"NOUN", "PROPN"} and head.dep_ in BEFORE_NOUN:
        return "bare head"
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


def edit_summary(rows: list[dict]) -> dict:
    """Of the edits the readers' notes label (`reader_edits.label`, each reader's verdict apart, an edit counted once
    per pair and label): per label, how many, and how many today's text of their original still makes."""
    report = {}
    for verdict in ("rejected", "accepted"):
        judged = made = 0
        for row in rows:
            today = {key(e) for e in edits(row["original"], row["today"])}
            labelled = set()
            for (fluent, faithful), note in zip(row["verdicts"], row["notes"], strict=True):
                reader = {"fluent": fluent, "faithful": faithful, "note": note}
                labelled |= {key(e) for e in edits(row["original"], row["rewrite"]) if label(reader, e) == verdict}
            judged += len(labelled)
            made += len(labelled & today)
        report[verdict] = {"edits": judged, "still_made": made, "not_made": judged - made}
    return report


#: a stretch the reader's note quotes ('24 and living.')
QUOTED = re.compile(r"'([^']{3,}?)'(?=[\s,;:.)]|$)")
_SQUEEZE = re.compile(r"\s+")


def _squeezed(text: str) -> str:
    return _SQUEEZE.sub("", text).casefold()


def names_edit(reader: dict, edit: Edit, rewrite: str) -> bool:
    """The reader's note names `edit` of a pair it judged not fluent or not faithful: it quotes the edit's old or new
    words (`reader_edits.label`), or a stretch of the rewrite holding the word before the edit, its new words and the
    word after ("'24 and living.' dangles" names the removal of "with my parents in Madina" of "24 and living with my
    parents in Madina.")."""
    if label(reader, edit) == "rejected":
        return True
    if reader["fluent"] and reader["faithful"]:
        return False
    words = list(_TOKEN.finditer(edit.original))
    before = [m.group() for m in words if m.end() <= edit.start][-1:]
    after = [m.group() for m in words if m.start() >= edit.start + len(edit.old)][:1]
    around = _squeezed(" ".join(before + [edit.new] + after))
    quoted = [_squeezed(q) for q in QUOTED.findall(reader["note"])]
    return len(around) >= 4 and any(around in q and q in _squeezed(rewrite) for q in quoted)


def reject_causes(rows: list[dict]) -> dict[str, dict]:
    """The edits readers' notes name in pairs they judged not fluent or not faithful (`names_edit`), each counted once per
    pair, sorted by `edit_cause`: per cause, how many edits, how many readers' verdicts named them,
    how many of those judged the post not fluent, how many edits today's text still makes, and examples."""
    table: dict[str, dict] = {}
    for row in rows:
        today = {key(e) for e in edits(row["original"], row["today"])}
        named: dict[tuple[str, str], tuple] = {}
        for (fluent, faithful), note in zip(row["verdicts"], row["notes"], strict=True):
            reader = {"fluent": fluent, "faithful": faithful, "note": note}
            for edit in edits(row["original"], row["rewrite"]):
                if names_edit(reader, edit, row["rewrite"]):
                    edit_key, before = key(edit), named.get(key(edit), (edit, 0, 0))
                    named[edit_key] = (edit, before[1] + 1, before[2] + (not fluent))
        for edit_key, (edit, verdicts, not_fluent) in named.items():
            cause = edit_cause(row["original"], edit.old, edit.new, edit.start)
            entry = table.setdefault(
                cause, {"edits": 0, "verdicts": 0, "not_fluent": 0, "still_made": 0, "examples": []}
            )
            entry["edits"] += 1
            entry["verdicts"] += verdicts
            entry["not_fluent"] += not_fluent
            entry["still_made"] += edit_key in today
            entry["examples"].append(f"seed {row['seed']} #{row['id']}: {edit.old!r} -> {edit.new!r}")
    return dict(sorted(table.items(), key=lambda item: -item[1]["edits"]))


def replay(seeds: list[int], unfaithful: bool = False) -> list[dict]:
    """Every judged pair of `seeds` with today's text of its original and how many phrases today's code reports."""
    from stealthflow.anonymize import build_method
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    pool = LLMPool()
    method = build_method("local", Settings(), pool, {})
    rows = []
    for kind, pairs in judged_pairs(seeds, unfaithful).items():
        lines = [p["original"].split("\n") for p in pairs]
        done = iter(method.rewrite_posts([line for post in lines for line in post]))
        for pair, post in zip(pairs, lines, strict=True):
            results = [next(done) for _ in post]
            row = {"kind": kind, "seed": pair["seed"], "id": pair["id"], "original": pair["original"]}
            row |= {"rewrite": pair["rewrite"], "today": "\n".join(r.text for r in results)}
            row |= {"verdicts": pair["verdicts"], "notes": pair["notes"]}
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
    parser.add_argument("--unfaithful", action="store_true", help="a pair judged not faithful is rejected too")
    parser.add_argument("--edits", action="store_true", help="count the readers' labelled edits still made")
    parser.add_argument("--rejects", action="store_true", help="sort the edits readers' notes reject by cause")
    args = parser.parse_args()
    if args.from_rows:
        rows = json.loads(args.from_rows.read_text(encoding="utf-8"))
    else:
        rows = replay([int(s) for s in args.seeds.split(",")], args.unfaithful)
    if args.rows:
        args.rows.write_text(json.dumps(rows, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    report = summary(rows, args.causes)
    if args.edits:
        report["edits"] = edit_summary(rows)
    if args.rejects:
        report["reject_causes"] = reject_causes(rows)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
