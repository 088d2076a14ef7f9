"""A stand-in keeps who its text is about (stealthflow.anonymize.referents; spaCy's parse, FAKE scorers and
embedders for the generalizer)."""

from __future__ import annotations

import numpy as np
import pytest
from gate_fakes import ScoreByTable, floors_gate

from stealthflow.anonymize.generalize import Generalizer
from stealthflow.anonymize.referents import keeps_referent, leaves_reference


def _keeps(sentence: str, phrase: str, candidate: str, after: str = "") -> bool:
    start = sentence.index(phrase)
    return keeps_referent(sentence, start, start + len(phrase), candidate, sentence[start + len(phrase) :] + after)


@pytest.mark.parametrize(
    ("sentence", "phrase", "candidate", "after", "kept"),
    [
        ("My husband and I moved to Leeds.", "My husband and I", "My partner and I", " He works nights.", True),
        ("My husband and I moved to Leeds.", "My husband and I", "We", "", True),
        # "He" would point at no one
        ("My husband and I moved to Leeds.", "My husband and I", "We", " He works nights.", False),
        ("My husband and I moved to Leeds.", "My husband and I", "Someone and I", "", False),
        # the husband made an unknown person, or the author
        ("My husband thinks his mum's gravy is fine.", "My husband", "Someone", "", False),
        ("My husband thinks his mum's gravy is fine.", "My husband", "A person", "", False),
        ("My husband loves hiking.", "My husband", "We", "", False),
        ("My husband loves hiking.", "My husband", "My partner", " He goes every weekend.", True),
        # a person word WordNet does not know, a bare singular noun: someone in particular all the same
        ("My bf lives in Chicago.", "My bf", "Someone", "", False),
        ("Hubby says the heating is broken again.", "Hubby", "Someone", "", False),
        # no one in particular may become someone, people in particular may not
        ("Any other guys get nervous at the barber?", "Any other guys", "Someone", "", True),
        ("The other guys get nervous at the barber.", "The other guys", "Someone", "", False),
        # a phrase known to name no person may become something indefinite, one that may name a person may not
        ("I love my job.", "my job", "something", "", True),
        ("I love my bestie.", "my bestie", "someone", "", False),
    ],
)
def test_a_stand_in_names_the_same_people(sentence, phrase, candidate, after, kept):
    assert _keeps(sentence, phrase, candidate, after) == kept


@pytest.mark.parametrize(
    ("sentence", "phrase", "candidate", "kept"),
    [
        # a place's name names no one: the place may become an indefinite place
        ("Grew up in Kerala, moved for uni.", "Kerala", "a warm place", True),
        ("Ballymena born and bred.", "Ballymena", "A small town", True),
        # people marked as a place's cue keep their people
        ("My amma's sambar tastes like home.", "My amma", "Someone", False),
    ],
)
def test_a_phrase_marked_as_a_place_named_by_a_proper_noun_names_no_one(sentence, phrase, candidate, kept):
    start = sentence.index(phrase)
    end = start + len(phrase)
    assert keeps_referent(sentence, start, end, candidate, sentence[end:], place=True) == kept


@pytest.mark.parametrize(
    ("sentence", "phrase", "candidate", "kept"),
    [
        # blind readers' seed-16 verdicts, both judged nonsense: the stand-in is a noun the sentence names already
        ("Fika is not a coffee break, it is a constitutional right.", "Fika", "Coffee", False),
        ("Fika is not a coffee break, it is a constitutional right.", "Fika", "Tea", True),
        # seed 15: a stand-in for one word of a film's name makes another name; the whole name may go
        ("Laapataa Ladies was the best film of the year.", "Ladies", "Folks", False),
        ("Laapataa Ladies was the best film of the year.", "Laapataa Ladies", "Laapataa Folks", False),
        ("Laapataa Ladies was the best film of the year.", "Laapataa Ladies", "That comedy", True),
    ],
)
def test_a_stand_in_never_names_a_thing_twice_nor_makes_another_name(sentence, phrase, candidate, kept):
    assert _keeps(sentence, phrase, candidate) == kept


def near_everything(texts):
    """FAKE embedder: every text the same vector, so every candidate passes the meaning floor."""
    return np.ones((len(texts), 8), dtype=np.float32) / np.sqrt(8)


def test_the_generalizer_never_takes_a_stand_in_that_changes_who_the_post_is_about():
    """The best-reading stand-in is not taken when it changes who the post is about: "We moved to Leeds. He works
    nights." leaves "He" pointing at no one; "Someone thinks his mum's gravy is fine" makes the husband a stranger."""
    text = "My husband and I moved to Leeds. He works nights."
    scorer = ScoreByTable({"We moved to Leeds.": 2.0, "My partner and I moved to Leeds.": 1.0})  # FAKE scores
    generalizer = Generalizer(scorer, floors_gate(0.0), embed=near_everything)
    ((rewrite, _),) = generalizer.generalize([text], [[("My husband and I", "married")]])
    assert rewrite == "My partner and I moved to Leeds. He works nights."
    text = "My husband thinks his mum's gravy is fine."
    scorer = ScoreByTable(
        {"Someone thinks his mum's gravy is fine.": 2.0, text.replace("My husband", "My partner"): 1.0}
    )
    ((rewrite, _),) = Generalizer(scorer, floors_gate(0.0), embed=near_everything).generalize(
        [text], [[("My husband", "married")]]
    )
    assert rewrite == "My partner thinks his mum's gravy is fine."


def _leaves(text: str, phrase: str) -> bool:
    """`leaves_reference` of dropping `phrase` from the first sentence of `text` (sentences split at ". ")."""
    first, _, rest = text.partition(". ")
    sentence, following = (first + ".", " " + rest) if rest else (text, "")
    start = sentence.index(phrase)
    return leaves_reference(sentence, start, start + len(phrase), following)


@pytest.mark.parametrize(
    ("text", "phrase", "left"),
    [
        # readers' pairs (seeds 16, 17) judged not fluent: "there", "them" pointed at what left
        ("Flood in Atyrau region, I drive through there last week with load.", " in Atyrau region", True),
        ("Still I am happier alone with two teenagers than I was with three of them.", " with two teenagers", True),
        # "them" finds "the kids", which stays; an expletive "there" points at nothing
        ("The kids and two teenagers from Leeds came, all of them soaked.", " from Leeds", False),
        ("We moved from Leeds and there is no going back.", " from Leeds", False),
        # the next sentence's "there", once the sentence's only place left
        ("Grew up in Cork. Never went back there.", " in Cork", True),
        # "it" is not counted: it points at events as often as at things
        ("I love the pubs in Cork, it is the best.", " in Cork", False),
        # a demonstrative before the noun that left
        ("I took the tram to the match. That tram was packed.", " the tram", True),
    ],
)
def test_a_removal_never_takes_what_a_later_pro_form_points_at(text, phrase, left):
    assert _leaves(text, phrase) == left
