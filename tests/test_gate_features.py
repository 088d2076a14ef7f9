"""benchmarks/gate_features.py: the candidate features of an edit read from the real spaCy parses of the sentence and
the edited sentence (the readers' reasons for rejecting an edit, on sentences made up in the test)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from gate_features import PARSE_FEATURES, reading  # noqa: E402


def read(sentence: str, edited: str) -> dict[str, float]:
    return dict(zip(PARSE_FEATURES, reading(sentence, edited), strict=True))


def test_a_word_left_twice_or_a_preposition_left_without_its_object_breaks_the_junction():
    assert read("It is old and rusty and loud.", "It is old and and loud.")["junction"] == 1.0
    assert read("I paid the loans from Sallie Mae.", "I paid the loans from.")["junction"] == 1.0
    assert read("The rent in Leeds is mad.", "The rent is mad.")["junction"] == 0.0


def test_a_word_the_edit_turned_into_another_part_of_speech_is_reread():
    assert read("The whole city is waking up.", "The whole is waking up.")["reread"] == 1.0
    assert read("The rent in Leeds is mad.", "The rent is mad.")["reread"] == 0.0


def test_a_pronoun_that_lost_its_noun_or_was_put_in():
    lost = read(
        "I am happier alone with two teenagers than I was with three of them.",
        "I am happier alone than I was with three of them.",
    )
    assert lost["pronoun_left"] == 1.0
    assert read("The uni fees are high.", "Their fees are high.")["pronoun_left"] == 1.0
    assert read("My lads at work are great.", "My kids at work are great.")["pronoun_left"] == 0.0


def test_part_of_a_name_taken_and_the_rest_left():
    assert read("We go for Semana Santa every year.", "We go for Santa every year.")["name_split"] == 1.0
    assert read("We go to Leeds every year.", "We go to my city every year.")["name_split"] == 0.0


def test_a_stand_in_that_keeps_the_phrase_s_word_keeps_its_kind():
    assert read("Straddle carriers do not care.", "Carriers do not care.")["kind_kept"] == 1.0  # a word kept
    assert read("I paddle my kayak at dawn.", "I paddle my boat at dawn.")["kind_kept"] == 1.0  # its kind
    assert read("My lads at work are great.", "My kids at work are great.")["kind_kept"] == 0.0
    assert read("The rent in Leeds is mad.", "The rent is mad.")["kind_kept"] == 0.0  # a removal


def test_identical_texts_read_nothing():
    assert reading("Same text.", "Same text.") == [0.0] * len(PARSE_FEATURES)
