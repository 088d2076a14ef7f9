"""Stand-ins blind readers turned away more often than they let pass (`data/generalize/reader_stand_ins.tsv`).

Each line of the table is a stand-in (`stand_in_key`: the words a replacement puts in a phrase's place, as readers'
verdicts tally them) with how many of its edits readers accepted (the post judged fluent and faithful by both) and
rejected (a reader judging the post not fluent or not faithful named the edit) on the judged development seeds;
`benchmarks/stand_in_verdicts.py` counts them and fits the refusal threshold (generic.yaml `reader_refusal`) holding
one seed out at a time. A refused stand-in is offered from no source ("at TUM" never -> "at school", "my salary" never
-> "my income"); a phrase left with no other acceptable candidate stays, and is reported.
"""

from __future__ import annotations

import re
from functools import cache

from stealthflow.evaluation.evidence import STOP_WORDS
from stealthflow.resources import data_yaml, resource_dir

TABLE = "generalize/reader_stand_ins.tsv"
_WORDS = re.compile(r"[\w'’-]+")


def stand_in_key(phrase: str, replacement: str) -> str:
    """The words `replacement` puts in the place of `phrase`: case-folded, without the words both share at their ends
    nor the function words opening them ("at TUM" -> "at school": "school"; "my salary" -> "my income": "income");
    "" for a removal."""
    old, new = _WORDS.findall(phrase.casefold()), _WORDS.findall(replacement.casefold())
    while old and new and old[0] == new[0]:
        old, new = old[1:], new[1:]
    while old and new and old[-1] == new[-1]:
        old, new = old[:-1], new[:-1]
    while len(new) > 1 and new[0] in STOP_WORDS:
        new = new[1:]
    return " ".join(new)


def refused(accepted: int, rejected: int, min_rejected: int, max_accepted_share: float) -> bool:
    """A stand-in with these verdicts is refused: rejected at least `min_rejected` times, and accepted in at most
    `max_accepted_share` of its judged edits."""
    return rejected >= min_rejected and accepted <= max_accepted_share * (accepted + rejected)


def read_table(text: str) -> dict[str, tuple[int, int]]:
    """stand-in -> (accepted, rejected), from the table's text ("#" lines are comments)."""
    table = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            key, accepted, rejected = line.split("\t")
            table[key] = (int(accepted), int(rejected))
    return table


@cache
def refused_keys() -> frozenset[str]:
    """The shipped table's stand-ins refused at generic.yaml `reader_refusal`'s threshold."""
    threshold = data_yaml("generalize/generic.yaml")["reader_refusal"]
    table = read_table((resource_dir("data") / TABLE).read_text(encoding="utf-8"))
    return frozenset(
        key
        for key, (accepted, rejected) in table.items()
        if refused(accepted, rejected, threshold["min_rejected"], threshold["max_accepted_share"])
    )


def turned_away(phrase: str, replacement: str) -> bool:
    """Readers turned away the stand-in `replacement` makes of `phrase` (`refused_keys`); a removal never."""
    key = stand_in_key(phrase, replacement)
    return bool(key) and key in refused_keys()
