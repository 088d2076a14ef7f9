"""Teacher anonymization examples, for an anonymizer that cannot yet write the answer format.

A model that never writes the `#` line (the embedded 135M) leaves a run without a single
readable anonymized round, so harvest finds no anonymization example, every GRPO completion
earns 0 and GRPO's update is 0. The `quoted-lines` teacher answers those unreadable turns
itself, without a model: it removes each comment line the adversary quoted as evidence for an
attribute it guessed right (top-1), keeps every other line as it was, and says so in one short
sentence before the `#` line. It is a format warm-up, not a strong anonymizer: what it gains is
measured by the evaluation, never assumed here (harvest runs no model).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from stealthflow.attack import top1_correct
from stealthflow.data import ATTRIBUTES
from stealthflow.data.attributes import DESCRIPTIONS
from stealthflow.harvest.examples import Row, anonymizer_row, prompt_key
from stealthflow.workflow.trajectory import RoundRecord

Teacher = Literal["quoted-lines"]
# Quoted evidence in an attacker's inference ("..." or “...”); shorter quotes are single words
# or phrases that match too many lines.
_QUOTE = re.compile(r"\"([^\"]{12,})\"|“([^”]{12,})”")


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def quoted_snippets(inference: str) -> list[str]:
    """The quoted passages of an inference, flattened; a trailing ellipsis (a cut quote) dropped."""
    snippets = []
    for match in _QUOTE.finditer(inference):
        snippet = _flat(match.group(1) or match.group(2)).rstrip("…").rstrip(".").strip()
        if len(snippet) >= 12:
            snippets.append(snippet)
    return snippets


def revealing_lines(source: RoundRecord) -> dict[int, set[str]]:
    """Line index of `source.text` -> attributes whose correct top-1 guess quoted that line."""
    lines = [_flat(line) for line in source.text.split("\n")]
    found: dict[int, set[str]] = {}
    for attack in source.attacks:
        for attribute, guess in attack.guesses.items():
            if attribute not in source.labels or not top1_correct(attack.verdicts.get(attribute, [])):
                continue
            for snippet in quoted_snippets(guess.inference):
                for index, line in enumerate(lines):
                    if snippet in line:
                        found.setdefault(index, set()).add(attribute)
    return found


class TeacherAnswer(NamedTuple):
    explanation: str
    text: str
    removed_lines: int


def quoted_lines_answer(source: RoundRecord) -> TeacherAnswer | None:
    """The teacher's answer, or None when nothing was quoted or every line was."""
    lines = source.text.split("\n")
    revealing = revealing_lines(source)
    kept = [line for index, line in enumerate(lines) if index not in revealing and line.strip()]
    if not revealing or not kept:
        return None
    attributes = [DESCRIPTIONS[a] for a in ATTRIBUTES if any(a in found for found in revealing.values())]
    named = attributes[0] if len(attributes) == 1 else ", ".join(attributes[:-1]) + " and " + attributes[-1]
    comments = "comment that reveals" if len(revealing) == 1 else f"{len(revealing)} comments that reveal"
    explanation = f"I remove the {comments} the author's {named} and keep the others unchanged."
    return TeacherAnswer(explanation, "\n".join(kept), removed_lines=len(revealing))


def teacher_examples(rounds: list[RoundRecord]) -> list[Row]:
    """One example per distinct unreadable anonymizer turn that the teacher can answer."""
    by_round = {r.round: r for r in rounds}
    rows: list[Row] = []
    seen: set[str] = set()
    for record in rounds:
        turn, source = record.anonymizer, by_round.get(record.round - 1)
        if turn is None or turn.parsed or source is None:
            continue
        key = prompt_key(turn.messages)
        if key in seen or (answer := quoted_lines_answer(source)) is None:
            continue
        seen.add(key)
        rows.append(
            anonymizer_row(
                record, "teacher:quoted-lines", answer.explanation, answer.text, removed_lines=answer.removed_lines
            )
        )
    return rows
