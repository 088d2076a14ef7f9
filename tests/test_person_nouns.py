"""Person nouns (anonymize/person_nouns.py): built from WordNet's files (a few lines written here in its format), and
the shipped list as `generalize.about_someone_else` reads it."""

from __future__ import annotations

from pathlib import Path

from stealthflow.anonymize import syntax
from stealthflow.anonymize.person_nouns import person_noun, person_nouns, someone, thing_noun, thing_nouns

LICENCE = "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"
# offset lexicographer-file n word-count words... pointer-count pointers... | gloss
DATA_NOUN = LICENCE + (
    "00000001 18 n 01 person 0 000 | a human being\n"
    "00000002 18 n 01 sister 0 001 @ 00000001 n 0000 | a female sibling\n"
    "00000003 06 n 01 knob 0 000 | a round handle\n"
    "00000004 18 n 01 boss 0 001 @ 00000001 n 0000 | a person in charge\n"
    "00000005 18 n 01 Burns 0 001 @i 00000001 n 0000 | a Scottish poet\n"
    "00000006 28 n 01 date 0 000 | a day of the month\n"
    "00000007 18 n 01 child 0 001 @ 00000001 n 0000 | a young person\n"
    "00000008 18 n 01 printer 0 001 @ 00000001 n 0000 | someone whose occupation is printing\n"
    "00000009 14 n 01 crowd 0 000 | a large number of things or people\n"
    "00000010 14 n 01 social_group 0 000 | people sharing some social relation\n"
    "00000011 14 n 01 family 0 001 @ 00000012 n 0000 | a social unit living together\n"
    "00000012 14 n 01 unit 0 001 @ 00000010 n 0000 | an organization regarded as part of a larger one\n"
    "00000013 06 n 01 schoolhouse 0 000 | a building where young people receive education\n"
)
INDEX_NOUN = LICENCE + "".join(
    f"{lemma} n {len(offsets)} 1 @ {len(offsets)} 0 {' '.join(offsets)}\n"
    for lemma, offsets in [
        ("person", ["00000001"]), ("sister", ["00000002"]), ("boss", ["00000004", "00000001", "00000003"]),
        ("knob", ["00000003"]), ("printer", ["00000008", "00000003"]), ("host", ["00000001", "00000009"]),
        ("burns", ["00000005"]), ("date", ["00000006", "00000001"]), ("child", ["00000007"]), ("step_sister", ["00000002"]),
        ("family", ["00000011"]), ("school", ["00000012", "00000013"]), ("crowd", ["00000009"]),
    ]
)  # fmt: skip
NOUN_EXC = "children child\ndice die\n"


def test_wordnet_gives_the_nouns_whose_first_sense_is_a_person(tmp_path: Path):
    for name, text in {"data.noun": DATA_NOUN, "index.noun": INDEX_NOUN, "noun.exc": NOUN_EXC}.items():
        (tmp_path / name).write_text(text, encoding="latin-1")
    # "boss": a person first, a knob only third; not "date" (a person only after a day), "printer" or "host" (a thing
    # or a group second), a named instance ("Burns"), a word of several ("step_sister"), nor an irregular plural of no
    # person ("dice"); a group of people (a kind of social group: "family"), not one that is a building second
    # ("school") nor a group of no kind of people ("crowd" here)
    assert person_nouns(tmp_path) == ["boss", "child", "children", "family", "person", "sister"]


def test_wordnet_gives_the_nouns_of_no_person_and_no_group(tmp_path: Path):
    for name, text in {"data.noun": DATA_NOUN, "index.noun": INDEX_NOUN, "noun.exc": NOUN_EXC}.items():
        (tmp_path / name).write_text(text, encoding="latin-1")
    # "knob", and "burns" whose only person is a name ("Burns"); every other lemma has a person sense ("date",
    # "printer") or a group sense ("host", "school", "crowd"); "dice" is the plural of no lemma here
    assert thing_nouns(tmp_path) == ["burns", "knob"]


def test_the_cli_rebuilds_each_list_from_wordnet(tmp_path: Path):
    """`stealthflow tagger person-nouns|thing-nouns WORDNET --out FILE` writes the list its builder gives."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    wordnet = tmp_path / "wordnet"
    wordnet.mkdir()
    for name, text in {"data.noun": DATA_NOUN, "index.noun": INDEX_NOUN, "noun.exc": NOUN_EXC}.items():
        (wordnet / name).write_text(text, encoding="latin-1")
    for kind, build in (("person", person_nouns), ("thing", thing_nouns)):
        out = tmp_path / f"{kind}.txt"
        result = CliRunner().invoke(app, ["tagger", f"{kind}-nouns", str(wordnet), "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert out.read_text(encoding="utf-8").split() == build(wordnet)
        assert f"({len(build(wordnet))} nouns)" in result.output


def test_the_shipped_list_names_people_and_not_things():
    assert all(person_noun(w) for w in ("sister", "Boss", "roommates", "nannies", "women", "children", "colleagues"))
    assert not any(person_noun(w) for w in ("rent", "weather", "night", "paper", "city", "printer", "router", "host"))
    assert all(person_noun(w) for w in ("family", "families", "folks", "crew", "team"))  # groups of people
    assert not any(person_noun(w) for w in ("school", "church", "country"))  # a building or a place second


def test_only_a_noun_known_to_name_no_person_leaves_a_clause_the_authors():
    """A noun of thing_nouns.txt is no one ("rent", "pumps"); a person word WordNet does not know ("bf", "bestie",
    "coworker") or one with a person sense ("mum", "kids") may be someone else."""
    assert all(thing_noun(w) for w in ("rent", "pumps", "bus", "weather"))
    assert not any(thing_noun(w) for w in ("bf", "bestie", "coworker", "stepdad", "mum", "kids", "host", "company"))

    def subject(sentence: str):
        return next(t for t in syntax.parse(sentence) if t.dep_ == "nsubj")

    assert not someone(subject("The rent keeps going up."))
    assert not someone(subject("It keeps going up."))
    assert someone(subject("My bestie keeps going out."))
    assert someone(subject("My coworker keeps going out."))
    assert someone(subject("My in-laws keep going out."))  # "laws" is a thing, "in-laws" no known one
    assert someone(subject("She keeps going out."))
