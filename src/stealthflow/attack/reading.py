"""What the choice attacker reads of a text: whole sentences within a word budget, and optionally the
sentences the cue tagger marked for the asked attribute first (`cue_first`), so a cue late in a long
text is not cut away."""

from __future__ import annotations

import re
from collections.abc import Sequence

_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


def sentence_spans(flat: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of a text whose whitespace is single spaces."""
    starts = [0, *(m.end() for m in _SENTENCE_BREAK.finditer(flat))]
    ends = [m.start() for m in _SENTENCE_BREAK.finditer(flat)] + [len(flat)]
    return [(start, end) for start, end in zip(starts, ends, strict=True) if end > start]


def within(sentences: Sequence[str], words: int | None) -> str:
    """Whole sentences in order up to `words` words (at least the first sentence, cut at `words`)."""
    flat = " ".join(sentences)
    if words is None or len(flat.split()) <= words:
        return flat
    kept: list[str] = []
    for sentence in sentences:
        if kept and len(" ".join([*kept, sentence]).split()) > words:
            break
        kept.append(sentence)
    return " ".join(" ".join(kept).split()[:words])


def shorten(text: str, words: int | None) -> str:
    """`text` (whitespace collapsed) as whole sentences up to `words` words."""
    flat = " ".join(text.split())
    return within([flat[start:end] for start, end in sentence_spans(flat)], words)


def cue_first(flat: str, marks: Sequence[tuple[int, int, str]], attribute: str, words: int | None) -> str:
    """`flat` (whitespace collapsed) with the sentences holding a mark (start, end, label) for `attribute`
    first, then the others, each group in text order, up to `words` words; unmarked, it is `shorten`'s."""
    spans = sentence_spans(flat)
    marked = [any(s < end and start < e for s, e, label in marks if label == attribute) for start, end in spans]
    order = [i for i, m in enumerate(marked) if m] + [i for i, m in enumerate(marked) if not m]
    return within([flat[spans[i][0] : spans[i][1]] for i in order], words)
