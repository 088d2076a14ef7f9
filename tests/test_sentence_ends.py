"""Where a sentence ends (stealthflow/sentence_ends.py): one definition read by the PII recognizers and tagger, the cue
tagger's marks, the local rewrite's pieces and the stand-in scorer's sentence."""

from __future__ import annotations

import pytest

from stealthflow.sentence_ends import initial_before, sentence_ends, words_end


def _ends(text: str, **variant: bool) -> list[str]:
    """Each end as the text up to it, its marks and closers included."""
    return [text[: words_end(m)] for m in sentence_ends(text, **variant)]


def test_a_run_of_marks_and_its_closers_end_a_sentence_before_white_space_or_the_text_s_end():
    text = 'She said "I quit." Then… silence?! Really'
    assert _ends(text) == ['She said "I quit."', 'She said "I quit." Then…', 'She said "I quit." Then… silence?!']
    assert _ends("Done.") == ["Done."]
    assert _ends("It costs 0.3 or $15.50 now") == []


def test_an_initial_s_full_stop_ends_no_sentence():
    assert _ends("Michael J. Fox and G.J. Hoekstra met. Then") == ["Michael J. Fox and G.J. Hoekstra met."]
    assert _ends("Am I? Plan B! Then") == ["Am I?", "Am I? Plan B!"]  # only a full stop
    assert initial_before("Michael J.", 10) and initial_before("G.J.", 4)
    assert not initial_before("MJ.", 3) and not initial_before("met.", 4)


def test_line_breaks_end_a_sentence_unless_the_caller_says_otherwise():
    text = "Anna Berg\n12 Elm Street\n\nThanks. Bye"
    assert [(m.start(), m.end()) for m in sentence_ends(text)] == [(9, 10), (23, 25), (31, 33)]
    assert [(m.start(), m.end()) for m in sentence_ends(text, line_breaks=False)] == [(31, 33)]


@pytest.mark.parametrize(
    "text",
    [
        "Dr. Huber called",
        "vivo en Av. Corrientes 1234",
        "Address: al. Łączna 10",
        "Hauptstr. 5",
        "a bar approx. ten years ago",
        "the traffic at 5 p.m. is insane",
    ],
)
def test_an_abbreviation_s_full_stop_ends_a_sentence_only_where_the_caller_counts_it(text: str):
    assert len(list(sentence_ends(text))) == 1
    assert list(sentence_ends(text, abbreviations_end=False)) == []


@pytest.mark.parametrize("text", ["Door No. 70, Banyan Street", "Nos. 12-14 High Street", "Calle Mayor núm. 5"])
def test_the_full_stop_of_number_before_a_number_ends_a_sentence_only_where_the_caller_counts_abbreviations(text: str):
    assert len(list(sentence_ends(text))) == 1
    assert list(sentence_ends(text, abbreviations_end=False)) == []


def test_no_before_a_word_still_ends_a_sentence():
    assert [m.start() for m in sentence_ends("No. I won't go.", abbreviations_end=False)] == [2, 14]


def test_an_end_that_starts_within_the_stretch_is_read_whole():
    """An end counts where its marks start inside text[start:end]; the text after `end` still says whether it is one
    ("0." of "0.3" is none)."""
    text = "a 0.3% uplift. My thesis"
    assert [m.start() for m in sentence_ends(text, 0, 4)] == []
    assert [(m.start(), m.end()) for m in sentence_ends(text, 0, 14)] == [(13, 15)]
    assert [m.start() for m in sentence_ends(text, 0, 13)] == []
