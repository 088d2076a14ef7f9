"""Whether a placeholder stands inside a URL of a reply, and whether a renderer loads that URL by itself.

`Links.feed` reads a reply in order, as it is shown, and `Links.kind` answers for a placeholder that comes next:

- "load": a URL a chat interface fetches when the reply is shown, with no click: a markdown image's target (and a
  link's target inside an image's alt text), a reference definition (`[x]: ...`, which an image may use), CSS
  `url(`, `image-set(` and `@import`, anything inside an HTML tag but the tags of data/click_tags.txt (`<img src>`,
  `srcset`, `<link rel=preload>`, `background`, a `style` with `url(`...);
- "click": a URL followed when the reader clicks it: a markdown link's target, an `<a href>`, an autolink
  (`<https://...>`), a bare URL (from a mark of one, `//`, `:/`, `www.`, `mailto:`, a host with a path, to the next
  white space);
- "mailto": a click URL that is `mailto:` and this placeholder as its whole address (`mailto:<EMAIL_1>`, followed by
  the end of the URL, sentence punctuation or a query that adds no recipient: `?subject=`, not `?cc=`, `?bcc=`,
  `?to=`; a query read within `HOLD` characters);
- "click" too: a placeholder glued into an e-mail address or a host name with no URL mark, which a linkifier links
  (`<EMAIL_1>.e.vil`, `<PHONE_1>@e.vil`, `support+<USERNAME_1>@e.vil`, `a@<REAL_NAME_1>.com`);
- "": anywhere else (prose, a link's text, an image's alt text, between tags).

It fails closed: a target, tag or definition ends at its closing character as the renderer reads it (`)` with nested
parentheses, backslash escapes and `<...>` destinations; `>` outside quotes; `;` after `@import`; the end of the line,
a definition's destination maybe on the next one), a markdown target or definition also at a blank line. An HTML tag
runs over blank lines (a renderer writes an HTML block as it is, and a browser reads the tag on), and so does every URL
inside a raw HTML block (`<pre>`, `<script>`, `<style>`, `<textarea>`: data/raw_html_tags.txt, wherever the tag
stands) until an end tag of one of them. An image's alt text ends at its `]`, not an escaped one nor one in a code
span; CSS spelled with escapes (`u\\72l(`) is CSS. When unsure whether a URL loads by itself, it loads. The work
is linear in the reply's length: each character is read at most twice.

These readings close bypasses a read-only review (rev-g16) found, and are measured on its replies, which they were
written from: a value in a URL that loads by itself 25 -> 0 (by default) and 105 -> 5 (`values_in_links`) of 994
restores. On replies they were not written from they change nothing: the 42 of an earlier review (rev-s55) filled in
as before (7 -> 7 per type), the 400 ordinary messages of data/pii_test.jsonl 400 -> 400 restored exact
(`benchmarks/restore_links.py`; docs/security.md).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import cache
from urllib.parse import unquote

from stealthflow.placeholders.types import type_alternation
from stealthflow.resources import listed_words, resource_dir

BLANK = r"\n[ \t]*\r?\n"  # a blank line: no markdown link, image or definition runs over one (an HTML tag does)
DOTS = r".\u3002\uff0e\uff61"  # what IDNA reads as a host's dot (UTS 46 maps `。`, `．`, `｡` to `.`): in a [class]
# Marks of a URL written out. A host's last label may be in any script (`пример.рф/`) or punycode (`xn--p1ai/`), after
# any of `DOTS`: on the 118 hostile replies of a read-only review (rev-g16, not written from this rule) it withholds a
# value in 2 more, and leaves the 400 ordinary replies of data/pii_test.jsonl exact (`benchmarks/restore_links.py`).
# A `:/` after a lone letter is a drive's (`C:/Users/`), not a URL's; a `?` after a last label in CJK is prose's, which
# writes `。` and `?` with no space (`了。你是谁?请`): such a host needs a `/`. Both read as text again what 5b4afea
# read as text, written from a read-only review's 5 such replies (rev-g17); on replies not written from them no count
# moves: the 160 hostile and 400 ordinary ones of `benchmarks/restore_links.py`, the 240 of
# data/pii_multilingual_test.jsonl (exact 240 -> 240; none is CJK).
CJK = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"  # kana, han, hangul: in a [class]
BARE_URL = (
    rf"//|:(?<!(?<![\w+.-])[a-z]:)/|/\\|\\\\|www\.|mailto:"
    rf"|[\w-][{DOTS}](?:[^\W\d_]{{2,63}}|xn--[a-z0-9-]{{1,59}})(?:/|(?<![{CJK}])\?)"
)
# What curl and wget read as a host with no scheme, in a tool call (`json_urls`): a port (`e.vil:8080/`), an IPv4
# address in any of the spellings inet_aton reads (`203.0.113.5/`, `3405803781/`, `0xcb.0x0.0x71.0x5/`). Written from
# a read-only review's tool calls (rev-g17: 5 of its 70 attacks, 25 values, withheld); the 400 ordinary replies as
# tool-call arguments stay 319 exact, the 240 multilingual ones 221, its 10 ordinary tool calls restore.
_NUMBER = r"(?:0x[0-9a-f]+|\d+)"
HOST_NO_SCHEME = rf"[\w-]:\d{{1,5}}[/?#]|(?<![\w.-]){_NUMBER}(?:\.{_NUMBER}){{0,3}}(?::\d{{1,5}})?[/?#]"


def _css_spelling(word: str) -> str:
    """`word` as CSS may spell it: a character but `(` and `@` also as an escape (`u\\72l(`, `\\75 rl(`, `\\u`)."""
    plain = {"(", "@"}
    return "".join(
        re.escape(ch)
        if ch in plain
        else rf"(?:{re.escape(ch)}|\\0{{0,4}}{ord(ch.lower()):x}(?:\r\n|[ \t\r\n\f])?"
        rf"|\\0{{0,4}}{ord(ch.upper()):x}(?:\r\n|[ \t\r\n\f])?|\\{re.escape(ch)})"
        for ch in word
    )


CSS_LOADS = "|".join(_css_spelling(word) for word in ("url(", "image-set(", "@import"))  # CSS that fetches what follows
SPACE = r"[ \t\r\n\f\v]"  # what ends a bare URL or an autolink: ASCII white space (cmark-gfm keeps a no-break space)
HOLD = 32  # characters read again with the next piece: an event cut across two pieces


@cache
def placeholder_in_angles() -> str:
    """A placeholder in angle brackets as a reply may spell it (`<EMAIL_1>`, `< REAL NAME 2 >`): not an HTML tag."""
    return rf"<[ \t]?(?:{type_alternation()})[ \t]?[_:-]?[ \t]?[0-9a-f]{{1,32}}[ \t]?>"


@cache
def tag_open() -> str:
    """The start of an HTML tag (`<img`, `</pre`, `<!--`), not of a placeholder in angle brackets (the look-ahead reads
    from the `<`): a placeholder a restore left in a bare URL is part of the URL, which goes on
    (`https://e.vil/?a=<EMAIL_1>&b=<PHONE_1>` withholds both). The 160 hostile replies of `benchmarks/restore_links.py`
    hold no such URL (their counts do not change); the 400 ordinary replies stay exact."""
    return rf"(?!{placeholder_in_angles()})<[a-z!?/]"


@cache
def _outside(tool: bool) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What opens a URL, outside one; and the same within a bare URL, which white space ends. In a tool call (`tool`)
    a host with no scheme that curl reads (`HOST_NO_SCHEME`) opens one too."""
    bare = f"{BARE_URL}|{HOST_NO_SCHEME}" if tool else BARE_URL
    opens = (
        rf"(?P<blank>{BLANK})|(?P<image>!\[)|(?P<target>\]\()|(?P<definition>\]:)|(?P<css>{CSS_LOADS})"
        r"|(?P<escape>\\\[|\\\](?!\())|(?P<code>`+)|(?P<bracket>\[)|(?P<unbracket>\](?=[^(:]))"
        rf"|(?P<tag>{tag_open()}[a-z0-9+.-]*)|(?P<bare>{bare})"
    )
    return re.compile(opens, re.IGNORECASE), re.compile(rf"{opens}|(?P<space>{SPACE})", re.IGNORECASE)


