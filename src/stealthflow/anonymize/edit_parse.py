"""What the spaCy parses of a sentence and of its edited version say about an edit: where the edit is
(`edited_stretch`) and what it does at its edges (`FEATURES`): a word left without the words it needs after it, a word
whose part of speech the edit changes, a pronoun left without its noun, part of a name left, a stand-in of the
phrase's own kind. The reader veto (`gate.shipped_veto`) reads them; they speak to the blind readers' reasons for
rejecting an edit (benchmarks/results/reader_rejects.md).
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from stealthflow.anonymize.hypernyms import kind_of
from stealthflow.anonymize.person_nouns import singulars
from stealthflow.anonymize.syntax import parse
from stealthflow.placeholders.common_words import function_word

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

FEATURES = (
    "junction",  # word pairs newly left broken across the edit's edges (`broken_junctions`), edit minus original
    "reread",  # words at the edit's edges whose part of speech the edit changes ("the whole city is" -> "the whole is")
    "pronoun_left",  # a noun left and a third-person pronoun after it stays, or one is put in (`pronoun_left`)
    "name_split",  # the edit takes part of a name and leaves the rest ("Semana Santa" -> "Santa")
    "kind_kept",  # a stand-in keeps a word of the phrase or names its kind (`hypernyms.kind_of`): "a kayak" -> "a boat"
)

TOKEN = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]")


def edited_stretch(sentence: str, edited: str) -> tuple[int, int, int, int] | None:
    """Where the edit is, in characters: (start, end) of the words of `sentence` that left and (start, end) of the
    words put in their place in `edited`, from the first token that differs to the last (an empty stretch where
    nothing left or nothing came in); None for identical texts."""
    a = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(sentence)]
    b = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(edited)]
    changes = [
        op
        for op in difflib.SequenceMatcher(a=[t[0] for t in a], b=[t[0] for t in b], autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    if not changes:
        return None
    i1, i2, j1, j2 = changes[0][1], changes[-1][2], changes[0][3], changes[-1][4]

    def stretch(tokens: list, first: int, last: int, text: str) -> tuple[int, int]:
        if last > first:
            return tokens[first][1], tokens[last - 1][2]
        at = tokens[first][1] if first < len(tokens) else len(text)
        return at, at

    return (*stretch(a, i1, i2, sentence), *stretch(b, j1, j2, edited))


#: coarse tags of words that need a word after them in their phrase
_NEEDS_NEXT = frozenset({"DET", "ADP", "CCONJ", "SCONJ"})
#: coarse tags that cannot follow a determiner or a possessive (it needs its noun phrase)
_NOT_AFTER_DETERMINER = frozenset({"ADP", "AUX", "VERB", "CCONJ", "SCONJ", "DET", "PART"})
#: coarse tags that cannot follow a preposition or a conjunction
_NOT_AFTER_JOINER = frozenset({"CCONJ", "SCONJ", "AUX"})
_NOUNS = frozenset({"NOUN", "PROPN"})


def _edges(doc: Doc, start: int, end: int) -> list[tuple[Token | None, Token | None]]:
    """The token pairs across the edges of the stretch doc.text[start:end]: (the word before, its first word) and
    (its last word, the word after); (the word before, the word after) when it is empty."""
    before = next((t for t in reversed(doc) if t.idx + len(t) <= start), None)
    inside = [t for t in doc if start <= t.idx < end]
    after = next((t for t in doc if t.idx >= end), None)
    if not inside:
        return [(before, after)]
    return [(before, inside[0]), (inside[-1], after)]


def _broken(left: Token | None, right: Token | None) -> bool:
    """`left` then `right` cannot stand next to each other: a word that needs one after it before punctuation or the
    end, a word twice ("old and and"), a determiner or possessive before no noun phrase ("my is"), a preposition or
    conjunction before a conjunction or an auxiliary ("from and", "in is")."""
    if left is None or left.is_punct:
        return False
    determiner = left.pos_ == "DET" or left.dep_ == "poss"
    if right is None or right.is_punct:
        return determiner or left.pos_ in _NEEDS_NEXT
    if left.is_alpha and left.lower_ == right.lower_:
        return True
    if determiner:
        return right.pos_ in _NOT_AFTER_DETERMINER
    return left.pos_ in _NEEDS_NEXT and right.pos_ in _NOT_AFTER_JOINER


def broken_junctions(doc: Doc, start: int, end: int) -> int:
    """How many pairs across the edges of doc.text[start:end] are `_broken`."""
    return sum(_broken(left, right) for left, right in _edges(doc, start, end))


def _reread(original: Doc, edited: Doc, where: tuple[int, int, int, int]) -> int:
    """Words at the edges of the edit, outside it, whose part of speech differs in the edited parse: a word the
    edit left without what made it what it was ("whole" of "the whole city is", a noun in "the whole is")."""
    shift = (where[3] - where[2]) - (where[1] - where[0])
    kept = {t.idx: t.pos_ for t in original if t.idx + len(t) <= where[0] or t.idx >= where[1]}
    edges = {t for pair in _edges(edited, where[2], where[3]) for t in pair if t is not None}
    outside = [t for t in edges if not where[2] <= t.idx < where[3]]
    return sum(
        kept.get(t.idx if t.idx < where[2] else t.idx - shift, t.pos_) != t.pos_ for t in outside if not t.is_punct
    )


def _third_person(token: Token) -> bool:
    return token.pos_ == "PRON" and "3" in token.morph.get("Person")


def pronoun_left(old: list[Token], new: list[Token], after: list[Token]) -> bool:
    """A noun left with nothing nominal in its place while a third-person pronoun stays after it ("three of them"
    once "with two teenagers" left), or a third-person pronoun was put in for words that held none ("their fees")."""
    noun_left = any(t.pos_ in _NOUNS for t in old) and not any(t.pos_ in _NOUNS | {"PRON"} for t in new)
    put_in = any(_third_person(t) for t in new) and not any(_third_person(t) for t in old)
    return noun_left and any(_third_person(t) for t in after) or put_in


def _names(doc: Doc) -> list[list[Token]]:
    """The names of `doc`: its named entities and runs of proper nouns."""
    runs, run = [list(ent) for ent in doc.ents], []
    for token in [*doc, None]:
        if token is not None and token.pos_ == "PROPN":
            run.append(token)
        elif run:
            runs, run = [*runs, run], []
    return runs


def splits_name(doc: Doc, start: int, end: int) -> bool:
    """The stretch doc.text[start:end] takes part of a name of several words and leaves the rest."""
    for name in _names(doc):
        inside = sum(start <= t.idx < end for t in name)
        if 0 < inside < len(name):
            return True
    return False


def kind_kept(old: list[Token], new: list[Token]) -> bool:
    """A stand-in keeps a content word of the words it replaces, in the singular or a plural, or names the kind of
    one of them (`hypernyms.kind_of`): "Straddle carriers" -> "Carriers", "a kayak" -> "a boat"."""
    forms = {form for t in old for form in singulars(t.text)}
    kinds = {kind_of(t.text) for t in old if t.pos_ == "NOUN"} - {None}
    return any(singulars(t.text) & (forms | kinds) for t in new if t.is_alpha and not function_word(t.text))


def reading(sentence: str, edited: str) -> list[float]:
    """The features the parses of `sentence` and `edited` give (`FEATURES`): 0 for identical texts."""
    where = edited_stretch(sentence, edited)
    if where is None:
        return [0.0] * len(FEATURES)
    original, changed = parse(sentence), parse(edited)
    old = [t for t in original if where[0] <= t.idx < where[1]]
    new = [t for t in changed if where[2] <= t.idx < where[3]]
    after = [t for t in changed if t.idx >= where[3]]
    junction = broken_junctions(changed, where[2], where[3]) - broken_junctions(original, where[0], where[1])
    return [
        float(max(0, junction)),
        float(_reread(original, changed, where)),
        float(pronoun_left(old, new, after)),
        float(splits_name(original, where[0], where[1])),
        float(bool(new) and kind_kept(old, new)),
    ]
