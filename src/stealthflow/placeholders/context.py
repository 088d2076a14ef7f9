"""Where a placeholder stands in a reply: in plain prose ("text"), where a guarded value is filled in, or where a
renderer, a client or an agent could send it away: in a link, markup or a command ("url"), or in JSON or code
("tool"). The decision fails closed. A placeholder is "text" only when

1. it stands apart: between it and the white space on either side there is nothing but sentence punctuation and
   quotation marks (`OPENING` before it, `CLOSING` after it), and the line before it does not end in `=` (code assigns
   there), so `<URL_1><API_KEY_1>`, `q=<IBAN_1>`, `mailto:<IBAN_1>@x`, `<IBAN_1>.evil.com`, `["<IBAN_1>"]` and
   `key = "<API_KEY_1>"` are not ("glued"), but `„<IBAN_1>“`, `«<IBAN_1>»` and `"<IBAN_1>"` in a sentence are;
2. its paragraph up to it (the text since the last blank line: no markdown or HTML link, tag or definition runs over
   one) holds no mark of a link, markup or command: `//`, `:/`, `/\\`, `\\\\`, `www.`, `mailto:`, a host with a path
   (`evil.com/`), `](`, `]:`, `url(`, `image-set(`, `@import`, an HTML tag, a command of data/link_commands.txt
   ("url"); nor a `{` ("tool");
3. no code fence (```) is open, and no mark of a tool call written in text (data/text_tool_calls.txt: `<tool_call>`,
   ReAct's `Action Input:`) is in its paragraph ("tool"). A JSON object counts by its `{` (2.): in its paragraph only,
   so a `{` left open in prose (":-{", "a dict starts with {") does not make code of the paragraphs after it.

Code (`in_code`: a code fence, a `{` in the paragraph, a tool call written in text) is what an agent
may run with no click: no value is restored there by default (`scope.IN_CODE`), whatever its type.

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

from stealthflow.placeholders.links import BARE_URL, CSS_LOADS, HOLD, HOST_RUN, URL_END, Deferred, Links, tag_open
from stealthflow.resources import listed_words, resource_dir

# Quotation marks of the seven languages: "…", '…', “…”, ‘…’, „…“, ‚…‘, «…», »…«, ‹…›
QUOTES = "\"'\u201c\u201d\u2018\u2019\u201e\u201a\u00ab\u00bb\u2039\u203a"
OPENING = "(*_`" + QUOTES  # what may stand between white space and a placeholder in prose
CLOSING = ".,;:!?)*_`" + QUOTES  # and between a placeholder and white space
# characters kept of what was read (a mark cut across two pieces; a longer run without a space is glued), and read
# after a placeholder (`Links.kind`: a `mailto:` query within them)
TAIL = HOLD


@cache
def _events() -> re.Pattern[str]:
    """The marks read in a reply: a blank line, a code fence, a `{`, and the marks of a link, markup or command."""
    words = sorted(listed_words(resource_dir("data") / "link_commands.txt"))
    commands = "|".join(re.escape(word) for word in words)
    # A command is tried only at a word that starts with a command's first letter: the same matches, in ~25 % less
    # time on prose (a reply's text is read as it streams, its last `TAIL` characters again with each piece).
    firsts = "".join(sorted({re.escape(word[0]) for word in words}))
    url = rf"{BARE_URL}|\]\(|\]:|{CSS_LOADS}|{tag_open()}|\b(?=[{firsts}])(?:{commands})\b"
    calls = "|".join(re.escape(mark) for mark in sorted(listed_words(resource_dir("data") / "text_tool_calls.txt")))
    return re.compile(
        rf"(?P<blank>\n[ \t]*\r?\n)|(?P<fence>^[ \t]{{0,3}}(?:```|~~~))|(?P<open>\{{)"
        rf"|(?P<call>(?<!\w)(?:{calls}))|(?P<url>{url})",
        re.IGNORECASE | re.MULTILINE,
    )


_OPEN_QUERY = re.compile(rf"\?(?:(?!{URL_END}).)*")
_IN_LINK = re.compile(r"[^)\"'<>]*")  # what follows an address in a link's target or a tag before its end


class Surroundings(Deferred):
    """What the text taken so far makes of a placeholder that comes next (`place`, `url`)."""

    def __init__(self) -> None:
        super().__init__()
        self.paragraph: str | None = None  # "url" or "tool" once a mark is read in the paragraph
        self.code_paragraph = False  # a `{` or a tool call's mark read in the paragraph
        self.fence = False  # inside a code fence
        self.tail = ""  # the last `TAIL` characters read
        self.links = Links()  # which kind of URL, if any, the text read leaves open

    def _read(self, piece: str) -> None:
        """Read `piece`, the text that follows what was read (the marks read before it are not read again)."""
        text = self.tail + piece
        for match in _events().finditer(text):
            if match.end() <= len(self.tail):
                continue
            kind = match.lastgroup
            if kind == "blank":
                self.paragraph, self.code_paragraph = None, False
            elif kind == "fence":
                self.fence = not self.fence
            elif kind in ("open", "call"):
                self.paragraph, self.code_paragraph = self.paragraph or "tool", True
            else:
                self.paragraph = "url"
        self.tail = text[-TAIL:]
        self.links.feed(piece)

    def place(self, after: str) -> str:
        """ "url", "tool", "glued" or "text" for a placeholder after what was taken, `after` the text that follows it."""
        self._catch_up()
        if self.paragraph == "url":
            return "url"
        if self.paragraph or self.fence:
            return "tool"
        return "text" if self._apart_before() and _apart_after(after) else "glued"

    def in_code(self) -> bool:
        """Whether a placeholder after what was taken is in code an agent may run: a code fence, a
        paragraph with a `{` or a tool call's mark (place "tool" or "url", never "text")."""
        self._catch_up()
        return self.fence or self.code_paragraph

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
        return len(run) < TAIL and all(ch in OPENING for ch in run) and not line.rstrip().endswith("=")


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
