"""Read an anonymizer answer: "explanation, a line with #, then the text".

Models put the # elsewhere (a markdown heading, inline before the text) or omit it. What
cannot be read is a parse failure: the caller keeps the previous text and records it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADING = re.compile(r"^\s*#+\s*(?:anonymi[sz]ed(?: comments| text)?|output|result)?\s*:?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Rewrite:
    text: str  # the new text, or the previous one when parsing failed
    explanation: str
    raw: str
    parsed: bool


def parse_rewrite(raw: str, previous_text: str) -> Rewrite:
    lines = (raw or "").replace("\r\n", "\n").split("\n")
    for index in range(len(lines) - 1, -1, -1):  # the last bare "#" line is the separator
        if _HEADING.match(lines[index]):
            return _result(raw, previous_text, lines[:index], lines[index + 1 :])
    for index, line in enumerate(lines):  # "# text" on the same line
        if line.lstrip().startswith("#"):
            first = line.lstrip().lstrip("#").strip()
            return _result(raw, previous_text, lines[:index], [first, *lines[index + 1 :]])
    return Rewrite(text=previous_text, explanation="", raw=raw or "", parsed=False)


def _result(raw: str, previous_text: str, before: list[str], after: list[str]) -> Rewrite:
    body = "\n".join(line.strip() for line in after if line.strip()).strip().strip('"').strip()
    if not body:
        return Rewrite(text=previous_text, explanation="", raw=raw, parsed=False)
    return Rewrite(text=body, explanation="\n".join(before).strip(), raw=raw, parsed=True)
