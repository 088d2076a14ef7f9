"""Code fences as markdown (CommonMark) reads them, a line at a time (`Fences.after`): a run of three or more backticks
or tildes opens one, in block quotes and list items too, and only a run of its own character at least as long, with
no info string, in its block, closes it (a `~~~` line inside a ``` fence is its text). Where markdown's reading of a
line depends on a list item the reader does not keep (a fence indented with no list mark on its line), every reading
is kept, and a fence open in any of them counts: the reader may take more lines as code than markdown, never fewer
(`tests/test_restore_links.py` checks this against markdown-it-py on random mixes of fence, quote, list, indented,
heading, break and HTML lines). An indented code block counts too: a line four or more columns in, at the reply's
start, after a blank line or after a line no paragraph's text goes on from (a fence line, a heading, a break, an HTML
block, a block quote it is not in), outside a list item known to be open, opens one, and it runs while lines are blank
or as far in. A fence line inside an HTML block (`<!--` to `-->`, `<div>` to a blank line: CommonMark's seven kinds) is
its text, no fence: while one may be open (`Fences.html`, read wherever a line starts with one, ended only where
CommonMark certainly ends it), a fence line is read both ways."""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from stealthflow.placeholders.links import raw_html_tags

# A line that opens or closes a code fence as markdown reads it, inside block quotes (`> `) and list items (`1. `,
# `- `): a run of three or more backticks or tildes, then an info string (`python`; no backtick after a backtick fence,
# as CommonMark reads it: "```x`" opens none) or nothing (`_FENCE_BEGUN`: a line read so far that is, or is becoming,
# one). The list marks' white space is taken possessively (`*+`, `++`): only a list mark or the line's text follows
# it, so giving some back never matches, and a line of marks that fails (`"-  " * 40 + "x"`) is read in linear time,
# not by trying every split of its runs of spaces.
_QUOTES = r"(?P<quotes>(?:[ \t]{0,3}>)*)"
_FENCE_START = _QUOTES + r"(?P<items>(?:[ \t]*+(?:[-+*]|\d{1,9}[.)])[ \t]++)*+)(?P<indent>[ \t]*)"
_FENCE = re.compile(_FENCE_START + r"(?P<run>`{3,}(?![^\n]*`)|~{3,})(?P<info>[^\n]*)")
_FENCE_BEGUN = re.compile(_FENCE_START + r"(?:`{3,}|~{3,})")
_ITEM = re.compile(r"(?:[ \t]{0,3}>)*[ \t]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")  # a list item's first line
_NOT_ONE = re.compile(r"(?:[ \t]{0,3}>)*[ \t]*(?!0*1[.)])\d{1,9}[.)]")  # an ordered list item numbered other than 1
_LINE_START = re.compile(_QUOTES + r"(?P<space>[ \t]*)")
# A line no indented line after it goes on, as markdown reads it: a heading, a thematic break or a setext heading's
# underline (an indented line after one, or after a fence or an HTML block, opens an indented code block); a thematic
# break (`* * *`, `_BREAK`) is no list item.
_NO_PARAGRAPH = re.compile(_QUOTES + r"[ \t]*(?:#{1,6}(?:[ \t]|$)|(?:[-*_=][ \t]*)+$)")
_BREAK = re.compile(_QUOTES + r"(?P<space>[ \t]*)(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")


@cache
def _html_start() -> re.Pattern[str]:
    """A line that may start an HTML block (CommonMark 4.6, in a block quote or list item too), each kind named by the
    end it waits for: a raw tag's end tag (data/raw_html_tags.txt), `-->`, `?>`, `]]>`, `>`, or a blank line."""
    raw = "|".join(re.escape(tag) for tag in sorted(raw_html_tags()))
    return re.compile(
        _FENCE_START + rf"<(?:(?P<raw>(?:{raw})(?:[ \t>]|$))|(?P<comment>!--)|(?P<question>\?)|(?P<cdata>!\[CDATA\[)"
        r"|(?P<declaration>![a-z])|(?P<blank>/?[a-z][a-z0-9-]*(?:[ \t/>]|$)))",
        re.IGNORECASE,
    )


@cache
def _html_ends() -> dict[str, str]:
    """What ends each kind of HTML block (`_html_start`): a line that holds the pattern ("": a blank line)."""
    raw = "|".join(re.escape(tag) for tag in sorted(raw_html_tags()))
    return {"raw": rf"</(?:{raw})>", "comment": "-->", "question": r"\?>", "cdata": r"\]\]>", "declaration": ">"}


