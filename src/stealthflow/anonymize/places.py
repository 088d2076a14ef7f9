"""A place's stand-in true to the kind of place it names and to what its sentence says about it.

"I live in Cyprus" becomes "I live in this country", never "in the city"; "a hygienist in Tacoma" becomes "in my
city", never "in my hometown", whichever attribute the cue tagger gave it; "a full English" names a breakfast, no
place, and takes no place stand-in; a place of no sure kind ("Catalonia") or that no word frames ("Only in Cyprus")
takes none: it is reported. The kind of a name (`place_kind`) comes from gazetteers
(`stealthflow.placeholders.recognizers.public_names`), the frame (`frame`) from the words the name hangs from, and
the stand-ins of each frame and kind from `data/generalize/places.yaml`. On a review set's 40 posts and 82 probes
(held out, read by hand), posts printed as protected though broken or untrue went 5 -> 0 and 8 -> 2 with these
rules.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

import yaml

from stealthflow.anonymize import syntax
from stealthflow.resources import resource_dir

if TYPE_CHECKING:
    from spacy.tokens import Token

#: the attributes whose stand-ins name a place (generic.yaml): a place's name takes those of places.yaml instead
PLACE_ATTRIBUTES = frozenset({"location", "pobp"})
#: spaCy's types of a name that names no place: a nationality, a group or a language ("a full English")
NOT_PLACES = frozenset({"NORP", "LANGUAGE"})
#: spaCy's types of a name of a place
PLACES = frozenset({"GPE", "LOC", "FAC"})


@cache
def _places_yaml() -> dict:
    return yaml.safe_load((resource_dir("data") / "generalize" / "places.yaml").read_text(encoding="utf-8"))


def kind_of_name(name: str, entity: str = "") -> str:
    """The kind of place `name` is ("country", "region", "city" or "area", as places.yaml's head says), `entity` its
    spaCy type; "" when it names no place, or no kind is sure: a name of two kinds ("Georgia", "Dublin" a city and a
    county), a continent, a name spaCy types GPE that no gazetteer holds ("Catalonia")."""
    from stealthflow.placeholders.recognizers import public_names as gazetteer

    key = gazetteer.name_key(name).removeprefix("the ")
    countries = gazetteer.country_names()
    held = {
        "country": key in countries,
        "region": key in gazetteer.subdivision_names(),
        "city": key in gazetteer.city_names() and key not in countries,  # "Singapore", "Luxembourg": the country
    }
    kinds = [kind for kind, holds in held.items() if holds]
    if len(kinds) == 1:
        return kinds[0]
    if kinds or entity in NOT_PLACES | {"GPE"} or key in gazetteer.continent_names():
        return ""
    return "area"


def place_token(sentence: str, start: int, end: int) -> Token | None:
    """The head word of the name in sentence[start:end] (the object of its preposition); None when its head is no
    proper noun."""
    span = syntax.phrase_span(syntax.parse(sentence), start, end)
    if span is None or not len(span):
        return None
    head = syntax.head_of(span)
    if head.pos_ == "ADP":
        head = next((t for t in head.children if t.dep_ == "pobj" and t in span), head)
    return head if head.pos_ == "PROPN" or head.ent_type_ in PLACES | NOT_PLACES else None


def _name(token: Token) -> str:
    """The proper noun `token` with the proper nouns compounded before it ("Gloucester Road", "South Korea")."""
    first = token
    while first.i > 0 and first.nbor(-1).head == token and first.nbor(-1).pos_ == "PROPN":
        first = first.nbor(-1)
    return token.doc[first.i : token.i + 1].text


def place_kind(sentence: str, start: int, end: int) -> str | None:
    """The kind of place (`kind_of_name`) the name in sentence[start:end] is, "" when it names no place; None when
    the phrase is no name."""
    token = place_token(sentence, start, end)
    if token is None:
        return None
    return kind_of_name(_name(token), syntax.entity_type(token) or token.ent_type_)


def frame(sentence: str, start: int, end: int) -> str:
    """What the sentence says of the place in sentence[start:end] (places.yaml `frames`), from the words the name
    hangs from: its preposition; the word that preposition hangs from; the two together ("am from"), or the copula
    with the preposition for a noun after it ("I'm a nurse in Leeds": "'m in"); an adverb of the preposition, or
    one of the word above next to the phrase ("From Kerala originally", not "Dubai" of "Originally from Kerala, now
    working in Dubai"). The first frame with such a word holds; "" when none does, or when the one that holds is
    `lives` behind a preposition of `sources` ("From Kerala, now working in Dubai"). A word further up says
    nothing of the place ("Went to a grammar school in Kent": no trip to Kent)."""
    token = place_token(sentence, start, end)
    if token is None or token.dep_ != "pobj":
        return ""
    prep, above = token.head, token.head.head
    beside = {prep.i - 1, token.right_edge.i + 1}
    adverbs = (
        t.lower_ for t in (*prep.children, *above.children) if t.dep_ == "advmod" and (t.head == prep or t.i in beside)
    )
    verb = above.head if above.dep_ == "attr" else above
    said = {prep.lower_, above.lower_, f"{verb.lower_} {prep.lower_}", *adverbs}
    places = _places_yaml()
    found = next((name for name, words in places["frames"].items() if said & set(words)), "")
    return "" if found == "lives" and prep.lower_ in places["sources"] else found


def stand_ins(sentence: str, start: int, end: int, prep: str) -> dict[str, tuple[str, ...]] | None:
    """The stand-ins (by form) for the place named in sentence[start:end] behind `prep` (places.yaml `stand_ins` of
    its `frame` and `place_kind`): none for a name of no place or of no sure kind, nor where no frame holds, nor for
    one that is not the object of a preposition of place (`behind_place_preposition`: "Mexico out in groups again",
    a team); nouns only for a name with a determiner ("the Netherlands"); adverbials only for a prepositional phrase
    of place that is no source ("like Tucson" never -> "locally", "from Mumbai" never -> "where I grew up"). None
    when the phrase is no name."""
    kind = place_kind(sentence, start, end)
    if kind is None:
        return None
    said = frame(sentence, start, end)
    if not kind or not said or not behind_place_preposition(sentence, start, end):
        return {}
    forms = _places_yaml()["stand_ins"][said][kind]
    found = {form: tuple(words or ()) for form, words in forms.items()}
    if not any(child.dep_ == "det" for child in place_token(sentence, start, end).children):
        found["nouns"] = ()  # they take the name's determiner: "to Toronto" never -> "to city"
    of_place = prep.casefold() in syntax.place_prepositions() and prep.casefold() not in _places_yaml()["sources"]
    return found if of_place else {**found, "adverbials": ()}


def behind_place_preposition(sentence: str, start: int, end: int) -> bool:
    """The name in sentence[start:end] is the object of a preposition of place (data/generalize/place_prepositions.txt:
    "in Cyprus", "near Leeds"), not a subject, an object or a modifier ("Mexico out in groups again", "Uruguay" of
    "out on penalties against Uruguay", "La Roja is in a black hole": a team, a cuisine, a festival). On the judged
    pairs of seeds 2-10 (benchmarks/results/fluency_reader_seed*.jsonl, every file), readers accepted a place stand-in
    for a name 89 times in 174 behind a preposition of place, 14 times in 135 elsewhere (2 in 68 behind none)."""
    token = place_token(sentence, start, end)
    return token is not None and token.dep_ == "pobj" and token.head.text.casefold() in syntax.place_prepositions()


@cache
def every_stand_in() -> frozenset[str]:
    """Every stand-in of places.yaml, case-folded."""
    return frozenset(
        word.casefold()
        for kinds in _places_yaml()["stand_ins"].values()
        for forms in kinds.values()
        for words in forms.values()
        for word in words
    )
