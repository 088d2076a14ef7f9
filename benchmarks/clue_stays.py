"""Why the marks of clue posts stay, and how often DeepSeek-V3 quotes the cue tagger's marks.

`stays`: from the rows `benchmarks/local_dev.py --profile-rows` writes, a seeded sample of the marks reported
unprotected in posts their writers flagged as holding a clue, each replayed by `local_dev.first_stay` (the first stage
of the generalizer that left it no acceptable edit: no candidate and why, the meaning floor, the acceptance gate's
threshold or a hard floor), and whether it is evidence by the data (`generalize.gives_away`); how many marks stayed in
each clue post not protected (5: five or more).

`quoted`: for the comments of a seeded sample of train profiles (never test), the share of the cue tagger's marks whose
words DeepSeek-V3's inference for the mark's attribute quotes (`span_survives`), and for any attribute; apart for the
marks that are and are not evidence by the data. The tagger's training posts come from train comments: an optimistic
reading of its precision.

    python benchmarks/clue_stays.py --rows runs/rows.jsonl --sample 200 --profiles 120 --out results/clue_stays.json
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from local_dev import first_stay

from stealthflow.anonymize import generalize
from stealthflow.anonymize.cues import find_cues, load_cue_tagger, split_cues
from stealthflow.anonymize.generalize import Generalizer
from stealthflow.evaluation.evidence import span_survives
from stealthflow.resources import resource_dir
from stealthflow.utility.fluency import shared_scorer

ATTACKER = "deepseek-ai/DeepSeek-V3"


def evidence(text: str, phrase: str, attribute: str) -> bool:
    """`phrase` of `text` is evidence of `attribute` by the data, read in its sentence."""
    first, last = generalize.sentence_around(text, phrase)
    found = generalize.find_phrase(phrase, text[first:last])
    return bool(found) and generalize.gives_away(text[first:last], *found, attribute)


def stays(rows: list[dict], sample: int, seed: int) -> dict:
    clue = [row for row in rows if row["clue"]]
    marks = [(row, phrase) for row in clue for phrase in row["unprotected"]]
    random.Random(seed).shuffle(marks)
    generalizer = Generalizer(shared_scorer)
    reasons, by_evidence = Counter(), Counter()
    for row, phrase in marks[:sample]:
        attribute = next((a for p, a in row["cues"] if phrase in p), "?")
        found = first_stay(generalizer, row["rewrite"], phrase, attribute, [p for p, _ in row["cues"]])
        if found is not None:
            reasons[found["reason"]] += 1
            by_evidence[attribute, evidence(row["rewrite"], phrase, attribute)] += 1
    return {
        "clue_posts": len(clue),
        "clue_posts_not_protected": sum(bool(row["unprotected"]) for row in clue),
        "marks_stayed": len(marks),
        "withheld_posts_by_marks_stayed": dict(
            sorted(Counter(min(len(r["unprotected"]), 5) for r in clue if r["unprotected"]).items())
        ),
        "sample": sum(reasons.values()),
        "by_reason": dict(reasons.most_common()),
        "evidence_by_the_data": {
            attribute: {"yes": by_evidence[attribute, True], "no": by_evidence[attribute, False]}
            for attribute in sorted({a for a, _ in by_evidence})
        },
    }


def quoted(profiles: int, seed: int) -> dict:
    rows = [json.loads(line) for line in (resource_dir("data") / "train.jsonl").open(encoding="utf-8")]
    random.Random(seed).shuffle(rows)
    tagger = load_cue_tagger()
    total, same, any_attribute, kind, kind_same = Counter(), Counter(), Counter(), Counter(), Counter()
    for row in rows[:profiles]:
        block = row["comments"][0]
        answers = block.get("predictions", {}).get(ATTACKER, {})
        inference = {a: v.get("inference") or "" for a, v in answers.items() if isinstance(v, dict)}
        texts = [comment["text"] for comment in block["comments"]]
        for text, marks in zip(texts, split_cues(tagger, texts, find_cues(tagger, texts)), strict=True):
            for phrase, attribute in marks:
                hit = span_survives(phrase, inference.get(attribute, ""))
                total[attribute] += 1
                same[attribute] += hit
                any_attribute[attribute] += any(span_survives(phrase, t) for t in inference.values())
                by_data = evidence(text, phrase, attribute)
                kind[by_data] += 1
                kind_same[by_data] += hit
    share = lambda n, d: round(n / d, 3) if d else None  # noqa: E731
    return {
        "profiles": profiles,
        "by_attribute": {
            a: {"marks": total[a], "quoted": share(same[a], total[a]), "quoted_any": share(any_attribute[a], total[a])}
            for a in sorted(total)
        },
        "all": {"marks": sum(total.values()), "quoted": share(sum(same.values()), sum(total.values()))},
        "evidence_by_the_data": {str(k): {"marks": kind[k], "quoted": share(kind_same[k], kind[k])} for k in kind},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=Path, required=True, help="local_dev.py --profile-rows output")
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--profiles", type=int, default=120)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.rows.open(encoding="utf-8")]
    summary = {"stays": stays(rows, args.sample, args.seed), "quoted": quoted(args.profiles, args.seed)}
    text = json.dumps(summary, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
