"""JSONL in and out for `protect` / `restore`: `{"id", "text"}` lines; an output file that
already holds some of the session's protected rows is resumed, not redone (a crash mid-run loses
nothing), and one holding anything else is refused (`finished_rows`). Rows that `protect` wrote also
name the session and the vault that protected them (`"vault"`), which `restore` checks, and a keyed digest of
the text they were protected from (`"input"`, never the text): a resumed run keeps a row only when its id and
that digest match the input's (`resume`), and protects a changed text again."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from stealthflow.data import DataError
from stealthflow.data.jsonl import jsonl_lines
from stealthflow.data.loader import json_line, not_json, read_text_file, refuse_nul
from stealthflow.data.output_file import write_replacing

if TYPE_CHECKING:
    from stealthflow.anonymize.methods import Method
    from stealthflow.pipeline.protector import Protected, Protector
    from stealthflow.pipeline.rewrite import RewriteOutcome


class Record(NamedTuple):
    id: str
    text: str
    vault: str | None = None  # the vault that protected this text, when the row says
    where: str = ""  # FILE:LINE, for messages
    session: str | None = None  # the session that protected this text, when the row says (`protected_row`)
    json_id: object = None  # the id as the JSON line wrote it (`1`, not `"1"`), when it came from one

    @property
    def written_id(self) -> object:
        """The id a row written for this record holds: as its input line wrote it, its JSON type kept."""
        return self.id if self.json_id is None else self.json_id


def read_records(path: Path) -> list[Record]:
    return parse_records(read_text_file(path), str(path))


RECORDS_EXPECTED = (
    'a .json or .jsonl file is read as JSONL records, one {"id": ..., "text": "..."} object a line; to send a JSON'
    " document as it is, pipe it as plain text (stealthflow protect - < FILE) or give it as the text itself"
)


def parse_records(text: str, where: str) -> list[Record]:
    """`{"id", "text"}` records from JSONL text; errors name `where:LINE` and say what a record is
    (`RECORDS_EXPECTED`): a JSON document (an export, pretty-printed) is not records."""
    records: list[Record] = []
    seen: dict[str, int] = {}  # id -> the line it is first on
    for lineno, line in enumerate(jsonl_lines(text), start=1):
        if not line.strip():
            continue
        try:
            record = json_line(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"{where}:{lineno}: {_not_records(text, not_json(exc))}; {RECORDS_EXPECTED}") from None
        if not isinstance(record, dict) or not isinstance(record.get("text"), str) or record.get("id") in (None, ""):
            raise DataError(f"{where}:{lineno}: not an object with 'id' and a string 'text'; {RECORDS_EXPECTED}")
        if has_lone_surrogate(record["text"]):
            raise DataError(
                f"{where}:{lineno}: the text holds a lone surrogate (invalid Unicode); nothing was written for it"
            )
        refuse_nul(record["text"], f"{where}:{lineno}: the text")
        record_id = str(record["id"])
        if record_id in seen:  # named by its lines, not its id: an id may be personal data ("dana.kerr@mailbox.org")
            raise DataError(f"{where}:{lineno}: duplicate id, the same as line {seen[record_id]}'s")
        seen[record_id] = lineno
        vault, session = record.get("vault"), record.get("session")
        records.append(
            Record(
                record_id,
                record["text"],
                vault if isinstance(vault, str) else None,
                f"{where}:{lineno}",
                session if isinstance(session, str) else None,
                record["id"],
            )
        )
    return records


def _not_records(text: str, why: str) -> str:
    """Why the text is no JSONL records although a line is not JSON (`why`): it may be one JSON document on
    several lines."""
    try:
        json_line(text)
    except json.JSONDecodeError:
        return why
    return "a JSON document, not JSONL records"


def other_sessions(records: list[Record], session: str) -> list[str]:
    """The sessions other than `session` that the rows say protected them, in order of first mention."""
    return list(dict.fromkeys(r.session for r in records if r.session is not None and r.session != session))


def refused_ids(detector, ids: list[str]) -> list[str | None]:
    """Why each id may not be written (None: it may): the recognizers and the tagger (`Detector.deterministic_many`)
    find a value in it, which every protected row and manifest would carry as it is (a dataset keyed by e-mail
    addresses or customer numbers). Refused rather than masked: an id stays the key a resume and a join match on.
    An id is the user's key, not a secret: the tagger's CREDENTIAL guess on a bare token (`id_guess`) refuses none;
    a secret of a checked shape (an API key, a card) still does."""
    return [
        f"its id holds {', '.join(sorted({span.type for span in found}))}, which the output would carry as it is: "
        "key the rows by something else (a row number, a digest)"
        if (found := [span for span in spans if not id_guess(span)])
        else None
        for spans in detector.deterministic_many(ids)
    ]


def id_guess(span) -> bool:
    """Whether a span found in an id is the PII tagger's CREDENTIAL, which it gives a bare token for its shape alone:
    in ids r0..r11999 it tagged 392 (`r1182`, ux22's report M3), in 2 000 hex digests of 16 characters 1 834, in 500
    UUIDs 353, and no recognizer any of them; a vendor's key, a card or an e-mail address is a recognizer's span."""
    return span.source == "pii_tagger" and span.type == "CREDENTIAL"


def protected_row(record_id: object, session: str, vault: str, protected, input_digest: str | None = None) -> dict:
    """The row `protect -i` writes for a `Protected`: `{id, session, vault[, input], text, spans, language[,
    warnings]}`; `input_digest`: the keyed digest of the text it protects (`Protector.input_digester`), for `resume`."""
    row = {
        "id": record_id,
        "session": session,
        "vault": vault,
        **({"input": input_digest} if input_digest is not None else {}),
        "text": protected.text,
        "spans": [span.to_json() for span in protected.spans],
        "language": protected.language,
    }
    if protected.warnings:
        row["warnings"] = protected.warnings
    return row


def protect_records(
    protector: Protector, records: list[Record], session: str, rewriter: Method | None = None, rewrite: str = "none"
) -> list[tuple[dict, Protected, RewriteOutcome | None]]:
    """Each record protected in `session` into the row `protect -i` writes (`protected_row`, its input's digest for
    `resume`); with a `rewriter` (the method `rewrite` names), each protected text then rewritten against attribute
    inference and checked (`rewrite_protected`): the row's text is the one to send and its `rewrite` says what
    happened. Per record: its row, its `Protected` and the rewrite's outcome (None: no rewrite)."""
    from stealthflow.pipeline.rewrite import rewrite_protected

    protected = protector.protect_many([record.text for record in records], session)
    digest = protector.input_digester(session)
    rows = [
        protected_row(record.written_id, session, protector.vault.id, p, digest(record.text))
        for record, p in zip(records, protected, strict=True)
    ]
    outcomes = [None] * len(rows)
    if rewriter is not None:
        outcomes = rewrite_protected(
            rewriter,
            [(record.id, p.text, p.placeholders) for record, p in zip(records, protected, strict=True)],
            values=[p.values for p in protected],
        )
        for row, outcome in zip(rows, outcomes, strict=True):
            row["text"], row["rewrite"] = outcome.text, outcome.to_json(rewrite)
    return list(zip(rows, protected, outcomes, strict=True))


def row_rewrite(row: dict) -> str:
    """The `--rewrite` a row of `protect` was written with: its `rewrite` field's method, `none` without one."""
    rewrite = row.get("rewrite")
    return str(rewrite.get("method")) if isinstance(rewrite, dict) else "none"


def is_protected_row(row: object, session: str) -> bool:
    """Whether `row` is one `protect` wrote for `session` (`protected_row`'s fields, a text, its spans)."""
    return (
        isinstance(row, dict)
        and row.keys() >= {"id", "session", "vault", "text", "spans"}
        and row["session"] == session
        and isinstance(row["vault"], str)
        and isinstance(row["text"], str)
        and isinstance(row["spans"], list)
    )


def finished_rows(path: Path, session: str, rewrite: str) -> dict[str, str | None]:
    """The rows `protect` already wrote to `path` for `session` with `--rewrite` `rewrite`, to resume it: id -> the
    digest of the input they were protected from (None: a row that records none). Every line must be such a row:
    anything else (the raw input, another file, another session's rows, rows of another rewrite) is a `DataError`
    naming its line, and nothing is changed. A torn last line (a crash mid-write: no newline, not JSON) is cut off."""
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text (byte {exc.start}), so not an output of protect") from None
    lines = text.split("\n")
    done, kept = {}, []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = json_line(line)
        except json.JSONDecodeError:
            if lineno == len(lines):  # the last line, without its newline: torn by a crash
                break
            row = None
        if not is_protected_row(row, session):
            raise DataError(_not_resumable(path, lineno, row, session))
        if (written := row_rewrite(row)) != rewrite:
            raise DataError(
                f"{path}:{lineno}: a row written with --rewrite {written}: resuming it with --rewrite {rewrite} would "
                f"mix differently rewritten rows in one file; rerun with --rewrite {written}, or give another output file"
            )
        done[str(row["id"])] = row["input"] if isinstance(row.get("input"), str) else None
        kept.append(line + "\n")
    if len(kept) < sum(1 for line in lines if line.strip()):
        write_replacing(path, "".join(kept))
    return done


class Resumed(NamedTuple):
    done: set[str]  # ids whose row in the output was protected from the text the input holds now
    changed: int  # rows dropped from the output: their id's text differs (or is not recorded), so it is protected again


def matching(finished: dict[str, str | None], records: list[Record], digest: Callable[[str], str]) -> Resumed:
    """`records` matched with the `finished` rows of an output (id -> the input digest they record) by id AND the
    `digest` of the text: `done` the ids whose row was protected from the text they hold now, `changed` how many
    others have a row (an edited record, an id reused for another text, a row recording no digest)."""
    done, changed = set(), 0
    for record in records:
        if record.id in finished:
            if finished[record.id] == digest(record.text):
                done.add(record.id)
            else:
                changed += 1
    return Resumed(done, changed)


def resume(path: Path, finished: dict[str, str | None], records: list[Record], digest: Callable[[str], str]) -> Resumed:
    """Match the `finished` rows of `path` (`finished_rows`) with `records` (`matching`): a row whose id's text changed
    since is removed from `path`, whole or not at all, so its text is protected again and no stale row stays for it."""
    resumed = matching(finished, records, digest)
    changed = {record.id for record in records if record.id in finished} - resumed.done
    if changed:
        kept = []
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip() and str(json.loads(line)["id"]) not in changed:
                kept.append(line + "\n")
        write_replacing(path, "".join(kept))
    return resumed


def _not_resumable(path: Path, lineno: int, row: object, session: str) -> str:
    where = f"{path}:{lineno}"
    if isinstance(row, dict) and isinstance(row.get("session"), str) and row["session"] != session:
        return (
            f"{where}: a row protected under session {row['session']!r}: resuming it under {session!r} would mix "
            "two sessions' placeholders; use that session or another output file"
        )
    return (
        f"{where}: not a row protect wrote for session {session!r}, so -o would add protected rows to a file that "
        "holds other text (the input itself?): nothing was written; give a new output file"
    )


def has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def not_blank(text: str) -> str:
    """`text` itself; a ValueError when it is empty or only whitespace (a request validator), a TypeError when it is
    no str (`None`)."""
    if not isinstance(text, str):
        raise TypeError(f"the text must be a str, not {type(text).__name__}: there is nothing to protect")
    if not text.strip():
        raise ValueError("the text is empty: there is nothing to protect")
    return text


def valid_unicode(text: str) -> str:
    """`text` itself; a ValueError when it holds a lone surrogate (a request validator)."""
    if has_lone_surrogate(text):
        raise ValueError("the text holds a lone surrogate (invalid Unicode)")
    return text
