"""Run the recognizers (and optionally the LLM extractor) and merge their spans.

Overlaps are resolved greedily: the higher privacy level wins, then the longer span, then
the higher score, so `john@acme.com` stays one EMAIL rather than EMAIL + URL.
"""

from __future__ import annotations

import bisect
import hashlib
import secrets
import threading
from collections import OrderedDict
from dataclasses import replace
from typing import TYPE_CHECKING

from stealthflow.pii_tagger.reader import kept_by_readers, one_reading
from stealthflow.placeholders.cells import within_values
from stealthflow.placeholders.extractor import LLMExtractor
from stealthflow.placeholders.language import (
    ENGLISH,
    Guess,
    LanguageGuesser,
    Piece,
    Reading,
    read,
    shared_guesser,
    uncovered_warning,
)
from stealthflow.placeholders.normalize import original_span, shadow
from stealthflow.placeholders.recognizers import Recognizer, build_recognizers
from stealthflow.placeholders.recognizers.public_names import words_kept
from stealthflow.placeholders.titles import without_titles
from stealthflow.placeholders.types import Span, merge_spans, pieces_outside

if TYPE_CHECKING:
    from stealthflow.placeholders.helpers import DetectionHelpers


class _SettledSpans:
    """Spans sorted by start, asked for the pieces of a given span that none of another type covers: a look
    at the few that start within the longest one's length before it, not at all of them (a 100 KB text holds
    thousands of spans on each side: checking every pair took seconds)."""

    def __init__(self, spans: list[Span]):
        self.spans = sorted(spans, key=lambda span: span.start)
        self.starts = [span.start for span in self.spans]
        self.longest = max((span.end - span.start for span in self.spans), default=0)

    def pieces_outside_other_types(self, span: Span, text: str) -> list[Span]:
        first = bisect.bisect_right(self.starts, span.start - self.longest)  # any earlier one ends before span starts
        last = bisect.bisect_left(self.starts, span.end)  # from here on, they start after it ends
        others = [other for other in self.spans[first:last] if other.type != span.type and span.overlaps(other)]
        return pieces_outside(span, others, text)


def _reads(recognizer: Recognizer, guess: Guess) -> bool:
    return _in(recognizer.languages, guess)


def _in(languages: frozenset[str] | None, guess: Guess) -> bool:
    """Whether a recognizer of `languages` (None: every language) reads a piece of `guess`'s languages (`readers`)."""
    return languages is None or not languages.isdisjoint(guess.readers)


def _passes(guess: Guess) -> list[frozenset[str]]:
    """The languages a model reads a piece of `guess` in, one pass each: its `readers`; for an unsure piece
    (`Guess.unsure`) that may be in another language too, also those others apart, so the multilingual student reads it
    beside the English one (pii_tagger/route.py) and nothing either finds is lost ("I met Tuğba Karakaya yesterday."
    read as Dutch or Spanish; "Meine Karte ..., Prüfziffer 331." read in German)."""
    others = guess.readers - {ENGLISH}
    return [guess.readers, others] if guess.unsure and others else [guess.readers]


def _keeps(recognizer: Recognizer, reading: Reading, text: str, span: Span) -> bool:
    """Whether a span the recognizer found in `text` stays: in a piece of its languages, or after one of its names."""
    return _reads(recognizer, reading.at(span.start)) or (
        recognizer.reads_named and recognizer.named_at(text, span.start)
    )


def _within(spans: list[Span], piece: Piece) -> list[Span]:
    """The parts of `spans` inside `piece`, at offsets from its start."""
    return [
        replace(span, start=max(span.start, piece.start) - piece.start, end=min(span.end, piece.end) - piece.start)
        for span in spans
        if span.start < piece.end and span.end > piece.start
    ]


