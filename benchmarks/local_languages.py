"""How `--method local` reports posts in the languages it does not read: the non-English lines of the
multilingual PII sets (`benchmarks/data/pii-heldout-{k..p}/pii_languages_*.jsonl`, written apart, no author clue
annotated), each a post of its own. Prints, per language and in all: the posts, those listing marked phrases (and how
many phrases), those reported not checked (and whether the language named is the line's), those protected and those
whose text changed. Prints counts only: no word of a post.

    python benchmarks/local_languages.py
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from stealthflow.anonymize import build_method
from stealthflow.config import Settings
from stealthflow.data.schema import Comment, Profile
from stealthflow.llm.pool import LLMPool

DATA = Path(__file__).parent / "data"
SETS = "klmnop"


def read_lines(paths: list[Path]) -> list[dict]:
    """The non-English lines of `paths`, {"lang", "text"}."""
    rows = [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [row for row in rows if row["lang"] != "en"]


def tally(rows: list[dict], results) -> dict[str, Counter]:
    """Per language (and "all"), the counts this benchmark prints."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for row, result in zip(rows, results, strict=True):
        unread = [u["language"] for u in result.details.get("not_read", [])]
        stayed = result.details.get("unprotected", [])
        for key in (row["lang"], "all"):
            counts[key].update(
                posts=1,
                listing_marks=bool(stayed),
                marks_listed=len(stayed),
                not_checked=bool(unread),
                language_right=unread[:1] == [row["lang"]],
                protected=result.failure(row["text"]) is None,
                changed=result.text != row["text"],
            )
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "files", nargs="*", type=Path, default=[DATA / f"pii-heldout-{s}/pii_languages_{s}.jsonl" for s in SETS]
    )
    args = parser.parse_args()
    rows = read_lines(args.files)
    method = build_method("local", Settings(), LLMPool())
    profiles = [Profile(id=str(n), comments=[Comment(text=row["text"])]) for n, row in enumerate(rows)]
    counts = tally(rows, method.anonymize_many(profiles))
    print(json.dumps({lang: dict(c) for lang, c in sorted(counts.items())}, indent=1))


if __name__ == "__main__":
    main()
