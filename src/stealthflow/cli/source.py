"""What a command reads: literal text, a file, or `-` for standard input.

`stealthflow protect post.txt`, `stealthflow protect - < post.txt` and
`stealthflow protect "My email is ..."` all work (the last with a warning: argv is readable by other
local processes and kept in shell history); a `.jsonl`/`.json` file holds records. An argument
that looks like a path (`looks_like_path`) but names no file is an error, never text: a
mistyped file name would otherwise be protected (or attacked) as if it were the post.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from stealthflow.cli.app import console
from stealthflow.data import DataError, Profile, load_input, post_profiles, profile_from_text
from stealthflow.data.loader import decode_text, read_text_file
from stealthflow.pipeline.records import has_lone_surrogate

SourceArgument = Annotated[
    str,
    typer.Argument(
        metavar="TEXT|FILE|-",
        help="the text itself, a file (plain text, or JSONL records), or - for stdin",
        show_default=False,
    ),
]
RECORD_SUFFIXES = {".jsonl", ".json"}
TEXT_SUFFIXES = RECORD_SUFFIXES | {".txt", ".md", ".text", ".csv", ".tsv", ".log", ".eml"}


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
        """The text (of the file), UTF-8; empty or blank input is a `DataError`."""
        if self.text is None:
            text = read_text_file(self.path)
        elif has_lone_surrogate(self.text):  # bytes that are not UTF-8 in an argument
            raise DataError("the input is not valid UTF-8 text (it holds a lone surrogate)")
        else:
            text = self.text
        if not text.strip():
            raise DataError(f"{self.path or 'the input'} is empty: there is nothing to read")
        return text


def read_stdin() -> str:
    """Standard input as UTF-8 text; anything else (binary data, UTF-16) is a one-line `DataError`."""
    raw = (
        sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8", "surrogateescape")
    )
    return decode_text(raw, "standard input")


ARGV_WARNING = (
    "warning: text given on the command line can be read by other local processes (/proc/PID/cmdline) and stays in"
    " your shell history; pipe it to - or give a file instead"
)


def warn_text_on_argv() -> None:
    """Say (one line, stderr) that a text given as an argument is exposed on this machine; not an error."""
    console.print(ARGV_WARNING, highlight=False, markup=False, soft_wrap=True)


def text_option(value: str) -> str:
    """An option's text (`--text`, `--query`): `-` reads stdin, less the one line end a shell puts after it (`echo`,
    a here-string: a memory would keep it, and print a blank line after it); a literal text is used and warned about."""
    if value == "-":
        text = read_stdin()
        return text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")
    warn_text_on_argv()
    return value


def read_source(value: str, private: bool = True) -> Source:
    """`-` is stdin, an existing file is that file, a path-looking name of no file is a
    `DataError`, anything else is the text itself (`private`: it may hold personal data, so it is
    warned about: see `warn_text_on_argv`)."""
    if value == "-":
        return Source(text=read_stdin())
    if _names_a_file(value):
        return Source(path=Path(value))
    if looks_like_path(value):
        what = "is a directory, not a file" if Path(value).is_dir() else "no such file"
        raise DataError(f"{value}: {what} (to give this text itself, put it in a sentence or pipe it to -)")
    if _names_a_folder(value):  # the word is the text, as asked; said, since a folder was likely meant
        console.print(
            f"{value!r} is a folder here; it was taken as the text itself (to read a file in it, give {value}/FILE)",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    if private:
        warn_text_on_argv()
    return Source(text=value)


def looks_like_path(value: str) -> bool:
    """One word that names a file by its form: it holds a `/` (and is no URL), or ends in a text
    file's suffix (`post.txt`, `posts.jsonl`). A sentence, a word or an address is not one."""
    if not value or len(value) >= 4096 or any(c.isspace() for c in value) or "://" in value:
        return False
    return "/" in value or "\\" in value or Path(value).suffix.lower() in TEXT_SUFFIXES


def _names_a_folder(value: str) -> bool:
    if not value or any(c.isspace() for c in value) or len(value) >= 4096:  # Path("") is the current folder
        return False
    try:
        return Path(value).is_dir()
    except (OSError, ValueError):
        return False


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
    if source.is_records:
        return source, load_input(source.path)
    return source, [profile_from_text(source.read_text(), source.name, where=str(source.path or "the input"))]


def source_posts(value: str) -> tuple[Source, list[Profile], str]:
    """What is judged and printed one by one: JSONL records as they are, or each post of a plain text as a profile of
    its own (`post_profiles`); and what separated a plain text's posts ("" for records)."""
    source = read_source(value)
    if source.is_records:
        return source, load_input(source.path), ""
    profiles, separator = post_profiles(source.read_text(), source.name, where=str(source.path or "the input"))
    return source, profiles, separator
