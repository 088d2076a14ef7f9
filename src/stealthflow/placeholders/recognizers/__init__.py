"""Recognizers by name. Importing this package registers the deterministic ones; the PII tagger
registers itself the first time the registry is read here (its package imports this one's modules,
so importing it at this package's import would meet partly initialised modules)."""

from stealthflow.placeholders.recognizers import (  # noqa: F401  (registers)
    base,
    context,
    cued,
    file_names,
    languages,
    national_ids,
    passports,
    places,
    secrets,
    spelled_email,
    structured,
    tables,
    usernames,
)
from stealthflow.placeholders.recognizers.base import ContextRecognizer, Recognizer, register_recognizer


def _register_model_backed() -> None:
    import stealthflow.pii_tagger.recognizer  # noqa: F401  (registers the PII tagger)


def recognizer_names() -> list[str]:
    """Every registered recognizer's name, the PII tagger's included."""
    _register_model_backed()
    return base.recognizer_names()


def build_recognizers(
    names: list[str] | None = None, models: bool = False, model: str | None = None, clauses: bool = False
) -> list[Recognizer]:
    """`base.build_recognizers`, with the PII tagger registered."""
    _register_model_backed()
    return base.build_recognizers(names, models, model, clauses)


__all__ = ["ContextRecognizer", "Recognizer", "build_recognizers", "recognizer_names", "register_recognizer"]
