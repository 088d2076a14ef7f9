"""Person nouns and thing nouns: who a subject or an owner may be (`someone`).

A clause whose subject may be someone other than the author is not the author's (`generalize.about_someone_else`,
`places.frame`, `referents`): "My sister is from Cork" never becomes "My sister is from my hometown", "My family
lives in Leeds" says nothing of where the author lives. Only a noun known to name no person and no group ("The rent
here in Leeds keeps going up", `thing_noun`) leaves the clause the author's; a noun no list knows ("coworker",
"bestie", "bf") may name a person, and is read as one.

`data/generalize/person_nouns.txt` is built from WordNet 3.0 by `stealthflow tagger person-nouns WORDNET_DIR`
(Debian's wordnet-base: /usr/share/wordnet; licence: data/LICENSE-WordNet): every one-word lowercase noun whose
most frequent sense WordNet files under noun.person and is no named instance, and none of whose first two senses is
a made thing or a group (noun.artifact, noun.group: "printer", "scanner", "carrier", "host"; a clause whose subject it
is may be the author's, "My printer is from Japan"); every one whose most frequent sense is a group of people
(noun.group, a kind of "people" or "social group": "family", "folks", "crowd", "team") and none of whose first two
senses is a made thing or a place (noun.artifact, noun.location: "school", "church", "country"); with the irregular
plurals of noun.exc ("children", "women").
Other second senses stay ("mother" of vinegar, "kid" leather): the person is what such words mostly name.

`data/generalize/thing_nouns.txt` is built from the same files by `stealthflow tagger thing-nouns WORDNET_DIR`: every
one-word lowercase noun none of whose senses WordNet files under noun.person or noun.group but one it spells
capitalised ("rent", "bus", "pump", "job", whose "Job" is a person; not "host", "company", "flight", "mum"), with the irregular plurals of noun.exc of no person noun.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from stealthflow.anonymize import syntax
from stealthflow.resources import data_words

if TYPE_CHECKING:
    from spacy.tokens import Token

PERSON_NOUNS = "person_nouns.txt"
THING_NOUNS = "thing_nouns.txt"
#: WordNet's lexicographer file of people (lexnames: 18 is noun.person)
NOUN_PERSON = 18
#: WordNet's lexicographer files of things that are no person (lexnames: 06 noun.artifact, 14 noun.group)
THING_FILES = frozenset({6, 14})
#: how many of a noun's most frequent senses may be no thing of THING_FILES (of GROUP_THING_FILES for a group)
THING_SENSES = 2
#: WordNet's lexicographer file of groups (lexnames: 14 noun.group)
NOUN_GROUP = 14
#: the groups (noun.group) whose kinds are groups of people
PEOPLE_GROUPS = frozenset({"people", "social_group"})
#: WordNet's lexicographer files of things that are no group of people (lexnames: 06 noun.artifact, 15 noun.location)
GROUP_THING_FILES = frozenset({6, 15})


def person_nouns(wordnet_dir: Path) -> list[str]:
    """The one-word lowercase nouns of WordNet 3.0 (data.noun, index.noun and noun.exc in `wordnet_dir`) whose first
    (most frequent) sense is a person and none of whose first THING_SENSES senses is a thing (THING_FILES), or whose
    first sense is a group of people (`_people_group`) and none of whose first THING_SENSES senses is a made thing or a
    place (GROUP_THING_FILES); and the irregular plurals noun.exc gives for them."""
    from stealthflow.placeholders.recognizers.wordnet import lemma_senses, synsets

    nouns = {synset.offset: synset for synset in synsets(wordnet_dir / "data.noun")}

    def first_two_none_of(offsets: list[str], files: frozenset[int]) -> bool:
        return not any(nouns[offset].lexicographer_file in files for offset in offsets[:THING_SENSES])

    people = {
        lemma
        for lemma, offsets in lemma_senses(wordnet_dir / "index.noun").items()
        if lemma.isalpha()
        and offsets
        and not nouns[offsets[0]].instance()
        and (
            nouns[offsets[0]].lexicographer_file == NOUN_PERSON
            and first_two_none_of(offsets, THING_FILES)
            or _people_group(nouns, offsets[0])
            and first_two_none_of(offsets, GROUP_THING_FILES)
        )
    }
    exceptions = (wordnet_dir / "noun.exc").read_text(encoding="latin-1").split("\n")
    plurals = {line.split()[0] for line in exceptions if len(line.split()) > 1 and line.split()[1] in people}
    return sorted(people | {word for word in plurals if word.isalpha()})


def _people_group(nouns: dict, offset: str) -> bool:
    """The synset at `offset` is a group (noun.group) of a kind of PEOPLE_GROUPS, through its hypernyms."""
    if nouns[offset].lexicographer_file != NOUN_GROUP:
        return False
    seen, stack = set(), [offset]
    while stack:
        synset = nouns[stack.pop()]
        if synset.lexicographer_file == NOUN_GROUP and synset.words[0].casefold() in PEOPLE_GROUPS:
            return True
        for hypernym in synset.hypernyms():
            if hypernym not in seen:
                seen.add(hypernym)
                stack.append(hypernym)
    return False


def thing_nouns(wordnet_dir: Path) -> list[str]:
    """The one-word lowercase nouns of WordNet 3.0 (data.noun, index.noun and noun.exc in `wordnet_dir`) none of whose
    senses is a person or a group (NOUN_PERSON, NOUN_GROUP) but one spelt capitalised ("job", though "Job" is a person),
    and the irregular plurals noun.exc gives for them."""
    from stealthflow.placeholders.recognizers.wordnet import lemma_senses, synsets

    nouns = {synset.offset: synset for synset in synsets(wordnet_dir / "data.noun")}
    senses = lemma_senses(wordnet_dir / "index.noun")

    def people(lemma: str, offset: str) -> bool:
        words = nouns[offset].words
        named = lemma not in words and lemma in {word.casefold() for word in words}  # spelt "Job", "Burns": a name
        return nouns[offset].lexicographer_file in {NOUN_PERSON, NOUN_GROUP} and not named

    things = {
        lemma
        for lemma, offsets in senses.items()
        if lemma.isalpha() and offsets and not any(people(lemma, offset) for offset in offsets)
    }
    exceptions = (wordnet_dir / "noun.exc").read_text(encoding="latin-1").split("\n")
    plurals = {
        fields[0]
        for fields in map(str.split, exceptions)
        if len(fields) > 1 and fields[1] in things and fields[0].isalpha() and fields[0] not in senses
    }
    return sorted(things | plurals)


@cache
def _people() -> frozenset[str]:
    return data_words(f"generalize/{PERSON_NOUNS}")


@cache
def _things() -> frozenset[str]:
    return data_words(f"generalize/{THING_NOUNS}")


def singulars(word: str) -> set[str]:
    """`word` and the singulars WordNet's detachment rules read back from it ("sisters", "bosses", "nannies",
    "women")."""
    word = word.casefold()
    forms = {word, word.removesuffix("s"), word.removesuffix("es")}
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    if word.endswith("men"):
        forms.add(word[:-3] + "man")
    return forms


def person_noun(word: str) -> bool:
    """`word` names a person or a group of people, in the singular or a plural ("sisters", "nannies", "women")."""
    return bool(singulars(word) & _people())


def thing_noun(word: str) -> bool:
    """`word` is known to name no person and no group, in the singular or a plural ("rent", "pumps"); not a word no
    list holds ("coworker", "bestie", "bf"), nor one that is also a person's plural ("kids", not "ki")."""
    return bool(singulars(word) & _things()) and not person_noun(word)


def someone(token: Token) -> bool:
    """`token` may name someone other than the author: a pronoun of another person (`syntax.someone_else`: "she",
    "their"), or any word that is no pronoun and no noun known to name no person or group (`thing_noun`): a person's
    name ("Lola", "Dave"), a person noun ("sister", "family"), a word no list knows ("coworker", "bf"), a proper noun
    ("Google"). Not "I", "my", "it", "this", "the rent"."""
    if token.pos_ == "PRON":
        return syntax.someone_else(token)
    if "PERSON" in {token.ent_type_, syntax.entity_type(token)} or token.pos_ != "NOUN":
        return True
    return not thing_noun(_hyphenated(token))


def _hyphenated(token: Token) -> str:
    """The word `token` ends, with the pieces joined to it by hyphens ("in-laws", "step-dad")."""
    first = token.i
    while first > 1 and token.doc[first - 1].text == "-" and not token.doc[first - 1].whitespace_:
        first -= 2
    return token.doc[first : token.i + 1].text
