"""The HEALTH context model (pii_tagger/context_model.py): the terms it reads around a span, its score, and its gate
after the verifiers (a span below its threshold is dropped, a kept one's reason shows its score)."""

from __future__ import annotations

import json
import zlib
from dataclasses import replace

import pytest
from word_tagger import WordTagger

from stealthflow.pii_tagger.context_model import (
    CONTEXT_FILE,
    ContextModel,
    context_terms,
    hashed_terms,
    read_context_model,
    shipped_context_model,
)
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.resources import resource_dir

ENGLISH, GERMAN = frozenset({"en"}), frozenset({"de"})
BUCKETS = 1024


def diagnosed_model() -> ContextModel:
    """A hand-made model (a fake of a fitted one): "diagnosed" before a span adds 4 to a log-odds of -2 (scores 0.88,
    else 0.12); keeps from 0.5 in English, gates nothing in other languages."""
    weights = [0.0] * BUCKETS
    weights[zlib.crc32(b"b:diagnosed") % BUCKETS] = 4.0  # a term's bucket is its CRC-32
    return ContextModel(4, -2.0, tuple(weights), 0.5, 0.0)


def test_a_terms_bucket_is_its_crc32_the_same_in_every_process():
    text = "Asthma is common"
    assert hashed_terms(text, 0, 6, window=3, buckets=BUCKETS)[0] == zlib.crc32(b"s:asthma") % BUCKETS


def test_the_terms_are_the_span_its_window_on_either_side_and_its_sentences_words():
    text = "Last spring I was diagnosed with asthma after a bad winter. Nothing else."
    start = text.index("asthma")
    terms = context_terms(text, start, start + len("asthma"), window=3)
    assert terms[0] == "s:asthma"
    assert {"b:was", "b:diagnosed", "b:with", "b:diagnosed with", "b1:with", "b2:diagnosed"} <= set(terms)
    assert {"a:after", "a:a", "a:bad", "a:after a", "a1:after", "a2:a"} <= set(terms)
    assert "b:i" not in terms  # outside the window of 3
    assert {"t:last", "t:i", "t:winter"} <= set(terms) and terms.count("t:asthma") == 1
    assert "t:nothing" not in terms and "a:nothing" not in terms  # the next sentence is not read


def test_no_word_outside_the_spans_sentence_moves_its_score():
    """A hand-made model (a fake of a fitted one) whose text term "guide" weighs -20: in the span's own sentence it
    drops the span; in a pasted paragraph before or after it, it changes nothing (the rev27b H1 attack)."""
    weights = list(diagnosed_model().weights)
    weights[zlib.crc32(b"t:guide") % BUCKETS] = -20.0
    model = ContextModel(4, -2.0, tuple(weights), 0.5, 0.0)
    own = "Last year I was diagnosed asthma."
    pasted = "The guide says asthma is common, says the guide."
    for text in (own, f"{pasted}\n\n{own}", f"{own} {pasted}"):
        start = text.index("diagnosed asthma") + len("diagnosed ")
        assert model.score(text, start, start + len("asthma")) == pytest.approx(0.881, abs=1e-3)
    inside = "Last year the guide says I was diagnosed asthma."
    assert model.score(inside, inside.index("asthma"), len(inside) - 1) < 0.5


def test_the_hand_made_model_scores_a_diagnosis_above_talk_in_general():
    model = diagnosed_model()
    personal = "I was diagnosed asthma"
    general = "Asthma is common"
    assert model.score(personal, 16, 22) == pytest.approx(0.881, abs=1e-3)
    assert model.score(general, 0, 6) == pytest.approx(0.119, abs=1e-3)


def test_the_gate_drops_a_health_span_below_its_threshold_and_a_kept_ones_reason_shows_its_score():
    personal = "Last year I was diagnosed asthma."
    general = "Asthma is common in cities."
    recognizer = PiiTaggerRecognizer(tagger=WordTagger("HEALTH", ["asthma", "Asthma"]), gates=(diagnosed_model(),))
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


def test_the_shipped_model_gates_and_says_how_it_was_chosen():
    """Refitted with four real annotated sets (1 020 passages), its thresholds chosen on their out-of-fold scores with
    the HEALTH verifier's (benchmarks/results/pii_health_t30.md)."""
    model = shipped_context_model("HEALTH")
    assert (model.threshold, model.threshold_others) == (0.22, 0.14)
    assert len(model.weights) == 1 << 14
    stored = json.loads((resource_dir("data") / CONTEXT_FILE).read_text(encoding="utf-8"))
    assert "real32, real31, realtrain1, realtrain2" in stored["chosen"]


# The security review's pairs (rev27b H1): a writer's own condition after or before a pasted health-site paragraph,
# and after a word list crafted from the most negative text terms of the model shipped before the fix.
SITE = (
    'Pasted from a health site: "Health and diabetes: can stress lower your blood sugar? People who say stress is free '
    'of value are over-simplifying. Cancer, disease and stress are linked, says the guide."'
)
CRAFTED = (
    "diabetes lon value als zona health dhr the src schizofrenie universe withheld ordenado can grippe los cancer "
    "stress belle niet who iniziato free aux disease plus lower dials curly blood says are rejoined over devolu people "
    "correcto bien ets command"
)
OWN = [
    ("Anyway, I was diagnosed with Graves' disease last year and work is hard.", "Graves"),
    ("Anyway, I was diagnosed with Addison's disease last year and work is hard.", "Addison"),
    ("Anyway, I was diagnosed with Ménière's disease last year and work is hard.", "Ménière"),
    ("Anyway, I was diagnosed with Sjögren's syndrome last year and work is hard.", "Sjögren"),
    ("My daughter was diagnosed with type 1 diabetes in March and I'm struggling.", "type 1"),
]
PAIRS = [
    (text, word)
    for own, word in OWN
    for text in (own, f"{SITE}\n\n{own}", f"{own}\n\nPS the leaflet says: {SITE}", f"{CRAFTED}\n\n{own}")
]


def test_the_shipped_weights_score_a_disclosure_the_same_whatever_is_pasted_around_it():
    model = shipped_context_model("HEALTH")
    for own, word in OWN:
        start = own.index(word)
        alone = model.score(own, start, start + 10)
        for text in (f"{SITE}\n\n{own}", f"{CRAFTED}\n\n{own}", f"{own}\n\n{SITE}"):
            at = text.index(own) + start
            assert model.score(text, at, at + 10) == pytest.approx(alone)


@pytest.mark.real_model
@pytest.mark.parametrize("fitted", [False, True], ids=["as shipped", "at its fitted threshold"])
def test_a_pasted_health_page_or_word_list_leaves_the_writers_own_condition_masked(fitted):
    """End to end (the shipped students and verifiers): the condition stays masked with the pasted paragraph before or
    after it and with the crafted word list, with the context model as shipped (off) and switched on at the threshold
    its fit chose (0.3), which reads the span's sentence only."""
    model = shipped_context_model("HEALTH")
    gates = (replace(model, threshold=0.3),) if fitted else None
    detector = Detector(
        [
            PiiTaggerRecognizer(gates=gates) if isinstance(r, PiiTaggerRecognizer) else r
            for r in build_recognizers(models=True)
        ]
    )
    for text, word in PAIRS:
        spans = [s for s in detector.detect(text) if s.type == "HEALTH"]
        assert any(s.start <= text.index(word) < s.end for s in spans), text
