"""FAKE PII tagger for unit tests only: tags each occurrence of the given words as one label, with confidence 0.9.

The real students are covered by tests marked `real_model` and by the end-to-end detector tests.
"""

from __future__ import annotations

import re

from stealthflow.pii_tagger.model import TaggedSpan


class WordTagger:
    """Tags every occurrence of each of `words` as `label` (confidence 0.9; the label's threshold 0.5)."""

    def __init__(self, label: str, words: list[str]):
        self.labels = [label]
        self.span_thresholds = {label: 0.5}
        self.label = label
        self.words = words

    def tag_many(self, texts, batch_size=16, settled=None):
        return [
            [TaggedSpan(m.start(), m.end(), self.label, 0.9) for word in self.words for m in re.finditer(word, text)]
            for text in texts
        ]
