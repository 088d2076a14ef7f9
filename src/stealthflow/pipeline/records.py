"""JSONL in and out for `protect` / `restore`: `{"id", "text"}` lines; an output file that
already holds some ids is resumed, not redone (a crash mid-run loses nothing). Rows that
`protect` wrote also name the vault that protected them (`"vault"`), which `restore` checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from stealthflow.data import DataError
from stealthflow.data.jsonl import jsonl_lines


class Record(NamedTuple):
    id: str
    text: str
    vault: str | None = None  # the vault that protected this text, when the row says
    where: str = ""  # FILE:LINE, for messages
    session: str | None = None  # the session that protected this text, when the row says (`protected_row`)


def read_records(path: Path) -> list[Record]:
    try:
        return parse_records(path.read_text(encoding="utf-8"), str(path))
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def parse_records(text: str, where: str) -> list[Record]:
    """`{"id", "text"}` records from JSONL text; errors name `where:LINE`."""
    records, seen = [], set()
    for lineno, line in enumerate(jsonl_lines(text), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{where}:{lineno}: not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(record, dict) or not isinstance(record.get("text"), str) or record.get("id") in (None, ""):
            raise DataError(f"{where}:{lineno}: expected an object with 'id' and a string 'text'")
        if has_lone_surrogate(record["text"]):
            raise DataError(
                f"{where}:{lineno}: the text holds a lone surrogate (invalid Unicode); nothing was written for it"
            )
        record_id = str(record["id"])
        if record_id in seen:
            raise DataError(f"{where}:{lineno}: duplicate id {record_id!r}")
        seen.add(record_id)
        vault, session = record.get("vault"), record.get("session")
        records.append(
            Record(
                record_id,
                record["text"],
                vault if isinstance(vault, str) else None,
                f"{where}:{lineno}",
                session if isinstance(session, str) else None,
            )
        )
    return records


def other_sessions(records: list[Record], session: str) -> list[str]:
    """The sessions other than `session` that the rows say protected them, in order of first mention."""
    return list(dict.fromkeys(r.session for r in records if r.session is not None and r.session != session))


def protected_row(record_id: str, session: str, vault: str, protected) -> dict:
    """The row `protect -i` writes for a `Protected`: `{id, session, vault, text, spans, language[, warnings]}`."""
    row = {
        "id": record_id,
        "session": session,
        "vault": vault,
        "text": protected.text,
        "spans": [span.to_json() for span in protected.spans],
        "language": protected.language,
    }
    if protected.warnings:
        row["warnings"] = protected.warnings
    return row


def finished_ids(path: Path) -> set[str]:
    """Ids already written to `path`; a torn last line (crash mid-write) is cut off."""
    if not path.exists():
        return set()
    done, good = set(), []
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line:
            continue
        try:
            done.add(str(json.loads(line)["id"]))
            good.append(line + "\n")
        except (json.JSONDecodeError, KeyError, TypeError):
            break
    path.write_text("".join(good), encoding="utf-8")
    return done


def written_sessions(path: Path) -> set[str]:
    """The sessions an output file's rows were protected under (rows from before this field: none)."""
    sessions = set()
    for line in jsonl_lines(path.read_text(encoding="utf-8")):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and isinstance(record.get("session"), str):
            sessions.add(record["session"])
    return sessions


def has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def not_blank(text: str) -> str:
    """`text` itself; a ValueError when it is empty or only whitespace (a request validator)."""
    if not text.strip():
        raise ValueError("the text is empty: there is nothing to protect")
    return text


def valid_unicode(text: str) -> str:
    """`text` itself; a ValueError when it holds a lone surrogate (a request validator)."""
    if has_lone_surrogate(text):
        raise ValueError("the text holds a lone surrogate (invalid Unicode)")
    return text
