"""The phrase generalizer on its held-back validation rows (`stealthflow harvest-phrases`: 10 % of the teacher's
posts, by id, never trained on): how often its top suggestion is the teacher's generalization (exact, case and
punctuation aside) or near it (word F1 >= 0.5), how often any of its suggestions is, and how many of its
suggestions `generalize.usable_suggestion` keeps. `--samples FILE` writes rows to read (sentence, phrase,
attribute, the teacher's stand-in, the suggestions).

    python benchmarks/phrase_generalizer.py --adapter runs/phrase-generalizer/sft/adapter \\
        --rows runs/phrase-generalizer/data/validation.jsonl --samples runs/phrase-generalizer/samples.txt
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from pathlib import Path

from stealthflow.anonymize.generalize import usable_suggestion
from stealthflow.anonymize.suggest import PhraseSuggester

NEAR_F1 = 0.5


def words(text: str) -> list[str]:
    return re.findall(r"[\w']+", text.casefold())


def word_f1(a: str, b: str) -> float:
    left, right = Counter(words(a)), Counter(words(b))
    shared = sum((left & right).values())
    if not shared:
        return 0.0
    precision, recall = shared / sum(left.values()), shared / sum(right.values())
    return 2 * precision * recall / (precision + recall)


def sentence_of(row: dict) -> str:
    """The sentence of a row's prompt (`prompts/phrase_generalizer.txt`)."""
    return re.search(r"^Sentence: (.*)$", row["messages"][0]["content"], re.MULTILINE).group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--adapter", type=Path, required=True)
    parser.add_argument("--rows", type=Path, required=True, help="validation.jsonl of harvest-phrases")
    parser.add_argument("--samples", type=Path)
    parser.add_argument("--show", type=int, default=30, help="rows written to --samples")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.rows.read_text(encoding="utf-8").splitlines() if line.strip()]
    suggester = PhraseSuggester(args.adapter)
    started = time.time()
    found = suggester([(sentence_of(r), r["phrase"], r["attribute"]) for r in rows])
    seconds = time.time() - started
    exact = [bool(s) and words(s[0]) == words(r["generalized"]) for r, s in zip(rows, found, strict=True)]
    near = [bool(s) and word_f1(s[0], r["generalized"]) >= NEAR_F1 for r, s in zip(rows, found, strict=True)]
    any_near = [any(word_f1(x, r["generalized"]) >= NEAR_F1 for x in s) for r, s in zip(rows, found, strict=True)]
    usable = [usable_suggestion(x, r["phrase"]) for r, s in zip(rows, found, strict=True) for x in s]
    summary = {
        "rows": len(rows),
        "top1_exact": round(sum(exact) / len(rows), 3),
        "top1_near": round(sum(near) / len(rows), 3),
        "any_near": round(sum(any_near) / len(rows), 3),
        "suggestions_per_row": round(len(usable) / len(rows), 2),
        "usable_share": round(sum(usable) / max(1, len(usable)), 3),
        "seconds_per_row": round(seconds / len(rows), 3),
    }
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if args.samples:
        blocks = [
            f"[{r['attribute']}] {sentence_of(r)}\n  phrase:  {r['phrase']}\n  teacher: {r['generalized']}\n"
            + "".join(f"  model:   {x}{'' if usable_suggestion(x, r['phrase']) else '  (dropped)'}\n" for x in s)
            for r, s in list(zip(rows, found, strict=True))[: args.show]
        ]
        args.samples.write_text("\n".join(blocks), encoding="utf-8")


if __name__ == "__main__":
    main()
