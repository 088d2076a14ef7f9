"""Add hand-written public names to the written gazetteer lists (data/public_people.txt, fictional_characters.txt; the
exclusions: data/README.md, "Hand-written public names"):

    python training/written_names.py data/public_people.txt people-a.txt people-b.txt ...

Each new line is kept unless it is empty or holds a digit, the gazetteers know it already (`public_names`, `brands`),
it is a pair ("Max und Moritz"), it is one word that is an ordinary name (a Faker locale's, the PII tagger's name
lexicon), a common word of English, one of a covered language's top or frequent words ("Sommer"), or shorter than 4
letters, every word of it is an ordinary name ("Matteo Salvini": a private person's too), it holds a relative's word
("Tante Hilde"), or an annotated private person's name of the repository's sets holds it whole ("Onkel Poldi",
"Ti-Jean": names people are shown to have; `--unread` names the judges left out). The list is written back with its
comments first, then its names of two or more words, then its one-word names, each sorted; prints the counts.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from functools import cache
from pathlib import Path

from stealthflow.pii_tagger.lexicons import words as lexicon_words
from stealthflow.pii_tagger.model import shipped_pii_tagger_dir
from stealthflow.pii_tagger.names import load_lexicon
from stealthflow.placeholders.common_words import LANGUAGE_COMMON, common_word, frequent_in_any
from stealthflow.placeholders.language import OTHERS, language_file
from stealthflow.placeholders.recognizers.gazetteer_build import (
    distinctive_name,
    ordinary_name_words,
    reads_as_ordinary_name,
)
from stealthflow.placeholders.recognizers.public_names import brands, name_key, public_names
from stealthflow.resources import data_words

ROOT = Path(__file__).resolve().parent.parent
ANNOTATED = ("benchmarks/data/pii-*/**/*.jsonl", "data/pii-tagger/*.jsonl")
_PAIRED = {"and", "und", "et", "y", "e", "en", "ed"}


def annotated_names(unread: set[str]) -> set[str]:
    """Every run of words (as looked up: `name_key`) of the REAL_NAME values of the repository's annotated sets, but
    the sets in `unread` (folder names: "pii-heldout-bw")."""
    held: set[str] = set()
    for pattern in ANNOTATED:
        for path in ROOT.glob(pattern):
            if any(part in unread for part in path.parts):
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue
                for value in row.get("pii", []) if isinstance(row, dict) else []:
                    if isinstance(value, dict) and value.get("type") == "REAL_NAME":
                        key = name_key(value["value"]).split()
                        held.update(" ".join(key[i:j]) for i in range(len(key)) for j in range(i + 1, len(key) + 1))
    return held


def excluded(line: str, known: set[str], held: set[str]) -> str | None:
    """Why `line` gets no line of the list (None: it does)."""
    key = name_key(line)
    words = key.split()
    if not key or any(c.isdigit() for c in line):
        return "empty or a digit"
    if key in known or key in public_names() or key in brands():
        return "known"
    if len(words) > 1 and _PAIRED & set(line.casefold().split()):
        return "a pair"
    if len(words) == 1 and (
        not distinctive_name(line, _ordinary())
        or common_word(key)
        or key in _lexicon()
        or key in _top_words()
        or frequent_in_any(key)
    ):
        return "an ordinary name or a common word"
    if len(words) > 1 and reads_as_ordinary_name(line, _ordinary()):
        return "every word an ordinary name"
    if _relatives() & set(words):
        return "a relative's word"
    if key in held:
        return "an annotated private person's"
    return None


@cache
def _ordinary() -> frozenset[str]:
    return frozenset(name_key(name) for name in ordinary_name_words())


@cache
def _lexicon() -> frozenset[str]:
    return frozenset(name_key(word) for word in load_lexicon(shipped_pii_tagger_dir() / "names.tsv"))


@cache
def _top_words() -> frozenset[str]:
    return frozenset(name_key(w) for code in OTHERS for w in data_words(LANGUAGE_COMMON.format(code=code)))


@cache
def _relatives() -> frozenset[str]:
    words = [*lexicon_words("relatives"), *(w for code in OTHERS for w in language_file(code)["relatives"])]
    return frozenset(name_key(w).split()[-1] for w in words)  # "meine Tante": "tante"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", type=Path, help="the list to add to (data/public_people.txt, ...)")
    parser.add_argument("new", type=Path, nargs="+", help="files of new lines, one name a line")
    parser.add_argument("--unread", nargs="*", default=[], help="annotated sets' folders to leave out (unread judges)")
    args = parser.parse_args()
    lines = args.target.read_text(encoding="utf-8").splitlines()
    comments = [line for line in lines if line.startswith("#")]
    names = [line for line in lines if line and not line.startswith("#")]
    known = {name_key(name) for name in names}
    held = annotated_names(set(args.unread))
    why: Counter[str] = Counter()
    for path in args.new:
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.strip().strip(",;")
            if not line or line.startswith("#"):
                continue
            if reason := excluded(line, known, held):
                why[reason] += 1
                continue
            known.add(name_key(line))
            names.append(line)
            why["added"] += 1
    several = sorted({name for name in names if " " in name})
    single = sorted({name for name in names if " " not in name})
    args.target.write_text("\n".join([*comments, *several, *single]) + "\n", encoding="utf-8")
    print(dict(why))


if __name__ == "__main__":
    main()