def _html_after(html: frozenset[str], line: str) -> frozenset[str]:
    """The ends the HTML blocks that may be open after `line` wait for (`html` before it): a block ends at a line that
    holds its end (a blank line for `""`), and one may start at the line, ending there too or not."""
    blank = not line.strip(" \t\r")
    left = {end for end in html if not (blank if end == "" else re.search(end, line, re.IGNORECASE))}
    start = _html_start().match(line)
    if start:
        end = _html_ends().get(start.lastgroup, "")
        if end == "" or not re.search(end, line[start.end() :], re.IGNORECASE):
            left.add(end)
    return frozenset(left)


class Fence(NamedTuple):
    """A code fence open, as one reading of the lines so far takes it: its character and length, the block quotes it
    is in, the column of its block's text (a list item's, or 0), and whether a line since left its block quote or list
    item (markdown ends the fence there; read as still open, and the next fence line opens another)."""

    char: str
    length: int
    quotes: int
    column: int
    left: bool = False


READINGS = 16  # readings of the fences kept at most (those with a fence open first)


def _start(line: str, quotes: int | None = None) -> tuple[int, int]:
    """The block quotes a line is in, and the column its text starts at inside them (inside its first `quotes` only,
    where given: a `>` left of a list item's text leaves the item). Columns are CommonMark's: a tab goes on to the
    next multiple of four from the line's start, and the one space a `>` may take after it is a column of a tab's."""
    end = _LINE_START.match(line).end("quotes")
    count = line[:end].count(">")
    if quotes is not None and count > quotes:
        end = [at for at, char in enumerate(line[:end]) if char == ">"][quotes - 1] + 1 if quotes else 0
        count = quotes
    spaces = len(line) - end - len(line[end:].lstrip(" \t"))
    inside = _width(line[: end + spaces]) - _width(line[:end])
    return count, inside - 1 if count and spaces else inside


def _width(text: str) -> int:
    """The columns `text` takes from a line's start (tab stops every four columns)."""
    return len(text.expandtabs(4))


def _quoted_blank(line: str) -> bool:
    """Whether `line` is blank in its block quotes (`>`, `> `): no paragraph's text goes on after it."""
    return _LINE_START.fullmatch(line.rstrip("\r")) is not None


def _opened(line: re.Match[str], listed: bool) -> tuple[Fence | None, ...]:
    """The readings of a fence line (`_FENCE`) outside a fence: it opens one in the list item its mark starts; with no
    mark, indented, it may be in a list item's text at its own column, or at the top level, where four spaces in make
    it an indented code block's text, no fence (`listed`: a list item may be open, so it is in that item's text)."""
    quotes, lead = _start(line[0])
    char, length = line["run"][0], len(line["run"])
    if line["items"].strip():
        return (Fence(char, length, quotes, lead + _width(line["items"].lstrip(" \t"))),)
    if lead >= 4:
        return (Fence(char, length, quotes, lead) if listed else None,)
    return (
        (Fence(char, length, quotes, 0), Fence(char, length, quotes, lead))
        if lead
        else (Fence(char, length, quotes, 0),)
    )


def _fence_after(fence: Fence | None, line: str, cut: bool, listed: bool, html: bool) -> tuple[Fence | None, ...]:
    """The readings after `line` (`cut`: only its start was kept) of one where `fence` was open before it (`listed`: a
    list item may be open; `html`: an HTML block may be): a fence closes only at a run of its character at least as
    long, with no info string, in its block quotes and block (up to three spaces in); a fence line out of them, or
    after a line that left them, ends it and opens another, or is an HTML block's text. Any other fence line inside a
    fence is its text; a fence line outside one opens one, or is an HTML block's text."""
    match = _FENCE.fullmatch(line)
    opened = () if match is None else _opened(match, listed) + ((None,) if html else ())
    if fence is None:
        return opened or (None,)
    quotes, lead = _start(line)
    out = quotes < fence.quotes or (_start(line, fence.quotes)[1] < fence.column and line.strip(" \t\r") != "")
    if match is None:
        return (fence._replace(left=True) if out else fence,)
    if out or fence.left:
        return opened
    closes = match["run"][0] == fence.char and len(match["run"]) >= fence.length and not (match["info"].strip() or cut)
    inside = quotes == fence.quotes and not match["items"].strip() and lead <= fence.column + 3
    return (None,) if closes and inside else (fence,)


