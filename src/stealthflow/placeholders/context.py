"""Where a placeholder stands in a reply: in plain prose ("text"), where a guarded value is filled in, or where a
renderer, a client or an agent could send it away: in a link, markup or a command ("url"), or in JSON or code
("tool"). The decision fails closed. A placeholder is "text" only when

1. it stands apart: between it and the white space on either side there is nothing but sentence punctuation and
   quotation marks (`OPENING` before it, `CLOSING` after it), and the line before it does not end in `=` (code assigns
   there) nor leave a function call open (`_in_call`), so `<URL_1><API_KEY_1>`, `q=<IBAN_1>`, `mailto:<IBAN_1>@x`,
   `<IBAN_1>.evil.com`, `key = "<API_KEY_1>"` and `set_key( "<API_KEY_1>" )` are not ("glued"), but `„<IBAN_1>“`,
   `«<IBAN_1>»` and `"<IBAN_1>"` in a sentence are;
2. its paragraph up to it (the text since the last blank line: no markdown or HTML link, tag or definition runs over
   one) holds no mark of a link, markup or command: `//`, `:/`, `/\\`, `\\\\`, `www.`, `mailto:`, a host with a path
   (`evil.com/`), `](`, `]:`, `url(`, `image-set(`, `@import`, an HTML tag, a command of data/link_commands.txt
   ("url"); nor a `{`, nor a `[` or a call's `(` with a string in it (`[1, "<EMAIL_1>"]`, `f(x, "<EMAIL_1>")`:
   `_quote`), and it is not a list item's quoted value (`- "<API_KEY_1>"`) ("tool");
3. no HTML code tag is open (data/code_tags.txt: `<pre>`, `<code>`, to an end tag of its name, blank lines
   included), nor a code fence (``` or ~~~) or an indented code block as markdown reads one (`fences`: in block quotes
   and list items too, closed only by a run of its character at least as long with no info string, in its block;
   where markdown's reading depends on a container or an HTML block the reader does not keep, a fence open in any
   reading counts; a line ends at `\n`, `\r` or both), and no tool call written in text is open or was in its
   paragraph ("tool"): from a mark (data/text_tool_calls.yaml, anywhere, in any case, with white space and a number
   between its words and signs or not: `<tool_call>`, `< Tool_Call\n>`, ReAct's `Action Input:`, `Action 1\nInput
   1:`) to an end's mark of its own dialect written as the dialect writes it (`</tool_call>`, not `</TOOL_CALL>`;
   `</function>` closes no `<tool_call>`) or the reply's end, blank lines included (ReAct's `Action Input:` has none:
   a ReAct parser takes an action's input to the reply's end, past an `Observation:`); after a chat template's
   end-of-message token (`<|eom_id|>`) to the reply's end. A JSON object or array counts by its `{` or `[` (2.) to its
   closing `}` or `]`, counted outside JSON strings (`"…"`, and `'…'` glued to no word but a word of code: `'`,
   `+ '`, `r'`, `not'`, not `it's`; a quote after an odd run of backslashes, however long, is escaped): a blank line
   inside a string, after a key waiting for its value, or before a paragraph that is not prose (`_json_goes_on`:
   `NaN,`, `true, false`, `for n in` or `# comment` goes on as lenient readers read JSON) does not end it; one before a
   paragraph of prose does, so a `{` left open in prose (":-{", "a dict starts with {") does not make code of the
   paragraphs after it. A closing fence
   closes the JSON it holds when that JSON is balanced and outside a string; a fence line, opening or closing, inside
   a JSON string or object left open is part of it, as a JSON parser of markdown reads it: after a fence the paragraph
   is what it was where the fence opened, with the marks read in the fence that no fence closes (a link's, a tool
   call's, an HTML code tag), so "Thanks <REAL_NAME_1>!" on the line after a JSON block is prose.

Code (`in_code`: a code fence, a `{`, a list of strings or a call's quoted argument in the paragraph, a tool call
written in text) is what an agent may run with no click: no value is restored there by default (`scope.IN_CODE`),
whatever its type.

The reply is read once, in order, as it is shown (`Surroundings.feed`): a value restored before a placeholder is read
as that value. The work is linear in the reply's length; a streamed reply's pieces are read together, when a
placeholder comes (`links.Deferred`).

Measured on the 61 hostile replies of a read-only review (written from its attacks, not from these rules; the command
in docs/security.md): a guarded value filled in 37 -> 5 times, the 3 prose replies among the 5.
"""

