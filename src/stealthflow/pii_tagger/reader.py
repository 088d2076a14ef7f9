"""Whose a span is, read by MiniLM: the bottom layers of the packaged all-MiniLM-L6-v2 and a token head, fine-tuned
(`stealthflow tagger reader`, pii_tagger/training/reader.py) on the spans of one label the tagger keeps in annotated
text, each span's word pieces labelled a private person's or not. A span's score is the mean probability of its word
pieces. Seven labels are read:

- HEALTH: a private person's health ("my son's asthma", "I was diagnosed with") against health talk in general
  (advice, questions, statistics): `models/pii-health-reader/` and `models/pii-health-reader-multilingual/`;
- REAL_NAME: a private person named against a public figure, a character, a shop, street or school named after
  someone, or a word taken for a name (the `titled_name` recognizer's matches too: "Dr. Patel", "Mr Whippy"):
  `models/pii-name-reader/` (English) and `models/pii-name-reader-multilingual/`;
- FINANCE: a private person's money (a salary, a debt, arrears) against a price or money talk in general:
  `models/pii-finance-reader/` (English) and `models/pii-finance-reader-multilingual/`;
- ADDRESS: where a private person lives against a shop's or clinic's address, a road in directions, a station, and
  the `street_address` recognizer's matches: `models/pii-address-reader/` (English) and
  `models/pii-address-reader-multilingual/` (the tagger's spans only);
- EMPLOYER: where a private person works or studies against a chain, bank or agency named in passing:
  `models/pii-employer-reader/` (English) and `models/pii-employer-reader-multilingual/`;
- PHONE: a private person's number against an organisation's line (and, in the six languages, a number written like
  one: a file or order number), the phone recognizers' matches (the tagger tags no phones): `models/pii-phone-reader/`
  (English) and `models/pii-phone-reader-multilingual/`;
- EMAIL: a private person's e-mail address against an organisation's inbox, the `email` recognizer's matches:
  `models/pii-email-reader/` (English).

A reader reads the texts of its languages (its card's `languages`; none: English): an English one the texts read as
English, a multilingual one the texts routed to the multilingual student (de, fr, es, it, nl, pt). It gates the
tagger's spans of its label there after the label's verifier, if it has one (recognizer.py) and, when the tagger
runs, the pattern recognizers' matches of its label there (`MATCHES_READ | MATCHED` for an English reader,
`READ_IN_EVERY_LANGUAGE` for another: `reads_matches_of`, detector.py): a span scoring below the threshold is dropped.
The six languages' readers also read with a sentence head (their card's `sentence_head`; sentence_head.py): a span's
score is the mean of MiniLM's reading and the head's.
Like the context model (context_model.py) it reads the span's own sentence only (`local_piece`), so nothing
elsewhere in a message can decide whether the writer's own value is masked. Each is shipped as reader.json (the
label, the layers, the window, the languages, the threshold and how it was chosen) and reader.safetensors (the
trained layers and head).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from stealthflow.pii_tagger.candidate import Candidate, Kind
from stealthflow.pii_tagger.filters.unlisted import GATES_DECIDE
from stealthflow.pii_tagger.minilm import MiniLMRuntime, minilm_with, vocabulary
from stealthflow.pii_tagger.route import may_be_english
from stealthflow.pii_tagger.sentence_head import SentenceHead, read_head
from stealthflow.pii_tagger.unavailable import TableUnavailable
from stealthflow.pii_tagger.verifier import given_as_own, greeted_name, named_or_related
from stealthflow.placeholders.domains import public_host
from stealthflow.placeholders.types import Span
from stealthflow.resources import resource_dir
from stealthflow.sentence_ends import span_in_piece

if TYPE_CHECKING:
    from stealthflow.placeholders.language import Reading

# the English HEALTH reader first (of a label's English readers, the first reads the pattern recognizers' matches)
READER_DIRS = (
    "pii-health-reader",
    "pii-health-reader-multilingual",
    "pii-name-reader",
    "pii-name-reader-multilingual",
    "pii-finance-reader",
    "pii-finance-reader-multilingual",
    "pii-address-reader",
    "pii-address-reader-multilingual",
    "pii-employer-reader",
    "pii-employer-reader-multilingual",
    "pii-phone-reader",
    "pii-phone-reader-multilingual",
    "pii-email-reader",
)
CARD = "reader.json"
WEIGHTS = "reader.safetensors"
MAX_PIECES = 126  # word pieces of a span's sentence read, [CLS] and [SEP] aside (as trained)
ENGLISH_ONLY = frozenset({"en"})
# Word pieces read in one text at most (in each of a detection's two passes, the pattern matches' and the tagger's): a
# sentence holds ~40, a crafted text without full stops ~126 a span; past them a span is kept, masked, unscored
# (None), so 32 KB of health words without a full stop cost 6.0 s of CPU, not 20 (3.4 without the reader).
MAX_READ_PIECES = 4096
_READ: ContextVar[dict | None] = ContextVar("reader_read", default=None)  # see `one_reading`
_PAST_BUDGET = "past the word pieces it reads in one call"
# Labels the tagger does not tag: their readers read the pattern recognizers' matches only (recognizers'
# `read_by_reader`)
MATCHED = frozenset({"PHONE", "EMAIL"})
# The tagger's labels whose pattern matches the detector reads with the label's reader too (recognizers'
# `read_by_reader`)
MATCHES_READ = frozenset({"HEALTH", "ADDRESS", "REAL_NAME"})
# Of them, those whose tagger span that a pattern recognizer also finds is read too (`settled`); a name such a match
# holds is masked by the match whatever a reading of the tagger's span says, so it is not read (the English tagger's
# CPU 1.16x -> 0.97x on 1 KB messages, the same spans: benchmarks/results/pii_name_readers_titled_names.md)
AGREED_READ = frozenset({"HEALTH", "ADDRESS"})
# The labels whose pattern matches a reader of other languages reads too (the six languages' health reader reads the
# tagger's spans only: it was trained and judged so; their address reader reads the street-address matches, sample
# addresses of forms among them: benchmarks/results/pii_address_reader_languages_mentions.md)
READ_IN_EVERY_LANGUAGE = MATCHED | {"REAL_NAME", "ADDRESS"}
# The labels whose value after a personal word in its sentence ("I live at", "mail me at") is kept unread (`settled`),
# and the words (data/languages/*.yaml). A phone number only after the writer's own ("call me on"): organisations speak
# of their line with the others ("ring us on", "our customer care line"; read, English development texts without
# personal data flagged 167 -> 159 of 1 020: benchmarks/results/pii_phone_reader_org_lines.md), and a reading of
# every "call me on" cost the proxy 1.7x (benchmarks/results/pii_phone_writer_words.md)
GIVEN_AS_OWN = {"ADDRESS": "personal_words", "EMAIL": "personal_words", "PHONE": "writer_words"}


@dataclass(frozen=True)
class SpanReader:
    """The probability that a span of its `label` is a private person's (their health, name, money, address,
    workplace or phone number), and the score
    a span must reach in a text of its `languages` (`threshold`; 0: not scored): English reads the texts read as
    English (`route.may_be_english`), any other set the texts routed to the multilingual student that may be in one
    of them. Scores spans as a verifier does (`least`, `judge_many`), so that recognizer.py gates with it as with
    one."""

    runtime: MiniLMRuntime
    window: int
    threshold: float
    languages: frozenset[str] = ENGLISH_ONLY
    label: str = "HEALTH"
    head: SentenceHead | None = None  # a second reading, averaged with MiniLM's (sentence_head.py)
    # what a span no word list shows (filters/unlisted.py `GATES_DECIDE`) must reach; 0: `threshold`
    gates_decide_threshold: float = 0.0
    reads = None  # every span of its label (context_model.ContextModel.reads)

    @property
    def kind(self) -> Kind:
        """Its word in a span's reason and why it keeps a span unscored (`settled`, or past its reading budget)."""
        name = "health" if self.label == "HEALTH" else self.label.lower().removeprefix("real_")
        settling = (
            _PAST_BUDGET,
            *(("or given as someone's",) if self.label in GIVEN_AS_OWN else ()),
            *(("or on a private network's host",) if self.label == "EMAIL" else ()),
            *(
                ("or a name after an explicit introduction, a relative or a greeting",)
                if self.label == "REAL_NAME"
                else ()
            ),
            *(("or a pattern recognizer finds it too",) if self.label not in AGREED_READ | MATCHED else ()),
        )
        return Kind(("reader",), None, f"{name} reader", settling)

    def settled(self, candidate: Candidate) -> bool:
        """Whether a span is kept unread, masked: one a pattern recognizer found too is masked by that match whatever a
        reading says (but `AGREED_READ`: the reader reads those spans as well, detector.py); a name the writer
        introduces explicitly or greets ("my name is", "my sister", "Hi X,"; not after "this is", "I'm", which an
        organisation calling says too: benchmarks/results/pii_name_reader_introductions.md), an address or e-mail
        address given as someone's ("mail me at", "ich wohne in der": a personal word of the reader's languages) and a
        phone number given as the writer's ("call me on", "ruf mich an") are a private person's without a reading (the
        readers' CPU on messages full of contact details); so is an e-mail address on a host of a private network
        ("ops@build-01.corp"), which the e-mail reader never saw in training (it learnt organisations' public
        inboxes)."""
        text, start = candidate.text, candidate.start
        own_languages = candidate.languages & self.languages or ENGLISH_ONLY
        if (words := GIVEN_AS_OWN.get(self.label)) and given_as_own(text, start, own_languages, words):
            return True
        if self.label == "EMAIL" and not public_host(text[start : candidate.end].rpartition("@")[2]):
            return True
        if candidate.agreed and self.label not in AGREED_READ:
            return True
        return self.label == "REAL_NAME" and (named_or_related(text, start) or greeted_name(text, start, candidate.end))

    def least(self, languages: frozenset[str], reason: str = "") -> float:
        """The score a span must reach in a text that may be in any of `languages` (0: not read); for a span whose
        filter's word lists showed nothing (its `reason`) the higher `gates_decide_threshold` (chosen on development:
        benchmarks/results/pii_english_gates_decide.md)."""
        least = self.threshold if self.reads_text_of(languages) else 0.0
        return max(least, self.gates_decide_threshold) if least and GATES_DECIDE in reason else least

    def reads_matches_of(self, languages: frozenset[str]) -> bool:
        """Whether it reads the pattern recognizers' matches of its label in a text that may be in any of `languages`:
        an English reader those of every label it reads, a reader of other languages those of
        `READ_IN_EVERY_LANGUAGE` (the labels the tagger does not tag, and names)."""
        return self.reads_text_of(languages) and ("en" in self.languages or self.label in READ_IN_EVERY_LANGUAGE)

    def reads_text_of(self, languages: frozenset[str]) -> bool:
        """Whether it reads a text that may be in any of `languages` (the detector's candidates)."""
        if may_be_english(languages):
            return "en" in self.languages
        return bool(languages & self.languages)

    def judge_many(self, candidates: list[Candidate]) -> list[float | None]:
        """Each candidate's score as the detector gates with it (`read`); None also for a span it keeps unread
        (`settled`). A span MiniLM's reading alone decides is not read by the sentence head (`head_can_decide`): its
        score is MiniLM's, on the same side of the threshold as the mean would be."""
        return self.read(candidates, unread=self.settled, decided_alone=True)

    def head_can_decide(self, minilm: float) -> bool:
        """Whether the sentence head's reading (0 to 1) can put the mean of it and MiniLM's `minilm` on either side of
        the threshold: not when MiniLM's is at least twice the threshold (kept whatever the head reads) or when even a
        head's 1 leaves the mean below it (dropped)."""
        return minilm < 2 * self.threshold and minilm + 1.0 >= 2 * self.threshold

    def read(
        self, candidates: list[Candidate], unread=lambda candidate: False, decided_alone: bool = False
    ) -> list[float | None]:
        """Each candidate's score, read from its own `local_piece` only (spans whose pieces are the same text are read
        in one pass, the pieces in padded batches; within `one_reading`, a piece read before is not read again); None
        for a span `unread` names or whose piece would take the word pieces read in its text past `MAX_READ_PIECES`.
        Without `unread` every span is read, as a reader's training scores its held-out examples. With a sentence head,
        a span's score is the mean of MiniLM's reading and the head's (MiniLM's alone when the head's package is
        missing, and with `decided_alone` where the head cannot change the decision: `head_can_decide`)."""
        words = vocabulary()
        memo = _READ.get()
        # piece of text -> (its word pieces' offsets, their probabilities)
        read = memo.setdefault(id(self), {}) if memo is not None else {}
        budgets: dict[str, int] = {}  # text -> the word pieces it may still have read
        pending: dict[str, tuple[np.ndarray, list[tuple[int, int]]]] = {}
        spans = []
        for c in candidates:
            if unread(c):
                spans.append((None, 0, 0))
                continue
            piece, start, end = span_in_piece(c.text, c.start, c.end, self.window)
            if piece not in read and piece not in pending and budgets.get(c.text, MAX_READ_PIECES) > 0:
                window, offsets = words.window(piece, MAX_PIECES)
                budgets[c.text] = budgets.get(c.text, MAX_READ_PIECES) - len(window)
                if budgets[c.text] >= 0:
                    pending[piece] = (window, offsets)
            spans.append((piece, start, end))
        probabilities = self.runtime.padded_probabilities([window for window, _ in pending.values()])
        for (piece, (_, offsets)), found in zip(pending.items(), probabilities, strict=True):
            read[piece] = (offsets, found)
        scores: list[float | None] = []
        seen = []  # the spans MiniLM read, as (piece, start, end), and where their score is
        for piece, start, end in spans:
            if piece is None or piece not in read:
                scores.append(None)
                continue
            offsets, found = read[piece]
            inside = [n + 1 for n, (a, b) in enumerate(offsets) if b > a and a < end and start < b]
            score = float(found[inside, 1].mean()) if inside else 1.0  # a span cut off: kept
            if inside and (not decided_alone or self.head_can_decide(score)):
                seen.append(((piece, start, end), len(scores)))
            scores.append(score)
        if self.head is not None and seen:
            try:
                second = self.head.scores(
                    [span for span, _ in seen], memo.setdefault("sentences", {}) if memo is not None else None
                )
            except TableUnavailable:  # without the sentence encoder's package: MiniLM's reading alone
                return scores
            for (_, at), score in zip(seen, second, strict=True):
                scores[at] = (scores[at] + float(score)) / 2
        return scores


