"""Deterministic recognizers by name. Importing this package registers the built-in ones."""

from stealthflow.pii_tagger import recognizer  # noqa: F401  (registers the PII tagger)
from stealthflow.placeholders.recognizers import context, languages, national_ids, secrets, structured  # noqa: F401  (registers)
from stealthflow.placeholders.recognizers.base import (
    ContextRecognizer,
    Recognizer,
    build_recognizers,
    recognizer_names,
    register_recognizer,
)

__all__ = ["ContextRecognizer", "Recognizer", "build_recognizers", "recognizer_names", "register_recognizer"]