from __future__ import annotations

import copy
import re
from functools import cache

import regex

from stealthflow.placeholders.fences import Fences
from stealthflow.placeholders.links import BARE_URL, CSS_LOADS, HOLD, HOST_RUN, URL_END, Deferred, Links, tag_open
from stealthflow.resources import data_yaml, listed_words, resource_dir

# Quotation marks of the seven languages: "…", '…', “…”, ‘…’, „…“, ‚…‘, «…», »…«, ‹…›
QUOTES = "\"'\u201c\u201d\u2018\u2019\u201e\u201a\u00ab\u00bb\u2039\u203a"
OPENING = "(*_`" + QUOTES  # what may stand between white space and a placeholder in prose
CLOSING = ".,;:!?)*_`" + QUOTES  # and between a placeholder and white space
# characters kept of what was read (a mark cut across two pieces; a longer run without a space is glued), and read
# after a placeholder (`Links.kind`: a `mailto:` query within them)
TAIL = HOLD


@cache
def _events() -> re.Pattern[str]:
    """The marks read in a reply: a line's end (`\\n`, `\\r` or both, as CommonMark reads one: a code fence's line, a
    blank line), a tool call's mark or its end's, the marks of a link, markup or command (a `](` or `]:` closes a
    bracket too), and a `{`, `}`, `[`, `]`, `(`, `)` or a quote (the depth of a JSON object, an array or a call's
    arguments), in that order where two start at one character (`[TOOL_CALLS]`, `](`)."""
    words = sorted(listed_words(resource_dir("data") / "link_commands.txt"))
    commands = "|".join(re.escape(word) for word in words)
    # A command is tried only at a word that starts with a command's first letter: the same matches, in ~25 % less
    # time on prose (a reply's text is read as it streams, its last `TAIL` characters again with each piece).
    firsts = "".join(sorted({re.escape(word[0]) for word in words}))
    url = rf"{BARE_URL}|\]\(|\]:|{CSS_LOADS}|{tag_open()}|\b(?=[{firsts}])(?:{commands})\b"
    marks = [*_marks(opening=True).items(), *_marks(opening=False).items()]
    calls = "|".join(pattern for _, pattern in sorted(marks, key=lambda mark: len(mark[0]), reverse=True))
    tags = "|".join(re.escape(tag) for tag in sorted(listed_words(resource_dir("data") / "code_tags.txt")))
    return re.compile(
        rf"(?P<eol>{LINE_END})|(?P<call>{calls})|(?P<tag><(?P<closes>/?)(?P<name>{tags})(?![\w-]))|(?P<url>{url})"
        rf"|(?P<json>[{{}}\[\]\"'()])",
        re.IGNORECASE | re.MULTILINE,
    )


LINE_END = r"\r|\n"  # a `\n` right after a `\r` ends no line of its own (`_line_ended`)
_LINE_ENDS = re.compile(LINE_END)


def _opening_pattern(mark: str) -> str:
    """A tool call's mark as read: in any case (`_events`), anywhere (LangChain's ReAct parser finds `MyAction Input:`),
    with white space (line ends too) and a number between its words and signs or not, as that parser reads
    `Action\\s*\\d*\\s*Input\\s*\\d*\\s*:` (`Action  Input:`, `ActionInput:`, `Action\\nInput:`, `Action 1 Input 1:`)
    and XML `<tool_call\\n>`: as many such characters in a gap as keep the mark within `TAIL` (a mark cut across two
    pieces of a stream is read whole: tests/test_restore_code.py), and a longer run after a word reads as the mark too
    (it may yet become one: fail closed)."""
    pieces = re.findall(r"\w+|[^\w\s]", mark)
    width = (TAIL - len("".join(pieces))) // (len(pieces) - 1)
    gap, escaped = rf"[\s\d]{{0,{width}}}", [re.escape(piece) for piece in pieces]
    longer = [
        gap.join(escaped[: at + 1]) + rf"[\s\d]{{{width + 1}}}"
        for at, piece in enumerate(pieces[:-1])
        if re.fullmatch(r"\w+", piece)
    ]
    return "|".join([gap.join(escaped), *longer])


