"""The HEALTH context model (pii_tagger/context_model.py): the terms it reads around a span, its score, and its gate
after the verifiers (a span below its threshold is dropped, a kept one's reason shows its score)."""

from __future__ import annotations

import json
import re
import zlib

import pytest

from stealthflow.pii_tagger.context_model import (
    ContextModel,
    context_terms,
    hashed_terms,
    read_context_model,
    shipped_context_models,
)
from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

ENGLISH, GERMAN = frozenset({"en"}), frozenset({"de"})
BUCKETS = 1024


class FakeTagger:
    """A fake tagger (labelled as such): tags each occurrence of each given word as HEALTH, with confidence 0.9."""

    labels = ["HEALTH"]
    span_thresholds = {"HEALTH": 0.5}

    def __init__(self, words: list[str]):
        self.words = words

    def tag_many(self, texts, batch_size=16, settled=None):
        return [
            [TaggedSpan(m.start(), m.end(), "HEALTH", 0.9) for word in self.words for m in re.finditer(word, text)]
            for text in texts
        ]


def diagnosed_model() -> ContextModel:
    """A hand-made model (a fake of a fitted one): "diagnosed" before a span adds 4 to a log-odds of -2 (scores 0.88,
    else 0.12); keeps from 0.5 in English, gates nothing in other languages."""
    weights = [0.0] * BUCKETS
    weights[zlib.crc32(b"b:diagnosed") % BUCKETS] = 4.0  # a term's bucket is its CRC-32
    return ContextModel(4, -2.0, tuple(weights), 0.5, 0.0)


def test_a_terms_bucket_is_its_crc32_the_same_in_every_process():
    text = "Asthma is common"
    assert hashed_terms(text, 0, 6, window=3, buckets=BUCKETS)[0] == zlib.crc32(b"s:asthma") % BUCKETS


def test_the_terms_are_the_span_its_window_on_either_side_and_the_texts_words():
    text = "Last spring I was diagnosed with asthma after a bad winter. Nothing else."
    start = text.index("asthma")
    terms = context_terms(text, start, start + len("asthma"), window=3)
    assert terms[0] == "s:asthma"
    assert {"b:was", "b:diagnosed", "b:with", "b:diagnosed with", "b1:with", "b2:diagnosed"} <= set(terms)
    assert {"a:after", "a:a", "a:bad", "a:after a", "a1:after", "a2:a"} <= set(terms)
    assert "b:i" not in terms  # outside the window of 3
    assert {"t:last", "t:i", "t:nothing"} <= set(terms) and terms.count("t:asthma") == 1


def test_the_hand_made_model_scores_a_diagnosis_above_talk_in_general():
    model = diagnosed_model()
    personal = "I was diagnosed asthma"
    general = "Asthma is common"
    assert model.score(personal, 16, 22) == pytest.approx(0.881, abs=1e-3)
    assert model.score(general, 0, 6) == pytest.approx(0.119, abs=1e-3)


def test_the_gate_drops_a_health_span_below_its_threshold_and_a_kept_ones_reason_shows_its_score():
    personal = "Last year I was diagnosed asthma."
    general = "Asthma is common in cities."
    recognizer = PiiTaggerRecognizer(tagger=FakeTagger(["asthma", "Asthma"]), gates=(diagnosed_model(),))
    kept, dropped = recognizer.find_many([personal, general], languages=[ENGLISH, ENGLISH])
    [asthma] = kept
    assert asthma.reason.endswith("health context verifier 0.88 (keeps from 0.50)")
    assert dropped == []
    # A threshold of 0 (the six languages) gates nothing: the span stays, unscored.
    [kept_in_german] = recognizer.find_many([general], languages=[GERMAN])[0]
    assert "context" not in kept_in_german.reason


def test_the_model_reads_back_from_its_file(tmp_path):
    model = diagnosed_model()
    path = tmp_path / "health_context.json"
    path.write_text(json.dumps(model.to_json(chosen="by hand")), encoding="utf-8")
    assert read_context_model(path) == model


def test_the_shipped_model_gates_english_only():
    [model] = shipped_context_models()
    assert 0.0 < model.threshold < 1.0 and model.threshold_others == 0.0
    assert len(model.weights) == 1 << 14


@pytest.mark.real_model
def test_the_shipped_gate_drops_a_health_sites_condition_and_keeps_the_writers():
    """End to end (the shipped students, verifiers and context model): "diabetes" in a health site's advice is masked
    without the gate and left with it (the gate leaves much general talk masked still: "Patients with asthma should
    carry an inhaler" keeps "inhaler"); the writer's own diabetes is still masked, its reason giving the context
    score."""
    general = "Common symptoms of diabetes include thirst, tiredness and blurred vision. If you have any of them, see your GP."
    personal = "I have had diabetes since I was twelve, and last spring my doctor changed my insulin."
    without = Detector(
        [
            PiiTaggerRecognizer(gates=()) if isinstance(r, PiiTaggerRecognizer) else r
            for r in build_recognizers(models=True)
        ]
    )
    assert [general[s.start : s.end] for s in without.detect(general) if s.type == "HEALTH"]
    detector = Detector(build_recognizers(models=True))
    assert [s for s in detector.detect(general) if s.type == "HEALTH"] == []
    [diabetes] = [s for s in detector.detect(personal) if "diabetes" in personal[s.start : s.end]]
    assert diabetes.type == "HEALTH" and "health context verifier" in diabetes.reason
