"""The context models of the six other languages (pii_tagger/context_model.py): the name gate, and the models of the
spans a filter keeps outside English with nothing of its word lists around them (`UNLISTED_FILES`, filters/unlisted.py):
the employer filter no longer needs its work talk, nor the health filter its medical words; the label's model reads the
span's words around it and drops what reads as no one's employer or condition. In English such spans go to the gates
that read every span of their label. (The
HEALTH context model of every span: test_health_context.py.)"""

from __future__ import annotations

import json
import zlib
from dataclasses import replace

import pytest
from word_tagger import WordTagger

from stealthflow.pii_tagger.context_model import (
    NAME_CONTEXT_FILE,
    UNLISTED_FILES,
    ContextModel,
    read_context_model,
    shipped_context_model,
)
from stealthflow.pii_tagger.filters import kept
from stealthflow.pii_tagger.filters.unlisted import CONTEXT_DECIDES, GATES_DECIDE
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.resources import resource_dir

ENGLISH, GERMAN = frozenset({"en"}), frozenset({"de"})
BUCKETS = 1024
STARTED = "Heute mein erster Tag bei Brauhaus Kessler in Bamberg."  # no word of the German work-talk list
SHOPPED = "Heute Brot gekauft bei Brauhaus Kessler in Bamberg."
WORKED = "Ich arbeite seit Mai bei Brauhaus Kessler in Bamberg."  # "arbeite": the word list's


def first_day_model() -> ContextModel:
    """A hand-made model (a fake of a fitted one): "tag" before a span adds 4 to a log-odds of -2 (scores 0.88, else
    0.12); gates only the spans the filter kept for it, in texts not read as English, from 0.5."""
    weights = [0.0] * BUCKETS
    weights[zlib.crc32(b"b:tag") % BUCKETS] = 4.0  # a term's bucket is its CRC-32
    return ContextModel(4, -2.0, tuple(weights), 0.0, 0.5, "EMPLOYER", CONTEXT_DECIDES)


def span_of(text: str) -> tuple[int, int]:
    start = text.index("Brauhaus")
    return start, text.index(" in Bamberg")


def test_outside_english_the_filter_leaves_a_span_without_work_talk_to_the_context_model():
    assert kept("EMPLOYER", STARTED, *span_of(STARTED), english=False) == f"employer filter: {CONTEXT_DECIDES}"
    # English: the gates that read every employer span decide (its verifier and reader)
    assert kept("EMPLOYER", STARTED, *span_of(STARTED), english=True) == f"employer filter: {GATES_DECIDE}"
    assert (
        kept("EMPLOYER", WORKED, *span_of(WORKED), english=False)
        == "employer filter: talk of work or study in its sentence"
    )


def test_the_gate_reads_only_the_spans_left_to_it_and_drops_those_below_its_threshold():
    recognizer = PiiTaggerRecognizer(tagger=WordTagger("EMPLOYER", ["Brauhaus Kessler"]), gates=(first_day_model(),))
    started, shopped, worked = recognizer.find_many([STARTED, SHOPPED, WORKED], languages=[GERMAN] * 3)
    [first_day] = started
    assert first_day.reason.endswith("employer context verifier 0.88 (keeps from 0.50)")
    assert shopped == []  # scores 0.12
    [at_work] = worked  # kept by the word list: the model does not read it (it would score 0.12)
    assert "context verifier" not in at_work.reason


def test_in_english_the_model_gates_nothing():
    english = "Today is my first day at Brauhaus Kessler in Bamberg."
    bought = "Bought bread at Brauhaus Kessler in Bamberg today."
    recognizer = PiiTaggerRecognizer(tagger=WordTagger("EMPLOYER", ["Brauhaus Kessler"]), gates=(first_day_model(),))
    first_day, shopped = recognizer.find_many([english, bought], languages=[ENGLISH, ENGLISH])
    assert "context verifier" not in "".join(s.reason for s in first_day + shopped)


