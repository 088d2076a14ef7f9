"""Which marks that stayed withhold their post: `anonymize` does not print a post holding one, and `protect` says the
rewrite did not protect it. Many marks that stay in posts their writers flagged clue-free are false cues the tagger is
unsure of, and such a post holds one, where a post with a clue mostly holds several (benchmarks/clue_stays.py). So a
post in which `several` marks stayed is withheld, and one with fewer only for a mark whose confidence
(`cues.mark_confidence`) reaches its attribute's floor. `FLOOR_FILE` says how both were chosen. A value (an e-mail
address or a link: `marks.holds_value`), a phrase of no attribute and one not found in the post always withhold."""

from __future__ import annotations

from functools import cache

from stealthflow.anonymize.cues import mark_confidence
from stealthflow.anonymize.marks import holds_value
from stealthflow.data.evidence import find_phrase
from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.resources import data_yaml

FLOOR_FILE = "generalize/withhold.yaml"


@cache
def withhold_floors() -> dict[str, float]:
    """Per attribute, the tagger's score a mark that stayed needs to withhold its post (none: any score does)."""
    return {attribute: float(floor) for attribute, floor in data_yaml(FLOOR_FILE)["floors"].items()}


@cache
def several() -> int:
    """How many marks that stayed withhold a post whatever they score."""
    return int(data_yaml(FLOOR_FILE)["several"])


def withholding(post: str, marks: list[TaggedSpan], stayed: list[tuple[str, str]]) -> list[str]:
    """The phrases of `stayed` ((phrase, attribute) that stayed in `post`) that withhold it: all of them when there are
    `several`, else those `withholds` keeps. `marks`: the tagger's of `post`."""
    if len(stayed) >= several():
        return [phrase for phrase, _ in stayed]
    return [phrase for phrase, attribute in stayed if withholds(post, marks, phrase, attribute)]


def withholds(post: str, marks: list[TaggedSpan], phrase: str, attribute: str) -> bool:
    """`phrase` of `post`, alone in having stayed, withholds the post: see the module's doc."""
    if not attribute or find_phrase(phrase, post) is None or holds_value(phrase, post):
        return True
    return mark_confidence(post, marks, phrase) >= withhold_floors().get(attribute, 0.0)
