"""Stand-ins for chains, shops, banks, transit networks and country-specific institutions (anonymize/brands.py): the
noun of the name's kind in its slot, built from the Name Suggestion Index (placeholders/recognizers/gazetteer_build.py
`brand_kinds`) and the hand-written institution table (data/generalize/institution_kinds.tsv)."""

from __future__ import annotations

import json

import pytest

from stealthflow.anonymize import brands, generalize

# a fake kind table: the shipped one is data (data/generalize/brand_kinds.tsv), these tests are about the slot
FAKE_KINDS = {"tesco": "supermarket", "oxxo": "convenience store", "ttc": "train", "tim hortons": "coffee shop"}
FAKE_KINDS["sainsbury"] = "supermarket"


@pytest.fixture
def fake_kinds(monkeypatch):
    monkeypatch.setattr(brands, "kinds", lambda: FAKE_KINDS)


@pytest.mark.parametrize(
    ("sentence", "phrase", "expected"),
    [
        ("I was at Tesco again.", "at Tesco", "at the supermarket"),
        ("Tesco was packed.", "Tesco", "the supermarket"),
        ("Tesco's meal deal is the best.", "Tesco's meal deal", "the supermarket's meal deal"),
        ("Tesco's meal deal is the best.", "Tesco", "the supermarket"),  # its "'s" stays behind it
        ("I grabbed a Tesco meal deal for lunch.", "a Tesco meal deal", "a supermarket meal deal"),
        ("I grabbed a Tesco meal deal for lunch.", "Tesco", "supermarket"),
        ("Stopped at an OXXO for water.", "an OXXO", "a convenience store"),  # the article agrees
        ("The queue at Sainsbury's was huge.", "at Sainsbury's", "at the supermarket"),  # the name's own "'s"
        ("the TTC was down again", "TTC", "train"),
        ("Anyone else on the 6am TTC every day?", "the 6am TTC", "the 6am train"),  # behind its modifier
    ],
)
def test_a_chain_or_network_takes_the_noun_of_its_kind_in_its_slot(fake_kinds, sentence, phrase, expected):
    start = sentence.index(phrase)
    assert generalize.brand_stand_ins(sentence, start, start + len(phrase)) == [expected]
    assert expected in generalize.candidates(sentence, start, start + len(phrase), "location")


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [
        ("Just grabbed a Tim Hortons on the way.", "Tim Hortons"),  # the coffee, not the shop
        ("The queue at Sainsbury's was huge.", "Sainsbury"),  # its "'s" would stay behind the stand-in
        ("I went to Leeds last week.", "Leeds"),  # no chain
        ("Lunch at tesco again.", "tesco"),  # not written as a name
        ("Rents in Roma Tesco are wild.", "Roma Tesco"),  # part of a longer name
    ],
)
def test_no_kind_stand_in_where_the_name_is_no_shop_or_no_chain(fake_kinds, sentence, phrase):
    start = sentence.index(phrase)
    assert generalize.brand_stand_ins(sentence, start, start + len(phrase)) == []


def test_the_shipped_kind_table_names_chains_and_networks_and_no_word_or_place():
    shipped = brands.kinds()
    assert shipped["tesco"] == "supermarket" and shipped["tim hortons"] == "coffee shop"
    assert not {"target", "subway", "halifax", "greenwich", "costa"} & shipped.keys()


@pytest.mark.parametrize(
    ("sentence", "phrase", "expected"),
    [
        ("Still waiting on the NHS for my op.", "the NHS", "the health service"),
        ("HMRC sent me another letter.", "HMRC", "the tax office"),
        ("Revising for my GCSEs all weekend.", "my GCSEs", "my exams"),
        ("I failed PLAB the first time.", "PLAB", "the licensing exam"),
        ("My BAföG got cut this semester.", "My BAföG", "My student grant"),
        ("Council tax went up again.", "Council tax", "the local tax"),  # looked up as written at a sentence's start
    ],
)
def test_an_institution_exam_or_scheme_takes_a_kind_that_names_no_country(sentence, phrase, expected):
    """The shipped tables: an institution, exam or scheme of one country (data/generalize/institution_kinds.tsv) gets
    its generic noun in the name's slot, as a chain does; its comment lines are no names."""
    start = sentence.index(phrase)
    assert generalize.brand_stand_ins(sentence, start, start + len(phrase)) == [expected]
    assert not any(name.startswith("#") for name in brands.kinds())


@pytest.mark.parametrize(
    ("sentence", "phrase"),
    [("My friend Abi helped me move.", "Abi"), ("Snap, I said the same.", "Snap"), ("I gave my SSN twice.", "my SSN")],
)
def test_a_word_or_first_name_is_no_institution(sentence, phrase):
    """A read-only review's probes: a first name, a word opening a sentence and another country's number got an
    institution's noun ("the final exams", "the food assistance", "my health service")."""
    start = sentence.index(phrase)
    assert generalize.brand_stand_ins(sentence, start, start + len(phrase)) == []


@pytest.mark.real_model
def test_the_local_method_puts_the_kind_of_a_chain_or_network_in_its_place():
    """The real cue tagger, fluency scorer and gate through `anonymize --method local`: a transit network named in
    passing, marked by the tagger or as a name of the gazetteer (`cues.place_marks`), leaves with the noun of its
    kind."""
    from typer.testing import CliRunner

    from stealthflow.cli import app

    for post, expected in (
        ("Another morning stuck on the Luas, it was packed.", "Another morning stuck on the tram, it was packed."),
        (
            "Anyone else on the 6am Caltrain every day? Slowly losing my mind.",
            "Anyone else on the 6am train every day? Slowly losing my mind.",
        ),
    ):
        result = CliRunner().invoke(app, ["anonymize", "-", "--method", "local", "--json"], input=post)
        assert result.exit_code == 0, result.output
        (row,) = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
        assert row["text"] == expected


def test_a_transit_network_or_institution_named_in_passing_is_a_location_cue():
    """Issue 47: the cue tagger missed "the Luas, it was packed" and "the 6am Caltrain"; a whole name of a transit
    network (a kind of data/generalize/transit_kinds.txt in the shipped brand_kinds.tsv) or of a country-specific
    institution becomes a `location` mark where the tagger left none. A chain says little and stays unmarked."""
    from stealthflow.anonymize.cues import find_cues
    from stealthflow.pii_tagger.model import TaggedSpan

    class FakeTagger:  # FAKE: marks "Dublin" only, so the gazetteer's marks are what is tested
        def tag_many(self, posts):
            return [
                [TaggedSpan(p.index("Dublin"), p.index("Dublin") + 6, "location", 0.9)] if "Dublin" in p else []
                for p in posts
            ]

    posts = [
        "Another morning stuck on the Luas, it was packed.",
        "Anyone else on the 6am Caltrain every day?",
        "Grabbed a Starbucks and then the SkyTrain home.",
        "Waiting for my NHS appointment in Dublin.",
        "I took the luas",  # no capital: no name
    ]
    found = find_cues(FakeTagger(), posts)
    assert [[(p[c.start : c.end], c.label) for c in cues] for p, cues in zip(posts, found, strict=True)] == [
        [("Luas", "location")],
        [("Caltrain", "location")],
        [("SkyTrain", "location")],
        [("NHS", "location"), ("Dublin", "location")],
        [],
    ]