def test_the_model_reads_back_from_its_file_with_its_label_and_what_it_reads(tmp_path):
    model = first_day_model()
    path = tmp_path / "employer_context.json"
    path.write_text(json.dumps(model.to_json(chosen="by hand")), encoding="utf-8")
    assert read_context_model(path) == model


@pytest.mark.parametrize("label", list(UNLISTED_FILES))
def test_the_shipped_models_gate_their_labels_unlisted_spans_outside_english_and_say_how_they_were_chosen(label):
    model = shipped_context_model(label, unlisted=True)
    assert (model.label, model.reads, model.threshold) == (label, CONTEXT_DECIDES, 0.0)
    assert 0.0 < model.threshold_others < 1.0
    assert len(model.weights) == 1 << 14
    stored = json.loads((resource_dir("data") / UNLISTED_FILES[label]).read_text(encoding="utf-8"))
    assert "leave-one-set-out" in stored["chosen"] and "pii-heldout-zr" not in stored["chosen"]
    assert shipped_context_model(label) is not model  # the model of every span of a label is another (HEALTH's) or none


def test_the_shipped_name_gate_reads_every_name_outside_english_and_says_how_it_was_chosen():
    model = shipped_context_model("REAL_NAME")
    assert (model.label, model.reads, model.threshold) == ("REAL_NAME", None, 0.0)
    assert 0.0 < model.threshold_others < 1.0
    stored = json.loads((resource_dir("data") / NAME_CONTEXT_FILE).read_text(encoding="utf-8"))
    assert "dropped spans are at least 90% wrong" in stored["chosen"] and "pii-heldout-zr" not in stored["chosen"]


def test_outside_english_the_health_filter_leaves_a_condition_without_medical_words_to_the_context_model():
    text = "Sinds de zomer heeft mijn zus last van Pfeiffer."
    start = text.index("Pfeiffer")
    assert kept("HEALTH", text, start, start + len("Pfeiffer"), english=False) == f"health filter: {CONTEXT_DECIDES}"


@pytest.mark.real_model
def test_an_employer_is_masked_where_someone_works_there_and_not_where_they_shop():
    """End to end (the shipped students, verifiers and gates), sentences written for this test: the same chain is where
    the writer works in one and a shop in the other, in four of the six languages. The model errs both ways near its
    threshold: "Morgen kaufe ich bei Aldi Süd noch Milch." (without "und Eier") is masked."""
    detector = Detector(build_recognizers(models=True))
    pairs = [
        (
            "Nach zwölf Jahren bei Aldi Süd in Mülheim höre ich im Mai auf.",
            "Morgen kaufe ich bei Aldi Süd noch Milch und Eier.",
        ),
        ("Premier jour chez Decathlon à Lille, je suis crevée !", "On a acheté des raquettes chez Decathlon hier."),
        ("Vandaag mijn eerste dienst bij Jumbo in Tilburg.", "Ik haal straks nog brood bij Jumbo."),
        ("Hoje é o meu último dia na Jerónimo Martins depois de 9 anos.", "Comprei fruta na Jerónimo Martins."),
    ]
    for works, shops in pairs:
        assert any(s.type == "EMPLOYER" for s in detector.detect(works)), works
        assert not any(s.type == "EMPLOYER" for s in detector.detect(shops)), shops


def test_in_english_the_gates_decide_what_no_word_list_shows():
    """In English an employer span no word list shows goes on to the gates that read every employer span, which keep
    or drop it (a fake of a fitted gate, labelled: `first_day_model` reading every span, from 0.5 in English)."""
    gate = replace(first_day_model(), threshold=0.5, reads=None)
    recognizer = PiiTaggerRecognizer(tagger=WordTagger("EMPLOYER", ["Blue Kettle"]), gates=(gate,))
    texts = ["My first tag at Blue Kettle, wish me luck.", "Bought bread at Blue Kettle today."]
    first_day, shopped = recognizer.find_many(texts, languages=[ENGLISH] * 2)
    assert [span.reason for span in first_day] == [
        f"employer filter: {GATES_DECIDE}; employer context verifier 0.88 (keeps from 0.50)"
    ]
    assert shopped == []  # scores 0.12
