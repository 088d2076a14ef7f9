"""Whose a span is, read from the words around it: a logistic regression over hashed terms (the span's words; the words,
word pairs and nearest words in a window on either side; each word of that piece of text once), fitted on annotated
text. No word list: the terms and their weights are learnt, in any language the annotated text has, and stored as data
(the window, the weights, the thresholds and how they were chosen). A term's bucket is its CRC-32, the same in every
process. These are shipped:

- HEALTH (`data/pii-tagger/health_context.json`, fitted by `benchmarks/pii_verifiers.py context`): a person's own
  health ("I was diagnosed with", "my son has", "Anna's asthma") against health talk in general ("symptoms of", "if
  you have", a health site's page). It gates every HEALTH span after the label's verifier (verifier.py).
- REAL_NAME outside English (`NAME_CONTEXT_FILE`, fitted by `benchmarks/pii_context_models.py`): a private person
  named against a public one, a shop, a feast or a word ("mon pote Karim" against "Zidane qui allume la vasque"). It
  gates every REAL_NAME span of the tagger in texts not read as English after the name verifier.
- REAL_NAME in English (`NAME_CONTEXT_ENGLISH_FILE`, fitted the same way; not shipped: its judges,
  benchmarks/results/pii_name_gate_english_t54.md, saw no fewer clean texts flagged). Read when the file is present.
- EMPLOYER and HEALTH outside English (`UNLISTED_FILES`, fitted by `benchmarks/pii_context_models.py`): where a
  private person works ("Nach 20 Jahren bei Lidl", "Premier jour chez Airbus") against an organisation named
  otherwise (a shop visited, a company in the news); a person's condition against health talk in general. Each gates
  only the spans its label's filter keeps in texts not read as English with nothing of its word lists around them
  (`reads`: filters/unlisted.py `CONTEXT_DECIDES`), where the filter dropped them before.

A span whose score falls below the threshold for its text's languages is dropped; a threshold of 0 gates nothing. A
span is scored on its own sentence only, at most a window's reach on either side (`local_piece`): a gate can only drop
spans, so no text elsewhere in the message (a pasted article, a quoted mail, a crafted word list) may decide whether
the writer's own value is masked.
"""

from __future__ import annotations

import json
import math
import re
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from stealthflow.pii_tagger.candidate import Candidate, Kind
from stealthflow.pii_tagger.route import may_be_english
from stealthflow.resources import resource_dir
from stealthflow.sentence_ends import local_piece

_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_NEAR = 2  # the words nearest the span on either side are terms of their own too ("with" before, "is" after)
CONTEXT_FILE = "pii-tagger/health_context.json"
# The models of the spans a filter keeps outside English with nothing of its word lists around them, by label.
UNLISTED_FILES = {
    "EMPLOYER": "pii-tagger/employer_unlisted_context.json",
    "HEALTH": "pii-tagger/health_unlisted_context.json",
}
NAME_CONTEXT_FILE = "pii-tagger/name_context.json"
NAME_CONTEXT_ENGLISH_FILE = "pii-tagger/name_context_english.json"
CONTEXT_FILES = (CONTEXT_FILE, NAME_CONTEXT_FILE, NAME_CONTEXT_ENGLISH_FILE, *UNLISTED_FILES.values())


def context_terms(text: str, start: int, end: int, window: int) -> list[str]:
    """The terms of the span text[start:end], case-folded, read from its `local_piece` only: its words; the `window`
    words before and after it (each side's words, word pairs and `_NEAR` nearest words by place); each word of the
    piece once."""
    low, high = local_piece(text, start, end, window)
    return _span_terms(text, start, end, window, low, high) + _text_terms(text, low, high)