def _mark_key(text: str) -> str:
    """An opening mark's text as `_dialects` keeps it: in lowercase, with no white space (`<| IM_END |>` is
    `<|im_end|>`)."""
    return "".join(text.lower().split())


@cache
def _marks(opening: bool) -> dict[str, str]:
    """The opening marks (`opening`, each as `_mark_key` keeps it) or the end's marks of data/text_tool_calls.yaml,
    with the pattern each is read by: an end's mark only exactly as the dialect writes it, as a parser that ends the
    call matches it (`</TOOL_CALL>`, `< /tool_call >` or `</invo\u212ae>` with the Kelvin sign end no `<tool_call>`
    for it: more is code)."""
    listed = data_yaml("text_tool_calls.yaml")
    if opening:
        return {_mark_key(mark): f"(?:{_opening_pattern(mark)})" for mark in listed}
    return {end: f"(?-i:{re.escape(end)})" for ends in listed.values() for end in ends}


def _mark_read(text: str, opening: bool) -> str | None:
    """The opening mark (`opening`) or end's mark `text` reads as (as `_marks` keeps it), or None."""
    found = (key for key, pattern in _marks(opening).items() if re.fullmatch(pattern, text, re.IGNORECASE))
    return next(found, None)


@cache
def _dialects() -> dict[str, frozenset[str]]:
    """Each mark of a tool call written in text (data/text_tool_calls.yaml), as `_mark_key` keeps it, with its end's
    marks as written."""
    listed = data_yaml("text_tool_calls.yaml")
    return {_mark_key(mark): frozenset(ends) for mark, ends in listed.items()}


WORD_CAP = 16  # letters read of a word before a quote: longer, it is no word of code
CALLS_CAP = 64  # tool calls kept open at most: past them the reply is code to its end (the work stays linear)
STRING_PREFIX = "[rRbBfFuUtT]{0,2}"  # a Python string's prefix: `r'`, `b'`, `f'`, `rb'`, `u"`, `t'` or none


# How a paragraph after a blank line inside a JSON object opens when it is prose, and the object was a stray `{`
# (":-{", "a dict starts with {"): two words of letters in a row on its first line (`Anyway, I`; the second may be a
# placeholder: `Thanks <REAL_NAME_1>`), in a list item or block quote too, or a backtick fence. No lenient reader of
# JSON goes on so; Python's `json` (`NaN`, `-Infinity`), `ast.literal_eval` (`True`, `None`, `# comments`) and JSON5
# (`+1`, `.5`, `0x1F`, `// comments`, `key:`) read other starts (rev25 H2), so any other start keeps the object open
# (fail closed). A first word that is a string's prefix and its quote (`r'Thanks, Ann'`) is a string, not a word with
# an apostrophe (secfix26b: rev26's literal_fuzz.py, seed 1, restored one literal so). A word of code
# (data/code_words.yaml: a word JSON, Python or JSON5 reads as a value, `true, false`, `None, True`, or a keyword of
# Python or JavaScript, `for n in`, `x if y else`, `not`) is no word of prose, first or second, so the second word is
# read whole (rev27 M1: its json_fuzz.py, seeds 1-4 and 5-8, 400 objects each, restored 1, 1, 4, 3 and 6, 5, 0, 4
# values so; 0 since; rev27b M1: `json={n: 0\n\nfor n in ("<REAL_NAME_3>",)}` restored its value before the keywords).
# A keyword second after a capitalized word is prose (`Looking for`, `This is`, `How do`): of the 400 ordinary replies
# of tests/test_restore_reader.py after ":-{", 383 come back exact so, 349 with it code (a capitalized name before a
# keyword, `[Name\n\nfor Name in ...]`, is read as prose: a known gap).
_PROSE = regex.compile(
    rf"\s*(?:(?:[-*+>]|\d{{1,9}}[.)])[ \t]+)?(?!{STRING_PREFIX}')"
    r"(?P<first>\p{L}+(?:['\u2019]\p{L}+)*)[,;.!?]?[ \t]+(?:<[A-Z]|(?P<second>\p{L}+)\P{L})|\s*`{3}",
    regex.DOTALL,
)
LINE_CAP = 4096  # characters of a line kept: a longer line is no closing fence
GOES_ON_CAP = 64  # characters after the blank line read to decide; still undecided, the object goes on


