"""Read JSONL files of pydantic records with errors that name the file and line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from stealthflow.data.loader import DataError, describe_validation_error, json_line, not_json

Model = TypeVar("Model", bound=BaseModel)


# JSON allows U+2028/U+2029/U+0085 raw inside strings, but `str.splitlines()` (and many other
# readers) split on them: write them escaped, and split JSONL on "\n" only.
_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\u0085": "\\u0085"})


def dump_line(record: object) -> str:
    """One JSONL line (with its "\n"), non-ASCII kept readable, line-break characters escaped."""
    return json.dumps(record, ensure_ascii=False).translate(_LINE_BREAKS) + "\n"


def jsonl_lines(text: str) -> list[str]:
    """The lines of a JSONL text: split on "\n" only (a "\r" before it is dropped)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def parse_lines(
    path: str | Path, lines: Iterable[str | bytes], model: type[Model], what: str | None = None
) -> Iterator[Model]:
    """Validate each non-empty line as `model`; a bad line raises `DataError("FILE:LINE: ...")`."""
    what = what or model.__name__
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield model.model_validate(json_line(line))
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{lineno}: {not_json(exc)}") from None
        except ValidationError as exc:
            raise DataError(f"{path}:{lineno}: not a {what} ({describe_validation_error(exc)})") from None


def read_models(path: str | Path, model: type[Model], what: str | None = None) -> list[Model]:
    path = Path(path)
    if not path.exists():
        return []
    return list(parse_lines(path, jsonl_lines(path.read_text(encoding="utf-8")), model, what))