class Fences(NamedTuple):
    """What the lines read so far leave open: the fence in each reading (None: none), whether a list item may be open
    (a list mark read, and no line since that leaves it: `_leaves_items`), whether the last line was blank (or none
    was read), whether an indented code block is open, what ends each HTML block that may be open (`_html_after`), the
    block quotes of the last line if it was a paragraph's, which an indented line in as many or fewer goes on (-1: it
    was not), and whether a list item may be open only as a line that may have been a fence's or an HTML block's
    text."""

    readings: tuple[Fence | None, ...] = (None,)
    listed: bool = False
    after_blank: bool = True
    indented: bool = False
    html: frozenset[str] = frozenset()
    paragraph: int = -1
    listed_unsure: bool = False

    def after(self, line: str, cut: bool) -> Fences:
        """What is open after `line` (`cut`: only its start was kept)."""
        readings, read = self.readings, line.rstrip("\r")
        if readings != (None,) or _FENCE_BEGUN.match(line):
            found = [after for fence in readings for after in _fence_after(fence, read, cut, self.listed, self.html)]
            readings = tuple(sorted(set(found), key=lambda fence: (fence is None, found.index(fence)))[:READINGS])
        blank = not line.strip(" \t\r")
        indented = readings == (None,) and (blank and self.indented or not blank and self._indents(line))
        listed, listed_unsure = self._items_after(line, read, blank)
        html = _html_after(self.html, line)
        fenced = readings != (None,) or self.readings != (None,) or _FENCE.fullmatch(read)
        block = blank or _quoted_blank(line) or indented or fenced or self.html or _html_start().match(line)
        block = block or _NO_PARAGRAPH.match(line)
        # a block quote indented where a list item may be open may be in the item's text, and a `>` less far in
        # another quote, which no line of the paragraph goes on: as if in none (`1.\n   > x\n>     code`)
        paragraph = -1 if block else 0 if listed and line[:1] in " \t" else _start(line)[0]
        return Fences(readings, listed, blank, indented, html, paragraph, listed_unsure)

    def _items_after(self, line: str, read: str, blank: bool) -> tuple[bool, bool]:
        """Whether a list item may be open after `line`, and whether only maybe (`listed_unsure`)."""
        if _ITEM.match(line) and not _BREAK.match(read):
            # a mark with no text after it may be a setext heading's underline (`text\n-`), and a blank line ends
            # such an item; a number other than 1 right after a line is a paragraph's text (`?>\n10. x`): the next
            # lines may be in no item
            empty = _ITEM.fullmatch(read.rstrip(" \t")) is not None
            lazy = not self.after_blank and _NOT_ONE.match(line) is not None
            return True, self.listed_unsure or empty or lazy or bool(self.html) or self.readings != (None,)
        if not self.listed or blank:
            return self.listed, self.listed_unsure
        leaves = self._leaves_items(line, read)
        # a line left of a fence's text leaves the list item the fence is in (no fence's line goes on lazily)
        left = any(fence and fence.column and _start(read, fence.quotes)[1] < fence.column for fence in self.readings)
        return (False, False) if leaves else (True, self.listed_unsure or leaves is None or left)

    def _leaves_items(self, line: str, read: str) -> bool | None:
        """Whether `line` (not blank, no list item's first line) is in no list item: less than two columns in, after a
        blank line, or a line no paragraph goes on (a block quote, a fence line, a heading, a break): no list item's
        text lazily takes it. None: it may be (such a line two or more columns in, left of a wide item's text:
        `10. x\n   ````; after a line that is no paragraph's, or may be a fence's text; an HTML block's start:
        CommonMark's seventh kind, `</script>` or `<span>`, goes on a paragraph, the others end it)."""
        block = line.lstrip(" \t")[:1] == ">" or _FENCE.fullmatch(read) or _NO_PARAGRAPH.match(line)
        if _width(line[: len(line) - len(line.lstrip(" \t"))]) >= 2:
            return None if block or self.after_blank else False
        if self.after_blank or block:
            return True
        return None if self.paragraph < 0 or _html_start().match(line) else False

    def _indents(self, line: str) -> bool:
        """Whether `line` (or its start) is an indented code block's, after the lines read: four columns in, where one
        is open or may open (after a blank line or a line that is no paragraph's, outside a fence and a list item)."""
        quotes, column = _start(line)
        in_item = self.listed and not self.listed_unsure and not quotes  # a `>` may leave the item: fail closed
        opens = (self.after_blank or not 0 <= quotes <= self.paragraph) and not in_item
        return (self.indented or opens) and column >= 4

    def open(self, line: str) -> bool:
        """Whether a fence or an indented code block is open after the lines read, or `line`, read so far of the
        next, begins one."""
        return self.readings != (None,) or _FENCE_BEGUN.match(line) is not None or self._indents(line)
