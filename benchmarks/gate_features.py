"""Candidate features of an edit for the acceptance gate (`stealthflow.anonymize.gate`), beyond the ones it ships
with: what the parses of the sentence and of the edited sentence say about the edit's edges, and how near the whole
edited sentence is to the sentence. They speak to the blind readers' reasons for rejecting an edit (a word left
dangling, a pronoun without its noun, part of a name left, a stand-in unrelated to the phrase, a point lost);
`benchmarks/acceptance_gate.py --leave-one-seed-out` measures whether a gate refitted with them does better. The
shipped gate does not read them (benchmarks/results/acceptance_gate_refit.md says why).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stealthflow.anonymize import meaning
from stealthflow.anonymize.gate import edited_stretch
from stealthflow.anonymize.hypernyms import kind_of
from stealthflow.anonymize.person_nouns import singulars
from stealthflow.anonymize.syntax import parse
from stealthflow.placeholders.common_words import function_word

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

PARSE_FEATURES = (
    "junction",  # word pairs newly left broken across the edit's edges (`broken_junctions`), edit minus original
    "reread",  # words at the edit's edges whose part of speech the edit changes ("the whole city is" -> "the whole is")
    "pronoun_left",  # a noun left and a third-person pronoun after it stays, or one is put in (`pronoun_left`)
    "name_split",  # the edit takes part of a name and leaves the rest ("Semana Santa" -> "Santa")
    "kind_kept",  # a stand-in keeps a word of the phrase or names its kind (`hypernyms.kind_of`): "a kayak" -> "a boat"
)
#: MiniLM cosine of the sentence and the edited sentence (a point lost moves the whole sentence)
SENTENCE_NEARNESS = "sentence_nearness"
FEATURES = (*PARSE_FEATURES, SENTENCE_NEARNESS)


def rows(edits: list[tuple[str, str]], embed: meaning.Embed | None = None) -> list[list[float]]:
    """`FEATURES` of each (sentence, edited sentence)."""
    near = meaning.nearness(edits, embed)
    return [[*reading(sentence, edited), n] for (sentence, edited), n in zip(edits, near, strict=True)]


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
    """The features the parses of `sentence` and `edited` give (`PARSE_FEATURES`): 0 for identical texts."""
    where = edited_stretch(sentence, edited)
    if where is None:
        return [0.0] * len(PARSE_FEATURES)
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
