"""An output file a command writes (`-o`): never the file it reads, and written whole or not at all.

`not_the_input` refuses an output that is the input (the same path, or another name of the same file: a
link; or the file stdin reads, `-`), and `not_inside` an output folder that holds an input file, before anything is
written; `replaced` writes a file under a temporary name beside it and renames it over the old one at the end, so a
failure midway leaves the user's file as it was. An output that is a symbolic link is written through: its target gets
the text, the link stays. An output that is a device or a named pipe (`/dev/null`, `/dev/stdout`, a FIFO) is written
as it is, never replaced by a file; any other kind that is no regular file (a folder, a socket) is refused."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from stealthflow.data.loader import DataError


def not_the_input(output: str | Path | None, *inputs: str | Path | None) -> None:
    """A `DataError` when `output` is one of `inputs` (an input `-`: the file stdin reads, if any; an output `-` and
    None are never files)."""
    if output in (None, "-"):
        return
    for given in inputs:
        if given is None or not (_is_stdin(Path(output)) if given == "-" else _same_file(Path(given), Path(output))):
            continue
        raise DataError(
            f"-o {output} is the input file {'read on stdin' if given == '-' else given}: writing it would replace "
            "the texts it holds; give another output file"
        )


def not_inside(folder: str | Path, inputs: list[str | Path]) -> None:
    """A `DataError` when an input file lies in the output `folder` (a rerun would read what it wrote)."""
    folder = Path(folder).resolve()
    for given in inputs:
        if Path(given).resolve().is_relative_to(folder):
            raise DataError(
                f"-o {folder} holds the input file {given}: the output would be written among the input (and read "
                "as input on a rerun); give an output folder outside the input"
            )


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)  # the same inode: one path, or a hard or symbolic link
    except OSError:  # one of them does not exist (yet)
        return a.resolve() == b.resolve()


def _is_stdin(path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(0), os.stat(path))  # `protect - -o f < f`
    except OSError:  # no stdin, or no such file (yet)
        return False


@contextlib.contextmanager
def replaced(path: str | Path) -> Iterator[TextIO]:
    """A handle on a temporary file beside `path` that becomes `path` when the block ends without error
    (an exception removes it, and `path` keeps what it held). A symbolic link is written through to its target; a
    device or a named pipe is written directly (rev25b L4: renaming over `/dev/null` made it a regular file)."""
    path = Path(os.path.realpath(path))
    mode = _mode(path)
    if mode is not None and not stat.S_ISREG(mode):
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):
            raise DataError(f"cannot write {path}: it is no regular file, device or pipe; give a file to write")
        with open(path, "w", encoding="utf-8") as file:
            yield file
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
        if mode is not None:
            os.chmod(temporary, mode & 0o777)  # the file keeps its permissions
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def _mode(path: Path) -> int | None:
    """The file type and permission bits of `path`, or None when there is no such file."""
    try:
        return path.stat().st_mode
    except FileNotFoundError:
        return None


def write_replacing(path: str | Path, text: str) -> None:
    """`text` into `path`, whole or not at all (`replaced`)."""
    with replaced(path) as file:
        file.write(text)


def write_output(output: str | Path | None, text: str) -> None:
    """`text` into the file `output` (`write_replacing`), or to stdout when `output` is None or `-`."""
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_replacing(output, text)
