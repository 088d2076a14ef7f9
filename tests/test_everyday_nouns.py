"""Everyday nouns (recognizers/everyday_nouns.py): built from WordNet's files (a few lines written
here in its format), and the shipped list as the PII tagger's health rule reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from stealthflow.pii_tagger.training.data import CONDITIONS, MEDICATIONS
from stealthflow.placeholders.recognizers.everyday_nouns import everyday_nouns, everyday_thing

LICENCE = "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"
# offset lexicographer-file n word-count words... pointer-count pointers... | gloss
DATA_NOUN = LICENCE + (
    "00000001 06 n 01 artifact 0 000 | a man-made object\n"
    "00000002 06 n 02 pushchair 0 baby_buggy 0 001 @ 00000001 n 0000 | a small vehicle for a baby\n"
    "00000003 26 n 01 pathological_state 0 000 | a bad state of health\n"
    "00000004 26 n 01 hives 0 001 @ 00000003 n 0000 | an itchy rash\n"
    "00000005 06 n 01 pile 0 001 @ 00000001 n 0000 | a heap\n"
    "00000006 06 n 01 drug 0 001 @ 00000001 n 0000 | a medicine\n"
    "00000007 06 n 01 inhaler 0 001 @ 00000001 n 0000 | a dispenser\n"
    "00000008 06 n 01 pill 0 001 @ 00000006 n 0000 | a dose of medicine\n"
    "00000009 18 n 01 Burns 0 001 @i 00000001 n 0000 | a Scottish poet\n"
    "00000010 06 n 01 blue 0 001 @ 00000001 n 0000 | a blue thing\n"
    "00000011 13 n 01 sourdough 0 001 @ 00000001 n 0000 | a leavened bread\n"
    "00000012 26 n 01 piles 0 001 @ 00000003 n 0000 | swollen veins\n"
    "00000013 18 n 01 cook 0 001 @ 00000001 n 0000 | someone who cooks\n"
    "00000014 05 n 01 doe 0 001 @ 00000001 n 0000 | a female deer\n"
)
INDEX_NOUN = LICENCE + "".join(
    f"{lemma} n {len(offsets)} 1 @ {len(offsets)} 0 {' '.join(offsets)}\n"
    for lemma, offsets in [
        ("artifact", ["00000001"]), ("pushchair", ["00000002"]), ("baby_buggy", ["00000002"]), ("pathological_state", ["00000003"]),
        ("hives", ["00000004"]), ("pile", ["00000005"]), ("drug", ["00000006"]), ("inhaler", ["00000007"]), ("pill", ["00000008"]),
        ("burns", ["00000009"]), ("blue", ["00000010"]), ("sourdough", ["00000011"]), ("piles", ["00000012"]), ("cook", ["00000013"]),
        ("doe", ["00000014"]),
    ]
)  # fmt: skip
INDEX_ADJ = LICENCE + "blue a 1 0 1 0 00000099\n"
INDEX_VERB = LICENCE + "cook v 1 0 1 0 00000098\ndo v 1 0 1 0 00000097\n"
FILES = {"data.noun": DATA_NOUN, "index.noun": INDEX_NOUN, "index.adj": INDEX_ADJ, "index.verb": INDEX_VERB}


def test_wordnet_gives_the_nouns_that_are_only_everyday_things(tmp_path: Path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="latin-1")
    # not: a condition (hives), a noun whose plural is one (pile), a drug's kind (pill), a medical aid (inhaler), a named
    # instance (Burns), an adjective too (blue), a verb too (cook), a noun whose plural reads as a verb ("doe": "does"),
    # a word of several (baby_buggy), a medical root (drug)
    assert everyday_nouns(tmp_path) == ["artifact", "pushchair", "sourdough"]


@pytest.mark.parametrize("value", ["a pushchair", "density", "my toddler", "hydrangeas", "barley", "trousers"])
def test_the_shipped_list_knows_everyday_things(value):
    assert everyday_thing(value)


@pytest.mark.parametrize(
    "value",
    [
        *CONDITIONS,
        *MEDICATIONS,
        "piles",
        "hives",
        "a wheelchair",
        "crutches",
        "obesity",
        "gambling",
        "a concussion",
        "the menopause",
        "Hatshepsut",
    ],
)
def test_no_condition_medicine_aid_or_unknown_word_is_an_everyday_thing(value):
    assert not everyday_thing(value)


def test_the_command_writes_the_list_and_a_wrong_directory_writes_nothing(tmp_path: Path):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    wordnet, out = tmp_path / "wordnet", tmp_path / "everyday_nouns.txt"
    wordnet.mkdir()
    for name, text in (FILES | {"index.noun": "pushchair\n"}).items():
        (wordnet / name).write_text(text, encoding="latin-1")
    result = CliRunner().invoke(app, ["tagger", "everyday-nouns", str(wordnet), "--out", str(out)])
    assert result.exit_code == 2 and "not a line of a WordNet index file" in result.output and not out.exists()
    (wordnet / "index.noun").write_text(INDEX_NOUN, encoding="latin-1")
    result = CliRunner().invoke(app, ["tagger", "everyday-nouns", str(wordnet), "--out", str(out)])
    assert result.exit_code == 0 and out.read_text(encoding="utf-8") == "artifact\npushchair\nsourdough\n"
