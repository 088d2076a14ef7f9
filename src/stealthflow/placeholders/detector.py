"""Run the recognizers (and optionally the LLM extractor) and merge their spans.

Overlaps are resolved greedily: the higher privacy level wins, then the longer span, then
the higher score, so `john@acme.com` stays one EMAIL rather than EMAIL + URL.
"""

from __future__ import annotations

import bisect
from dataclasses import replace

from stealthflow.placeholders.extractor import LLMExtractor
from stealthflow.placeholders.normalize import original_span, shadow
from stealthflow.placeholders.recognizers import Recognizer, build_recognizers
from stealthflow.placeholders.types import Span


def merge_spans(spans: list[Span]) -> list[Span]:
    kept: list[Span] = []  # disjoint, by start: only a span's neighbours there can overlap it
    starts: list[int] = []
    for span in sorted(spans, key=lambda s: (-s.level, -(s.end - s.start), -s.score, s.start)):
        at = bisect.bisect_right(starts, span.start)
        if (at and kept[at - 1].end > span.start) or (at < len(kept) and kept[at].start < span.end):
            continue
        kept.insert(at, span)
        starts.insert(at, span.start)
    return kept


class Detector:
    def __init__(self, recognizers: list[Recognizer] | None = None, extractor: LLMExtractor | None = None):
        self.recognizers = recognizers if recognizers is not None else build_recognizers()
        self.extractor = extractor

    def deterministic(self, text: str) -> list[Span]:
        return self.deterministic_many([text])[0]

    def deterministic_many(self, texts: list[str]) -> list[list[Span]]:
        """The recognizers' spans, found on a normalised shadow of each text (format characters
        dropped, fullwidth forms and other scripts' digits folded) and mapped back to the text.
        Each recognizer gets the whole batch, so a model-backed one can batch its forward passes."""
        shadows = [shadow(text) for text in texts]
        found: list[list[Span]] = [[] for _ in texts]
        # Pattern recognizers first; a model's span (the tagger) then gives way to a span of
        # another type it overlaps: patterns check shapes and checksums the model only guesses
        # at ("+61 4..." is a PHONE, not a CREDENTIAL). Same-type overlaps merge as usual.
        for recognizer in sorted(self.recognizers, key=lambda r: r.model_backed):
            for spans, batch in zip(found, recognizer.find_many([normalised for normalised, _ in shadows]), strict=True):
                if recognizer.model_backed:
                    batch = [span for span in batch if not any(span.overlaps(other) and other.type != span.type for other in spans)]
                spans.extend(batch)
        return [
            spans if offsets is None else [replace(span, start=a, end=b) for span in spans for a, b in [original_span(offsets, span.start, span.end)]]
            for spans, (_, offsets) in zip(found, shadows, strict=True)
        ]

    def detect(self, text: str) -> list[Span]:
        return self.detect_many([text])[0]

    def detect_many(self, texts: list[str]) -> list[list[Span]]:
        extracted = self.extractor.extract_many(texts) if self.extractor else [[] for _ in texts]
        return [merge_spans(spans + llm_spans) for spans, llm_spans in zip(self.deterministic_many(texts), extracted, strict=True)]
