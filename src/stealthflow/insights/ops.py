"""Read the insight LLM's operations: `ADD/EDIT/UPVOTE/DOWNVOTE<n>: rule`. Never raises.

Models decorate the format in every way: markdown bold, brackets (`EDIT [2]`, `UPVOTE<3>`,
`DOWNVOTE #1`), list numbering in front (`1. ADD: ...`), a dash instead of a colon, the
rule in quotes. Lines that are not an operation (prose, headings) are ignored; EDIT/UPVOTE/
DOWNVOTE without a rule number and ADD/EDIT without a rule text are invalid and dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

OpKind = Literal["ADD", "EDIT", "UPVOTE", "DOWNVOTE"]

_OPERATION = re.compile(
    r"""^[\s>*_#\-•]*(?:\(?\d+[.)]\s*)?[\s*_]*     # bullets, numbering, markdown
    (ADD|EDIT|UPVOTE|DOWNVOTE)\b[\s*_]*
    (?:[<\[(#]?\s*(?:rule\s*)?(\d+)\s*[>\])]?)?[\s*_]*  # rule number in any bracket
    (?:[:：\-–—]\s*(.*))?$""",
    re.IGNORECASE | re.VERBOSE,
)
MAX_RULE_WORDS = 100


@dataclass(frozen=True)
class Operation:
    kind: OpKind
    number: int | None = None  # 1-based rule number as shown in the prompt
    rule: str = ""


def parse_operations(raw: str, max_operations: int = 4) -> list[Operation]:
    operations = []
    for line in (raw or "").splitlines():
        match = _OPERATION.match(line.strip())
        if not match:
            continue
        kind = match.group(1).upper()
        number = int(match.group(2)) if match.group(2) else None
        rule = _clean_rule(match.group(3) or "")
        if kind in ("EDIT", "UPVOTE", "DOWNVOTE") and number is None:
            continue
        if kind in ("ADD", "EDIT") and not rule:
            continue
        operations.append(Operation(kind, number, rule if kind in ("ADD", "EDIT") else ""))
        if len(operations) == max_operations:
            break
    return operations


def _clean_rule(text: str) -> str:
    text = text.strip().strip("*_`").strip().strip("\"'“”").strip()
    words = text.split()
    return " ".join(words[:MAX_RULE_WORDS])
