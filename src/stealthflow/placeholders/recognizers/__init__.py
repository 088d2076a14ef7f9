"""Recognizers by name. Importing this package registers the deterministic ones; the PII tagger
registers itself when a registry function first runs (base.py: its package imports this one)."""

from stealthflow.placeholders.recognizers import context, languages, national_ids, secrets, structured  # noqa: F401  (registers)
from stealthflow.placeholders.recognizers.base import (
    ContextRecognizer,
    Recognizer,
    build_recognizers,
    recognizer_names,
    register_recognizer,
)

__all__ = ["ContextRecognizer", "Recognizer", "build_recognizers", "recognizer_names", "register_recognizer"]
