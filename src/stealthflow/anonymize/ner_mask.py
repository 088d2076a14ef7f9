"""The `ner-mask` baseline: the conventional PII tool (the paper used Azure), run locally.

Presidio finds entities and every character of each one becomes `*`, so lengths and layout
stay. Offline by default: Presidio's pattern recognizers (email, phone, URL, IP, dates,
cards, IBAN, crypto, SSN) plus ours for ages, month dates, years and numbers, listed in
`ner_mask_recognizers.yaml`, on a *blank* spaCy pipeline (tokenizer only). Without a
trained NER model nothing detects PERSON, LOCATION, ORGANIZATION or NRP; pass
`spacy_model` (an installed spaCy package or a path) to add them.
"""

from __future__ import annotations

import stealthflow.presidio_import  # noqa: F401  (first: Presidio without transformers' pipelines)

# isort: split

from functools import cache
from pathlib import Path

import spacy
from presidio_analyzer import AnalyzerEngine, RecognizerResult
from presidio_analyzer.nlp_engine import SpacyNlpEngine
from presidio_analyzer.recognizer_registry import RecognizerRegistryProvider

from stealthflow.anonymize.methods import Anonymized, ProgressCallback, register_method
from stealthflow.data.schema import Profile
from stealthflow.llm.embedded import cache_dir

RECOGNIZERS = Path(__file__).with_name("ner_mask_recognizers.yaml")
# Presidio scores phone numbers 0.4 and weak patterns lower; 0.35 keeps phones, drops noise.
DEFAULT_THRESHOLD = 0.35
MASK = "*"


def blank_spacy_model() -> Path:
    """A tokenizer-only English pipeline on disk (Presidio loads spaCy models by name or path)."""
    path = cache_dir().parent / "spacy-blank-en"  # next to the converted embedded model
    if not (path / "meta.json").exists():
        path.parent.mkdir(parents=True, exist_ok=True)  # a fresh machine has no cache dir yet
        spacy.blank("en").to_disk(path)
    return path


@cache
def analyzer(spacy_model: str | None = None) -> AnalyzerEngine:
    model = spacy_model or str(blank_spacy_model())
    if not (spacy.util.is_package(model) or Path(model).exists()):
        # Presidio would try to download it; we never download at run time.
        raise FileNotFoundError(f"spaCy model {model!r} is not installed (pip install it, or leave spacy_model unset)")
    engine = SpacyNlpEngine(models=[{"lang_code": "en", "model_name": model}])
    engine.load()
    registry = RecognizerRegistryProvider(conf_file=RECOGNIZERS, nlp_engine=engine).create_recognizer_registry()
    return AnalyzerEngine(nlp_engine=engine, registry=registry, supported_languages=["en"])


def mask(text: str, findings: list[RecognizerResult]) -> str:
    """Replace every found span (overlaps merged) by `*` of the same length."""
    chars = list(text)
    for finding in findings:
        for index in range(finding.start, finding.end):
            if not chars[index].isspace():  # keep line breaks and spacing: comments stay comments
                chars[index] = MASK
    return "".join(chars)


class NerMask:
    name = "ner-mask"

    def __init__(self, threshold: float = DEFAULT_THRESHOLD, spacy_model: str | None = None):
        self.threshold = threshold
        self.analyzer = analyzer(spacy_model)

    def findings(self, text: str) -> list[RecognizerResult]:
        return self.analyzer.analyze(text, language="en", score_threshold=self.threshold)

    def mask_text(self, text: str) -> str:
        return mask(text, self.findings(text))

    def anonymize_many(self, profiles: list[Profile], on_progress: ProgressCallback | None = None) -> list[Anonymized]:
        results = []
        for profile in profiles:
            findings = self.findings(profile.text)
            text = mask(profile.text, findings)
            entities = sorted({f.entity_type for f in findings})
            results.append(
                Anonymized(
                    profile.id,
                    text,
                    [text],
                    details={"entities": entities},
                    nothing_to_change=not findings,
                    checked=False,
                )
            )
            if on_progress:
                on_progress(1)
        return results


register_method(
    "ner-mask",
    lambda settings, pool, options: NerMask(
        float(options.get("threshold", DEFAULT_THRESHOLD)), options.get("spacy_model")
    ),
)
