"""A batch job's output folder: one part file per block, and `manifest.jsonl`, the record of the
blocks done, which makes a rerun resume where a killed run stopped.

The manifest's first line describes the job (the input files with their sizes and times, the
mode, session, columns, vault, block size); a rerun with another description is refused, so two
jobs never mix in one folder. Then one line per block done: its part file, its rows written and
its failed rows (id, file, row number, reason, never the text; an id that holds a value is not written). A part file is written whole under a
temporary name and renamed, and only then is its line appended: a block is either listed and
complete, or not listed and done again (a part left by a kill between the rename and the line is
removed on resume). A torn last line is cut off.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from stealthflow.data import DataError
from stealthflow.data.jsonl import dump_line

MANIFEST = "manifest.jsonl"
SHARDS = "vault-shards"


def failed_row(failure: dict) -> str:
    """A failed row as a person finds it: its id, or where the id is not written (it holds a value, or the line could
    not be read) its row number in its file ("row 1183 of big.jsonl"); then why."""
    where = failure.get("id")
    if where is None:
        where = f"row {failure['row']}" + (f" of {Path(failure['file']).name}" if failure.get("file") else "")
    return f"{where}: {failure['reason']}"


class JobMismatch(DataError):
    """The output folder holds another job's results."""


def part_name(block_id: str) -> str:
    return f"part-{block_id}.jsonl"


def _open_own(path: Path, mode: str) -> TextIO:
    """`path`, a file of the output folder, opened to write (`mode` "w") or append ("a"), never through a symbolic
    link: one planted there (`part-X.jsonl.tmp` -> a file of yours) would be written through (rev27 L1)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    try:
        return os.fdopen(os.open(path, flags, 0o644), mode, encoding="utf-8")
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        raise _linked(path) from None


def _linked(path: Path) -> JobMismatch:
    return JobMismatch(f"{path} is a symbolic link: not written through; use another --output folder")


class JobOutput:
    def __init__(self, directory: Path, job: dict):
        self.directory = Path(directory)
        self.job = job
        self.done: dict[str, dict] = {}
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock = _open_own(self.directory / ".lock", "w")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when the process ends, killed or not
        except BlockingIOError:
            self._lock.close()
            raise JobMismatch(f"another run is writing to {self.directory}") from None
        self.path = self.directory / MANIFEST
        if self.path.is_symlink():  # its target would be read as the manifest and refused as another job's
            raise _linked(self.path)
        if self.path.exists():
            self._resume()
        else:
            self._write_lines([{"job": job}], mode="w")

    @property
    def shards(self) -> Path:
        return self.directory / SHARDS

    def _resume(self) -> None:
        lines, good = self.path.read_text(encoding="utf-8").split("\n"), []
        for line in lines:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                break  # a torn last line (a kill mid-write): that block is done again
            good.append(line)
            if "block" in record:
                # a part named otherwise (`/home/you/notes`, `../x`) would be read, and deleted on a rerun (rev27 L1)
                if record.get("part") not in (None, part_name(record["block"])):
                    raise JobMismatch(
                        f"{self.path} names a part file that is not its block's own (part-BLOCK.jsonl in this "
                        "folder): it was edited, and is not resumed; use another --output folder"
                    )
                self.done[record["block"]] = record
        header = json.loads(good[0])["job"] if good else None
        if header != self.job:
            changed = sorted(k for k in self.job if header is None or header.get(k) != self.job[k])
            raise JobMismatch(
                f"{self.directory} holds the output of another job ({', '.join(changed) or 'its description'} "
                "differs): use another --output folder, or the same input and options to resume it"
            )
        with _open_own(self.path, "w") as handle:
            handle.write("".join(line + "\n" for line in good))
        listed = {record["part"] for record in self.done.values() if record["part"]}
        for path in self.directory.glob("part-*"):
            if path.name not in listed:  # written before a kill, never listed: its block runs again
                path.unlink()

    def record(
        self,
        block_id: str,
        lines: Iterable[str],
        rows: int,
        failures: list[dict],
        not_protected: int = 0,
        empty: int = 0,
    ) -> None:
        """Write the block's part file (its JSONL `lines`; none for a block with no row written: every row failed, or
        no line starts in it, and its `part` is null), then list the block as done, with how many of its rows the
        rewrite left a marked phrase in (`not_protected`: their `rewrite.protected` is false) and how many had an
        empty or blank text (`empty`: written as they are, nothing to protect)."""
        lines = list(lines)
        part = part_name(block_id) if lines else None
        if part:
            temporary = self.directory / f"{part}.tmp"
            with _open_own(temporary, "w") as handle:
                handle.writelines(lines)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, self.directory / part)
        entry = {
            "block": block_id,
            "part": part,
            "rows": rows,
            "not_protected": not_protected,
            "empty": empty,
            "failed": failures,
        }
        self._write_lines([entry])
        self.done[block_id] = entry

    def finished_rows(self, block_id: str) -> list[tuple[str, str | None]]:
        """The rows of a block done, in input order: (id, the digest of the input text it was protected from; None
        where the row records none)."""
        part = self.done[block_id]["part"]
        rows = (json.loads(line) for line in (self.directory / part).read_text().splitlines()) if part else ()
        return [(str(row["id"]), row.get("input") if isinstance(row.get("input"), str) else None) for row in rows]

    def forget(self, block_ids: list[str]) -> None:
        """List the blocks `block_ids` as not done, and remove their part files: they are done again."""
        if not block_ids:
            return
        for block_id in block_ids:
            if part := self.done.pop(block_id)["part"]:
                (self.directory / part).unlink(missing_ok=True)
        self._write_lines([{"job": self.job}, *self.done.values()], mode="w")

    def _write_lines(self, records: list[dict], mode: str = "a") -> None:
        with _open_own(self.path, mode) as handle:
            handle.writelines(dump_line(record) for record in records)
            handle.flush()
            os.fsync(handle.fileno())

    def close(self) -> None:
        self._lock.close()

    def failures(self) -> list[dict]:
        return [failure for entry in self.done.values() for failure in entry["failed"]]

    def rows(self) -> int:
        return sum(entry["rows"] for entry in self.done.values())

    def empty(self) -> int:
        """Rows written whose text was empty or blank."""
        return sum(entry.get("empty", 0) for entry in self.done.values())

    def not_protected(self) -> int:
        """Rows written whose rewrite left a marked phrase in them (`rewrite.protected` false)."""
        return sum(entry.get("not_protected", 0) for entry in self.done.values())
