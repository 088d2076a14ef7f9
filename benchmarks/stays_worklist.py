"""The worklist of the written stand-ins (data/generalize/written_stand_ins.tsv, `stealthflow.anonymize.written`): run
the local rewrite (cue tagger and generalizer, no model) on development posts, keep each mark it reported unprotected
with its attribute and one sentence holding it, and group them by (phrase, attribute), most frequent first, into
worklists of the brief's columns (`written.WORKLIST_COLUMNS`), split in `--halves` (line 1, 3, 5... to the first).

Sources: `train` (the train split's comments, data/train.jsonl), `blind-X` (benchmarks/data/blind-profiles-X), or a
file of data/teacher-rewrites/. Never the test split, nor the blind sets results are measured on.

    python benchmarks/stays_worklist.py --out-dir runs/worklist blind-h blind-i synthetic-posts-b.jsonl train
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from stealthflow.anonymize import syntax, written
from stealthflow.anonymize.cues import load_cue_tagger
from stealthflow.anonymize.generalize import Generalizer
from stealthflow.anonymize.local import LocalAnonymizer, attribute_of
from stealthflow.data.loader import load_profiles
from stealthflow.placeholders.common_words import common_word
from stealthflow.resources import resource_dir
from stealthflow.utility.fluency import shared_scorer

ROOT = Path(__file__).resolve().parent.parent
#: a marked phrase longer than this is a clause, not a phrase to look up
MAX_CHARACTERS = 80
#: the example sentence is cut to this many characters around its phrase
SENTENCE_CHARACTERS = 300
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")


def posts_of(source: str) -> list[str]:
    if source == "train":
        return [c.text for p in load_profiles(resource_dir("data") / "train.jsonl") for c in p.comments]
    if source.startswith("blind-"):
        path = ROOT / "benchmarks" / "data" / f"blind-profiles-{source.removeprefix('blind-')}" / "profiles.jsonl"
        return [c.text for p in load_profiles(path) for c in p.comments]
    lines = (resource_dir("data") / "teacher-rewrites" / source).read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["text"] for line in lines if line.strip()]


def sentence_of(post: str, phrase: str) -> str:
    """The first sentence of `post` holding `phrase`, cut to SENTENCE_CHARACTERS around it."""
    sentence = next((m.group() for m in _SENTENCE.finditer(post) if phrase in m.group()), post)
    sentence = " ".join(sentence.split())
    at = sentence.find(phrase)
    if len(sentence) > SENTENCE_CHARACTERS and at >= 0:
        margin = (SENTENCE_CHARACTERS - len(phrase)) // 2
        sentence = sentence[max(0, at - margin) : at + len(phrase) + margin]
    return sentence


def stays(sources: list[str]) -> list[dict]:
    """Each mark the local rewrite left, with its attribute and sentence."""
    anonymizer = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer))
    found = []
    for source in sources:
        posts = posts_of(source)
        for post, result in zip(posts, anonymizer.rewrite_posts(posts), strict=True):
            for phrase in result.unprotected:
                phrase = " ".join(phrase.split())
                attribute = attribute_of(phrase, result.cues)
                if attribute and re.search(r"\w", phrase) and len(phrase) <= MAX_CHARACTERS:
                    found.append({"phrase": phrase, "attribute": attribute, "sentence": sentence_of(post, phrase)})
        print(f"{source}: {len(posts)} posts, {len(found)} marks so far", flush=True)
    return found


def head_of(phrase: str, sentence: str) -> str:
    """The phrase's last word when it is a common noun in its sentence (a proper noun only when a common word:
    "Grandma"), else "-"."""
    at = sentence.find(phrase)
    tokens = [t for t in syntax.parse(sentence) if at <= t.idx < at + len(phrase) and not t.is_punct] if at >= 0 else []
    if not tokens or not re.fullmatch(r"[a-z][a-z'-]*", last := tokens[-1].text.casefold()):
        return "-"
    return last if tokens[-1].pos_ == "NOUN" or tokens[-1].pos_ == "PROPN" and common_word(last) else "-"


def worklist(marks: list[dict], limit: int) -> list[str]:
    """One line per (phrase, attribute) with its shortest sentence, the most frequent first, then those whose head
    noun (`head_of`) the most marks of the attribute end with; at most `limit`."""
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for mark in marks:
        groups[mark["phrase"].casefold(), mark["attribute"]].append(mark)
    items = []
    for (_, attribute), group in groups.items():
        mark = min(group, key=lambda m: (m["phrase"] not in m["sentence"], len(m["sentence"])))
        items.append((attribute, len(group), mark["phrase"], head_of(mark["phrase"], mark["sentence"]), mark))
    heads: Counter = Counter()
    for attribute, count, _, head, _ in items:
        heads[attribute, head] += count if head != "-" else 0
    items.sort(key=lambda item: (-item[1], -heads[item[0], item[3]], item[0], item[2].casefold()))
    return [
        "\t".join((f"w{n:04d}", attribute, str(count), phrase, head, mark["sentence"].replace("\t", " ")))
        for n, (attribute, count, phrase, head, mark) in enumerate(items[:limit], 1)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+", help="train, blind-X, or a file of data/teacher-rewrites/")
    parser.add_argument("--out-dir", type=Path, required=True)
    parser.add_argument("--halves", type=int, default=2)
    parser.add_argument("--limit", type=int, default=3000, help="lines in all the worklists")
    args = parser.parse_args()
    if any(s.startswith("blind-") and s.removeprefix("blind-") >= "n" for s in args.sources):
        parser.error("blind sets n and later are the measuring sets: mine only earlier ones")
    lines = worklist(stays(args.sources), args.limit)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for half in range(args.halves):
        path = args.out_dir / f"worklist-{half + 1}.tsv"
        path.write_text("\n".join(["\t".join(written.WORKLIST_COLUMNS), *lines[half :: args.halves]]) + "\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
