"""Find placeholders in a cloud reply, exact or drifted, and replace them.

Models alter placeholders: `<EMAIL_1>` comes back as `EMAIL 1`, `email_1`, `< EMAIL_1 >`,
`[EMAIL:3F81A2C9]`. The pattern accepts those; to avoid false hits on ordinary words an
indexed placeholder needs at least one mark of a placeholder (a bracket, an underscore or
hyphen, or the type in capitals): `email_1` and `EMAIL 1` restore, `email 1` does not.
HMAC tokens are distinctive enough to restore in any case.

Streaming uses the same scanner with the `regex` module's partial matching: text that
could still become a placeholder is held back until the next chunk decides, so half a
placeholder is never emitted and the output equals restoring the whole reply at once.

Inside JSON text (tool-call arguments) `json_string=True` writes each value JSON-escaped and
treats an escaping backslash as the two characters JSON spells it with, so the restored
arguments stay valid JSON.

Each reference says where it stands (`Reference.place`): in a tool call's arguments, inside a link or markup, inside
JSON in text, or in prose (`placeholders.context`), and in which kind of URL of a reply's text or of a JSON string of
tool-call arguments, if any (`Reference.url`: one that loads by itself, one a click follows, a `mailto:` address;
`placeholders.links`, `placeholders.json_urls`), so that a resolver can withhold a value there (`Withheld`: left as it
is and reported). The place is worked out only for a placeholder the resolver would fill in somewhere, so look-alikes
cost nothing extra.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

import ahocorasick
import regex

from stealthflow.placeholders.automaton import word_automaton, word_starts
from stealthflow.placeholders.context import TAIL, Surroundings, after_undecided
from stealthflow.placeholders.json_urls import JsonUrls
from stealthflow.placeholders.links import MAILTO
from stealthflow.placeholders.styles import INDEX_DIGITS, TOKEN_CHARS
from stealthflow.placeholders.types import TYPE_LEVELS, type_alternation

_TYPES = type_alternation()
_TYPE_BY_LETTERS = {name.replace("_", ""): name for name in TYPE_LEVELS}
_NO_SEPARATORS = str.maketrans("", "", " _-")
# A token holds a hex letter, or is all digits but longer than any index (`styles.TOKEN_CHARS`): `<EMAIL_1000>`
# is an index. A shorter token with a letter still matches (a reply may cut one off), so that it is reported.
_BODY = rf"""(?:
        (?P<htype>{_TYPES})[ \t]?[:_-][ \t]?(?P<token>(?=[0-9]*[a-f])[0-9a-f]{{4,32}}|[0-9]{{{TOKEN_CHARS},32}})(?![0-9a-z])
      | (?P<itype>{_TYPES})(?P<sep>[ \t]?[_:-][ \t]?|[ \t])?(?P<index>\d{{1,{INDEX_DIGITS}}})
    )"""
# A backslash before the type escapes a placeholder-looking text that protect found in the
# user's input (`<\EMAIL_10>`): it is never restored, and restore removes one backslash.
# Letters and digits are ASCII only (`_SPELLING`): a placeholder the session sent is spelt so, and a look-alike of one
# (a Kelvin sign or dotless i that matches K or I in any case, another script's or a full-width digit: `<EMAIL_١>`,
# `<EMAIL_１>`) is text the session never sent as it, so no value goes there (sec24: main filled them in).
_SPELLING = regex.IGNORECASE | regex.ASCII | regex.VERBOSE
# A bracket escaped for Markdown at both ends (`\<REAL_NAME_1\>`: a reply's renderer shows `<REAL_NAME_1>`) is the
# placeholder's, and goes with it (`\Priya\>` was restored; ux26 M6); a backslash at one end only is the text's
# (`C:\Users\<USERNAME_1>`).
_PLACEHOLDER = rf"""(?:(?P<open>(?P<md>\\)?[<\[{{]{{1,2}}[ \t]?)|(?<![A-Za-z0-9_]))  # a bracket, or not inside a word
    (?<!\\){_BODY}
    (?:(?P<close>[ \t]?(?(md)\\)[>\]}}]{{1,2}})|(?(md)(?!)|(?![A-Za-z0-9_])))"""
PLACEHOLDER = regex.compile(_PLACEHOLDER, _SPELLING)
# Either an escape (a run of backslashes right before a placeholder body) or a placeholder. The run is
# possessive: a body never starts with a backslash, so giving some back could not help, and would cost a
# try per backslash.
_SCAN = regex.compile(
    rf"(?P<escape>(?<![A-Za-z0-9_\\])\\++)(?={_BODY.replace('?P<', '?P<_')})|{_PLACEHOLDER}", _SPELLING
)


@dataclass(frozen=True)
class Reference:
    """A placeholder as found in text (possibly drifted), normalised."""

    type: str
    index: int | None
    token: str | None
    text: str
    # "text", "url" (inside a link or markup), "glued" (to other text, or after "="), or "tool" (tool-call arguments,
    # JSON or code in text): `placeholders.context`
    place: str = "text"
    url: str = ""  # inside a URL of a reply's text or tool-call arguments: "load", "click", "mailto", or ""
    bare: bool = False  # written with no bracket (`API_KEY_1`, `EMAIL 1`): a word code may use as a name
    # in code, JSON or a tool call written in a reply's text or in a string of tool-call arguments (`in_code`)
    code: bool = False
    html: bool = False  # written with no bracket between HTML-escaped ones (`&lt;REAL_NAME_1&gt;`)

    def exact(self) -> str:
        return f"<{self.type}_{self.index}>" if self.index is not None else f"[[{self.type}:{self.token}]]"

    @property
    def key(self) -> tuple[str, int | str]:
        """(type, index) or (type, token): what names one vault entry (`Entry.names`)."""
        return (self.type, self.index if self.index is not None else self.token or "")


@dataclass(frozen=True)
class Withheld:
    """A resolver's answer for a placeholder it will not fill in here (`why`: a short reason)."""

    why: str


