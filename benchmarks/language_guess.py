"""How often the language guess (`placeholders/language.py`) takes an English post for another language, and
another language's text for English. English: every comment of `benchmarks/data/blind-profiles-{h..l}` and the
first 1,000 comments of `data/test.jsonl`; other languages: the lines of
`benchmarks/data/pii-heldout-{k..p}/pii_languages_*.jsonl` (their `lang` field is the truth). Then how many texts of
those sets (registers and languages files) `read` takes in more than one piece (a sentence read in another language
than the text's, or in none). Prints counts only: no word of a text.

    python benchmarks/language_guess.py [--profiles hijkl] [--pii klmnop] > benchmarks/results/language_guess.json
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from stealthflow.data.loader import load_profiles
from stealthflow.placeholders.language import ENGLISH, read, shared_guesser

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
PROFILE_SETS = "hijkl"
PII_SETS = "klmnop"
TEST_COMMENTS = 1000


def english_texts(sets: str) -> dict[str, list[str]]:
    """Per source, its English comments."""
    sources = {f"blind-profiles-{s}": DATA / f"blind-profiles-{s}/profiles.jsonl" for s in sets}
    texts = {name: [c.text for p in load_profiles(path) for c in p.comments] for name, path in sources.items()}
    texts["test.jsonl"] = [c.text for p in load_profiles(ROOT / "data" / "test.jsonl") for c in p.comments][
        :TEST_COMMENTS
    ]
    return texts


def other_texts(sets: str) -> list[dict]:
    """The non-English lines of the multilingual PII sets, {"lang", "text", ...}."""
    paths = [DATA / f"pii-heldout-{s}/pii_languages_{s}.jsonl" for s in sets]
    rows = [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line]
    return [row for row in rows if row["lang"] != ENGLISH]


def pieces(sets: str, guesser) -> dict[str, int]:
    """Texts of the pii-heldout sets' registers and languages files, and how many `read` takes in more than one piece."""
    paths = [DATA / f"pii-heldout-{s}/pii_{kind}_{s}.jsonl" for s in sets for kind in ("registers", "languages")]
    texts = [
        json.loads(line)["text"] for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line
    ]
    return {"texts": len(texts), "read_in_pieces": sum(len(read(text, guesser).pieces) > 1 for text in texts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", default=PROFILE_SETS, help="the blind-profiles sets, by letter")
    parser.add_argument("--pii", default=PII_SETS, help="the pii-heldout sets with a languages file, by letter")
    args = parser.parse_args()
    guesser = shared_guesser()
    report: dict[str, dict] = {}
    for source, texts in english_texts(args.profiles).items():
        guesses = [guesser.guess(text) for text in texts]
        report[source] = {
            "posts": len(texts),
            "top_not_english": sum(g.language != ENGLISH for g in guesses),
            "not_maybe_english": sum(ENGLISH not in g.candidates for g in guesses),
        }
    others: dict[str, Counter] = {}
    for row in other_texts(args.pii):
        guess = guesser.guess(row["text"])
        for key in (row["lang"], "all"):
            others.setdefault(key, Counter()).update(
                texts=1, top_english=guess.language == ENGLISH, maybe_english=ENGLISH in guess.candidates
            )
    report[f"pii-heldout-{{{args.pii}}} languages"] = {lang: dict(c) for lang, c in sorted(others.items())}
    report[f"pii-heldout-{{{args.pii}}} read in pieces"] = pieces(args.pii, guesser)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
