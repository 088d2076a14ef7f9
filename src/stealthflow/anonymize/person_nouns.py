"""Person nouns: the words that name a person ("sister", "boss", "friend", "roommate"), so that a clause whose
subject is one is read as about someone other than the author (`generalize.about_someone_else`): "My sister is
from Cork" never becomes "My sister is from my hometown".

`data/generalize/person_nouns.txt` is built from WordNet 3.0 by `stealthflow tagger person-nouns WORDNET_DIR`
(Debian's wordnet-base: /usr/share/wordnet; licence: data/LICENSE-WordNet): every one-word lowercase noun whose
most frequent sense WordNet files under noun.person and is no named instance, and none of whose first two senses is
a made thing or a group (noun.artifact, noun.group: "printer", "scanner", "carrier", "host"; a clause whose subject it
is may be the author's, "My printer is from Japan"), with the irregular plurals of noun.exc ("children", "women").
Other second senses stay ("mother" of vinegar, "kid" leather): the person is what such words mostly name.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from stealthflow.resources import data_words, write_words

PERSON_NOUNS = "person_nouns.txt"
#: WordNet's lexicographer file of people (lexnames: 18 is noun.person)
NOUN_PERSON = 18
#: WordNet's lexicographer files of things that are no person (lexnames: 06 noun.artifact, 14 noun.group)
THING_FILES = frozenset({6, 14})
#: how many of a noun's most frequent senses may be no thing of THING_FILES
THING_SENSES = 2


def person_nouns(wordnet_dir: Path) -> list[str]:
    """The one-word lowercase nouns of WordNet 3.0 (data.noun, index.noun and noun.exc in `wordnet_dir`) whose first
    (most frequent) sense is a person and none of whose first THING_SENSES senses is a thing (THING_FILES), and the
    irregular plurals noun.exc gives for them."""
    from stealthflow.placeholders.recognizers.wordnet import lemma_senses, synsets

    nouns = {synset.offset: synset for synset in synsets(wordnet_dir / "data.noun")}
    people = {
        lemma
        for lemma, offsets in lemma_senses(wordnet_dir / "index.noun").items()
        if lemma.isalpha()
        and offsets
        and nouns[offsets[0]].lexicographer_file == NOUN_PERSON
        and not nouns[offsets[0]].instance()
        and not any(nouns[offset].lexicographer_file in THING_FILES for offset in offsets[:THING_SENSES])
    }
    exceptions = (wordnet_dir / "noun.exc").read_text(encoding="latin-1").split("\n")
    plurals = {line.split()[0] for line in exceptions if len(line.split()) > 1 and line.split()[1] in people}
    return sorted(people | {word for word in plurals if word.isalpha()})


def write_person_nouns(wordnet_dir: Path, out: Path) -> int:
    return write_words(person_nouns(wordnet_dir), out)


@cache
def _people() -> frozenset[str]:
    return data_words(f"generalize/{PERSON_NOUNS}")


def person_noun(word: str) -> bool:
    """`word` names a person, in the singular or a plural WordNet's detachment rules read back ("sisters", "bosses",
    "nannies", "women")."""
    word = word.casefold()
    forms = {word, word.removesuffix("s"), word.removesuffix("es")}
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    if word.endswith("men"):
        forms.add(word[:-3] + "man")
    return bool(forms & _people())