def reference(match: regex.Match) -> Reference | None:
    """The placeholder a match stands for, or None when it lacks any placeholder mark."""
    raw_type = match["htype"] or match["itype"]
    # casefold first: the case-insensitive match also takes the Kelvin sign for K (whose upper() is itself)
    span_type = _TYPE_BY_LETTERS[raw_type.translate(_NO_SEPARATORS).casefold().upper()]
    bare = not (match["open"] or match["close"])
    html = bare and match.string.endswith("&lt;", 0, match.start()) and match.string.startswith("&gt;", match.end())
    if match["token"]:
        if bare and len(match["token"]) < TOKEN_CHARS:  # a token cut short, only inside brackets: "IBAN: DE50 ..." is
            return None  # the start of a number the user wrote, no placeholder to escape, restore or report (ux21 M10)
        return Reference(span_type, None, match["token"].lower(), match[0], bare=bare, html=html)
    # Without a bracket, only the style's own shape is one: the type in capitals (`EMAIL 1`, `EMAIL-1`) or joined by
    # "_" (`email_1`). "Health: 100", "Unread Email: 2", "Address: 12" are a form's label and a number: protect left
    # a backslash in them and restore would have filled them in (ux23b M4).
    marked = not bare or "_" in (match["sep"] or "") or raw_type.isupper()
    return Reference(span_type, int(match["index"]), None, match[0], bare=bare, html=html) if marked else None


Resolver = Callable[[Reference], "str | Withheld | None"]  # replacement text, or None / Withheld: leave as is


@dataclass
class RestoreResult:
    text: str
    restored: int = 0
    unresolved: list[str] = field(default_factory=list)  # placeholders not issued to this user/session
    withheld: list[tuple[str, str]] = field(default_factory=list)  # (placeholder, why) of those not restored here