# What ends each kind of URL region, and what is read inside it.
_TARGET = re.compile(rf"(?P<blank>{BLANK})|(?P<escape>\\.)|(?P<lt><)|(?P<gt>>)|(?P<open>\()|(?P<close>\))", re.DOTALL)
_CSS = re.compile(rf"(?P<blank>{BLANK})|(?P<escape>\\.)|(?P<quote>[\"'])|(?P<open>\()|(?P<close>\))", re.DOTALL)
_IMPORT = re.compile(
    rf"(?P<blank>{BLANK})|(?P<escape>\\.)|(?P<quote>[\"'])|(?P<open>\()|(?P<close>\))|(?P<end>;)", re.DOTALL
)
_LINE = re.compile(r"(?P<close>\r?\n)")
_DESTINATION = re.compile(r"(?P<destination>[^ \t\r\n])|(?P<close>\r?\n)")  # a definition's, maybe on the next line


@cache
def _tag() -> re.Pattern[str]:
    """Inside an HTML tag: a quote opens an attribute's value only after `=` (white space between). A blank line does
    not end a tag: a renderer writes an HTML block's text as it is, and the browser reads the tag on into the next
    paragraphs."""
    return re.compile(
        rf"(?P<skip>{placeholder_in_angles()})|(?P<css>{CSS_LOADS})"
        r"|(?P<value>=[ \t\r\n\f]*[\"'])|(?P<quote>[\"'])|(?P<gt>>)",
        re.IGNORECASE,
    )


