"""How blind readers judged the two kinds of damage a removal can do to a post, and which judged rewrites the local
anonymizer would still print as protected.

Read from the judged pairs (`benchmarks/results/fluency_reader_seed*.jsonl`, one verdict a line, the seed read from
the file name), split into edits as `benchmarks/reader_edits.py` splits them:

- **sentence drops**: a rewrite in which every word of one or more sentences of the original is gone; per seed group,
  how many such verdicts said fluent, faithful, both (and for the rewrites that drop no sentence).
- **fragments, clauses, objects**: each removal (an edit with nothing in its place, no whole sentence) tested in its
  sentence of the original by `syntax.damage`: it takes every verb of its sentence ("verb"), it leaves a word without the head it belonged to or a coordination
  with one conjunct ("fragment"), takes a clause with its own verb ("clause"), takes every object of a verb that stays
  ("object"), takes the word joining two clauses ("connective"), widens a claim about all, none or the most of a
  kind ("claim"), takes part of a name written in several words ("name"), leaves a verb or adjective at its clause's
  end without its complement ("complement"), or none of these ("stands"); per outcome, the edits' labels (accepted, rejected, not counted) and their
  posts' verdicts.

`--rewrites FILE` (the replay written by `reader_edits.py --rewrites`): per verdict, whether the judged rewrite is
still what the local anonymizer prints as protected (the same text, no mark left unprotected), by verdict.

    python benchmarks/rewrite_damage.py benchmarks/results/fluency_reader_seed*.jsonl
    python benchmarks/rewrite_damage.py benchmarks/results/fluency_reader_seed10*.jsonl --rewrites runs/replay.jsonl
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reader_edits import _TOKEN, edits, label  # noqa: E402

from stealthflow.anonymize import syntax  # noqa: E402
from stealthflow.anonymize.generalize import sentence_bounds  # noqa: E402
from stealthflow.sentence_ends import sentence_ends  # noqa: E402


def verdict(row: dict) -> str:
    return {(True, True): "fluent+faithful", (True, False): "fluent only", (False, True): "faithful only"}.get(
        (bool(row["fluent"]), bool(row["faithful"])), "neither"
    )


def dropped_sentences(original: str, rewrite: str) -> list[str]:
    """The sentences of `original` none of whose words is kept in `rewrite` (by a word-level diff)."""
    tokens = list(_TOKEN.finditer(original))
    other = [m.group() for m in _TOKEN.finditer(rewrite)]
    matcher = difflib.SequenceMatcher(a=[m.group() for m in tokens], b=other, autojunk=False)
    kept = {i for block in matcher.get_matching_blocks() for i in range(block.a, block.a + block.size)}
    starts = [0, *(m.end() for m in sentence_ends(original)), len(original)]
    found = []
    for first, last in zip(starts, starts[1:], strict=False):
        words = [i for i, m in enumerate(tokens) if first <= m.start() < last and re.match(r"\w", m.group())]
        if words and not kept & set(words):
            found.append(original[first:last].strip())
    return found


def seed_group(path: Path) -> str:
    seed = int(re.search(r"seed(\d+)", path.name).group(1))
    return "seeds 2-7" if seed <= 7 else "seeds 8-10"


def sentence_drops(rows: list[tuple[str, dict]]) -> dict:
    table: dict[str, Counter] = {}
    for group, row in rows:
        drops = "drops a sentence" if dropped_sentences(row["original"], row["rewrite"]) else "drops none"
        table.setdefault(f"{group}, {drops}", Counter())[verdict(row)] += 1
    return {group: dict(counts) for group, counts in sorted(table.items())}


def fragments(rows: list[tuple[str, dict]]) -> dict:
    """Per outcome of `syntax.damage`, the removals' labels and their posts' verdicts, and the damaging ones."""
    kinds = (
        "verb", "subject", "fragment", "clause", "object", "connective", "claim", "name", "complement", "argument",
        "comparison", "kind", "bare", "stands",
    )  # fmt: skip
    table: dict[str, Counter] = {kind: Counter() for kind in kinds}  # per `syntax.damage` outcome, "stands" for none
    examples: list[str] = []
    for _, row in rows:
        original = row["original"]
        for edit in edits(original, row["rewrite"]):
            if not edit.old or edit.new:
                continue
            first, last = sentence_bounds(original, edit.start, edit.start + len(edit.old))
            start = edit.start - first
            if start + len(edit.old) > last - first or original[first:last].strip() in edit.old:  # whole sentences
                continue
            outcome = syntax.damage(original[first:last], start, start + len(edit.old)) or "stands"
            counts = table.setdefault(outcome, Counter())
            counts[f"edit {label(row, edit) or 'not counted'}"] += 1
            counts[f"post {verdict(row)}"] += 1
            if outcome != "stands":
                examples.append(f"{outcome}, {verdict(row)}: -{edit.old!r} in {original[first:last].strip()!r}")
    return {**{k: dict(sorted(v.items())) for k, v in table.items()}, "damage_examples": sorted(set(examples))}


def still_protected(rows: list[tuple[str, dict]], rewrites: Path) -> dict:
    """Per verdict, the judged rewrites the replay prints as protected unchanged, prints otherwise (changed
    differently, unjudged), or no longer prints as protected."""
    replay = {r["original"]: r for r in map(json.loads, rewrites.read_text(encoding="utf-8").splitlines())}
    table: dict[str, Counter] = {}
    for _, row in rows:
        mine = replay[row["original"]]
        if mine["unprotected"]:
            outcome = "not protected"
        elif mine["rewrite"] == row["rewrite"]:
            outcome = "same rewrite, protected"
        else:
            outcome = "other rewrite, protected"
        table.setdefault(verdict(row), Counter())[outcome] += 1
    return {v: dict(c) for v, c in sorted(table.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("judged", type=Path, nargs="+", help="fluency_reader_seed*.jsonl files")
    parser.add_argument("--rewrites", type=Path, help="a replay of the originals (reader_edits.py --rewrites)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [
        (seed_group(path), json.loads(line))
        for path in args.judged
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    summary: dict = {"verdicts": len(rows), "sentence_drops": sentence_drops(rows), "fragments": fragments(rows)}
    if args.rewrites:
        summary["still_protected"] = still_protected(rows, args.rewrites)
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
