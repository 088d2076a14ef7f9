"""Read JSONL files of pydantic records with errors that name the file and line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from stealthflow.data.loader import DataError, describe_validation_error

Model = TypeVar("Model", bound=BaseModel)


def parse_lines(path: str | Path, lines: Iterable[str | bytes], model: type[Model], what: str | None = None) -> Iterator[Model]:
    """Validate each non-empty line as `model`; a bad line raises `DataError("FILE:LINE: ...")`."""
    what = what or model.__name__
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield model.model_validate(json.loads(line))
        except json.JSONDecodeError as exc:
            raise DataError(f"{path}:{lineno}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        except ValidationError as exc:
            raise DataError(f"{path}:{lineno}: not a {what} ({describe_validation_error(exc)})") from None


def read_models(path: str | Path, model: type[Model], what: str | None = None) -> list[Model]:
    path = Path(path)
    if not path.exists():
        return []
    return list(parse_lines(path, path.read_text(encoding="utf-8").splitlines(), model, what))