@cache
def _autolink() -> re.Pattern[str]:
    return re.compile(rf"(?P<skip>{placeholder_in_angles()})|(?P<gt>>)|(?P<space>{SPACE})", re.IGNORECASE)


@cache
def _click_tags() -> frozenset[str]:
    return frozenset(word.lower() for word in listed_words(resource_dir("data") / "click_tags.txt"))


@cache
def raw_html_tags() -> frozenset[str]:
    """The tags that open a raw HTML block (CommonMark type 1: data/raw_html_tags.txt), in lowercase."""
    return frozenset(word.lower() for word in listed_words(resource_dir("data") / "raw_html_tags.txt"))


_MARKS = re.compile(rf"[\n\[\]()@<>/\\{DOTS}:]")  # a character every event outside a URL holds
_MARKS_IN_ALT = re.compile(rf"[\n\[\]()@<>/\\{DOTS}:`]")  # and a code span's backticks, in an image's alt text
_NAME = re.compile(r"[a-z0-9+.-]*", re.IGNORECASE)
MAILTO = "mailto:"
_MAILTO = re.compile(r"(?:^|[\s(<\"'=])mailto:$", re.IGNORECASE)
URL_END = r"[)\s\"'<>]"  # what ends a URL in a link or a tag
# Where a `mailto:` address ends: in a bare URL also at sentence punctuation and white space; in a link's target or a
# tag only at its closing character or at white space before a title (a `,` and white space inside an `href` go on
# to the next recipient).
_BARE_ADDRESS_END = re.compile(rf"[)\"'>]|[.,;:!]*(?:\s|$)|\?(?P<query>(?:(?!{URL_END}).)*)(?P<end>{URL_END}|$)")
_LINK_ADDRESS_END = re.compile(r"[)\"'>]| +[\"'(]|\?(?P<query>[^)\"'<>]*)(?P<end>[)\"'<>]|$)")
_RECIPIENT = re.compile(r"(?:^|[&;])(?:to|cc|bcc)=", re.IGNORECASE)  # a query's field that adds one
_PARSER_DROPS = re.compile(r"[\t\n\r]")  # what a URL parser removes from a link (WHATWG, Python's `urlsplit`)
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")  # a markdown backslash escape: `\=` is `=`
_SPACE = re.compile(r"\s")


# A placeholder glued into an e-mail address or a host name, which a linkifier (cmark-gfm's e-mail autolink,
# markdown-it's linkify) links with no URL mark around it: a host's or an address's domain goes on after it
# (`<EMAIL_1>.e.vil`, `<EMAIL_1>-x.e-vil.com`), it is an address's local part (`<PHONE_1>@e.vil`,
# `support+<USERNAME_1>@e.vil`), or it stands in an address's domain (`a@<REAL_NAME_1>.com`). rev22 F2.
_HOST_AFTER = re.compile(r"[\w.+-]*(?:@\w|\.\w)")
_DOMAIN_BEFORE = re.compile(r"[\w.+-]@[\w.+-]*\Z")
HOST_RUN = re.compile(r"[\w.+-]*@?")  # what may yet go on into a host or an address (a stream waits for more)


def _in_address(before: str, after: str) -> bool:
    """Whether a placeholder between `before` and `after` (outside any URL) is part of an e-mail address or host name
    a linkifier would link, once restored."""
    return _HOST_AFTER.match(after) is not None or _DOMAIN_BEFORE.search(before) is not None


