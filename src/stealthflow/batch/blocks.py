"""The input of a batch job cut into blocks that are the same on every run: the unit of work, of
output (one part file each) and of resumption (the manifest lists the blocks done).

A JSONL file is cut into byte ranges: a block holds the lines that start inside its range (the
line crossing its end belongs to it, the partial line at its start to the block before), so
nothing is read twice or skipped, whatever the line lengths. A Parquet file's blocks are its row
groups. No file is read whole to plan: JSONL needs its size, Parquet its footer.
"""

from __future__ import annotations

import glob
import json
import os
from bisect import bisect_right, insort
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from stealthflow.data import DataError
from stealthflow.data.loader import json_line, not_json

FORMATS = {".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
BLOCK_BYTES = (
    4 * 1024 * 1024
)  # ~4 s of detection per block on one core (1 ms/KB): small enough to lose little on a kill


@dataclass(frozen=True)
class InputFile:
    path: str
    size: int
    mtime_ns: int

    @property
    def format(self) -> str:
        return FORMATS[Path(self.path).suffix.lower()]


@dataclass(frozen=True)
class Block:
    id: str  # FILE#-START, sortable: the part file's name and the manifest's key
    path: str
    format: str
    start: int  # a byte offset (JSONL) or a row group (Parquet)
    end: int
    size: int  # bytes, for progress

    def to_json(self) -> dict:
        return asdict(self)


def input_files(source: str) -> list[InputFile]:
    """The files of `source`: a file, a folder (its JSONL and Parquet files, recursively) or a glob."""
    path = Path(source)
    if path.is_dir():
        found = [p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in FORMATS]
    elif path.is_file():
        found = [path]
    else:
        found = [Path(p) for p in glob.glob(source, recursive=True) if Path(p).is_file()]
    if not found:
        raise DataError(f"{source}: no input files (a JSONL or Parquet file, a folder of them, or a glob)")
    unknown = sorted(str(p) for p in found if p.suffix.lower() not in FORMATS)
    if unknown:
        raise DataError(f"{unknown[0]}: not a JSONL or Parquet file (.jsonl, .json, .ndjson, .parquet)")
    files = []
    for p in sorted({p.resolve() for p in found}):
        stat = p.stat()
        files.append(InputFile(str(p), stat.st_size, stat.st_mtime_ns))
    return files


def outside_input(source: str, output: str | Path) -> None:
    """A `DataError` when the output folder lies inside the input's folder (`source` a folder, or a glob's folder
    before its first wildcard): its manifest and part files would be read as input on a rerun, so a job that ran
    once could never be resumed (ux22's report M5). Refused on the first run, before anything is written."""
    folder = Path(source) if Path(source).is_dir() else None
    if folder is None and glob.has_magic(source):
        folder = Path(*_parts_before_magic(source) or ["."])
    if folder is not None and Path(output).resolve().is_relative_to(folder.resolve()):
        raise DataError(
            f"--output {output} lies inside the input folder {folder}: a rerun would read its manifest and part files "
            "as input (and could not resume); give an output folder outside it"
        )


def _parts_before_magic(pattern: str) -> list[str]:
    parts = []
    for part in Path(pattern).parts:
        if glob.has_magic(part):
            break
        parts.append(part)
    return parts


def plan_blocks(files: list[InputFile], block_bytes: int = BLOCK_BYTES) -> list[Block]:
    """Every block of every file, in order."""
    blocks = []
    for number, file in enumerate(files):
        if file.format == "parquet":
            import pyarrow.parquet as pq

            metadata = pq.ParquetFile(file.path).metadata
            blocks += [
                Block(
                    f"{number:05d}-{group:012d}",
                    file.path,
                    "parquet",
                    group,
                    group + 1,
                    metadata.row_group(group).total_byte_size,
                )
                for group in range(metadata.num_row_groups)
            ]
        else:
            blocks += [
                Block(f"{number:05d}-{start:012d}", file.path, "jsonl", start, min(start + block_bytes, file.size), 0)
                for start in range(0, file.size, block_bytes)
            ]
    return [b if b.size else Block(b.id, b.path, b.format, b.start, b.end, b.end - b.start) for b in blocks]


@dataclass
class Row:
    row: int  # the line's byte offset (JSONL) or the row's number in the file (Parquet)
    record: dict | None
    error: str = ""  # why the row cannot be read (never its content)


def read_block(block: Block) -> Iterator[Row]:
    """The rows of a block, in file order; a line that is not a JSON object is a row with an error."""
    if block.format == "parquet":
        import pyarrow.parquet as pq

        parquet = pq.ParquetFile(block.path)
        first = sum(parquet.metadata.row_group(g).num_rows for g in range(block.start))
        for offset, record in enumerate(parquet.read_row_group(block.start).to_pylist()):
            yield Row(first + offset, record)
        return
    with open(block.path, "rb") as handle:
        position = block.start
        if position:
            handle.seek(position - 1)
            position += len(handle.readline()) - 1  # the rest of the line that started before this block
        while position < block.end:
            line = handle.readline()
            if not line:
                break
            if line.strip():
                yield _parse_line(position, line)
            position += len(line)


def row_id(data: dict, id_column: str, block: Block, row: int) -> str:
    """A row's id: its `id_column`, or FILE:LINE where it has none (`row_number`: the number the manifest gives)."""
    value = data.get(id_column)
    return str(value) if value not in (None, "") else f"{Path(block.path).name}:{row_number(block, row)}"


def row_number(block: Block, row: int) -> int:
    """The 1-based number of `row` (a `Row.row` of `block`) in its file, as the user counts: a JSONL line's number
    (blank lines counted, as an editor or `sed -n Np` does), a Parquet row's. Counted from the nearest line start
    counted before in the same file (`_LINE_STARTS`): a job's failed rows cost one read of the file or less."""
    if block.format == "parquet":
        return row + 1
    stat = os.stat(block.path)
    known = _LINE_STARTS.setdefault((block.path, stat.st_size, stat.st_mtime_ns), [(0, 0)])
    start, newlines = known[bisect_right(known, (row, float("inf"))) - 1]
    with open(block.path, "rb") as handle:
        handle.seek(start)
        while start < row:
            chunk = handle.read(min(row - start, 1 << 20))
            if not chunk:
                break
            newlines, start = newlines + chunk.count(b"\n"), start + len(chunk)
    insort(known, (row, newlines))
    return newlines + 1


_LINE_STARTS: dict[tuple[str, int, int], list[tuple[int, int]]] = {}  # (path, size, mtime) -> [(offset, newlines)]


def _parse_line(position: int, line: bytes) -> Row:
    try:
        record = json_line(line)
    except UnicodeDecodeError:
        return Row(position, None, "the line is not UTF-8 text")
    except json.JSONDecodeError as exc:
        return Row(position, None, not_json(exc))
    if not isinstance(record, dict):
        return Row(position, None, "not a JSON object")
    return Row(position, record)


def file_identity(files: list[InputFile]) -> list[dict]:
    """What the manifest records of the input: a file changed since (size, time) is another job."""
    return [asdict(f) for f in files]