def _json_goes_on(start: str) -> bool | None:
    """Whether a JSON object left open before a blank line goes on in the paragraph that opens with `start`: unless it
    is prose (`_PROSE`); None while `start` may still become prose."""
    match = _PROSE.match(start, partial=True)
    if match is None or (match.partial and len(start) >= GOES_ON_CAP):
        return True
    if match.partial:
        return None
    first, second = match.group("first", "second")
    if first is None:  # a backtick fence
        return False
    return _code_word(first) or (second is not None and _code_word(second, keyword=not first[0].isupper()))


def _code_word(word: str, keyword: bool = True) -> bool:
    """Whether `word` is a word of code (data/code_words.yaml): a value in any case (`TRUE`), or (`keyword`) a keyword
    as written."""
    values, keywords = _code_words()
    return word.lower() in values or (keyword and word in keywords)


@cache
def _code_words() -> tuple[frozenset[str], frozenset[str]]:
    """The values (in lowercase) and keywords of data/code_words.yaml."""
    listed = data_yaml("code_words.yaml")
    return frozenset(word.lower() for word in listed["values"]), frozenset(listed["keywords"])


# A list item's line up to a quoted value (YAML's `- "<API_KEY_1>"`, in a block quote too): data, as in a list.
# Where a Python or JavaScript string opens with a `'` inside JSON, an array or a call: not glued to a letter or digit
# before it (`it's`, `users'`), a string's prefix aside (`r'`, `b'`, `f'`, `rb'`), so after an operator or a string too
# (`x + ')'`, `'x' ')'`: rev27 L4, where only a `'` after `{`, `[`, `(`, `,`, `:` or `=` opened one, and a `)` inside it
# closed the call). On 1 200 valid Python calls, lists and dicts with such strings and blank lines (secfix27's
# op_fuzz.py, seeds 1-3, written after this rule) a value was restored 162 -> 15 times, 2 since keywords are code
# (rev27b M1); the 2 open a paragraph with two names (`x, to=`), which `_PROSE` reads as words. Glued to a word of code too
# (data/code_words.yaml: `not')'`, `void')'`, `typeof')'`, the only words Python or JavaScript reads a string glued
# to: rev27b M2, where the `)` in it closed the call), unless a letter follows it (`let's`, `do's`: an apostrophe).
_OPENS_STRING = re.compile(rf"(?<!\w){STRING_PREFIX}\Z")
_WORD_BEFORE = re.compile(r"(?<!\w)[^\W\d_]+\Z")
_QUOTED_ITEM = re.compile(r"(?:[ \t]*>)*[ \t]*[-*+][ \t]+[\"']")
_OPEN_QUERY = re.compile(rf"\?(?:(?!{URL_END}).)*")
_IN_LINK = re.compile(r"[^)\"'<>]*")  # what follows an address in a link's target or a tag before its end