class Detector:
    """`cache_entries`: how many texts' spans to remember, all scopes together (a chat client re-sends its whole
    history every turn: only the new messages are run through the recognizers, the tagger and the LLM
    extractor again). Keys are keyed hashes of the scope and the text, so a text another scope sent is no
    faster (no timing oracle across scopes); spans hold offsets and types, no text.
    `languages`: tells which languages each sentence may be in (`language.py` `read`); a pattern recognizer reads
    the texts with a piece in one of its languages and keeps the spans that start in one, the tagger reads each such
    piece on its own, in its languages."""

    def __init__(
        self,
        recognizers: list[Recognizer] | None = None,
        extractor: LLMExtractor | None = None,
        cache_entries: int = 4096,
        languages: LanguageGuesser | None = None,
    ):
        self.recognizers = recognizers if recognizers is not None else build_recognizers()
        # those that may warn (`Recognizer.warning_for`: the tagger), the only ones `warnings_for` asks
        self._warners = [r for r in self.recognizers if type(r).warning_for is not Recognizer.warning_for]
        self.extractor = extractor
        self.languages = languages or shared_guesser()
        self._cache: OrderedDict[bytes, tuple[list[Span], Reading]] = OrderedDict()
        self._cache_entries = cache_entries
        self._cache_key = secrets.token_bytes(16)
        self._cache_lock = threading.Lock()
        self.helpers: DetectionHelpers | None = None

    def start_helpers(self, processes: int) -> None:
        """Share long batches' pattern recognizers with `processes` helper processes (servers:
        they start in the background and are used once ready; `helpers.py`)."""
        if processes > 0 and self.helpers is None:
            from stealthflow.placeholders.helpers import DetectionHelpers

            self.helpers = DetectionHelpers([r.name for r in self.recognizers if not r.model_backed], processes)

    def close(self) -> None:
        if self.helpers is not None:
            self.helpers.close()
            self.helpers = None

    @property
    def uses_models(self) -> bool:
        """Whether detection runs a model (the tagger, the LLM extractor): tens of ms per KB."""
        return self.extractor is not None or self.uses_tagger

    @property
    def uses_tagger(self) -> bool:
        """Whether a model-backed recognizer (the PII tagger) is among its recognizers."""
        return any(recognizer.model_backed for recognizer in self.recognizers)

    def deterministic(self, text: str) -> list[Span]:
        return self.deterministic_many([text])[0]

    def deterministic_many(self, texts: list[str]) -> list[list[Span]]:
        return self._deterministic(texts)[0]

    def _deterministic(self, texts: list[str], models: bool = True) -> tuple[list[list[Span]], list[Reading]]:
        """`_found`, each piece of text the health reader reads (pattern matches and the tagger's spans) read once."""
        with one_reading():
            return self._found(texts, models)

    def _found(self, texts: list[str], models: bool) -> tuple[list[list[Span]], list[Reading]]:
        """The recognizers' spans, found on a normalised shadow of each text (format characters
        dropped, fullwidth forms and other scripts' digits folded) and mapped back to the text,
        and how each text is read (its pieces' languages). Each recognizer gets the batch's texts (the model-backed
        one: their pieces) in its languages, so a model can batch its forward passes."""
        shadows = [shadow(text) for text in texts]
        normalised = [text for text, _ in shadows]
        readings = [read(text, self.languages) for text in normalised]
        found: list[list[Span]] = [[] for _ in texts]
        patterns = [recognizer for recognizer in self.recognizers if not recognizer.model_backed]
        if self.helpers and (shared := self.helpers.find_many(patterns, normalised)):
            by_name = {recognizer.name: recognizer for recognizer in patterns}
            for batches in shared:
                for spans, batch, reading, text in zip(found, batches, readings, normalised, strict=True):
                    spans.extend(span for span in batch if _keeps(by_name[span.source], reading, text, span))
        else:
            read_in: dict[frozenset[str] | None, list[list[bool]]] = {}
            with words_kept():
                for recognizer in patterns:
                    self._run(recognizer, normalised, readings, found, read_in)
        left: list[list[Span]] = [[] for _ in texts]
        if models and self.uses_tagger:
            found, left = self._read_matches(normalised, found, readings)
        # A model's span (the tagger) gives way to a pattern's span of another type it overlaps, one a reader left in
        # clear too (but a name): patterns check shapes and checksums the model only guesses at ("+61 4..." is a PHONE,
        # not a CREDENTIAL; an organisation's "613-728-4410" is no secret either: benchmarks/results/
        # pii_matches_left_in_clear.md); what it covers outside the pattern's span stays masked as its type.
        # Same-type overlaps merge as usual.
        for recognizer in self.recognizers:
            if models and recognizer.model_backed:
                self._run_on_pieces(recognizer, normalised, readings, found, left)
        found = [
            within_values(spans, text) for spans, text in zip(found, normalised, strict=True)
        ]  # cells' values apart
        spans = [
            spans
            if offsets is None
            else [
                replace(span, start=a, end=b)
                for span in spans
                for a, b in [original_span(offsets, span.start, span.end)]
            ]
            for spans, (_, offsets) in zip(found, shadows, strict=True)
        ]
        return spans, readings

    def _read_matches(
        self, texts: list[str], found: list[list[Span]], readings: list[Reading]
    ) -> tuple[list[list[Span]], list[list[Span]]]:
        """`found` without the matches of the pattern recognizers read by a reader (`read_by_reader`: the labels of
        pii_tagger/reader.py's `MATCHES_READ | MATCHED`) that the tagger's reader of their label (`match_readers`)
        reads as no private person's, as it reads the tagger's spans, and those dropped matches but names (left in
        clear): run with the tagger only, so a detector without models stays without them. Before the tagger's pass: a
        dropped match settles nothing of the tagger's input; the tagger's spans of another type give way to one left in
        clear (`_run_on_pieces`: "Church Lane" of a shop's street address is no name), but not to a name left in clear,
        which a span of another type may hold ("M. Traoré, 45 boulevard Voltaire": the name a reader left in clear is
        masked within the address)."""
        gated = {recognizer.name for recognizer in self.recognizers if recognizer.read_by_reader}
        readers = tuple(reader for recognizer in self.recognizers for reader in recognizer.match_readers)
        matches = [[s for s in spans if s.source in gated] for spans in found]
        read = kept_by_readers(texts, matches, readers, readings)
        unread = [[s for s in spans if s.source not in gated] for spans in found]
        left = [
            [s for s in spans if s.type != "REAL_NAME" and s not in kept]
            for spans, kept in zip(matches, read, strict=True)
        ]
        return [others + kept for others, kept in zip(unread, read, strict=True)], left

    @staticmethod
    def _run(
        recognizer: Recognizer,
        texts: list[str],
        readings: list[Reading],
        found: list[list[Span]],
        read_in: dict[frozenset[str] | None, list[list[bool]]],
    ) -> None:
        """Add `recognizer`'s spans of the texts with a piece in its languages, that start in one, to `found`. Which
        pieces are in its languages is worked out once per set of languages for all the recognizers of a pass
        (`read_in`: ~100 recognizers, a handful of sets), and a text read in them throughout (most texts: one piece)
        keeps every span without a look at where each starts (~60 recognizers per text, each asked before: a few per
        cent of the pattern layer's CPU at most; the same spans)."""
        languages = recognizer.languages
        if languages not in read_in:
            read_in[languages] = [[_in(languages, piece.guess) for piece in reading.pieces] for reading in readings]
        read = read_in[languages]
        chosen = [index for index, pieces in enumerate(read) if recognizer.reads_named or any(pieces)]
        if not chosen:
            return
        for index, batch in zip(chosen, recognizer.find_many([texts[i] for i in chosen]), strict=True):
            if all(read[index]):
                found[index].extend(batch)
            else:
                found[index].extend(span for span in batch if _keeps(recognizer, readings[index], texts[index], span))

    @staticmethod
    def _run_on_pieces(
        recognizer: Recognizer,
        texts: list[str],
        readings: list[Reading],
        found: list[list[Span]],
        left: list[list[Span]],
    ) -> None:
        """Add `recognizer`'s spans of the pieces in its languages, each read on its own and in its languages (the
        tagger's student and thresholds are its language's; an unsure piece once per `_passes`), to `found`: their
        parts that overlap none of another type found so far nor of the matches a reader `left` in clear (the passes'
        spans are merged with the rest: `merge_spans`)."""
        chosen = [
            (index, piece, languages)
            for index, reading in enumerate(readings)
            for piece in reading.pieces
            if _reads(recognizer, piece.guess)
            for languages in _passes(piece.guess)
        ]
        if not chosen:
            return
        batches = recognizer.find_many(
            [texts[i][piece.start : piece.end] for i, piece, _ in chosen],
            settled=[_within(found[i], piece) for i, piece, _ in chosen],
            languages=[languages for _, _, languages in chosen],
        )
        settled = {index: _SettledSpans(found[index] + left[index]) for index, _, _ in chosen}
        for (index, piece, _), batch in zip(chosen, batches, strict=True):
            known = {(s.start, s.end, s.type) for s in found[index]}  # an unsure piece's second pass: only what is new
            found[index].extend(
                part
                for span in batch
                for part in settled[index].pieces_outside_other_types(
                    replace(span, start=span.start + piece.start, end=span.end + piece.start), texts[index]
                )
                if (part.start, part.end, part.type) not in known
            )

    def warnings_for(self, reading: Reading) -> list[str]:
        """What detection could not do for a text read as `reading`: look for more than structured identifiers in its
        sentences in no covered language (`uncovered_warning`), and what the recognizers that read its pieces could not
        do for them (`Recognizer.warning_for`), each once."""
        warnings = [warning] if (warning := uncovered_warning(reading)) else []
        for piece in reading.pieces:
            for recognizer in self._warners:
                if _reads(recognizer, piece.guess) and (warning := recognizer.warning_for(piece.guess.candidates)):
                    warnings.append(warning)
        return list(dict.fromkeys(warnings))

    def detect(self, text: str) -> list[Span]:
        return self.detect_many([text])[0]

    def detect_many(self, texts: list[str]) -> list[list[Span]]:
        return [spans for spans, _ in self.detect_many_with_languages(texts)]

    def recognized_with_languages(self, texts: list[str], models: bool = True) -> list[tuple[list[Span], Reading]]:
        """Each text's spans by the recognizers alone (no LLM extractor, no cache; `models=False`: the patterns alone,
        not the tagger) and how it was read: for short names and ids (a session's name), which hold no context a model
        reads (the tagger took ordinary labels such as `t2x-clean2-en-sports` and `alice` for values)."""
        spans, readings = self._deterministic(texts, models)
        return [
            (without_titles(merge_spans(found, text), text, reading), reading)
            for found, text, reading in zip(spans, texts, readings, strict=True)
        ]

    def detect_many_with_languages(self, texts: list[str], scope: str = "") -> list[tuple[list[Span], Reading]]:
        """Each text's spans and how it was read (`language.py` `read`). `scope`: whose texts these are (the
        protector's user and session); the cache answers a text only to the scope that sent it."""
        scoped = hashlib.blake2b(scope.encode("utf-8", "surrogatepass"), key=self._cache_key, digest_size=16).digest()
        keys = [
            hashlib.blake2b(
                text.encode("utf-8", "surrogatepass"), key=self._cache_key + scoped, digest_size=16
            ).digest()
            for text in texts
        ]
        with self._cache_lock:
            found = {key: self._cache[key] for key in keys if key in self._cache}
        todo = list({key: text for key, text in zip(keys, texts, strict=True) if key not in found}.items())
        if todo:
            new_texts = [text for _, text in todo]
            extracted = self.extractor.extract_many(new_texts) if self.extractor else [[] for _ in new_texts]
            deterministic, languages = self._deterministic(new_texts)
            spans = [
                without_titles(merge_spans(a + b, text), text, reading)
                for a, b, text, reading in zip(deterministic, extracted, new_texts, languages, strict=True)
            ]
            found.update(zip((key for key, _ in todo), zip(spans, languages, strict=True), strict=True))
        with self._cache_lock:
            for key in keys:
                self._cache[key] = found[key]
                self._cache.move_to_end(key)
            while len(self._cache) > self._cache_entries:
                self._cache.popitem(last=False)
        return [(list(found[key][0]), found[key][1]) for key in keys]