@contextmanager
def one_reading() -> Iterator[None]:
    """Within it (one detection call: the pattern recognizers' HEALTH matches and the tagger's HEALTH spans often share
    a sentence), each reader reads a piece of text once and the sentence heads encode a text once; nothing read is kept
    after it, so no call's time depends on another's text."""
    token = _READ.set({})
    try:
        yield
    finally:
        _READ.reset(token)


def read_reader(directory: Path) -> SpanReader:
    from safetensors.numpy import load_file

    card = json.loads((directory / CARD).read_text(encoding="utf-8"))
    runtime = minilm_with(load_file(str(directory / WEIGHTS)), card.get("layers"), directory, quantized=True)
    if runtime.tags != 2:
        raise ValueError(f"{directory}: a head of two outputs (not, a private person's) was expected")
    languages = frozenset(card.get("languages", ENGLISH_ONLY))
    head = read_head(directory / card["sentence_head"]) if card.get("sentence_head") else None
    label, unshown = card.get("label", "HEALTH"), card.get("gates_decide_threshold", 0.0)
    return SpanReader(runtime, card["window"], card["threshold"], languages, label, head, unshown)


@cache
def shipped_readers() -> tuple[SpanReader, ...]:
    """The readers shipped in models/, the English HEALTH one first (each of `READER_DIRS` that is there)."""
    directories = [resource_dir("models") / name for name in READER_DIRS]
    return tuple(read_reader(directory) for directory in directories if (directory / CARD).exists())