def _whole_address(after: str, in_link: bool) -> bool:
    """Whether a `mailto:` address ends where `after` starts (`in_link`: inside a markdown link's target or a tag, else
    a bare URL or an autolink): at the URL's end, or at a query that adds no recipient (`?subject=`, not `?cc=`; it has to end within `after`
    unless the text does, shorter than `HOLD`). Read as a mail client gets it: without the tab, line feed and carriage
    return a URL parser drops in a link, the query's markdown escapes (`?cc\\=`), entities and percent-escapes decoded
    and its white space dropped."""
    if in_link:
        after = _PARSER_DROPS.sub("", after)
    end = (_LINK_ADDRESS_END if in_link else _BARE_ADDRESS_END).match(after)
    if end is None or end["query"] is None:
        return end is not None
    if not end["end"] and len(after) >= HOLD:
        return False
    query = unquote(_ESCAPED.sub(r"\1", html.unescape(end["query"])))
    return not _RECIPIENT.search(_SPACE.sub("", query))


@dataclass
class _Region:
    """The URL being read: how it ends (`mode`) and whether it loads by itself."""

    mode: str  # "target", "css", "import", "definition", "line" (a definition's destination), "tag", "autolink"
    load: bool
    depth: int = 0  # "(" not yet closed ("target", "css", "import"); line breaks read ("definition")
    quote: str = ""  # the quote open ("css", "import", "tag")
    angle: bool = False  # inside a `<...>` destination ("target")
    name: str = ""  # the tag's name so far ("tag")
    naming: bool = False  # the name may go on in the next piece ("tag")


READ_AT = 4096  # characters a `Deferred` takes before it reads them at the latest


class Deferred:
    """A reader of a reply, read in order: `feed` takes a piece, the text that follows what was taken, and `_read` reads
    what was taken in one piece when an answer needs it (`_catch_up`), or once `READ_AT` characters wait. A stream's
    pieces are tokens, and a few long pieces read in a fraction of the time of many short ones (each is searched for
    marks again from the last characters read)."""

    tail = ""  # the last characters read (`HOLD` or more)

    def __init__(self) -> None:
        self.taken: list[str] = []  # pieces taken, not read yet
        self.taken_chars = 0

    def ends_with(self, suffix: str) -> bool:
        """Whether the text taken so far ends with `suffix` (shorter than `HOLD`), in any case."""
        self._catch_up()
        return self.tail[-len(suffix) :].lower() == suffix

    def feed(self, piece: str) -> None:
        self.taken.append(piece)
        self.taken_chars += len(piece)
        if self.taken_chars >= READ_AT:
            self._catch_up()

    def _catch_up(self) -> None:
        if self.taken:
            piece, self.taken, self.taken_chars = "".join(self.taken), [], 0
            self._read(piece)

    def _read(self, piece: str) -> None:
        raise NotImplementedError


