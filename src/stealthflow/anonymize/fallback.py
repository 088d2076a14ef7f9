"""The last resort for a marked phrase that stayed (no stand-in replaced it, no constituent around it left): the
smallest clause holding it that its sentence stands without leaves the text (`syntax.clause_removals`: a coordinated,
adverbial, relative or participial clause, an appositive), else its whole sentence when the text keeps another sentence
with content; a text's only sentence never goes (the phrase stays, reported). Only for a mark the cue tagger is
confident of (`confidence_floor`): a harmless post does not lose a sentence to the tagger's false marks.

Each edit is judged as the generalizer's are: a clause removal by the acceptance gate and its hard floors in its
sentence (`gate.Gate.verdicts`), a sentence removal by the removal floor on the text (`gate.REMOVAL_FLOOR`); neither may
lose or repeat a placeholder, leave a word dangling (`generalize.whole`) nor take what a later "there" or "them" points
at (`referents.leaves_reference`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from stealthflow.anonymize import referents, syntax
from stealthflow.anonymize.gate import REMOVAL_FLOOR
from stealthflow.anonymize.generalize import Generalizer, sentence_bounds, whole
from stealthflow.anonymize.placeholders_kept import keeps_placeholders
from stealthflow.data.evidence import find_phrase
from stealthflow.evaluation.evidence import STOP_WORDS, words
from stealthflow.resources import data_yaml

FLOOR_FILE = "generalize/fallback.yaml"


@cache
def confidence_floor() -> float:
    """The cue tagger's score (`TaggedSpan.score`) a mark needs for its clause or sentence to leave: `FLOOR_FILE`
    says how it was chosen."""
    return float(data_yaml(FLOOR_FILE)["confidence_floor"])


@dataclass(frozen=True)
class Removal:
    phrase: str  # the mark that stayed
    attribute: str
    removed: str  # what left the text with it
    how: str  # "clause" or "sentence"
    confidence: float  # the tagger's score of the mark


def drop(sentence: str, start: int, end: int) -> str:
    """`sentence` without sentence[start:end], its punctuation tidied: a comma set off on both sides goes with it ("My
    sister, who lives in Leeds, is coming" -> "My sister is coming"), a comma before a full stop too ("here, and I
    grew up in Cork." -> "here."), and a sentence it opened starts with a capital ("When I was 10, we moved" -> "We
    moved")."""
    before, after = sentence[:start].rstrip(), sentence[end:].lstrip()
    if not before:
        after = after.lstrip(",;:—–- ")
        return after[:1].upper() + after[1:]
    if re.search(r"[,;:—–]$", before) and re.match(r"[,;:—–.!?)]", after):
        before = before[:-1].rstrip()
        if after[0] in ",;:—–":
            after = after[1:].lstrip()
    if not after or re.match(r"[.!?),;:]", after):
        return before + after
    return before + " " + after


def has_content(text: str) -> bool:
    return any(word not in STOP_WORDS for word in words(text))


class Fallback:
    """Removes the clause or sentence of each mark that stayed, when the tagger is confident of it."""

    def __init__(self, generalizer: Generalizer, floor: float | None = None):
        self.generalizer = generalizer
        self.floor = confidence_floor() if floor is None else floor

    def remove(self, text: str, stays: list[tuple[str, str, float]]) -> tuple[str, list[str], list[Removal]]:
        """`text` without the clause or sentence of each (phrase, attribute, the tagger's confidence) of `stays` that
        can leave; the phrases still in it, reported; what left and how."""
        kept, removals = [], []
        for phrase, attribute, confidence in stays:
            if find_phrase(phrase, text) is None:  # it left with an earlier one's clause or sentence
                continue
            sure = confidence >= self.floor and has_content(phrase)
            edit = (self._clause(text, phrase) or self._sentence(text, phrase)) if sure else None
            if edit is None:
                kept.append(phrase)
                continue
            text, removed, how = edit
            removals.append(Removal(phrase, attribute, removed, how, confidence))
        return text, kept, removals

    def _clause(self, text: str, phrase: str) -> tuple[str, str, str] | None:
        """The text without the smallest clause holding `phrase` whose removal the gate passes, or None."""
        found = find_phrase(phrase, text)
        first, last = sentence_bounds(text, *found)
        sentence = text[first:last]
        trials = []
        for a, b in syntax.clause_removals(sentence, found[0] - first, found[1] - first):
            edited = drop(sentence, a, b)
            if referents.leaves_reference(sentence, a, b, text[last:]):
                continue
            if has_content(edited) and keeps_placeholders(sentence, edited) and whole(sentence, edited):
                trials.append((sentence[a:b], edited))
        if not trials:
            return None
        scores = self.generalizer.scorer.compare([sentence] * len(trials), [edited for _, edited in trials])
        verdicts = self.generalizer.gate.verdicts([(sentence, e) for _, e in trials], scores, self.generalizer.embed)
        for (removed, edited), (_, accepted) in zip(trials, verdicts, strict=True):
            if accepted:  # the smallest the gate passes
                return text[:first] + edited + text[last:], removed, "clause"
        return None

    def _sentence(self, text: str, phrase: str) -> tuple[str, str, str] | None:
        """The text without the sentence holding `phrase` when another sentence with content stays and the removal
        clears the removal floor, or None."""
        found = find_phrase(phrase, text)
        first, last = sentence_bounds(text, *found)
        rest = text[:first] + text[last:]
        if last == len(text):
            rest = rest.rstrip()
        if not has_content(rest) or not keeps_placeholders(text, rest) or not whole(text, rest):
            return None
        if referents.leaves_reference(text[first:last], 0, last - first, text[last:]):
            return None
        [score] = self.generalizer.scorer.compare([text], [rest])
        if score.score < REMOVAL_FLOOR:  # no function-word check: the sentences that stay end as they did
            return None
        return rest, text[first:last].strip(), "sentence"