class Scanner:
    """Replaces every accepted placeholder with `resolve(reference)`; counts and reports."""

    def __init__(self, resolve: Resolver, json_string: bool = False):
        self.resolve = resolve
        self.json_string = json_string
        self.escape_width = 2 if json_string else 1  # the backslash an escape removes (JSON spells it with two)
        self.restored = 0
        self.unresolved: list[str] = []
        self.withheld: list[tuple[str, str]] = []
        self.renamed = _Renamed()
        # what was emitted so far: a reply's text, or JSON (tool-call arguments: which URL, if any, a value is in)
        self.context: Surroundings | JsonUrls = JsonUrls() if json_string else Surroundings()
        # what the whole reply emitted before this scan (other choices and fields too), when streamed
        self.shared: Surroundings | None = None

    def scan(self, text: str, pos: int, final: bool, starts: list[int] | None = None) -> tuple[str, int]:
        """Output for text[pos:...] and where scanning stopped (held back when not final).
        `starts`: where placeholder bodies can start in a final text (`body_starts`); the scan
        then looks only around them."""
        self._text, self._parts = text, []
        while True:
            match = _SCAN.search(text, pos, partial=not final) if starts is None else _search_near(text, pos, starts)
            if match is None:
                self.emit(text[pos:])
                if final:
                    self.renamed.feed("", final=True)
                return "".join(self._parts), len(text)
            held = match.start() - 1 if _may_grow_back(text, match, pos) else match.start()
            self.emit(text[pos:held])
            if not final and (
                match.partial
                or _may_grow(text, match)
                or after_undecided(text, match.end(), self.context.ends_with(MAILTO))
            ):
                return "".join(self._parts), held
            self.emit(text[held : match.start()])
            self.emit(self._replacement(match), as_written=match[0])
            pos = match.end()

    def emit(self, part: str, as_written: str | None = None) -> None:
        """Output `part`, read as what follows the output so far; `as_written`: the placeholder it replaces, if any."""
        self._parts.append(part)
        self.context.feed(part)
        self.renamed.feed(part if as_written is None or part == as_written else None)

    def _replacement(self, match: regex.Match) -> str:
        if match["escape"]:
            return match["escape"][self.escape_width :]
        ref = reference(match)
        if ref is None:
            return match[0]
        value = self._resolve(ref, match.end())
        if value is None:
            self.unresolved.append(ref.text)
            return match[0]
        if isinstance(value, Withheld):
            self.withheld.append((ref.exact(), value.why))
            return match[0]
        self.restored += 1
        if self.json_string:
            value = json.dumps(value, ensure_ascii=False)[1:-1]
        # Brackets around an exact placeholder are the text's own ("[<EMAIL_1>]"): keep them.
        exact = ref.exact()
        if exact in match[0]:
            return match[0].replace(exact, value, 1)
        return f"[{value}]" if _link_text(match) else value

    def _resolve(self, ref: Reference, end: int) -> str | Withheld | None:
        """The resolver's answer for `ref` (ending at `end`) where it stands; the place is looked for only when the
        resolver would fill it in as text. A stream is judged both on its own text and on the text
        of the whole reply (a client may join its choices), the stricter place winning."""
        after = self._text[end : end + TAIL]
        if isinstance(self.context, JsonUrls):  # an argument: the same rule of code as a reply's text (`IN_CODE`)
            return self.resolve(_at(ref, "tool", self.context.url(after), self.context.in_code()))
        value = self.resolve(ref)
        if value is None or isinstance(value, Withheld):
            return value
        seen = [self.context]
        if self.shared:
            seen.append(self.shared.joined("".join(self._parts)))
        places = {surroundings.place(after) for surroundings in seen}
        place = next((kind for kind in ("url", "tool", "glued") if kind in places), "text")
        urls = {surroundings.url(after) for surroundings in seen}
        url = next((kind for kind in ("load", "click", "mailto") if kind in urls), "")
        code = any(surroundings.in_code() for surroundings in seen)  # never in "text"
        return value if place == "text" and not url else self.resolve(_at(ref, place, url, code))

    @property
    def all_unresolved(self) -> list[str]:
        """The placeholders left as they were: those no value was issued for, and those renamed (`_RENAMED`)."""
        return self.unresolved + self.renamed.found

    def result(self, text: str) -> RestoreResult:
        return RestoreResult(text, self.restored, self.all_unresolved, self.withheld)


def _link_text(match: regex.Match) -> bool:
    """Whether a placeholder in one pair of square brackets is a Markdown link's text, "(" right after it
    (`[REAL_NAME_1](https://x.com)`): its brackets are the link's, kept around the value ("Gary Pemberton(https://x.com)"
    broke the link, ux27's report L1)."""
    opening, closing = (match["open"] or "").strip(), (match["close"] or "").strip()
    return opening == "[" and closing == "]" and match.string.startswith("(", match.end())


def _at(ref: Reference, place: str, url: str = "", code: bool = False) -> Reference:
    return replace(ref, place=place, url=url, code=code)


