"""Load labelled corpora and user input into `Profile` objects.

Accepted JSONL line shapes (one profile per line):
- the AgentStealth/SynthPAI record: ``{"username", "comments": [{"comments": [...], "reviews", "predictions"}], "reviews"}``
- a single post: ``{"id", "text", "timestamp"?, "subreddit"?}``
- several posts of one author: ``{"id", "posts": [{"text", ...}, ...]}`` (``comments`` is an alias)

A plain-text file (any extension but .jsonl/.json) is one profile whose comments are its
non-empty paragraphs. Any malformed line raises `DataError` naming the file and line;
nothing is skipped silently.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from stealthflow.data.schema import AttributeLabel, Comment, Profile


class DataError(ValueError):
    """A record that cannot be turned into a profile; the message names file and line."""


def decode_text(raw: bytes, where: str) -> str:
    """`raw` as UTF-8 text holding no NUL (`refuse_nul`), or a `DataError` naming `where`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if raw[:2] not in (b"\xff\xfe", b"\xfe\xff"):  # not UTF-16's byte order mark
            raise DataError(f"{where}: not UTF-8 text (byte {exc.start}); convert it first") from None
        raise _utf16(where, "byte 0", "UTF-16") from None
    return refuse_nul(text, where)


def refuse_nul(text: str, where: str) -> str:
    """`text`, or a `DataError` naming `where` when it holds a NUL: valid UTF-8 (and JSON's `\\u0000`), but no text
    holds one, and a model reads past it where detection may not. A UTF-16 file without a byte order mark decodes to
    its letters with a NUL between each (`J\\0u\\0e\\0`): the error names UTF-16 and `iconv` only for NULs that
    alternate so, since converting a UTF-8 text with a stray NUL from UTF-16 would garble it. Files, standard input
    and JSONL records' texts pass here, so such a text is refused whole, never protected in part."""
    start = text.find("\0")
    if start < 0:
        return text
    run = text[start : start + 16]
    if len(run) >= 3 and all((char == "\0") == (i % 2 == 0) for i, char in enumerate(run)):
        raise _utf16(where, f"character {start}", "UTF-16LE" if start % 2 else "UTF-16BE")  # "K\0o\0" is LE
    raise DataError(f"{where}: a NUL character (character {start}), which no text holds; remove it first")


def _utf16(where: str, at: str, encoding: str) -> DataError:
    return DataError(f"{where}: not UTF-8 text ({at}: {encoding}?); convert it first: iconv -f {encoding} -t UTF-8")


def read_text_file(path: Path) -> str:
    """A user's file as UTF-8 text (`decode_text`); a missing file or a folder is a `DataError` too."""
    try:
        return decode_text(path.read_bytes(), str(path))
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise DataError(f"{path}: a directory, not a file") from None


def json_line(line: str | bytes) -> Any:
    """`json.loads` of one line of a user's file, where JSON it cannot take is a `json.JSONDecodeError` like any other
    (so the reader names the line and exits 2): arrays or objects nested past Python's stack (a `RecursionError`, which
    stopped a command with a traceback) and an integer of more digits than Python converts (a bare `ValueError`)."""
    try:
        return json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except RecursionError:
        raise json.JSONDecodeError("arrays or objects nested too deep", _as_text(line), 0) from None
    except ValueError:
        raise json.JSONDecodeError("a number of too many digits", _as_text(line), 0) from None


def _as_text(line: str | bytes) -> str:
    return line.decode("utf-8", errors="replace") if isinstance(line, bytes) else line


def not_json(exc: json.JSONDecodeError) -> str:
    """Why a line is not valid JSON, with its column: "not valid JSON (Invalid control character at column 32)" (some
    of `json`'s messages end in "at" already)."""
    return f"not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})"


def load_profiles(path: str | Path, limit: int | None = None) -> list[Profile]:
    """Load a JSONL corpus (labelled or not). `limit` keeps the first N profiles."""
    profiles = []
    for profile in iter_profiles(path):
        profiles.append(profile)
        if limit is not None and len(profiles) >= limit:
            break
    return profiles


def load_labelled(path: str | Path, limit: int | None = None, sample_seed: int | None = None) -> list[Profile]:
    """Profiles with a labelled attribute: the first `limit`, or a seeded random sample of `limit`.

    The first test profiles are the longest multi-attribute ones, so a seeded sample is the
    fair small subset; `limit` counts labelled profiles, unlabelled ones do not eat into it.
    """
    profiles = [p for p in load_profiles(path) if p.labelled()]
    if not profiles:
        raise DataError(f"{path}: no profile with a labelled attribute (hardness ≥ 1)")
    if sample_seed is not None and limit is not None and limit < len(profiles):
        return random.Random(sample_seed).sample(profiles, limit)
    return profiles[:limit]


