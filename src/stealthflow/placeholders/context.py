"""Where a placeholder stands in a reply's text: inside a link or markup that a client may load
("url"), inside JSON that a program may act on, such as a text-based tool call ("tool"), or in
prose ("text").

A hostile model writes URLs the way renderers and browsers accept them, not the way a strict
parser would, so the scan is tolerant and errs towards "url": a scheme-relative `//host`, an
angle-bracket link destination with spaces in it, a newline inside a quoted attribute value, a
markdown link or image target over several lines, a reference definition `[x]: ...`, CSS `url(`.
Placeholders before it count as the values they will be restored to (their brackets are not
markup). Only the last `WINDOW` characters are looked at.
"""

from __future__ import annotations

import re

WINDOW = 2048  # how far back a context is looked for; a longer run without a space counts as a URL
_PLACEHOLDER_LIKE = re.compile(
    r"[<\[{]{1,2}[ \t]?[A-Za-z][A-Za-z _-]*?[ \t]?[_:-]?[ \t]?[0-9a-fA-F]{1,32}[ \t]?[>\]}]{1,2}"
)
_URL_MARK = re.compile(r"//|\\\\|www\.|\]\(|url\(", re.IGNORECASE)  # within a run of text without spaces
# An HTML tag, or the start of one still open at the end: a quote left open runs to the end.
_TAG = re.compile(r"""<[A-Za-z!?/](?:"[^"]*"?|'[^']*'?|[^'">])*>?""")
_REFERENCE_DEFINITION = re.compile(r"(?:^|\n)[ \t]{0,3}\[[^\]\n]+\]:[ \t]*[^\n]*$")


def place_of(before: str) -> str:
    """ "url", "tool" or "text" for a placeholder right after `before`."""
    window = _PLACEHOLDER_LIKE.sub("x", before[-WINDOW:])
    if _in_run(window, len(before) > WINDOW) or _in_tag(window) or _in_link_target(window):
        return "url"
    return "tool" if window.count("{") > window.count("}") else "text"


def in_url(before: str) -> bool:
    """Whether a placeholder right after `before` stands inside a link or markup."""
    return place_of(before) == "url"


def _in_run(window: str, cut: bool) -> bool:
    """The text since the last whitespace holds a URL mark (or is longer than a URL may be)."""
    start = max(window.rfind(c) for c in " \t\n\r\f\v")
    if start < 0 and cut:
        return True
    return _URL_MARK.search(window, start + 1) is not None


def _in_tag(window: str) -> bool:
    """A tag still open at the end: its attributes (or a quoted value) run on to the placeholder."""
    last = [*_TAG.finditer(window)][-1:]
    return bool(last) and last[0].end() == len(window) and not last[0].group().endswith(">")


def _in_link_target(window: str) -> bool:
    """Inside a markdown link or image target `](...` not yet closed, or a reference definition."""
    at = window.rfind("](")
    if at >= 0 and window.count("(", at) > window.count(")", at):
        return True
    return _REFERENCE_DEFINITION.search(window) is not None