_LONGEST_MATCH = 96  # brackets, the longest type, a separator, a 32-character token: ~75 characters
# Placeholder-shaped text in brackets whose type is none of protect's: a model renamed or translated a placeholder
# (`<NAME_1>` of `<REAL_NAME_1>`, `<ADRESSE_1>`, `[[NOMBRE:3f81a2c9]]`). No value stands behind it, and it is counted
# as unresolved, so the caller learns that the reply holds a placeholder it could not fill in (ux21 M9). Only the two
# styles' separators ("_" before an index, ":" before a token): "<UTF-8>" and "[ISO-8601]" are no placeholders.
# A look-alike of a placeholder (another script's or a full-width digit: `<EMAIL_١>`, `‹EMAIL_１>`) is left as it is
# (`_SPELLING`) and counted so too, as a look-alike letter of its type was (`<ΕMAIL_1>`; ux24b); `‹EMAIL_1>` is a
# placeholder without brackets to the scan, which reports it when no value stands behind it.
_RENAMED = regex.compile(
    rf"(?:[<‹]|\[{{1,2}})[ \t]?(?P<type>\p{{Lu}}[\p{{Lu}}_]*\p{{Lu}})"
    rf"(?P<number>_\d{{1,{INDEX_DIGITS}}}|:[0-9a-fA-F]{{{TOKEN_CHARS},32}})[ \t]?(?:[>›]|\]{{1,2}})"
)


