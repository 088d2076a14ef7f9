"""Money someone has, earns or owes, said in words, found by MiniLM in the six languages' texts: the bottom layers of
the packaged all-MiniLM-L6-v2 and a two-way token head (inside a FINANCE value or not), fine-tuned (`stealthflow
tagger finance-reader`, pii_tagger/training/finance_reader.py) on the sentences of the annotated German, French,
Spanish, Italian, Dutch and Portuguese training texts that hold one of its cues.

The students tag amounts but little money said in words ("bin voll im Dispo", "je suis au RSA depuis un an",
"estoy en un ERTE"); the reader reads each sentence of a text routed to the multilingual student that holds one of its
language's cues (words found in the training texts' FINANCE values, learnt with the reader and kept in its card) or a
currency sign, and a run of word pieces scoring at least 0.5 that holds one at the threshold, widened to whole words,
is a FINANCE span. Shipped as models/pii-finance-reader-multilingual/: reader.json (the layers, the languages, the
cues, the threshold and how it was chosen) and reader.safetensors (the trained layers and head). Texts read as English
are not read (measured in English at 1.86x the tagger's CPU: not shipped there).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np

from stealthflow.pii_tagger.filters.finance import ownerless_price
from stealthflow.pii_tagger.minilm import MiniLMRuntime, minilm_with, vocabulary
from stealthflow.pii_tagger.route import may_be_english
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.sentences import sentence_around
from stealthflow.placeholders.types import TYPE_LEVELS, Span
from stealthflow.resources import resource_dir
from stealthflow.sentence_ends import sentence_ends, words_end

READER_DIR = "pii-finance-reader-multilingual"
CARD = "reader.json"
WEIGHTS = "reader.safetensors"
MAX_PIECES = 126  # word pieces of a sentence read, [CLS] and [SEP] aside (as trained)
MAX_READ_PIECES = 4096  # word pieces read in one text at most: past them its other sentences are not read
RUN_FLOOR = 0.5  # a word piece at least this likely is inside a value; a run of them is one span
CURRENCY = re.compile(r"[$€£¥₹₩₽₺₦₱฿₿₴₫₪]|\bR\$")
WORD = re.compile(r"\w[\w'’-]*")


def words_of(text: str) -> set[str]:
    """The lower-cased words of a text, as the cues are written (training and reading alike)."""
    return {word.lower() for word in WORD.findall(text)}


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text` that holds a word (sentence_ends.py, line breaks ending one)."""
    found, start = [], 0
    for match in sentence_ends(text):
        if text[start : words_end(match)].strip():
            found.append((start, words_end(match)))
        start = match.end()
    if text[start:].strip():
        found.append((start, len(text)))
    return found