class Links:
    """Where the text read so far leaves a placeholder that comes next: in which kind of URL (`kind`)."""

    def __init__(self, tool: bool = False) -> None:
        self.tool = tool  # reading a tool call's arguments: `HOST_NO_SCHEME` opens a URL too
        self.region: _Region | None = None
        self.bare = False  # inside a bare URL, outside any region
        self.image = 0  # brackets open since a `![`: the `](` that closes the first is the image's target
        self.code = ""  # the backticks that opened a code span in an image's alt text: its brackets are text
        self.raw = False  # inside a raw HTML block (`<pre>`, `<script>`...): no URL ends at a blank line
        self.unread = ""  # the end of the text read, from where the next event may start

    def feed(self, piece: str) -> None:
        """Read `piece`, the text that follows what was read."""
        if not piece:
            return
        text, pos = self.unread + piece, 0
        if self.region is not None and self.region.naming:
            pos = self._name(self.region, text, 0)
        while (match := self._search(text, pos)) is not None:
            pos = self._read(match, text)
        self.unread = text[max(pos, len(text) - HOLD) :]

    def kind(self, before: str, after: str) -> str:
        """ "load", "click", "mailto" or "" for a placeholder after what was read (`before`: its last characters)
        and before `after`."""
        if self.region is None and not self.bare:
            return "click" if _in_address(before, after) else ""
        if self.region is not None and self.region.load:
            return "load"
        in_link = self.region is not None and self.region.mode in ("target", "tag")  # white space does not end them
        return "mailto" if _MAILTO.search(before) and _whole_address(after, in_link) else "click"

    def _search(self, text: str, pos: int) -> re.Match[str] | None:
        region = self.region
        if region is None:
            marks = _MARKS_IN_ALT if self.image else _MARKS
            if not self.bare and not self.tool and not marks.search(text, pos):  # most of prose: a cheap look first
                return None
            return _outside(self.tool)[self.bare].search(text, pos)
        if region.naming:
            return None
        patterns = {
            "target": _TARGET,
            "css": _CSS,
            "import": _IMPORT,
            "definition": _DESTINATION,
            "line": _LINE,
            "autolink": _autolink(),
        }
        return patterns.get(region.mode, _tag()).search(text, pos)

    def _read(self, match: re.Match[str], text: str) -> int:
        """Act on one event; where reading goes on."""
        kind, region = match.lastgroup, self.region
        if region is None:
            return self._open(kind, match, text)
        if kind == "blank":
            if not self.raw:
                self.region, self.image, self.code = None, 0, ""
        elif region.mode in ("target", "css", "import"):
            self._nest(region, kind, match[0])
        elif region.mode == "definition":
            self._destination(region, kind)
        elif region.mode == "line":
            self.region = None
        else:
            self._in_tag(region, kind, match[0])
        return match.end()

    def _open(self, kind: str | None, match: re.Match[str], text: str) -> int:
        """Act on an event outside a region; where reading goes on."""
        if kind == "blank":
            self.bare, self.image, self.code = False, 0, ""
        elif kind == "space":
            self.bare = False
        elif kind == "image":
            self.image += 1
        elif kind in ("code", "escape", "bracket", "unbracket"):
            self._alt(kind, match[0])
        elif kind == "bare":
            self.bare = True
        else:
            self.bare = False
            if kind == "target":  # an image's target, or a link's inside an image's alt text: load
                self.region = _Region("target", load=self.image > 0)
                self.image = max(0, self.image - 1)
                self.code = self.code if self.image else ""
            elif kind == "definition":
                self.image = max(0, self.image - 1)
                self.region = _Region("definition", load=True)
            elif kind == "css":
                self.region = _Region("import" if match[0].startswith("@") else "css", load=True)
            else:
                self.region = _Region("tag", load=True, naming=True)
                return self._name(self.region, text, match.start() + 1)
        return match.end()

    def _alt(self, kind: str, mark: str) -> None:
        """Brackets in an image's alt text, but those escaped (`\\]`) or in a code span (from a run of backticks to
        one as long; one never closed keeps the alt text open: strict)."""
        if not self.image or kind == "escape":
            return
        if kind == "code":
            self.code = "" if mark == self.code else self.code or mark
        elif not self.code:
            self.image += 1 if kind == "bracket" else -1

    def _name(self, region: _Region, text: str, pos: int) -> int:
        """Read the tag's name from `pos` on; once it ends: an autolink (`<https:`, `<mailto:`) or a tag, which loads
        unless a click tag. Where reading goes on."""
        start = pos + 1 if not region.name and text.startswith("/", pos) else pos  # an end tag: `</pre` is "/pre"
        end = _NAME.match(text, start).end()
        region.name += text[pos:end].lower()
        if end == len(text):
            return end
        region.naming = False
        if text[end] == ":" and region.name[:1].isalpha():
            region.mode = "autolink"
        region.load = region.mode == "tag" and region.name not in _click_tags()
        if region.name.removeprefix("/") in raw_html_tags():  # read anywhere, not only where a block may start: strict
            self.raw = not region.name.startswith("/")
        return end

    def _nest(self, region: _Region, kind: str | None, mark: str) -> None:
        """An event in a markdown target or a CSS `url(`: it ends at the `)` that closes it; `@import` at the `;`
        outside quotes and parentheses."""
        if region.quote:
            region.quote = "" if mark == region.quote else region.quote
        elif kind == "quote":
            region.quote = mark
        elif kind in ("lt", "gt"):
            region.angle = kind == "lt"
        elif region.angle or kind == "escape":
            return
        elif kind == "open":
            region.depth += 1
        elif region.depth:
            region.depth -= 1 if kind == "close" else 0
        elif kind == "end" or region.mode != "import":
            self.region = None

    def _destination(self, region: _Region, kind: str | None) -> None:
        """An event before a definition's destination: it may start on the next line, not after a blank one."""
        if kind == "destination":
            region.mode = "line"
        elif region.depth:
            self.region = None
        else:
            region.depth = 1

    def _in_tag(self, region: _Region, kind: str | None, mark: str) -> None:
        """An event in an HTML tag (it ends at a `>` outside quotes) or an autolink (at a `>` or white space)."""
        if kind == "css":  # `<a style="background:url(...)">` loads
            region.load = True
        elif region.mode == "autolink":
            if kind in ("gt", "space"):
                self.region = None
        elif region.quote:  # a quoted attribute value: its own quote ends it
            region.quote = "" if mark[-1] == region.quote else region.quote
        elif kind == "value":  # a quote opens a value only after `=`: `<img a"b src="...">` is one attribute name
            region.quote = mark[-1]
        elif kind == "gt":
            self.region = None