class Surroundings(Deferred):
    """What the text taken so far makes of a placeholder that comes next (`place`, `url`)."""

    def __init__(self) -> None:
        super().__init__()
        self.paragraph: str | None = None  # "url" or "tool" once a mark is read in the paragraph
        self.code_paragraph = False  # a `{` or a tool call's mark read in the paragraph
        self.fences = Fences()  # the code fences the lines read leave open
        # while a fence is open: `paragraph` and `code_paragraph` as its JSON leaves them, restored where it closes
        self.outside_fence: tuple[str | None, bool] | None = None
        # the marks of the tool calls open (read outside JSON strings, not closed by their end's mark yet, at most
        # `CALLS_CAP`): no blank line ends the code
        self.calls: tuple[str, ...] = ()
        self.to_end = False  # a mark read that makes the rest of the reply code (a call with no end, or too many)
        # HTML code tags open, by name (data/code_tags.txt: `<pre>`, `<code>`): no blank line ends the code
        self.tags: dict[str, int] = {}  # replaced, never changed in place (`joined` copies it with the reader)
        self.depth = 0  # JSON objects, arrays and calls' arguments open: `{`, `[`, `(` less `}`, `]`, `)` (`_nest`)
        self.parens = 0  # of them, the `(` open (a `)` closes no `{`)
        self.string = ""  # the quote of the JSON string read inside (a `"` or `'` read inside an object or array:
        # `_quote`), tripled in a Python triple-quoted string, doubled until it is known, or ""
        self.apostrophe = False  # a `'` glued to a word of code opened `self.string`: a letter next makes it an
        # apostrophe (`_opens`)
        self.quotes = 0  # in a string: its unescaped quotes read last in a row (-1: nothing read in it yet)
        self.last = ""  # the last three characters read that are not white space
        self.goes_on: str | None = None  # after a blank line inside an object: the paragraph's start, until it decides
        self.line = ""  # the line read so far (its first `LINE_CAP` characters)
        self.tail = ""  # the last `TAIL` characters read
        self.escaping = False  # what was read ends in an odd run of backslashes: the next character is escaped
        self.links = Links()  # which kind of URL, if any, the text read leaves open

    def _read(self, piece: str) -> None:
        """Read `piece`, the text that follows what was read (the marks read before it are not read again)."""
        text = self.tail + piece
        line_from = read_to = len(self.tail)  # where the line's text and a paragraph's start go on from
        for match in _events().finditer(text):
            if match.end() <= len(self.tail):
                continue
            self._went_on(text[read_to : match.end()])
            self._between(text[read_to : match.start()])
            if match.lastgroup != "json":
                self._between(match[0])
            read_to = match.end()
            kind = match.lastgroup
            if kind == "eol":
                line_from = self._line_ended(text, match, line_from)
            elif kind == "json":
                escaped = _escaped(text, match.start(), len(self.tail), self.escaping)
                self._json(match[0], escaped, call=_calls(text, match.start()), opens=_opens(text, match.start()))
            elif kind == "call":
                for eol in _LINE_ENDS.finditer(text, max(line_from, match.start()), match.end()):  # `Action\nInput:`
                    line_from = self._line_ended(text, eol, line_from)
                self._call(match[0])
            elif kind == "tag":
                self._tag(match["name"].lower(), closes=bool(match["closes"]))
            else:
                self._link()
                if match[0].startswith("]"):
                    self._json("]", escaped=False)
                if match[0].endswith("("):  # `](`, `url(`: `f([a](b), "<EMAIL_1>")` calls a list
                    self._json("(", escaped=False, call=_calls(text, match.end() - 1))
        self._went_on(text[read_to:])
        self._between(text[read_to:])
        self.line = (self.line + text[line_from:])[:LINE_CAP]
        self.escaping = _escaped(text, len(text), len(self.tail), self.escaping)
        self.tail = text[-TAIL:]
        self.links.feed(piece)

    def _call(self, text: str) -> None:
        """A tool call's mark or an end's as read (`text`; data/text_tool_calls.yaml): an end's mark written as its
        dialect writes it (`_marks`), outside a JSON string, closes the last call open of a dialect it ends, and a
        call's mark opens one and makes code of its paragraph, in a string too (a client that reads marks out of text
        reads no JSON: `{"a": "<|eom_id|>"}` ends the message for it); either mark may be both (`<|eom_id|>`). Where
        the readings differ, more is code."""
        end = _mark_read(text, opening=False)
        if end and not self.string:
            for at in range(len(self.calls) - 1, -1, -1):
                if end in _dialects()[self.calls[at]]:
                    self.calls = self.calls[:at] + self.calls[at + 1 :]
                    break
        mark = _mark_read(text, opening=True)
        if mark:
            if _dialects()[mark] and len(self.calls) < CALLS_CAP:
                self.calls += (mark,)
            else:
                self.to_end = True
            self._code(lasting=True)

    def _line_ended(self, text: str, eol: re.Match[str], line_from: int) -> int:
        """A line end read (`eol` in `text`, the line from `line_from` on, after `self.line`): where the next line
        starts. A `\\n` right after a `\\r` is that line end's second half, as CommonMark reads `\\r\\n`."""
        if not (eol[0] == "\n" and text[eol.start() - 1 : eol.start()] == "\r"):
            self._line_end(self.line + text[line_from : eol.start()])
        return eol.end()

    def _tag(self, name: str, closes: bool) -> None:
        """An HTML code tag (`name`, in lowercase): its end tag closes one of its name only (`</code>` no `<pre>`)."""
        self.tags = {**self.tags, name: max(self.tags.get(name, 0) - 1, 0) if closes else self.tags.get(name, 0) + 1}
        self._code(lasting=True)

    def _lasting(self) -> bool:
        """Whether a tool call or an HTML code tag is open: no blank line ends the code."""
        return bool(self.calls) or self.to_end or any(self.tags.values())

    def _json(self, char: str, escaped: bool, call: bool = False, opens: bool | None = False) -> None:
        """A `{`, `}`, `[`, `]`, `(`, `)` or a quote (`escaped`: after an odd number of backslashes; `opens`: whether a
        `'` there opens a string, `_opens`): the depth of JSON objects, arrays and a call's arguments, outside their
        strings: a `(` counts where it opens a call's arguments (`call`: a name glued to it) or inside one of them, so "call me (at
        <EMAIL_1>)" opens nothing. A `{` makes code of its paragraph; a `[` or a call's `(` does where a string opens
        inside it (`_quote`), so a `[1]`, `[link](...)` or "See f(x) for" in prose does not."""
        self._between(char)
        if char in "\"'":
            self._quote(char, escaped, opens)
        elif not self.string:
            self._nest(char, call)
        if char == "{":
            self._code()

    def _nest(self, char: str, call: bool) -> None:
        """A `{`, `[`, `(`, `}`, `]` or `)` read outside strings (`call`: a name glued to the `(`): the depth. A `(`
        counts where it opens a call's arguments or inside JSON or a call, and a `)` only where a `(` is open, so a
        stray one (`{)`) closes no object."""
        if (char == "(" and not (call or self.depth)) or (char == ")" and not self.parens):
            return
        self.depth = self.depth + 1 if char in "{[(" else max(self.depth - 1, 0)
        self.parens = min(self.parens + (char == "(") - (char == ")"), self.depth)

    def _quote(self, char: str, escaped: bool, opens: bool | None) -> None:
        """A quote read (`escaped`: after an odd number of backslashes; `opens`: whether a `'` there opens a string,
        None: unless a letter follows it, `_apostrophe`).
        Two in a row open an empty string or a triple-quoted one (`self.string` holds both until the next character
        decides: `_between`); a triple-quoted string spans lines and blank lines, and only three of its quotes in a row
        close it, as Python reads `'''...'''` (rev25b M1). A string that opens inside an array or a call's arguments
        makes code of the paragraph, whatever comes before it there (`[1, "<EMAIL_1>"]`, `send_email([], "<EMAIL_1>")`,
        `f(x + "<EMAIL_1>")`: rev26 M1 and secfix26b, where only a quoted first item of an array made code)."""
        if self.string == char * 3:
            self.quotes = 0 if escaped else self.quotes + 1
            self.string = "" if self.quotes == 3 else self.string
        elif self.string == char * 2:  # its quotes are counted from here: `u''''''` is empty and closed
            self.string, self.quotes = char * 3, 0
        elif self.string == char and not escaped:
            self.string = char * 2 if self.quotes < 0 else ""
        elif not (self.string or escaped) and self.depth and (char == '"' or opens is not False):
            self.string, self.quotes, self.apostrophe = char, -1, char == "'" and opens is None
            if not self.apostrophe:
                self._code()

    def _apostrophe(self, letter: bool) -> None:
        """What follows a `'` glued to a word of code that opened a string (`self.apostrophe`) is read: a `letter` makes
        it an apostrophe (`let's`), which opens nothing; anything else (`not')'`, a placeholder) leaves the string open
        and makes code of its paragraph."""
        self.apostrophe = False
        if letter:
            self.string, self.quotes = "", 0
        else:
            self._code()

    def _between(self, read: str) -> None:
        """`read` was read outside any mark, or is a mark's text: the last characters that are not white space, and
        whether two quotes read were an empty string (`_quote`), or a `'` an apostrophe (`_apostrophe`)."""
        if read and self.apostrophe:
            self._apostrophe(read[0].isalpha())
        if read and read != self.string[:1]:
            self.string = "" if len(self.string) == 2 else self.string
            self.quotes = 0
        self.last = (self.last + "".join(read.split()))[-3:]

    def _code(self, lasting: bool = False) -> None:
        """A mark of code read: a JSON `{` or list of strings, or (`lasting`) a tool call's mark or an HTML code tag,
        which a closing fence does not close (a client that reads them reads no markdown)."""
        self.paragraph, self.code_paragraph = self.paragraph or "tool", True
        if lasting and self.outside_fence is not None:
            self.outside_fence = (self.outside_fence[0] or "tool", True)

    def _link(self) -> None:
        """A mark of a link, markup or command read: its paragraph is "url", after a closing fence too (fail closed)."""
        self.paragraph = "url"
        if self.outside_fence is not None:
            self.outside_fence = ("url", self.outside_fence[1])

    def _line_end(self, line: str) -> None:
        """A line ends: a blank one ends the paragraph, but not a tool call before its end's mark, a JSON string, or a
        JSON object that goes on in the next paragraph (`_went_on`)."""
        self.line = ""
        fences = self.fences.after(line, cut=len(line) >= LINE_CAP)
        if fences.readings != self.fences.readings:
            self._fence_changed(opened=self.fences.readings == (None,), closed=fences.readings == (None,))
        self.fences = fences
        if not fences.after_blank:
            return
        if self._lasting() or self.string or self.depth:
            self.paragraph, self.code_paragraph = "tool", True
            # a key waiting for its value (`"memo":`) goes on whatever follows (YAML reads `for the record` there)
            self.goes_on = "" if not (self._lasting() or self.string or self.last[-1:] == ":") else None
        else:
            self.paragraph, self.code_paragraph = None, False
            self.outside_fence = None if self.outside_fence is None else (None, False)

    def _fence_changed(self, opened: bool, closed: bool) -> None:
        """A fence opened (in some reading, none open before) or closed (in every reading): no JSON goes on across it,
        and a closed fence closes the JSON it holds, so the paragraph is again what it was where the fence opened, less
        what a blank line in the fence ended, plus the marks read in it that a fence does not close (`_code`, `_link`).
        But a fence line, opening or closing, inside a JSON string or object left open is part of it, as a JSON parser
        of markdown reads it (LangChain's `parse_json_markdown` takes ```` ```json\n{"to": "\n```\n<EMAIL_1>"}\n``` ````
        and `{"code": "\n```\nx\n```\n\n<EMAIL_1>"}` as one string): the JSON and its paragraph's code go on after
        it (rev24b M1, rev25 H1)."""
        if self.depth or self.string:
            self.outside_fence = None
            return
        if opened:
            self.outside_fence = (self.paragraph, self.code_paragraph)
        elif closed and self.outside_fence is not None:
            self.paragraph, self.code_paragraph = self.outside_fence
            self.outside_fence = None

    def _in_fence(self) -> bool:
        """Whether a code fence is open after what was read, or the line read so far begins one."""
        return self.fences.open(self.line)

    def _in_data(self) -> bool:
        """Whether a code fence is open, or the line read so far begins one or is a list item's quoted value."""
        return self._in_fence() or _QUOTED_ITEM.fullmatch(self.line) is not None

    def _went_on(self, read: str) -> None:
        """`read` follows a blank line inside a JSON object: once the paragraph's start says it is prose, the object
        was a stray `{` and the paragraph is prose."""
        if self.goes_on is None or not read:
            return
        self.goes_on = (self.goes_on + read)[:GOES_ON_CAP]
        decided = _json_goes_on(self.goes_on)
        if decided is False:
            self.depth, self.parens, self.string, self.code_paragraph, self.apostrophe = 0, 0, "", False, False
            self.paragraph = None if self.paragraph == "tool" else self.paragraph
        if decided is not None:
            self.goes_on = None

    def _placeholder_next(self) -> None:
        """What was taken is read, and a placeholder follows it: after a blank line inside a JSON object, a placeholder
        is read as a word would be (its `<` and a capital), so `Thanks, <REAL_NAME_1>!` is prose (it decides)."""
        self._catch_up()
        if self.apostrophe:
            self._apostrophe(letter=False)
        if self.goes_on is not None:
            self._went_on("<A")

    def place(self, after: str) -> str:
        """ "url", "tool", "glued" or "text" for a placeholder after what was taken, `after` the text that follows it."""
        self._placeholder_next()
        if self.paragraph == "url":
            return "url"
        if self.paragraph or self._in_data():
            return "tool"
        return "text" if self._apart_before() and _apart_after(after) else "glued"

    def in_code(self) -> bool:
        """Whether a placeholder after what was taken is in code an agent may run: a code fence, a
        paragraph with a `{` or a tool call's mark (place "tool" or "url", never "text")."""
        self._placeholder_next()
        return self._in_data() or self.code_paragraph

    def url(self, after: str) -> str:
        """ "load", "click", "mailto" or "" (`Links.kind`): the URL a placeholder after what was read stands in,
        `after` the text that follows it."""
        self._catch_up()
        return self.links.kind(self.tail, after)

    def joined(self, piece: str) -> Surroundings:
        """A copy that has taken `piece` too."""
        self._catch_up()
        other = copy.copy(self)
        other.links = copy.deepcopy(self.links)
        other.taken = []
        other.feed(piece)
        return other

    def _apart_before(self) -> bool:
        run = re.split(r"\s", self.tail)[-1]
        line = self.tail[: len(self.tail) - len(run)].rsplit("\n", 1)[-1]
        apart = len(run) < TAIL and all(ch in OPENING for ch in run) and not line.rstrip().endswith("=")
        return apart and not self._in_call()

    def _in_call(self) -> bool:
        """Whether the line read so far leaves a function call's arguments open: `set_key( "` (a name glued to its
        `(`, no parenthesis after it); "Your card (" is prose."""
        at = max(self.line.rfind("("), self.line.rfind(")"))
        return at > 0 and self.line[at] == "(" and _calls(self.line, at)