class _Renamed:
    """The renamed placeholders (`_RENAMED`) in the text a scan passes on as it is, one piece after another: a shape
    cut across two pieces of a stream is held (from its bracket on) until the next piece completes it."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self._held = ""

    def feed(self, part: str | None, final: bool = False) -> None:
        """`part`: text passed on as it is; None: a restored value, which no shape runs across; `final`: the text
        ends here."""
        if part is None:
            self._held = ""
            return
        text, end = self._held + part, 0
        if (
            "<" not in text and "[" not in text and "‹" not in text
        ):  # no shape opens here (most pieces of prose): nothing to hold either
            self._held = ""
            return
        for match in _RENAMED.finditer(text):
            if match.end() == len(text) and not final:  # "]" may still follow
                break
            kind = match["type"].translate(_NO_SEPARATORS).casefold().upper()
            if kind not in _TYPE_BY_LETTERS or not match["number"].isascii():  # the scan took none of these
                self.found.append(match[0])
            end = match.end()
        if final:
            self._held = ""
            return
        bracket = max(text.rfind("<", end), text.rfind("[", end), text.rfind("‹", end))
        while bracket > end and text[bracket - 1] == "[":  # the first of "[["
            bracket -= 1
        self._held = text[bracket:] if bracket >= 0 and len(text) - bracket < _LONGEST_MATCH else ""


def _search_near(text: str, pos: int, starts: list[int]) -> regex.Match | None:
    """`_SCAN.search(text, pos)`, run only in a window at each body start from `pos` on: a match
    holds a body, and begins at most an escaped bracket pair and a space (or a run of backslashes) before it."""
    at = bisect.bisect_left(starts, pos)
    while at < len(starts):
        begin = starts[at] - 4
        while begin > pos and text[begin - 1] == "\\":
            begin -= 1
        begin = max(begin, pos)
        end = min(len(text), starts[at] + _LONGEST_MATCH)
        match = _SCAN.search(text, begin, end)
        if match is not None and match.end() == end < len(text):  # the window's end may have cut it short
            match = _SCAN.search(text, begin)
        if match is not None:
            return match
        at += 1
    return None


def _may_grow_back(text: str, match: regex.Match, pos: int) -> bool:
    """Whether a match held back may yet take the backslash before it (`\<REAL_NAME_1`, its closing `\>` to come)."""
    return bool(match["open"]) and not match["md"] and match.start() > pos and text[match.start() - 1] == "\\"


def _may_grow(text: str, match: regex.Match) -> bool:
    """A complete match at the end could still take more digits, a space or a bracket; after an opening bracket escaped
    for Markdown, a closing one escaped too (`\<REAL_NAME_1\`: `\>` may follow)."""
    tail = text[match.end() :]
    if tail == "" or match["escape"] or match["close"]:
        return tail == ""
    escaped = bool(match["open"]) and text.endswith("\\", 0, match.start())
    return tail in (" ", "\t") or (escaped and tail in ("\\", " \\", "\t\\"))


def escape_placeholders(text: str) -> str:
    """Input text that looks like a placeholder (`<EMAIL_10>` typed or pasted by the user) gets a
    backslash before its type, and a backslash run before one gets one more, so that restore
    only ever replaces placeholders protect issued and gives back exactly this text."""
    parts, pos = [], 0
    for match in _SCAN.finditer(text):
        if match["escape"]:
            parts += [text[pos : match.start()], "\\" + match["escape"]]
        elif reference(match) is not None:
            body = match.start("htype") if match["htype"] else match.start("itype")
            parts += [text[pos:body], "\\", text[body : match.end()]]
        else:
            continue
        pos = match.end()
    parts.append(text[pos:])
    return "".join(parts)


def _body_starts() -> tuple[ahocorasick.Automaton, regex.Pattern[str]]:
    """Every placeholder body starts with a type name soon followed by a separator and a hex digit,
    or by a digit: the first word of each type name (one Aho-Corasick pass over the lowercased
    text), then that shape ("passwordabc" is none: text of words glued together holds many). The
    digit is ASCII, as the scan's index is (`_SPELLING`)."""
    return word_automaton({name.split("_")[0].lower() for name in TYPE_LEVELS}), regex.compile(
        rf"(?:{_TYPES.lower()})(?:[ \t]?[:_-][ \t]?[0-9a-f]|(?:[ \t]?[_:-][ \t]?|[ \t])?[0-9])"
    )


_TYPE_WORDS, _BODY_START = _body_starts()


def body_starts(text: str) -> list[int] | None:
    """Where a placeholder body can start in `text`, in order (None: lowercasing moved the
    offsets; scan it all). The full scan costs ~0.3 ms per KB; most text has no such place."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return None
    return [start for start in word_starts(_TYPE_WORDS, lowered) if _BODY_START.match(lowered, start)]


def escape_pieces(text: str, bounds: list[tuple[int, int]]) -> list[str]:
    """`escape_placeholders(text[a:b])` for each (a, b) in `bounds`, scanning only the pieces where
    a placeholder body can start: a protected text is mostly pieces (one between every two
    placeholders) with no such text in them."""
    starts = body_starts(text)
    if starts is None:
        return [escape_placeholders(text[a:b]) for a, b in bounds]
    pieces = []
    for a, b in bounds:
        at = bisect.bisect_left(starts, a)
        pieces.append(escape_placeholders(text[a:b]) if at < len(starts) and starts[at] < b else text[a:b])
    return pieces


def restore_text(
    text: str, resolve: Resolver, json_string: bool = False, shared: Surroundings | None = None
) -> RestoreResult:
    """`shared`: the text read before this one as the same text (`Scanner.shared`)."""
    scanner = Scanner(resolve, json_string)
    scanner.shared = shared
    restored, _ = scanner.scan(text, 0, final=True, starts=body_starts(text))
    return scanner.result(restored)


class StreamRestorer:
    """`feed(chunk)` returns what is safe to emit; `finish()` flushes the rest."""

    def __init__(self, resolve: Resolver, json_string: bool = False):
        self.scanner = Scanner(resolve, json_string)
        self._buffer = ""  # one already-emitted character of context (for the look-behind) + pending text
        self._pos = 0

    def feed(self, chunk: str) -> str:
        self._buffer += chunk
        emitted, self._pos = self.scanner.scan(self._buffer, self._pos, final=False)
        emitted += self._release_backslashes()
        keep_from = max(self._pos - 1, 0)
        self._buffer, self._pos = self._buffer[keep_from:], self._pos - keep_from
        return emitted

    def _release_backslashes(self) -> str:
        """A run of backslashes held back (it may yet escape a placeholder) is emitted but for the
        backslash an escape would remove, so what is held back stays short and no chunk makes the
        run be scanned again. The buffer then starts with the rest of the run: its start already
        passed the escape's look-behind, as the start of a text does."""
        if not self._buffer.startswith("\\", self._pos):
            return ""
        held = self._buffer[self._pos :]
        run = len(held) - len(held.lstrip("\\"))
        if run <= self.scanner.escape_width:
            return ""
        cut = self._pos + run - self.scanner.escape_width
        self._buffer, self._pos = self._buffer[cut:], 0
        released = "\\" * (run - self.scanner.escape_width)
        self.scanner.context.feed(released)
        return released

    def finish(self) -> str:
        emitted, _ = self.scanner.scan(self._buffer, self._pos, final=True)
        self._buffer, self._pos = "", 0
        return emitted

    def restore(self, chunks: Iterable[str]) -> Iterator[str]:
        for chunk in chunks:
            emitted = self.feed(chunk)
            if emitted:
                yield emitted
        tail = self.finish()
        if tail:
            yield tail

    @property
    def unresolved(self) -> list[str]:
        return self.scanner.all_unresolved

    @property
    def withheld(self) -> list[tuple[str, str]]:
        return self.scanner.withheld
