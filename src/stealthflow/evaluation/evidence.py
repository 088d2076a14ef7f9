"""Evidence survival: how much of what a strong attacker relied on is still in a rewrite.

An evidence span *survives* in a rewrite when its content words (lower-cased, stop words
dropped; a span made only of stop words keeps all its words) appear in the rewrite in the
same order within a window of `len(span words) + WINDOW_SLACK` words. So a phrase kept
verbatim, or with a word or two inserted, survives; a phrase deleted, generalised ("Leeds"
-> "a city") or broken apart does not. Survival of a text = surviving spans / spans.

It measures removal of the cues a strong attacker (DeepSeek-V3) quoted on the original; it
does not measure cues that attacker did not quote, nor cues a rewrite introduces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

WINDOW_SLACK = 3
_WORD = re.compile(r"[\w']+")
STOP_WORDS = frozenset(
    "a an the and or but if of to in on at by for with from as is are was were be been being am "
    "i me my mine we us our you your he him his she her it its they them their this that these those "
    "so too very just really do does did have has had not no yes there here what which who whom".split()
)


def words(text: str) -> list[str]:
    return [w.strip("'") for w in _WORD.findall(text.lower().replace("’", "'")) if w.strip("'")]


def content_words(phrase: str) -> list[str]:
    all_words = words(phrase)
    return [w for w in all_words if w not in STOP_WORDS] or all_words


def span_survives(phrase: str, rewrite: str | list[str]) -> bool:
    needles = content_words(phrase)
    if not needles:
        return False
    tokens = words(rewrite) if isinstance(rewrite, str) else rewrite
    window = len(words(phrase)) + WINDOW_SLACK
    for first, token in enumerate(tokens):
        if token != needles[0]:
            continue
        position, matched = first, 1
        # Greedy earliest match of the rest: it ends as early as any match starting here can.
        for needle in needles[1:]:
            try:
                position = tokens.index(needle, position + 1, first + window)
            except ValueError:
                break
            matched += 1
        if matched == len(needles):
            return True
    return False


def evidence_survival(phrases: Iterable[str], rewrite: str) -> float | None:
    """Share of `phrases` surviving in `rewrite`; None when there is no evidence to measure."""
    phrases = list(phrases)
    if not phrases:
        return None
    tokens = words(rewrite)
    return sum(span_survives(p, tokens) for p in phrases) / len(phrases)