@dataclass(frozen=True)
class FinanceReader:
    """`runtime` and the score a run of word pieces must reach (`threshold`), in texts of its `languages`, of which
    it reads the sentences holding a currency sign or one of `cues` (language -> lower-cased words)."""

    runtime: MiniLMRuntime
    threshold: float
    cues: dict[str, frozenset[str]]
    languages: frozenset[str]

    def reads_text_of(self, languages: frozenset[str]) -> bool:
        """Whether it reads a text that may be in any of `languages` (the detector's candidates): not English."""
        return not may_be_english(languages) and bool(languages & self.languages)

    def cued(self, sentence: str, languages: frozenset[str]) -> bool:
        if CURRENCY.search(sentence):
            return True
        words = words_of(sentence)
        return any(not words.isdisjoint(self.cues.get(language, ())) for language in languages)

    def find_many(self, texts: list[str], languages: list[frozenset[str]]) -> list[list[tuple[int, int, float]]]:
        """(start, end, score) of the FINANCE values in each text, its cued sentences read in padded batches."""
        words = vocabulary()
        windows, where = [], []  # where: (text number, sentence start, the pieces' offsets)
        for number, (text, candidates) in enumerate(zip(texts, languages, strict=True)):
            if not self.reads_text_of(candidates):
                continue
            budget = MAX_READ_PIECES
            for start, end in sentences(text):
                if budget <= 0:
                    break
                if not self.cued(text[start:end], candidates):
                    continue
                encoding = words.tokenizer.encode(text[start:end], add_special_tokens=False)
                windows.append(np.array([words.cls, *encoding.ids[:MAX_PIECES], words.sep]))
                where.append((number, start, encoding.offsets[:MAX_PIECES]))
                budget -= len(windows[-1])
        found: list[list[tuple[int, int, float]]] = [[] for _ in texts]
        for (number, start, offsets), read in zip(where, self.runtime.padded_probabilities(windows), strict=True):
            found[number].extend(self._runs(texts[number], start, offsets, read[1:, 1]))
        return found

    def _runs(self, text: str, at: int, offsets: list[tuple[int, int]], scores: np.ndarray) -> list:
        runs, run = [], None
        for (low, high), score in zip([*offsets, (0, 0)], [*scores[: len(offsets)].tolist(), 0.0], strict=True):
            if score >= RUN_FLOOR:
                run = [low, high, score] if run is None else [run[0], high, max(run[2], score)]
                continue
            if run is not None and run[2] >= self.threshold:
                runs.append((*_whole_words(text, at + run[0], at + run[1]), run[2]))
            run = None
        return runs


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened to the words it cuts ("la ban" of "la banque": "la banque")."""
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return start, end


def read_finance_reader(directory: Path) -> FinanceReader:
    from safetensors.numpy import load_file

    card = json.loads((directory / CARD).read_text(encoding="utf-8"))
    runtime = minilm_with(load_file(str(directory / WEIGHTS)), card.get("layers"), directory)
    if runtime.tags != 2:
        raise ValueError(f"{directory}: a head of two outputs (not, inside a FINANCE value) was expected")
    cues = {language: frozenset(words) for language, words in card["cues"].items()}
    return FinanceReader(runtime, card["threshold"], cues, frozenset(card["languages"]))


@cache
def shipped_finance_reader() -> FinanceReader | None:
    """The finance reader shipped in models/, None when it is not there."""
    directory = resource_dir("models") / READER_DIR
    return read_finance_reader(directory) if (directory / CARD).exists() else None


@register_recognizer
class FinanceReaderRecognizer(Recognizer):
    """The finance reader as a recognizer: model-backed (run with the tagger, on the pieces of text the detector routes
    to it), its spans FINANCE with the reader's score, "finance reader 0.83 (from 0.70)" their reason; as the tagger's
    FINANCE spans, none in a sentence that names no one and no money anyone has (the FINANCE filter's
    `ownerless_price`: a price; on the development sets zs, zt and zu, texts without personal data flagged 25 -> 13,
    23 -> 19, 30 -> 28 at the threshold 0.5, benchmarks/results/pii_finance_reader_languages.md)."""

    name, type = "pii_tagger_finance_reader", "FINANCE"  # after "pii_tagger": the detector runs it second
    model_backed = True
    languages: ClassVar[frozenset[str]] = frozenset({"de", "fr", "es", "it", "nl", "pt"})

    def __init__(self, model: str | None = None, reader: FinanceReader | None = None):
        """`model`: a tagger model the detector was asked for (the reader reads beside any); `reader`: the reader
        (default: the shipped one, if any)."""
        self._reader = reader

    @property
    def reader(self) -> FinanceReader | None:
        return self._reader if self._reader is not None else shipped_finance_reader()

    def find(self, text: str) -> list[Span]:
        return self.find_many([text])[0]

    def find_many(
        self, texts: list[str], settled: list[list[Span]] | None = None, languages: list[frozenset[str]] | None = None
    ) -> list[list[Span]]:
        reader = self.reader
        if reader is None:
            return [[] for _ in texts]
        from stealthflow.placeholders.language import shared_guesser

        if languages is None:
            languages = [shared_guesser().guess(text).candidates for text in texts]
        level = TYPE_LEVELS[self.type]
        note = "finance reader {:.2f} (from {:.2f})"
        return [
            [
                Span(a, b, self.type, level, self.name, score, note.format(score, reader.threshold))
                for a, b, score in found
                if not ownerless_price(sentence_around(text, a, b))
            ]
            for text, found in zip(texts, reader.find_many(texts, languages), strict=True)
        ]
