"""A place's stand-in true to the kind of place it names and to what its sentence says about it.

"I live in Cyprus" becomes "I live in this country", never "in the city"; "a hygienist in Tacoma" becomes "in my
city", never "in my hometown", whichever attribute the cue tagger gave it; "a full English" names a breakfast, no
place, and takes no place stand-in; a place of no sure kind ("Catalonia") or that no word frames ("Only in Cyprus")
takes none: it is reported. The kind of a name (`place_kind`) comes from gazetteers
(`stealthflow.placeholders.recognizers.public_names`), the frame (`frame`) from the words the name hangs from and
the verbs above it, and the stand-ins of each frame and kind from `data/generalize/places.yaml`.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from stealthflow.anonymize import person_nouns, syntax
from stealthflow.resources import data_yaml

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
    return data_yaml("generalize/places.yaml")


def kind_of_name(name: str, entity: str = "") -> str:
    """The kind of place `name` is ("country", "region", "city" or "area", as places.yaml's head says), `entity` its
    spaCy type; "" when it names no place, or no kind is sure: a continent ("Asia" is also a town), a name of two
    kinds ("Georgia", "Dublin" a city and a county), a name no gazetteer holds that spaCy does not type FAC
    ("Catalonia", "the Midwest", "Google")."""
    from stealthflow.placeholders.recognizers import public_names as gazetteer

    key = gazetteer.name_key(name).removeprefix("the ")
    if key in gazetteer.continent_names():
        return ""
    countries = gazetteer.country_names()
    held = {
        "country": key in countries,
        "region": key in gazetteer.subdivision_names(),
        "city": key in gazetteer.city_names() and key not in countries,  # "Singapore", "Luxembourg": the country
    }
    kinds = [kind for kind, holds in held.items() if holds]
    if len(kinds) == 1:
        return kinds[0]
    return "area" if not kinds and entity == "FAC" else ""


def place_token(sentence: str, start: int, end: int) -> Token | None:
    """The head word of the name in sentence[start:end] (the object of its preposition); None when its head is no
    proper noun."""
    span = syntax.phrase(sentence, start, end)
    if span is None:
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
    nothing of the place ("Went to a grammar school in Kent": no trip to Kent). No frame holds when the subject of
    the verbs above, or the owner of the word the preposition hangs from, is someone else (`_by_author`), nor
    `lives` for a place the author is not in now (`_now`). A place that is the direct object of a verb takes the
    frame of that verb (`_object_frame`: "I left Lagos")."""
    token = place_token(sentence, start, end)
    if token is None:
        return ""
    if token.dep_ == "dobj":
        return _object_frame(token)
    if token.dep_ != "pobj":
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
    if not _by_author(above):
        return ""
    if found == "lives" and (prep.lower_ in places["sources"] or not _now(above)):
        return ""
    return found


def _object_frame(token: Token) -> str:
    """The frame (places.yaml `objects`) of a place that is the direct object of a verb there ("I left Lagos":
    left), by the author (`_by_author`: "My mother still refuses to leave Saltivka" has none); "" otherwise."""
    verb = token.head
    found = next((name for name, verbs in _places_yaml()["objects"].items() if verb.lower_ in verbs), "")
    return found if found and _by_author(verb) else ""


def _verbs(word: Token) -> list[Token]:
    """The verbs governing `word`: the first verb at or above it, then the verbs it completes ("used to live",
    "miss living", "came to visit")."""
    while word.pos_ not in {"VERB", "AUX"} and word.head != word:
        word = word.head
    verbs = [word] if word.pos_ in {"VERB", "AUX"} else []
    while verbs and _completes(verbs[-1]):
        verbs.append(verbs[-1].head)
    return verbs


def _completes(verb: Token) -> bool:
    """`verb` completes the verb above it: a complement ("used to live", "miss living") or an infinitive of purpose
    ("came to visit"; not "Just landed in Dubai, the airport is huge")."""
    purpose = verb.dep_ == "advcl" and verb.tag_ == "VB"
    return (verb.dep_ in {"xcomp", "ccomp"} or purpose) and verb.head.pos_ in {"VERB", "AUX"}


def _has_present_aux(verb: Token) -> bool:
    """`verb` has an auxiliary of the present ("have lived", "am based")."""
    return any(a.dep_ in {"aux", "auxpass"} and a.tag_ in {"VBP", "VBZ"} for a in verb.children)


def _by_author(word: Token) -> bool:
    """No one but the author may be the subject of the verbs governing `word`, nor the owner of `word`
    (`person_nouns.someone`): "my whole family is from Osaka", "my parents' house in Leeds", "My coworker is from
    Manchester" are not the author's; only a subject known to be no one ("The rent here in Leeds keeps going up")
    leaves the author's frame; `word` may be the subject itself ("My flight to Rome got cancelled")."""
    owners = [t for t in word.children if t.dep_ == "poss"]
    subject = next((t for v in _verbs(word) for t in v.children if t.dep_ in {"nsubj", "nsubjpass"}), None)
    return not any(map(person_nouns.someone, owners)) and (subject in (None, word) or not person_nouns.someone(subject))


def _now(word: Token) -> bool:
    """No verb governing `word` is past or governed by a verb of `not_now` (places.yaml): "lived in", "used to live
    in", "was living in", "Applied for a job in", "miss living in" say no place the author lives in now; "moved to",
    "based in" do (`still_now`); nor does a participle with an auxiliary of the present ("I've lived in", "I'm based
    in")."""
    places = _places_yaml()
    verbs = _verbs(word)
    past = any(
        (v.tag_ in {"VBD", "VBN"} and v.lower_ not in places["still_now"] and not _has_present_aux(v))
        or any(a.dep_ in {"aux", "auxpass"} and a.tag_ == "VBD" for a in v.children)
        for v in verbs
    )
    return not past and not any(v.lower_ in places["not_now"] for v in verbs)


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
    framed_object = said in _places_yaml()["objects"]  # the object of a verb, no preposition: `_object_frame`
    if not kind or not said or not (framed_object or behind_place_preposition(sentence, start, end)):
        return {}
    forms = _places_yaml()["stand_ins"][said][kind]
    found = {form: tuple(words or ()) for form, words in forms.items()}
    if not any(child.dep_ == "det" for child in place_token(sentence, start, end).children):
        found["nouns"] = ()  # they take the name's determiner: "to Toronto" never -> "to city"
    of_place = (
        prep.casefold() in syntax.word_list("place_prepositions") and prep.casefold() not in _places_yaml()["sources"]
    )
    return found if of_place else {**found, "adverbials": ()}


def behind_place_preposition(sentence: str, start: int, end: int) -> bool:
    """The name in sentence[start:end] is the object of a preposition of place (data/generalize/place_prepositions.txt:
    "in Cyprus", "near Leeds"), not a subject, an object or a modifier ("Mexico out in groups again", "Uruguay" of
    "out on penalties against Uruguay", "La Roja is in a black hole": a team, a cuisine, a festival). On the judged
    pairs of seeds 2-10 (benchmarks/results/fluency_reader_seed*.jsonl, every file), readers accepted a place stand-in
    for a name 89 times in 174 behind a preposition of place, 14 times in 135 elsewhere (2 in 68 behind none)."""
    token = place_token(sentence, start, end)
    return (
        token is not None
        and token.dep_ == "pobj"
        and token.head.text.casefold() in syntax.word_list("place_prepositions")
    )


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
