"""The PII span tagger as a recognizer: names, addresses, employers, health, income and secrets
that only context gives away (models/pii-tagger: MiniLM + a token-classification head; a tagger
directory given to the recognizer loads the same way, e.g. models/pii-tagger-student, the ~10x
cheaper convolutional student distilled from it).

It runs on CPU over the detector's whole batch (`find_many`), on the same normalised text as
the regex recognizers, so its spans map back to the original offsets like theirs. It loads its
model, so `build_recognizers` builds it only when asked (`protect.tagger`, `--no-tagger`).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.types import Span
from stealthflow.resources import resource_dir

SHIPPED = "pii-tagger"
_TRIM = " \t\n,;:.!?\"'()[]"  # a sentence's punctuation around a value is not part of it
_AMOUNT = re.compile(r"\d|\b(?:hundred|thousand|million|billion|grand|lakh|crore|k)\b", re.IGNORECASE)


def plausible(label: str, value: str) -> bool:
    """Cheap shape checks: an income or asset holds an amount (the model alone tags "litre" in
    "cents a litre"); an address holds a word (not the "1" of "version 4.2.1"). A digit-free
    address is kept: it is more often a name the model labelled ADDRESS, still to be masked. A
    secret has 4 characters or more (a PIN's minimum; the student tags pieces of "version 4.2.1")."""
    if label == "FINANCE":
        return _AMOUNT.search(value) is not None
    if label == "CREDENTIAL":
        return len(value) >= 4
    if label == "ADDRESS":
        return re.search(r"[^\W\d_]{2,}", value) is not None
    return True


def shipped_pii_tagger_dir() -> Path:
    return resource_dir("models") / SHIPPED


@cache
def load_pii_tagger(directory: str | None = None):
    from stealthflow.tagging import SpanTagger

    path = Path(directory) if directory else shipped_pii_tagger_dir()
    if not (path / "tagger.safetensors").exists():
        raise FileNotFoundError(f"{path}: no PII tagger weights (train them: stealthflow tagger train; or turn the tagger off: --no-tagger / protect.tagger: false)")
    return SpanTagger.load(path)


@register_recognizer
class PiiTaggerRecognizer(Recognizer):
    name, type = "pii_tagger", "REAL_NAME"  # each span carries the type the tagger gave it
    model_backed = True
    batch_size = 32

    def __init__(self, directory: str | None = None):
        self.directory = directory

    def find(self, text: str) -> list[Span]:
        return self.find_many([text])[0]

    def find_many(self, texts: list[str]) -> list[list[Span]]:
        tagger = load_pii_tagger(self.directory)
        return [[span for tagged in spans if (span := self._span(text, tagged))] for text, spans in zip(texts, tagger.tag_many(texts, self.batch_size), strict=True)]

    def _span(self, text: str, tagged) -> Span | None:
        value = text[tagged.start : tagged.end]
        trim = " \t\n" if tagged.label == "CREDENTIAL" else _TRIM  # a secret keeps every character it may hold
        start = tagged.start + len(value) - len(value.lstrip(trim))
        end = tagged.end - (len(value) - len(value.rstrip(trim)))
        return self.span(start, end, tagged.score, tagged.label) if end > start and plausible(tagged.label, text[start:end]) else None
