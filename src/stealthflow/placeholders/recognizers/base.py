"""One small class per kind of identifier, registered by name (Presidio-style).

A recognizer returns spans; the detector merges them with the other recognizers' and the
LLM extractor's. Context recognizers are a regex whose group `value` is the span.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import ClassVar

from stealthflow.placeholders.language import ENGLISH
from stealthflow.placeholders.recognizers.gate import TriggerGate
from stealthflow.placeholders.recognizers.public_names import forget_words
from stealthflow.placeholders.types import TYPE_LEVELS, Level, Span

_ENGLISH_ONLY = frozenset({ENGLISH})  # one set for every English context recognizer: the detector asks per text


class Recognizer:
    name: ClassVar[str]
    type: ClassVar[str]
    model_backed: ClassVar[bool] = False  # loads a model: built only when asked for (the tagger)
    # The label whose reader reads its matches when the detector runs the tagger (detector.py; pii_tagger/reader.py):
    # one of pii_tagger/reader.py's `MATCHES_READ | MATCHED`; None: none.
    read_by_reader: ClassVar[str | None] = None
    # The languages of the texts it reads (`placeholders/language.py`); None: every text, whatever its language.
    languages: ClassVar[frozenset[str] | None] = None
    # Whether it also reads the other texts, keeping there the spans that follow one of its names (`named_at`).
    reads_named: ClassVar[bool] = False

    @property
    def level(self) -> Level:
        return TYPE_LEVELS[self.type]

    def find(self, text: str) -> list[Span]:
        raise NotImplementedError

    def find_many(
        self, texts: list[str], settled: list[list[Span]] | None = None, languages: list[frozenset[str]] | None = None
    ) -> list[list[Span]]:
        """Spans for each text; a model-backed recognizer (the tagger) overrides this to run
        the whole batch at once, and gets `settled`, the spans the pattern recognizers found, and
        `languages`, the languages each text may be in."""
        try:
            return [self.find(text) for text in texts]
        finally:
            forget_words()  # the words of the batch's last text, if a rule looked them up (anothers_life): none of it stays in memory

    def named_at(self, text: str, start: int) -> bool:
        """Whether the span it found at `start` follows one of its names in its sentence (with `reads_named`)."""
        return False

    @property
    def match_readers(self) -> tuple:
        """What reads the pattern recognizers' matches of a label (`read_by_reader`) as a private person's value or
        not: a model-backed recognizer's readers (the tagger's, pii_tagger/reader.py); none here."""
        return ()

    def warning_for(self, languages: frozenset[str]) -> str | None:
        """What it could not do for a text that may be in `languages`, for the user to read (None: nothing; the tagger
        says when a student could not be loaded)."""
        return None

    def value_end(self, match: re.Match[str]) -> int:
        """Where the value of a match of its pattern ends (a name typed in lowercase ends before the words after it)."""
        return match.end("value")

    def span(self, start: int, end: int, score: float = 1.0, span_type: str | None = None, reason: str = "") -> Span:
        span_type = span_type or self.type
        return Span(start, end, span_type, TYPE_LEVELS[span_type], self.name, score, reason)


class ContextRecognizer(Recognizer):
    """A value named by its context ("my password is X"): the regex group `value` is the span.

    `triggers`: lowercase words of which every match holds one within a few words of its start
    (the pattern then runs only around them, `gate.py`); empty: the pattern scans the whole text.
    Its words are English: it reads English texts only, unless it finds a secret (PL4), whose key
    words ("password", "token") are those of technical talk in any language."""

    pattern: ClassVar[re.Pattern[str]]
    triggers: ClassVar[tuple[str, ...]] = ()

    @cached_property
    def languages(self) -> frozenset[str] | None:  # asked once per text by the detector: remembered
        return None if self.level == Level.PL4 else _ENGLISH_ONLY

    @cached_property
    def _gate(self) -> TriggerGate | None:
        return TriggerGate(self.triggers) if self.triggers else None

    def find(self, text: str) -> list[Span]:
        matches = self._gate.finditer(self.pattern, text) if self._gate else self.pattern.finditer(text)
        return [self.span(m.start("value"), self.value_end(m)) for m in matches if self.accept(m)]

    def accept(self, match: re.Match[str]) -> bool:
        """Whether the match names an identifier (`match["value"]`, and any other group the pattern has)."""
        return True


_RECOGNIZERS: dict[str, type[Recognizer]] = {}


def register_recognizer(cls: type[Recognizer]) -> type[Recognizer]:
    """Class decorator: make the recognizer available by `cls.name` (config `recognizers:`)."""
    if cls.type not in TYPE_LEVELS:
        raise ValueError(f"{cls.__name__}: unknown span type {cls.type!r}")
    _RECOGNIZERS[cls.name] = cls
    return cls


def recognizer_names() -> list[str]:
    return sorted(_RECOGNIZERS)


def build_recognizers(
    names: list[str] | None = None, models: bool = False, model: str | None = None, clauses: bool = False
) -> list[Recognizer]:
    """Instances of the named recognizers (all registered ones when `names` is None); the
    model-backed ones (the PII tagger) only with `models`, built on `model` when given, with its clause tagger when
    `clauses`."""
    unknown = sorted(set(names or ()) - set(_RECOGNIZERS))
    if unknown:
        raise ValueError(f"unknown recognizer(s) {', '.join(unknown)}; choose from {', '.join(recognizer_names())}")
    chosen = [_RECOGNIZERS[name] for name in (names if names is not None else recognizer_names())]
    return [
        (cls(model, clauses=clauses) if cls.model_backed else cls()) for cls in chosen if models or not cls.model_backed
    ]
