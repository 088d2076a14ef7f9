"""The PII tagger's runs (`SpanTagger._spans`): a word tagged as a value's beginning opens a new span, so two amounts,
or a bank and an amount, side by side are never one span across a clause (ux26 M9: "Intesa Sanpaolo di 180.000 euro e
guadagno 1.450 euro" was one FINANCE span, and the cloud could not tell the mortgage from the income). The real shipped
students through the detector as `protect` builds it; the run rule alone on a FAKE model's probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from stealthflow.pii_tagger.model import SpanTagger
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(build_recognizers(models=True))


def test_a_mortgage_and_an_income_are_two_amounts_and_the_verb_between_stays(detector):
    text = "Ho un mutuo con Intesa Sanpaolo di 180.000 euro e guadagno 1.450 euro al mese come commessa"
    spans = [(s.text_in(text), s.type) for s in detector.detect(text)]
    assert ("180.000 euro", "FINANCE") in spans and ("1.450 euro", "FINANCE") in spans, spans
    masked = "".join(text[s.start : s.end] for s in detector.detect(text))
    assert "guadagno" not in masked and " di " not in f" {masked} ", spans


class _FakeRuntime:  # FAKE: a student's shape and nothing else; `_spans` reads the probabilities it is given
    shape = type("Shape", (), {"model_dump": staticmethod(lambda: {})})()


def _tagger(begins_split: bool) -> SpanTagger:
    return SpanTagger(_FakeRuntime(), None, ["FINANCE"], threshold=0.5, trained=set(), begins_split=begins_split)


def test_a_beginning_tag_opens_a_run_only_where_the_tagger_is_told_to_split():
    """Tokens "5", "euro", "and", "7", "euro" all tagged (columns O, B-FINANCE, I-FINANCE); "7" a beginning: two runs
    with the split (the PII tagger's), one without (the cue tagger's, which is measured as it is)."""
    text = "5 euro and 7 euro"
    offsets = np.array([[0, 1], [2, 6], [7, 10], [11, 12], [13, 17]])
    probabilities = np.array([[0.0, 0.9, 0.1], [0.0, 0.1, 0.9], [0.2, 0.1, 0.7], [0.0, 0.9, 0.1], [0.0, 0.1, 0.9]])
    split = _tagger(True)._spans(text, (offsets, probabilities))
    assert [(text[s.start : s.end], s.label) for s in split] == [("5 euro and", "FINANCE"), ("7 euro", "FINANCE")]
    whole = _tagger(False)._spans(text, (offsets, probabilities))
    assert [(text[s.start : s.end], s.label) for s in whole] == [(text, "FINANCE")]
