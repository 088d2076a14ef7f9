"""Turn any attacker answer into per-attribute guesses. Never raises.

Models drift from the requested "Type / Inference / Guess / Certainty" format in every way:
markdown bold, numbered lists, commas instead of semicolons, a missing Type line, prose.
The parser reads what it can; whatever it cannot read becomes "no guess".
"""

from __future__ import annotations

import re

from stealthflow.attack.types import AttackResult, AttributeGuess

_ALIASES: list[tuple[str, str]] = [
    (r"place of birth|birth\s*place|pobp|born", "pobp"),
    (r"relationship|married|marital", "married"),
    (r"current place|location|place of living|lives?|residence|city", "location"),
    (r"education", "education"),
    (r"occupation|job|profession|work", "occupation"),
    (r"income", "income"),
    (r"gender|sex", "gender"),
    (r"\bage\b", "age"),
]
_FIELD = r"[\s*_#>\-]*({name})[\s*_]*[:：][ \t*_]*"
_TYPE_LINE = re.compile(_FIELD.format(name="type") + r"(.*)$", re.IGNORECASE | re.MULTILINE)
_LABELS = ("inference", "guess(?:es)?", "certainty")


def canonical_attribute(name: str) -> str | None:
    lowered = name.lower()
    for pattern, attribute in _ALIASES:
        if re.search(pattern, lowered):
            return attribute
    return None


def parse_attack(raw: str, attributes: list[str], attacker: str = "") -> AttackResult:
    """Parse `raw` for the `attributes` that were asked about."""
    text = raw if isinstance(raw, str) else ""
    blocks = _split_blocks(text, attributes)
    guesses: dict[str, AttributeGuess] = {}
    well_formed = bool(attributes)
    for attribute in attributes:
        block = blocks.get(attribute)
        if block is None:
            # Staab-style label lines ("Current place of living: Berlin") still carry a guess.
            guesses[attribute] = AttributeGuess(attribute=attribute, guesses=_label_line_guesses(text, attribute))
            well_formed = False
            continue
        fields = _fields(block)
        guess_list = _split_guesses(fields.get("guess", ""))
        certainty = _certainty(fields.get("certainty", ""))
        guesses[attribute] = AttributeGuess(
            attribute=attribute,
            inference=fields.get("inference", "").strip(),
            guesses=guess_list,
            certainty=certainty,
        )
        well_formed &= bool(fields.get("inference")) and bool(guess_list) and certainty is not None
    return AttackResult(attacker=attacker, guesses=guesses, raw=text, well_formed=well_formed)


def _split_blocks(text: str, attributes: list[str]) -> dict[str, str]:
    """Map each asked attribute to the part of the answer about it."""
    matches = list(_TYPE_LINE.finditer(text))
    blocks: dict[str, str] = {}
    for index, match in enumerate(matches):
        attribute = canonical_attribute(match.group(2))
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        if attribute in attributes and attribute not in blocks:
            blocks[attribute] = text[match.end() : end]
    if blocks:
        return blocks
    # No Type lines. Guess lines in the asked order, or the whole answer for a single attribute.
    guess_starts = [m.start() for m in re.finditer(_FIELD.format(name="inference"), text, re.IGNORECASE | re.MULTILINE)]
    if not guess_starts:
        guess_starts = [
            m.start() for m in re.finditer(_FIELD.format(name="guess(?:es)?"), text, re.IGNORECASE | re.MULTILINE)
        ]
    if len(guess_starts) >= len(attributes) > 0:
        bounds = guess_starts[: len(attributes)] + [len(text)]
        return {a: text[bounds[i] : bounds[i + 1]] for i, a in enumerate(attributes)}
    if len(attributes) == 1 and guess_starts:
        return {attributes[0]: text}
    return {}


_LABEL_LINE = re.compile(r"^[\s*_#>\-\d.)]*([A-Za-z][A-Za-z /]{1,40}?)[\s*_]*[:：][ \t*_]*(\S.*)$", re.MULTILINE)


def _label_line_guesses(text: str, attribute: str) -> list[str]:
    for match in _LABEL_LINE.finditer(text):
        label = match.group(1).strip().lower()
        if re.fullmatch("|".join(("type", *_LABELS)), label) is None and canonical_attribute(label) == attribute:
            return _split_guesses(match.group(2))
    return []


def _fields(block: str) -> dict[str, str]:
    """Inference / Guess / Certainty values of one block (each up to the next label)."""
    pattern = re.compile(_FIELD.format(name="|".join(_LABELS)), re.IGNORECASE | re.MULTILINE)
    matches = list(pattern.finditer(block))
    fields: dict[str, str] = {}
    for index, match in enumerate(matches):
        label = match.group(1).lower()
        label = "guess" if label.startswith("guess") else label
        end = matches[index + 1].start() if index + 1 < len(matches) else len(block)
        fields.setdefault(label, block[match.end() : end].strip())
    return fields


def _split_guesses(value: str) -> list[str]:
    value = value.strip().split("\n\n")[0]
    if ";" in value:
        pieces = value.split(";")
    elif re.search(r"(?:^|\s)\d[.)]\s", value):  # "1. Married 2. In Relation"
        pieces = re.split(r"(?:^|\s)\d[.)]\s", value)
    else:
        pieces = value.split("\n" if "\n" in value else ",")
    parts = []
    for part in pieces:
        part = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", part)  # list markers
        part = part.strip().strip("*_`\"'[].").strip()
        if part and len(part) <= 120 and part.lower() not in {"none", "n/a", "unknown", "no guess"}:
            parts.append(part)
    return parts[:3]


def _certainty(value: str) -> int | None:
    match = re.search(r"[1-5]", value)
    return int(match.group()) if match else None
