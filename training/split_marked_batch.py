"""Split a writer's batch of hand-marked messages (personal-L.txt and negatives-L.txt, values marked in
place as [value](TYPE)) into training files and a validation split, as data/README.md describes:

    python training/split_marked_batch.py /path/to/batch c

A line is held out when the zlib.crc32 of its file's name and its text is divisible by 5 (about 20 % of each
file, and the same lines again when a writer adds to the file): those go to
data/tagger-natural/validation-SUFFIX/L.txt as written (personal lines, then negatives), the rest to
data/tagger-natural/languages/KIND-L-SUFFIX.txt as the tagger is taught: titles (`person_titles` of
data/pii-tagger/lexicons.yaml) and kinship words (training/name-titles.txt) moved out of REAL_NAME marks
("[Frau Kessler](REAL_NAME)" -> "Frau [Kessler](REAL_NAME)"), and a PASSWORD mark taught as the tagger's CREDENTIAL
(a secret named by its context).
"""

from __future__ import annotations

import re
import sys
import zlib
from pathlib import Path

from stealthflow.pii_tagger.lexicons import words
from stealthflow.resources import listed_words

OUT = Path(__file__).resolve().parent.parent / "data" / "tagger-natural"
# The runtime's titles of address and this folder's kinship words, casefolded and without a trailing ".".
TITLES = {title.casefold().rstrip(".") for title in words("person_titles")} | {
    word.casefold() for word in listed_words(Path(__file__).resolve().parent / "name-titles.txt")
}
NAME_MARK = re.compile(r"\[([^\]]+)\]\(REAL_NAME\)")
FILE = re.compile(r"(personal|negatives)-([a-z]{2})\.txt")


def as_taught(line: str) -> str:
    """`line` marked as the tagger learns it: titles outside names, passwords as CREDENTIAL."""
    return titles_outside(line).replace("](PASSWORD)", "](CREDENTIAL)")


def titles_outside(line: str) -> str:
    """`line` with each REAL_NAME mark's leading titles and kinship words moved before the mark."""

    def move(match: re.Match) -> str:
        words = match.group(1).split(" ")
        lead = 0
        while lead < len(words) - 1 and words[lead].casefold().rstrip(".") in TITLES:
            lead += 1
        return " ".join([*words[:lead], f"[{' '.join(words[lead:])}](REAL_NAME)"])

    return NAME_MARK.sub(move, line)


def held_out(file_name: str, line: str) -> bool:
    """Whether `line` of the batch file named `file_name` goes to validation (about 20 % of each file)."""
    return zlib.crc32(f"{file_name}\n{line}".encode()) % 5 == 0


def split(path: Path, hold_out: bool = True) -> tuple[list[str], list[str]]:
    """(held-out lines, training lines) of one file, each in the file's order; none held out unless `hold_out`."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    held = [hold_out and held_out(path.name, line) for line in lines]
    return [line for line, out in zip(lines, held) if out], [line for line, out in zip(lines, held) if not out]


def main(batch: Path, suffix: str, out_dir: Path = OUT, hold_out: bool = True) -> None:
    validation: dict[str, dict[str, list[str]]] = {}
    for path in sorted(batch.glob("*.txt")):
        found = FILE.fullmatch(path.name)
        if not found:
            continue
        kind, language = found.groups()
        held, train = split(path, hold_out)
        validation.setdefault(language, {})[kind] = held
        out = out_dir / "languages" / f"{kind}-{language}-{suffix}.txt"
        out.write_text("".join(as_taught(line) + "\n" for line in train), encoding="utf-8")
        print(f"{out}: {len(train)} lines; {len(held)} held out")
    if not hold_out:
        return
    folder = out_dir / f"validation-{suffix}"
    folder.mkdir(exist_ok=True)
    for language, kinds in validation.items():
        lines = kinds.get("personal", []) + kinds.get("negatives", [])
        (folder / f"{language}.txt").write_text("".join(line + "\n" for line in lines), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