def _calls(text: str, at: int) -> bool:
    """Whether the `(` at `at` in `text` opens a call's arguments: a name is glued to it (`f(`, `send_email(`)."""
    return at > 0 and (text[at - 1].isalnum() or text[at - 1] == "_")


def _opens(text: str, at: int) -> bool | None:
    """Whether a `'` at `at` in `text` opens a string inside JSON, an array or a call (`_OPENS_STRING`): True where it
    is glued to no word, a string's prefix aside (`r'`), False where it is glued to a word that is no word of code
    (`users'`), None where it is glued to a word of code (`not'`, `let'`): a string's unless a letter follows it."""
    if _OPENS_STRING.search(text, max(at - 3, 0), at):
        return True
    word = _WORD_BEFORE.search(text, max(at - WORD_CAP, 0), at)
    return None if word and _code_word(word[0]) else False


def _escaped(text: str, at: int, start: int, escaping: bool) -> bool:
    """Whether the character at `at` is escaped: an odd number of backslashes before it, counted back to `start` (the
    piece read), and before it as `escaping` says of the text read before (a run of backslashes across a stream's
    reads counts whole)."""
    run_start = at
    while run_start > start and text[run_start - 1] == "\\":
        run_start -= 1
    odd = (at - run_start) % 2 == 1
    return odd != escaping if run_start == start else odd


def _apart_after(after: str) -> bool:
    run = re.split(r"\s", after[:TAIL])[0]
    return len(run) < TAIL and all(ch in CLOSING for ch in run)


def after_undecided(text: str, end: int, after_mailto: bool) -> bool:
    """Whether what follows a placeholder ending at `end` may still make it glued, or a query after it add a recipient
    (`Links.kind`): the text ends in its run of closing punctuation, or in a query with no white space, or in a run
    that may yet make the placeholder part of a host or an e-mail address (`-x.e`), or, after a `mailto:`
    (`after_mailto`), before the end of its link (a line break or a `,` there may still add a recipient; a stream's
    next chunk decides)."""
    run = text[end : end + TAIL]
    if len(run) >= TAIL:
        return False
    if all(ch in CLOSING for ch in run) or _OPEN_QUERY.fullmatch(run) is not None or HOST_RUN.fullmatch(run):
        return True
    return after_mailto and _IN_LINK.fullmatch(run) is not None


def place_of(before: str, after: str = "") -> str:
    """ "url", "tool", "glued" or "text" for a placeholder between `before` and `after`."""
    surroundings = Surroundings()
    surroundings.feed(before)
    return surroundings.place(after)