def _span_terms(text: str, start: int, end: int, window: int, low: int, high: int) -> list[str]:
    before = [w.casefold() for w in _WORD.findall(text, low, start)][-window:]
    after = [w.casefold() for w in _WORD.findall(text, end, high)][:window]
    terms = [f"s:{w.casefold()}" for w in _WORD.findall(text, start, end)]
    for side, words, near in (("b", before, before[::-1][:_NEAR]), ("a", after, after[:_NEAR])):
        terms += [f"{side}:{w}" for w in words]
        terms += [f"{side}:{first} {second}" for first, second in zip(words, words[1:], strict=False)]
        terms += [f"{side}{place}:{w}" for place, w in enumerate(near, 1)]
    return terms


def _text_terms(text: str, low: int, high: int) -> list[str]:
    return [f"t:{w}" for w in dict.fromkeys(w.casefold() for w in _WORD.findall(text, low, high))]


def _buckets(terms: list[str], buckets: int) -> list[int]:
    return [zlib.crc32(term.encode("utf-8")) % buckets for term in terms]


def hashed_terms(text: str, start: int, end: int, window: int, buckets: int) -> list[int]:
    """The buckets of `context_terms` (a term counts as often as it occurs)."""
    return _buckets(context_terms(text, start, end, window), buckets)


@dataclass(frozen=True)
class ContextModel:
    """Logistic regression over the buckets of a span's terms (`weights`: one a bucket): the probability that a span of
    its `label` is a private person's (their own health, their employer); and the score a span must reach in a text
    read as English (`threshold`) and in one of the six other languages (`threshold_others`). `reads`: what a span's
    reason must hold for it to be scored (None: every span of the label). Scores spans as a verifier does (`least`,
    `judge_many`), so that recognizer.py gates with it as with one."""

    window: int
    bias: float
    weights: tuple[float, ...]
    threshold: float = 0.0
    threshold_others: float = 0.0
    label: str = "HEALTH"
    reads: str | None = None

    @property
    def kind(self) -> Kind:
        return Kind(("context",), None, f"{self.label.lower()} context")

    def score(self, text: str, start: int, end: int) -> float:
        return self.judge_many([Candidate(text, start, end, 0.0, frozenset(), False)])[0]

    def judge_many(self, candidates: list[Candidate]) -> list[float]:
        """Each candidate's score, read from its own `local_piece` only."""
        scores = []
        for c in candidates:
            z = self.bias + self._sum(context_terms(c.text, c.start, c.end, self.window))
            scores.append(1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0))))
        return scores

    def _sum(self, terms: list[str]) -> float:
        return sum(self.weights[b] for b in _buckets(terms, len(self.weights)))

    def least(self, languages: frozenset[str], reason: str = "") -> float:
        """The score a span must reach in a text that may be in any of `languages`, whatever its `reason`."""
        return self.threshold if may_be_english(languages) else self.threshold_others

    def to_json(self, **about) -> dict:
        weights = [round(w, 4) for w in self.weights]
        labelled = {"label": self.label, **({"reads": self.reads} if self.reads else {})}
        return {"window": self.window, "bias": self.bias, "threshold": self.threshold,
                "threshold_others": self.threshold_others, **labelled, **about, "weights": weights}  # fmt: skip


def read_context_model(path: Path) -> ContextModel:
    stored = json.loads(path.read_text(encoding="utf-8"))
    weights = tuple(stored["weights"])
    return ContextModel(
        stored["window"],
        stored["bias"],
        weights,
        stored["threshold"],
        stored["threshold_others"],
        stored.get("label", "HEALTH"),
        stored.get("reads"),
    )


@cache
def shipped_context_models() -> tuple[ContextModel, ...]:
    """The context models shipped as data (`CONTEXT_FILES`), those present."""
    paths = [resource_dir("data") / name for name in CONTEXT_FILES]
    return tuple(read_context_model(path) for path in paths if path.exists())


def shipped_context_model(label: str, unlisted: bool = False) -> ContextModel | None:
    """The shipped context model of `label` for every span of it, or (`unlisted`) for those its filter keeps outside
    English with nothing of its word lists around them; None if there is none."""
    return next(
        (model for model in shipped_context_models() if model.label == label and (model.reads is not None) == unlisted),
        None,
    )