def kept_by_readers(
    texts: list[str], found: list[list[Span]], readers: tuple[SpanReader, ...], readings: list[Reading]
) -> list[list[Span]]:
    """The spans of each text (pattern recognizers' matches of labels a reader reads: detector.py) that the first of
    `readers` of their label that reads the matches in the languages there (`reads_matches_of`, `readings`) keeps,
    with its score in their reason; a span no reader reads is kept unread. A batch's spans of a reader are read at
    once."""
    kept: list[list[Span]] = [[] for _ in found]
    read: dict[int, list[tuple[int, Span, frozenset[str]]]] = {}
    for number, spans in enumerate(found):
        for span in spans:
            languages = readings[number].at(span.start).candidates
            chosen = next(
                (n for n, r in enumerate(readers) if r.label == span.type and r.reads_matches_of(languages)), None
            )
            if chosen is None:
                kept[number].append(span)
            else:
                read.setdefault(chosen, []).append((number, span, languages))
    for chosen, at in read.items():
        reader = readers[chosen]
        scores = reader.judge_many(
            [Candidate(texts[n], s.start, s.end, 0.0, languages, False) for n, s, languages in at]
        )
        for (number, span, _), score in zip(at, scores, strict=True):
            if score is None:
                note = f"{reader.kind.word}: kept unscored ({', '.join(reader.kind.settling)})"
            elif score >= reader.threshold:
                note = f"{reader.kind.word} {score:.2f} (keeps from {reader.threshold:.2f})"
            else:
                continue
            kept[number].append(replace(span, reason="; ".join(filter(None, (span.reason, note)))))
    return kept
