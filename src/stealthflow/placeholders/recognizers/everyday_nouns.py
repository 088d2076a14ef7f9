"""Everyday nouns: things no one has as a condition, and no one is called by.

The tagger marks everyday nouns as conditions in everyday messages ("with a pushchair", "to do
with density", "I have eggs"), and the weakest sign of a condition the context rules accept is
a word such as "with", "my" or "is" right before the span (tagger.py `_HEALTH_BEFORE`). Such a
span is now kept only if it is not an everyday thing: a noun that WordNet 3.0 files only among
artifacts, foods, plants, animals, people, places, attributes, possessions... (its lexicographer
files), under no medical sense (drugs, treatments, disorders, injuries, symptoms), and neither an
adjective nor a verb.
A word WordNet does not know ("Ozempic", "long covid") stays a possible condition. The same list
tells a word that is also a name opening a sentence about a thing ("Pearl barley in a stew",
"Iris scanners at the airport"; tagger.py `not_a_name`): a person is followed by a verb, and the
list holds no noun that is a verb too ("Anna cooks").

`data/everyday_nouns.txt` is built from WordNet's dictionary files by `stealthflow tagger
everyday-nouns WORDNET_DIR` (Debian's wordnet-base: /usr/share/wordnet; licence: data/LICENSE-WordNet).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from stealthflow.resources import data_words

EVERYDAY_NOUNS = "everyday_nouns.txt"

# WordNet's lexicographer files of things: noun.animal, artifact, attribute, communication, food, group,
# location, person, plant, possession, quantity, relation, shape. Not state, body, process, feeling, act
# (gambling, dialysis), cognition (autism), event (concussion), object (gallstone), substance (lithium), time (menopause).
_EVERYDAY_FILES = frozenset({5, 6, 7, 10, 13, 14, 15, 18, 20, 21, 23, 24, 25})
# WordNet 3.0 senses (lemma, sense number from 0) whose hyponyms are medical, whatever their file.
_MEDICAL_SENSES = (
    ("drug", 0), ("medicine", 1), ("medical_care", 0), ("medical_procedure", 0), ("hormone", 0), ("medical_instrument", 0),
    ("pathological_state", 0), ("ill_health", 0), ("injury", 0), ("symptom", 0), ("disability", 0), ("disorder", 0), ("syndrome", 0),
    ("physical_condition", 0), ("bodily_property", 0), ("blemish", 0), ("prosthesis", 0), ("contraceptive", 0),
)  # fmt: skip
# Medical aids and treatments that WordNet files as plain things (a wheelchair is a chair, an inhaler a
# dispenser, PrEP reads as "prep").
_MEDICAL_THINGS = frozenset({
    "wheelchair", "crutch", "walker", "cane", "inhaler", "pacemaker", "stoma", "catheter", "denture", "brace", "splint",
    "cast", "sling", "ventilator", "nebuliser", "nebulizer", "stent", "prep",
})  # fmt: skip
_LEADING_WORD = re.compile(r"^(?:a|an|the|some|my|his|her|their|our|your)\s+")


def everyday_nouns(wordnet_dir: Path) -> list[str]:
    """The one-word nouns of WordNet 3.0 (its data.noun, index.noun, index.adj and index.verb in
    `wordnet_dir`) whose every sense is an everyday thing (see the module's docstring), none a named
    instance ("Burns"), an adjective or a verb ("Anna cooks")."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from stealthflow.placeholders.recognizers.wordnet import lemma_senses, synsets

    nouns = {synset.offset: synset for synset in synsets(wordnet_dir / "data.noun")}
    senses = lemma_senses(wordnet_dir / "index.noun")
    adjectives, verbs = lemma_senses(wordnet_dir / "index.adj").keys(), lemma_senses(wordnet_dir / "index.verb").keys()
    medical_roots = {senses[lemma][number] for lemma, number in _MEDICAL_SENSES if lemma in senses}
    medical: dict[str, bool] = {}

    def is_medical(offset: str) -> bool:  # any hypernym path reaches a medical root
        if offset not in medical:
            medical[offset] = False  # WordNet's hypernyms form no cycle; this only guards against one
            medical[offset] = offset in medical_roots or any(
                is_medical(parent) for parent in nouns[offset].hypernyms() if parent in nouns
            )
        return medical[offset]

    everyday = {
        lemma
        for lemma, offsets in senses.items()
        if lemma.isalpha() and lemma not in adjectives and lemma not in verbs and lemma not in _MEDICAL_THINGS
        and all(nouns[offset].lexicographer_file in _EVERYDAY_FILES and not is_medical(offset) and not nouns[offset].instance() for offset in offsets)
    }  # fmt: skip
    # Texts are read in the plural too (`_everyday_word`): not "hive", whose plural "hives" is a condition,
    # nor "doe" or "ha", whose plurals read as a verb's form or a function word ("Grace does ballet", "Grace has").
    verb_forms = {form for verb in verbs for form in _plurals(verb)}

    def plural_reads_otherwise(lemma: str) -> bool:
        return any(
            (plural in senses and plural not in everyday) or plural in verb_forms or plural in ENGLISH_STOP_WORDS
            for plural in _plurals(lemma)
        )

    return sorted(lemma for lemma in everyday if not plural_reads_otherwise(lemma))


def _plurals(word: str) -> tuple[str, ...]:
    """What `_everyday_word` reads back to `word`: "+s", "+es", "y" -> "ies"."""
    return (word + "s", word + "es") + ((word[:-1] + "ies",) if word.endswith("y") else ())


@cache
def _everyday() -> frozenset[str]:
    return data_words(EVERYDAY_NOUNS)


def everyday_thing(value: str) -> bool:
    """Whether every word of `value` (past an article or a possessive: "a pushchair", "my toddler")
    is an everyday noun, in the singular or the plural ("hydrangeas")."""
    words = _LEADING_WORD.sub("", value.casefold()).split()
    return bool(words) and all(_everyday_word(word) for word in words)


def _everyday_word(word: str) -> bool:
    everyday = _everyday()
    singular = {word, word.removesuffix("s"), word.removesuffix("es")} | (
        {word[:-3] + "y"} if word.endswith("ies") else set()
    )
    return any(form in everyday for form in singular)
