"""What a command reads: literal text, a file, or `-` for standard input.

`stealthflow protect "My email is ..."`, `echo ... | stealthflow protect -` and
`stealthflow protect post.txt` all work; a `.jsonl`/`.json` file holds records.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from stealthflow.data import DataError, Profile, load_input, profile_from_text
from stealthflow.pipeline.records import has_lone_surrogate

SourceArgument = Annotated[
    str, typer.Argument(metavar="TEXT|FILE|-", help="the text itself, a file (plain text, or JSONL records), or - for stdin", show_default=False)
]
RECORD_SUFFIXES = {".jsonl", ".json"}


@dataclass(frozen=True)
class Source:
    """Either `text` (literal or stdin) or `path` (a file)."""

    text: str | None = None
    path: Path | None = None

    @property
    def is_records(self) -> bool:
        return self.path is not None and self.path.suffix.lower() in RECORD_SUFFIXES

    @property
    def name(self) -> str:
        return self.path.stem if self.path else "text"

    def read_text(self) -> str:
        if self.text is None:
            try:
                return self.path.read_text(encoding="utf-8")
            except UnicodeDecodeError as exc:
                raise DataError(f"{self.path}: not UTF-8 text (byte {exc.start})") from None
        if has_lone_surrogate(self.text):  # bytes that are not UTF-8 in an argument or on stdin
            raise DataError("the input is not valid UTF-8 text (it holds a lone surrogate)")
        return self.text


def read_source(value: str) -> Source:
    if value == "-":
        return Source(text=sys.stdin.read())
    # An argument naming an existing file is that file; anything else is the text itself.
    return Source(path=Path(value)) if _names_a_file(value) else Source(text=value)


def _names_a_file(value: str) -> bool:
    if "\n" in value or len(value) >= 4096:
        return False
    try:
        return Path(value).is_file()
    except (OSError, ValueError):  # a long sentence is "File name too long"; NUL is a ValueError
        return False


def source_profiles(value: str) -> tuple[Source, list[Profile]]:
    """The profiles in a source: JSONL records, or one profile whose paragraphs are posts."""
    source = read_source(value)
    if source.path is not None:
        return source, load_input(source.path)
    return source, [profile_from_text(source.text, source.name)]
