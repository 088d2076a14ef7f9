"""Kinds of common nouns: a marked noun's nearest everyday hypernym in WordNet 3.0 ("cicadas" -> "insects", "a kayak" ->
"a boat"), a truthful coarser word for `generalize.candidates` that the gate scores in context like any other.

`data/generalize/hypernyms.tsv` is built by `stealthflow tagger hypernyms WORDNET_DIR` (Debian's wordnet-base:
/usr/share/wordnet; licence: data/LICENSE-WordNet): for every one-word lowercase noun of data/common_words.txt whose
most frequent sense is an animal, a made thing, a food, a natural object or a plant (KIND_FILES) and no named
instance, the first word of the nearest ancestor synset (up to DEPTH levels up) that is one lowercase word tagged at
least EVERYDAY times in WordNet's sense-tagged corpus (cntlist.rev); none when that word is in
data/generalize/broad_hypernyms.txt (too broad or too ambiguous to read as a kind: "thing", "piece", "work"). A noun whose senses lead to different
hypernyms is left out unless its first sense holds at least FIRST_SHARE of its tagged uses ("mango": a tree or a
fruit, left out; "car": mostly an automobile -> "vehicle").
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path

from stealthflow.anonymize.person_nouns import singulars
from stealthflow.resources import data_words, resource_dir

HYPERNYMS = "generalize/hypernyms.tsv"
#: WordNet's lexicographer files of kinds of things (lexnames: 05 animal, 06 artifact, 13 food, 17 object, 20 plant)
KIND_FILES = frozenset({5, 6, 13, 17, 20})
#: how many levels up a hypernym may be
DEPTH = 4
#: the least number of tagged uses (cntlist.rev) of a hypernym's word
EVERYDAY = 8
#: the least share of a noun's tagged uses its first sense holds when its senses lead to different hypernyms
FIRST_SHARE = 0.75


def _tagged_uses(wordnet_dir: Path) -> tuple[Counter, Counter]:
    """Tagged uses (cntlist.rev) of each noun lemma, and of each (lemma, sense number)."""
    lemmas, senses = Counter(), Counter()
    for line in (wordnet_dir / "cntlist.rev").read_text(encoding="latin-1").splitlines():
        key, number, count = line.split()
        lemma, _, rest = key.partition("%")
        if rest.startswith("1:"):  # a noun's sense key
            lemmas[lemma] += int(count)
            senses[lemma, int(number)] += int(count)
    return lemmas, senses


def build(wordnet_dir: Path) -> list[tuple[str, str]]:
    """(noun, hypernym) for the nouns of data/common_words.txt WordNet 3.0 (data.noun, index.noun, cntlist.rev in
    `wordnet_dir`) gives an everyday kind (see the module)."""
    from stealthflow.placeholders.recognizers.wordnet import lemma_senses, synsets

    nouns = {synset.offset: synset for synset in synsets(wordnet_dir / "data.noun")}
    uses, sense_uses = _tagged_uses(wordnet_dir)
    broad, common = data_words("generalize/broad_hypernyms.txt"), data_words("common_words.txt")

    def everyday(offset: str) -> str | None:
        return next((w for w in nouns[offset].words if w.isalpha() and w.islower() and uses[w] >= EVERYDAY), None)

    def hypernym(offset: str) -> str | None:
        level = [offset]
        for _ in range(DEPTH):
            level = [up for o in level for up in nouns[o].hypernyms()]
            found = [w for o in level if (w := everyday(o)) is not None]
            if found:
                return None if found[0] in broad else found[0]
        return None

    table = []
    for lemma, offsets in sorted(lemma_senses(wordnet_dir / "index.noun").items()):
        first = nouns[offsets[0]] if offsets else None
        if not (lemma.isalpha() and lemma in common and first and first.lexicographer_file in KIND_FILES):
            continue
        kind = hypernym(first.offset)
        if kind is None or kind == lemma or first.instance():
            continue
        if any(hypernym(o) != kind for o in offsets[1:]) and sense_uses[lemma, 1] < FIRST_SHARE * uses[lemma]:
            continue
        if sense_uses[lemma, 1] == 0 and len(offsets) > 1 and any(hypernym(o) != kind for o in offsets[1:]):
            continue  # no tagged use tells which sense is meant
        table.append((lemma, kind))
    return table


def write(table: list[tuple[str, str]], out: Path) -> int:
    out.write_text("".join(f"{noun}\t{kind}\n" for noun, kind in table), encoding="utf-8")
    return len(table)


@cache
def _table() -> dict[str, str]:
    lines = (resource_dir("data") / HYPERNYMS).read_text(encoding="utf-8").splitlines()
    return dict(line.split("\t") for line in lines if line)


def kind_of(noun: str) -> str | None:
    """The everyday kind of `noun`, in the singular or a plural ("cicadas" -> "insect"); None when the table has
    none."""
    return next((_table()[form] for form in sorted(singulars(noun)) if form in _table()), None)
