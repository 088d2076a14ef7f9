"""The cells of a table or a JSON object in a text, and what labels each: a delimited table's header (CSV, TSV,
semicolon-separated: a header line, then rows of as many cells) labels the cells under it, a JSON object's key labels
its string value. What a label means is the recognizers' (`recognizers/tables.py`); here only where cells are.

A value never runs from one cell into the next: `within_values` cuts a span at the cells' edges, so a row is not one
address ("1001,Hannah,Becker,1985-02-14,Berlin", ux25's report M4) and a JSON string's closing quote stays in the text
("18 Maple Ave, Burlington, VT 05401\"}," read as one address, H3).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

import regex

from stealthflow.placeholders.types import Span

DELIMITERS = "\t;,"  # tried in turn: the first that splits a header and its rows into as many cells is the table's
MAX_HEADER_CELL = 40  # characters: a longer header cell is a sentence's part, not a column's name
_HEADER_CELL = regex.compile(r"[\p{L}_\"'][\p{L}\d _./()'\"#-]*")  # a column's name: opens with a letter, no sentence
MAX_HEADER_LINE = 1_000  # characters: a longer line is no header
_HEADER_LINE = regex.compile(r"[\p{L}\d _./()'\"#\t;,-]+")  # a header's characters only
_JSON_PAIR = regex.compile(r'"(?P<key>[^"\\\n]{1,60})"[ \t]*:[ \t]*"(?P<value>(?:[^"\\\n]|\\.)*)"')
_CAMEL = regex.compile(r"(?<=\p{Ll})(?=\p{Lu})")
_SEPARATORS = regex.compile(r"[\s_.\-]+")


@dataclass(frozen=True)
class Cell:
    """text[start:end] is a cell's value (quotes and white space around it left out); `label`: its column's name or
    its key, as `label_words` reads it ("" for a header cell or a key itself); `record`: where the row or the object
    that holds it opens (cells of one record hold one person's data), -1 when that is not known (an object with
    another inside); `column`: where its column's header cell starts in a table (-1: a JSON value)."""

    start: int
    end: int
    label: str = ""
    record: int = -1
    column: int = -1


def label_words(label: str) -> str:
    """A column's name or a key as words: lowercase, "_", "-", "." and camel case as spaces ("date_of_birth",
    "dateOfBirth", "Date of birth" are all "date of birth")."""
    return " ".join(_SEPARATORS.split(_CAMEL.sub(" ", label.strip().strip("\"'")).lower())).strip()


def cells(text: str) -> list[Cell]:
    """The cells of the delimited tables and of the JSON objects' string values in `text`, by start (read again by the
    recognizer and by the detector's cut, 0.07 s a MB of prose: no text is kept in memory for it)."""
    return sorted(_table_cells(text) + _json_cells(text), key=lambda cell: cell.start)


def _json_cells(text: str) -> list[Cell]:
    if '":' not in text and '" :' not in text:
        return []
    found, opens, closes, read = [], -1, -1, 0
    for match in _JSON_PAIR.finditer(text):
        # the last `{` and `}` before the pair, read on from the last pair's start: searched back from each pair to the
        # text's start instead, a flat object took quadratic time (1.8 MB, 3.6 s)
        opens = max(opens, text.rfind("{", read, match.start()))
        closes = max(closes, text.rfind("}", read, match.start()))
        read = match.start()
        record = opens if opens >= 0 and closes < opens else -1
        found.append(Cell(*match.span("key")))
        found.append(Cell(*match.span("value"), label_words(match["key"]), record))
    return found


def _split(line: str, delimiter: str) -> list[tuple[int, int]]:
    """The cells of a line as (start, end) in it: split at the delimiter outside double quotes."""
    found, start, quoted = [], 0, False
    for at, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == delimiter and not quoted:
            found.append((start, at))
            start = at + 1
    found.append((start, len(line)))
    return found


def _trimmed(line: str, start: int, end: int) -> tuple[int, int]:
    """A cell without the white space and the double quotes around its value."""
    while start < end and line[start].isspace():
        start += 1
    while end > start and line[end - 1].isspace():
        end -= 1
    if end - start >= 2 and line[start] == '"' and line[end - 1] == '"':
        start, end = start + 1, end - 1
    return start, end


def _header(line: str, delimiter: str) -> list[str] | None:
    """A line's cells when it reads as a header (each a column's name: short, opening with a letter, no two alike)."""
    if delimiter not in line:
        return None
    names = [line[a:b] for a, b in (_trimmed(line, *cell) for cell in _split(line, delimiter))]
    if len(names) < 2 or len(set(names)) < len(names):
        return None
    if all(len(name) <= MAX_HEADER_CELL and _HEADER_CELL.fullmatch(name) for name in names):
        return names
    return None


