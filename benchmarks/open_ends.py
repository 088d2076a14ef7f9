"""The function words that need a word after them: those of `data/function_words.txt` that end a clause (the next
token is clause-end punctuation, or none) in under `--share` of their uses in the train split's posts, among words
used at least `--min-uses` times. The acceptance gate turns away an edit that newly leaves one at a clause end
("... when.", "sold the flat first for, and"): `anonymize/gate.py`. Train split only.

    python benchmarks/open_ends.py --out data/generalize/open_ends.txt
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from stealthflow.anonymize.gate import CLAUSE_END, TOKEN
from stealthflow.data import load_labelled
from stealthflow.placeholders.common_words import function_word
from stealthflow.resources import split_path


def clause_end_shares(posts: list[str]) -> dict[str, tuple[int, int]]:
    """Per function word: (its uses, the uses that end a clause)."""
    uses, ends = Counter(), Counter()
    for post in posts:
        tokens = TOKEN.findall(post)
        for i, token in enumerate(tokens):
            word = token.casefold()
            if function_word(word):
                uses[word] += 1
                ends[word] += i + 1 == len(tokens) or tokens[i + 1] in CLAUSE_END
    return {word: (uses[word], ends[word]) for word in uses}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--share", type=float, default=0.02)
    parser.add_argument("--min-uses", type=int, default=30)
    parser.add_argument("--out", default="data/generalize/open_ends.txt")
    args = parser.parse_args()
    posts = [comment.text for profile in load_labelled(split_path("train")) for comment in profile.comments]
    counts = clause_end_shares(posts)
    chosen = sorted(w for w, (n, e) in counts.items() if n >= args.min_uses and e / n < args.share)
    header = (
        "# Function words that need a word after them: they end a clause in under "
        f"{args.share:.0%} of their uses\n# (at least {args.min_uses}) in the train split's {len(posts)} posts. "
        "Made by benchmarks/open_ends.py; read by anonymize/gate.py.\n"
    )
    Path(args.out).write_text(header + "".join(f"{w}\n" for w in chosen), encoding="utf-8")
    print(f"{len(chosen)} words -> {args.out}")


if __name__ == "__main__":
    main()
