"""WordNet 3.0's dictionary files (Debian's `wordnet-base`: /usr/share/wordnet), read at build
time only: the named instances of public_names.txt and the everyday nouns of everyday_nouns.txt."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Synset:
    offset: str
    lexicographer_file: int  # 18: noun.person, 26: noun.state... (WordNet's lexnames)
    words: tuple[str, ...]  # as written: "Albert_Einstein"
    pointers: tuple[tuple[str, str], ...]  # (symbol, synset offset): "@" a hypernym, "@i" what an instance is of

    def instance(self) -> bool:
        """A named thing ("Robert Burns", "Yosemite"), not a kind of thing."""
        return any(symbol == "@i" for symbol, _ in self.pointers)

    def hypernyms(self) -> list[str]:
        return [offset for symbol, offset in self.pointers if symbol in ("@", "@i")]


def synsets(data_file: Path) -> Iterator[Synset]:
    """The synsets of a data file (data.noun, data.verb...)."""
    from stealthflow.data import DataError

    with data_file.open(encoding="latin-1") as handle:
        for number, line in enumerate(handle, 1):
            if line.startswith("  "):  # the licence at the top of the file
                continue
            fields = line.split(" | ")[0].split()
            try:
                lexicographer_file, word_count = int(fields[1]), int(fields[3], 16)
                pointer_at = 4 + 2 * word_count
                pointers = tuple(
                    (fields[at], fields[at + 1])
                    for at in range(pointer_at + 1, pointer_at + 1 + 4 * int(fields[pointer_at]), 4)
                )
            except (IndexError, ValueError) as exc:
                raise DataError(f"{data_file}:{number}: not a line of WordNet's data.noun") from exc
            words = tuple(re.sub(r"\(\w+\)$", "", word) for word in fields[4:pointer_at:2])
            yield Synset(fields[0], lexicographer_file, words, pointers)


def lemma_senses(index_file: Path) -> dict[str, list[str]]:
    """lemma -> the offsets of its synsets, most frequent sense first, from an index file (index.noun, index.adj...)."""
    from stealthflow.data import DataError

    senses = {}
    with index_file.open(encoding="latin-1") as handle:
        for number, line in enumerate(handle, 1):
            if line.startswith("  "):
                continue
            fields = line.split()
            try:
                pointer_count = int(fields[3])
                senses[fields[0]] = fields[6 + pointer_count :]  # past the sense and tagged-sense counts
            except (IndexError, ValueError) as exc:
                raise DataError(f"{index_file}:{number}: not a line of a WordNet index file") from exc
    return senses