def _runs(lines: list[str]) -> list[tuple[str, list[int]]]:
    """Runs of indices of `lines` that are a table, with its delimiter: a header (`_header`), then at least one line of
    as many cells; the first delimiter of `DELIMITERS` that makes one decides for that header."""
    runs, index = [], 0
    while index < len(lines):
        line = lines[index]
        found = (  # most lines are a sentence's, told by the regex at C speed
            next(((d, r) for d in DELIMITERS if len(r := _run_from(lines, index, d)) >= 2), None)
            if len(line) <= MAX_HEADER_LINE and _HEADER_LINE.fullmatch(line)
            else None
        )
        if found is None:
            index += 1
            continue
        runs.append(found)
        index = found[1][-1] + 1
    return runs


def _run_from(lines: list[str], index: int, delimiter: str) -> list[int]:
    names = _header(lines[index], delimiter)
    if names is None:
        return []
    run = [index]
    while run[-1] + 1 < len(lines) and len(_split(lines[run[-1] + 1], delimiter)) == len(names):
        run.append(run[-1] + 1)
    return run


def _table_cells(text: str) -> list[Cell]:
    if "\n" not in text.strip():
        return []
    starts, lines, position = [], [], 0
    for line in text.split("\n"):
        starts.append(position)
        lines.append(line.removesuffix("\r"))
        position += len(line) + 1
    found = []
    for delimiter, run in _runs(lines):
        header = lines[run[0]]
        heads = [_trimmed(header, *c) for c in _split(header, delimiter)]
        labels = [label_words(header[a:b]) for a, b in heads]
        for index in run:
            line, offset = lines[index], starts[index]
            for label, (head, _), cell in zip(labels, heads, _split(line, delimiter), strict=True):
                a, b = _trimmed(line, *cell)
                found.append(
                    Cell(offset + a, offset + b, "" if index == run[0] else label, offset, starts[run[0]] + head)
                )
    return found


_PAIRS = ('""', "“”", "{}", "[]")
_OPENERS, _CLOSERS = "".join(pair[0] for pair in _PAIRS), "".join(pair[1] for pair in _PAIRS)


def _unquoted(span: Span, text: str) -> Span:
    """A span without the quotes, braces and brackets at its ends that open or close no part of it: the "} after a
    value ("18 Maple Ave, Burlington, VT 05401\"},"), a quote before one. A pair it holds both halves of stays."""
    start, end = span.start, span.end
    if start >= end or (text[start] not in _OPENERS and text[end - 1] not in _CLOSERS):
        return span
    while end > start and text[end - 1] in _CLOSERS and not _paired(text[start : end - 1], text[end - 1]):
        end -= 1
    while start < end and text[start] in _OPENERS and not _paired(text[start + 1 : end], text[start]):
        start += 1
    return span if (start, end) == (span.start, span.end) else replace(span, start=start, end=end)


def _paired(inside: str, char: str) -> bool:
    """Whether `inside`, the rest of a span, holds the other half of the quote, brace or bracket `char` at its end."""
    opener, closer = next(pair for pair in _PAIRS if char in pair)
    return inside.count(char) % 2 == 1 if opener == closer else inside.count(opener) != inside.count(closer)


def cell_edges(found: list[Cell]) -> list[int]:
    """Where the cells `found` (`cells` of a text) start and end, sorted."""
    return sorted({edge for cell in found for edge in (cell.start, cell.end)})


def cell_pieces(text: str, start: int, end: int, edges: list[int]) -> list[tuple[int, int]]:
    """text[start:end] cut at the cell `edges` it crosses: one piece per cell it covers, without the white space and
    quotes at its ends, and a piece outside every cell (a delimiter, a quote) only when it holds a letter or digit."""
    inner = edges[bisect.bisect_right(edges, start) : bisect.bisect_left(edges, end)]
    if not inner:
        return [(start, end)]
    pieces, bounds = [], [start, *inner, end]
    for a, b in zip(bounds, bounds[1:], strict=False):
        while a < b and (text[a].isspace() or text[a] in "\"'"):
            a += 1
        while b > a and (text[b - 1].isspace() or text[b - 1] in "\"'"):
            b -= 1
        if any(char.isalnum() for char in text[a:b]):
            pieces.append((a, b))
    return pieces


def within_values(spans: list[Span], text: str) -> list[Span]:
    """The spans kept to the values they cover: without the quotes and braces at their ends that close or open no part
    of them (`_unquoted`), and cut at the edges of the cells of `text` (`cell_pieces`): a span that runs out of a cell is
    one piece per cell it covers (kept, as its type: nothing found is let go)."""
    spans = [kept for span in spans if (kept := _unquoted(span, text)).end > kept.start]
    edges = cell_edges(cells(text)) if spans else []
    if not edges:
        return spans
    return [replace(span, start=a, end=b) for span in spans for a, b in cell_pieces(text, span.start, span.end, edges)]
