"""Whether a stand-in keeps who its text is about.

A phrase naming someone other than the author ("My husband", "My husband and I", "Sarah") is replaced only by a
stand-in naming the same people: a definite noun phrase ("my partner", "My partner and I") or a pronoun of the same
person and number ("We" for "My husband and I"). An indefinite stand-in ("someone", "a person", "people" for "My
husband") makes the husband an unknown person, a pronoun of another person ("we" for "My husband") makes him the
author: each states a fact the post did not. A stand-in that names the other person no more ("We" for "My husband
and I") is refused when a pronoun of a third person follows it in the post ("He works as a nurse"): the pronoun
would point at no one.

Who may be someone else is `person_nouns.someone`'s: any phrase whose head is no noun known to name no person
("My bf", "My coworker Dave", "Sarah"), not "My job", nor a place's name in a phrase marked as a place ("Kerala").
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from stealthflow.anonymize import person_nouns, syntax
from stealthflow.sentence_ends import sentence_ends, words_end

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

#: words that point back at what was named before them, with what they point at (a line each: word, kind)
PRO_FORMS = "pro_forms"


def keeps_referent(sentence: str, start: int, end: int, candidate: str, after: str, place: bool = False) -> bool:
    """`candidate` replacing sentence[start:end] names the same people (see the module), `after` being the text of the
    post that follows the phrase; True for a phrase that names no one but the author, or when `candidate` is empty
    (a removal: `syntax.damage` judges those). With `place` (the phrase is marked as a place), a proper noun heading it
    is the place's name, no one's ("Kerala" may become "a warm place"; "My amma", "Our team in Bangalore" keep
    their people). On the 34 place cues of benchmarks/data/cue-tagger-validation-d/-e, "a city" is refused for 7 -> 3:
    of the 4 let through, 3 name no one ("Ballymena", "NEPA", the author's "Lifelong Geordie"), 1 names people
    ("mi bredda dem back a yaad", whose "dem" spaCy reads as a proper noun).
    Never a stand-in that names what its sentence names beside it (`names_twice`: "Tea is not a tea" of "Mate is not a
    tea"), nor one that makes another name of a name in several words (`renames`: "Laapataa Folks" of the film
    "Laapataa Ladies"): each makes the sentence say another thing."""
    span = syntax.phrase(sentence, start, end)
    if not candidate.strip() or span is None:
        return True
    if names_twice(span, candidate) or renames(span, candidate):
        return False
    head = syntax.head_of(span)
    if head.pos_ == "ADP" or place and head.pos_ == "PROPN" or not person_nouns.someone(head):
        return True
    with_author = any(syntax.is_author(t) for t in head.conjuncts if t in span)
    person, number = ("1", "Plur") if with_author else ("3", "Plur" if head.tag_ in {"NNS", "NNPS"} else "Sing")
    root = next(iter(syntax.parse(candidate).sents)).root
    if _indefinite(root):  # "someone", "a person", "people": only for no one in particular ("Any other guys")
        return not _definite(head)
    if root.pos_ == "PRON":  # "we" for "My husband and I", never for "My husband"
        if root.morph.get("Person") != [person] or root.morph.get("Number") not in ([number], []):
            return False
        return person == "3" or not _third_person_follows(after)  # "We ... He works as a nurse"
    return True


def names_twice(span: Span, candidate: str) -> bool:
    """The noun heading `candidate` is a noun of `span`'s sentence outside it: standing in for `span` it makes the
    sentence name one thing twice ("Coffee is not a coffee break" of "Fika is not a coffee break"). Written from seed
    16's verdicts (two stand-ins both readers judged nonsense). Replaying `local` (benchmarks/reader_replay.py): on
    seeds 12-17 those 2 rejected pairs keep their mark, reported, and no accepted pair printed changes; on seeds 23, 29
    and 31 (not read) no pair printed changes."""
    root = next(iter(syntax.parse(candidate).sents)).root
    if root.pos_ not in {"NOUN", "PROPN"}:
        return False
    outside = (t for t in span.sent if t.i not in range(span.start, span.end))
    return any(t.pos_ in {"NOUN", "PROPN"} and t.lower_ == root.lower_ for t in outside)


def renames(span: Span, candidate: str) -> bool:
    """Standing in for `span`, `candidate` makes another name of a name in several words (`syntax.name_parts`): `span`
    takes some of its words, not all, or takes it whole and `candidate` keeps some of its words, not all ("Laapataa
    Folks" of the film "Laapataa Ladies", seed 15, written from: replaying `local` on seeds 12-17 that pair keeps its
    mark, reported, and no accepted pair printed changes; on seeds 23, 29 and 31, not read, no pair printed changes)."""
    inside, kept = range(span.start, span.end), set(candidate.split())
    for part in syntax.name_parts(span.doc):
        taken = sum(t.i in inside for t in part)
        if 0 < taken < len(part) or taken and 0 < sum(t.text in kept for t in part) < len(part):
            return True
    return False


def _indefinite(root: Token) -> bool:
    """The noun phrase headed by `root` names no one in particular: "a person", "people", "someone"."""
    if root.pos_ == "PRON":
        return root.morph.get("PronType") == ["Ind"]
    dets = [t for t in root.children if t.dep_ in {"det", "poss"}]
    if not dets:
        return root.tag_ in {"NNS", "NNPS"}
    return all(d.morph.get("Definite") == ["Ind"] for d in dets)


def _definite(head: Token) -> bool:
    """The phrase headed by `head` names someone in particular: a name, a noun with a possessive or "the", or a
    singular noun with no determiner ("Wife says", "Mum lives"; not "Nurses")."""
    if head.pos_ == "PROPN":
        return True
    dets = [t for t in head.children if t.dep_ in {"det", "poss"}]
    if not dets:
        return head.tag_ == "NN"
    return any(t.dep_ == "poss" or t.morph.get("Definite") == ["Def"] for t in dets)


def _third_person_follows(after: str) -> bool:
    """A personal pronoun of a third person who is not a thing ("he", "her", "his", "they") is in `after`."""
    return any(
        t.pos_ == "PRON" and t.morph.get("Person") == ["3"] and syntax.someone_else(t) for t in syntax.parse(after)
    )


@cache
def pro_forms() -> dict[str, str]:
    """{word: what it points at ("thing", "things", "place")} of data/generalize/pro_forms.txt."""
    return dict(line.split() for line in syntax.word_list(PRO_FORMS))


def leaves_reference(sentence: str, start: int, end: int, following: str = "") -> bool:
    """Dropping sentence[start:end] would leave a word pointing at nothing: a pro-form (`pro_forms`) in the rest of the
    sentence or in the next one (the start of `following`, the post after the sentence) that points at what the
    removal takes (`refers_back`): "I drive through there" once "in Atyrau region" left, "three of them" once "with
    two teenagers" left.

    Written from the readers' notes of seeds 10-23. Replaying `local` on their originals (benchmarks/reader_replay.py,
    default options): of the 189 pairs a reader judged not fluent, 5 are rewritten otherwise or report one more phrase
    (one printed as judged, "Flood, I drive through there", is now reported, not printed); of the 433 both judged
    fluent and faithful, 3 ("My cousins are out there", "his mom and ... live there", "Protest again tonight.
    Locals don't want us there": the place stays, reported), one of them printed before. On the judged rewrites
    themselves it flags 7 of the 189 and 3 of the 433. Clue-free posts of blind sets h-n: none of 1 268 changes.
    The next sentence is cut where `sentence_ends` ends it (as `generalize.sentence_bounds`), so only the sentence and
    it are parsed, not the rest of the post once per sentence: on every noun chunk of the 320 posts of
    benchmarks/data/rewrite-heldout (2 014 calls) the answer is the spaCy sentence's in each, parsing CPU 16.1 -> 10.5 s
    (each call parsed afresh)."""
    after = _next_sentence(following)
    doc = syntax.parse(sentence + (" " + after if after else ""))
    span = doc.char_span(start, end, alignment_mode="expand")
    return span is not None and len(span) > 0 and refers_back(span)


def _next_sentence(following: str) -> str:
    """The first sentence of `following` (its white space before and after left out), "" if it holds none."""
    following = following.lstrip()
    end = next(sentence_ends(following, abbreviations_end=False), None)
    return following[: words_end(end) if end else len(following)].rstrip()


def refers_back(removed: Span) -> bool:
    """A pro-form after `removed` in its doc points at a noun of it and nothing else: no other noun of the kind it
    points at (`_kinds`: "they", "them", "these", "those" at plural things, "there" at a place) stands before it in the
    doc outside the removal, where it would find its referent. A demonstrative before a noun the removal took ("that
    tram" once "the 49 tram" left) points at it too. An expletive ("there is"), "there" after a word it completes
    ("out there") and the singular "it", "this", "that" (which point at events and clauses as often as at nouns) are
    not counted."""
    doc = removed.doc
    nouns = [t for t in removed if t.pos_ in {"NOUN", "PROPN"} and t.dep_ not in _NOT_REFERENTS]
    for token in doc[removed.end :]:
        kind = pro_forms().get(token.lower_)
        if kind is None or token.dep_ == "expl":
            continue
        if token.dep_ == "det":
            if token.head.lower_ in {n.lower_ for n in nouns} and token.head.i >= removed.end:
                return True
            continue
        if kind == "determiner" or token.pos_ not in {"PRON", "ADV"} or token.head.pos_ not in {"VERB", "AUX", "ADP"}:
            continue
        if not any(kind in _kinds(n) for n in nouns):
            continue
        others = (t for t in doc[: token.i] if t.i not in range(removed.start, removed.end))
        if not any(t.pos_ in {"NOUN", "PROPN"} and t.dep_ not in _NOT_REFERENTS and kind in _kinds(t) for t in others):
            return True
    return False


#: dependencies of a noun no pro-form points at: a noun modifying another ("Calle" of "Calle Larios") or a time
#: adverbial ("next March")
_NOT_REFERENTS = {"compound", "npadvmod"}


def _kinds(token: Token) -> set[str]:
    """What a pro-form pointing at the noun `token` would be: "place" for the object of a preposition of place
    (`syntax.place_prepositions`: "in Berlin" is where, no thing "it" may be), else "thing" or "things" by its number,
    and "place" too for a proper noun ("talk about Eastleigh like it's ... there")."""
    if token.dep_ == "pobj" and token.head.lower_ in syntax.word_list("place_prepositions"):
        return {"place"}
    kinds = {"things" if token.tag_ in {"NNS", "NNPS"} else "thing"}
    return kinds | {"place"} if token.pos_ == "PROPN" else kinds
