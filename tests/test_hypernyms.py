"""Kinds of common nouns (anonymize/hypernyms.py): built from WordNet's files (a few lines written here in its format),
and offered by `generalize.candidates` in the marked noun's slot (the local model scores them in
tests/test_generalize.py's real-model test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stealthflow.anonymize import generalize
from stealthflow.anonymize.hypernyms import build, kind_of

LICENCE = "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"
# offset lexicographer-file n word-count words... pointer-count pointers... | gloss
DATA_NOUN = LICENCE + (
    "00000001 03 n 01 organism 0 000 | a living thing\n"
    "00000002 05 n 01 insect 0 001 @ 00000001 n 0000 | a small arthropod\n"
    "00000003 05 n 02 cicada 0 cicala 0 001 @ 00000004 n 0000 | a stout-bodied insect\n"
    "00000004 05 n 01 homopterous_insect 0 001 @ 00000002 n 0000 | an insect of the order Homoptera\n"
    "00000005 13 n 01 fruit 0 000 | the ripened reproductive body of a seed plant\n"
    "00000006 20 n 01 tree 0 000 | a tall perennial woody plant\n"
    "00000007 20 n 01 mango 0 001 @ 00000006 n 0000 | a large evergreen tropical tree\n"
    "00000008 13 n 01 mango 0 001 @ 00000005 n 0000 | a large oval tropical fruit\n"
    "00000009 06 n 01 thing 0 000 | an artifact\n"
    "00000010 06 n 01 gizmo 0 001 @ 00000009 n 0000 | a gadget\n"
    "00000011 18 n 01 teacher 0 001 @ 00000001 n 0000 | a person whose occupation is teaching\n"
    "00000012 05 n 01 Bigfoot 0 001 @i 00000002 n 0000 | a named beast\n"
)
INDEX_NOUN = LICENCE + "".join(
    f"{lemma} n {len(offsets)} 1 @ {len(offsets)} 0 {' '.join(offsets)}\n"
    for lemma, offsets in [
        ("cicada", ["00000003"]), ("mango", ["00000007", "00000008"]), ("gizmo", ["00000010"]),
        ("teacher", ["00000011"]), ("insect", ["00000002"]), ("bigfoot", ["00000012"]),
    ]
)  # fmt: skip
# sense key, sense number, tagged uses: "insect" and "tree" are everyday words, "fruit" is not (here)
CNTLIST = "insect%1:05:00:: 1 20\ntree%1:20:00:: 1 30\nfruit%1:13:00:: 1 2\nthing%1:06:00:: 1 90\n"


def wordnet(tmp_path: Path) -> Path:
    for name, text in {"data.noun": DATA_NOUN, "index.noun": INDEX_NOUN, "cntlist.rev": CNTLIST}.items():
        (tmp_path / name).write_text(text, encoding="latin-1")
    return tmp_path


def test_wordnet_gives_the_nearest_everyday_kind_of_a_things_noun(tmp_path: Path):
    # "cicada" -> "insect" two levels up (its parent is no one-word everyday noun); not "mango" (a tree or a fruit,
    # no tagged use says which), "gizmo" (its kind is too broad: broad_hypernyms.txt), "teacher" (a person),
    # "bigfoot" (a named instance)
    assert build(wordnet(tmp_path)) == [("cicada", "insect")]


def test_the_cli_rebuilds_the_table_from_wordnet(tmp_path: Path):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    out, folder = tmp_path / "kinds.tsv", tmp_path / "wordnet"
    folder.mkdir()
    result = CliRunner().invoke(app, ["tagger", "hypernyms", str(wordnet(folder)), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == "cicada\tinsect\n"
    assert "(1 nouns)" in result.output


def test_the_shipped_table_gives_kinds_in_the_singular_and_plural():
    assert kind_of("cicadas") == "insect" and kind_of("kayak") == "boat" and kind_of("minivan") == "car"
    assert kind_of("teacher") is None and kind_of("mango") is None  # a person; a tree or a fruit


def candidates(sentence: str, phrase: str, attribute: str = "location") -> list[str]:
    start = sentence.index(phrase)
    return generalize.candidates(sentence, start, start + len(phrase), attribute)


def test_a_marked_noun_phrase_becomes_its_kind_behind_its_determiner():
    assert "the insects" in candidates("I heard the cicadas all night near my place.", "the cicadas")
    assert "a boat" in candidates("We took a kayak out on the lake.", "a kayak")
    assert "my car" in candidates("I sold my old minivan last week.", "my old minivan", "income")


def test_a_marked_noun_alone_becomes_its_kind_only_where_the_article_agrees():
    assert "boat" in candidates("We took a kayak out on the lake.", "kayak")
    assert "instrument" not in candidates(
        "He played a guitar at the wedding.", "guitar", "occupation"
    )  # "a instrument"


def test_names_and_nouns_of_no_known_kind_get_no_kind():
    assert not generalize.kind_stand_ins(*slot("We flew to Paris last week.", "Paris"))
    assert not generalize.kind_stand_ins(*slot("My teacher said so.", "My teacher"))


def slot(sentence: str, phrase: str):
    from stealthflow.anonymize import syntax

    start = sentence.index(phrase)
    return sentence, start, start + len(phrase), syntax.slot(sentence, start, start + len(phrase))


def test_a_marked_noun_phrase_loses_its_modifiers_when_its_head_is_a_thing():
    assert "the tram" in candidates("I take the 96 tram to work.", "the 96 tram")
    assert "a kettle" in candidates("I bought an electric kettle at the mall.", "an electric kettle", "income")
    assert not generalize.head_alone(*slot("My ER nurse was kind.", "My ER nurse"))  # a person: still the job


@pytest.mark.real_model
def test_a_post_main_left_unprotected_is_protected_by_the_head_of_its_marked_noun_phrase():
    """The shipped cue tagger and fluency scorer, generalizing only: "my nursing degree" had no candidate on main
    (b148dac: the post was not protected); the degree without its modifier passes the gate."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.generalize import Generalizer
    from stealthflow.anonymize.local import LocalAnonymizer
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = "Just finished my nursing degree, so relieved."
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    assert result.cues and not result.unprotected, result
    assert result.text == "Just finished my degree, so relieved."


def test_a_noun_phrase_with_a_possessor_keeps_it():
    """ "my husband's truck" never -> "my vehicle" or "my truck": the thing would become the author's."""
    sentence = "The other half goes to tires for my husband's truck."
    assert not generalize.kind_stand_ins(*slot(sentence, "my husband's truck"))
    assert not generalize.head_alone(*slot(sentence, "my husband's truck"))


def test_a_hyphenated_compound_takes_no_kind_of_its_last_part():
    """ "our two-bed" is a flat, not a bed: never "our furniture"; "a one-bedroom" never "a room"."""
    assert not generalize.kind_stand_ins(*slot("Rent for our two-bed went up again.", "our two-bed"))
    assert not generalize.kind_stand_ins(*slot("We are saving to get a one-bedroom together.", "a one-bedroom"))
    assert "a boat" in candidates("We took a kayak out on the lake.", "a kayak")  # an unhyphenated noun still does