def load_input(path: str | Path) -> list[Profile]:
    """Load user input: plain text or JSONL, through the same model as the corpus."""
    path = Path(path)
    if path.suffix.lower() in {".jsonl", ".json"}:
        return load_profiles(path)
    return [profile_from_text(read_text_file(path), path.stem, where=str(path))]


def split_posts(text: str, where: str = "the input") -> tuple[list[str], str]:
    """A plain text's posts and what separates them: its paragraphs (blank-line separated), or, in a text of several
    lines with no blank line between any two, its lines (a file of one post a line: ux22's report M6)."""
    paragraphs = [p.strip() for p in text.replace("\r\n", "\n").split("\n\n") if p.strip()]
    if not paragraphs:
        raise DataError(f"{where} holds no text")
    lines = [line.strip() for line in paragraphs[0].split("\n") if line.strip()] if len(paragraphs) == 1 else []
    return (lines, "\n") if len(lines) > 1 else (paragraphs, "\n\n")


def profile_from_text(text: str, profile_id: str, where: str = "the input") -> Profile:
    """One profile from plain text: each post (`split_posts`) a comment."""
    return Profile(id=profile_id, comments=[Comment(text=p) for p in split_posts(text, where)[0]])


def post_profiles(text: str, profile_id: str, where: str = "the input") -> tuple[list[Profile], str]:
    """Each post of a plain text (`split_posts`) as a profile of its own, `ID:N` (the id alone for a single post), and
    what separated the posts: what judges and prints posts one by one (`anonymize`)."""
    posts, separator = split_posts(text, where)
    if len(posts) == 1:
        return [Profile(id=profile_id, comments=[Comment(text=posts[0])])], separator
    return [Profile(id=f"{profile_id}:{n}", comments=[Comment(text=p)]) for n, p in enumerate(posts, 1)], separator


def iter_profiles(path: str | Path) -> Iterator[Profile]:
    """The profiles of a JSONL file, one a line; an error names the line (a repeated id by the line it is first on, not
    by the id, which may be personal data: "dana.kerr@mailbox.org")."""
    path = Path(path)
    seen: dict[str, int] = {}  # id -> the line it is first on
    for lineno, line in enumerate(read_text_file(path).split("\n"), start=1):  # "\n" only: see data.jsonl
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            record = json_line(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{where}: {not_json(exc)}") from None
        if not isinstance(record, dict):
            raise DataError(f"{where}: expected a JSON object, got {type(record).__name__}")
        try:
            profile = parse_record(record)
        except (ValidationError, KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{where}: {_describe(exc)}") from None
        for comment in profile.comments:
            refuse_nul(comment.text, f"{where}: a text")
        if profile.id in seen:
            raise DataError(f"{where}: duplicate profile id, the same as line {seen[profile.id]}'s")
        seen[profile.id] = lineno
        yield profile


def parse_record(record: dict[str, Any]) -> Profile:
    if "username" in record and "comments" in record and "reviews" in record:
        return _parse_agentstealth(record)
    if "text" in record:
        _require_id(record)
        return Profile(
            id=str(record["id"]),
            comments=[
                Comment(text=record["text"], timestamp=record.get("timestamp"), subreddit=record.get("subreddit"))
            ],
        )
    posts = record.get("posts", record.get("comments"))
    if posts is not None:
        _require_id(record)
        if not isinstance(posts, list):
            raise ValueError("'posts' must be a list of {text, timestamp?, subreddit?} objects")
        return Profile(id=str(record["id"]), comments=[Comment.model_validate(p) for p in posts])
    raise ValueError("unrecognised record: expected {'id','text'}, {'id','posts'} or an AgentStealth profile")


def _parse_agentstealth(record: dict[str, Any]) -> Profile:
    comments: list[Comment] = []
    predictions: dict[str, dict[str, Any]] = {}
    for block in record["comments"]:
        comments.extend(Comment.model_validate(c) for c in block["comments"])
        predictions.update(block.get("predictions") or {})
    labels: dict[str, AttributeLabel] = {}
    for source, attributes in record["reviews"].items():
        if source not in ("human_evaluated", "synth"):
            raise ValueError(f"unknown label source {source!r}")
        for attribute, label in attributes.items():
            labels[attribute] = AttributeLabel(
                estimate=label.get("estimate", ""),
                hardness=label.get("hardness", 0),
                certainty=label.get("certainty", 0),
                source=source,
            )
    return Profile(id=str(record["username"]), comments=comments, labels=labels, reference_predictions=predictions)


def _require_id(record: dict[str, Any]) -> None:
    if record.get("id") in (None, ""):
        raise ValueError("missing 'id'")


def describe_validation_error(exc: ValidationError) -> str:
    """The first problem of a pydantic error as "field.path: message"."""
    first = exc.errors()[0]
    location = ".".join(str(part) for part in first["loc"])
    return f"{location}: {first['msg']}" if location else first["msg"]


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return describe_validation_error(exc)
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)
