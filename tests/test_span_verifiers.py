"""The verifiers of ADDRESS, HEALTH and EMPLOYER spans (pii_tagger/verifier.py): one scoring path with the name
verifier's, per label its features and weights file; a span below its label's threshold is dropped, a kept one's
reason shows its score."""

from __future__ import annotations

import json
import re

import pytest

from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pii_tagger.verifier import (
    KINDS,
    SPAN_FEATURES,
    VALUE_FEATURES,
    Verifier,
    read_verifier,
    shipped_verifiers,
    span_features,
    value_features,
)
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

ENGLISH = frozenset({"en"})


class FakeTagger:
    """A fake tagger (labelled as such): tags each given (pattern, label) where it occurs, with one confidence."""

    labels = ["REAL_NAME", "HEALTH", "ADDRESS", "EMPLOYER", "FINANCE", "CREDENTIAL"]
    span_thresholds = dict.fromkeys(labels, 0.5)

    def __init__(self, spans: list[tuple[str, str]], score: float = 0.9):
        self.spans, self.score = spans, score

    def tag_many(self, texts, batch_size=16, settled=None):
        return [
            [
                TaggedSpan(m.start(), m.end(), label, self.score)
                for word, label in self.spans
                for m in re.finditer(word, text)
            ]
            for text in texts
        ]


def personal_stump(label: str) -> Verifier:
    """A hand-made verifier of one tree (a fake of a fitted one): a span whose sentence holds a personal word scores
    0.88, any other 0.12."""
    personal = SPAN_FEATURES.index("personal")
    tree = ((personal, 0.5, 1, 2, 0.0), (-1, 0.0, -1, -1, -2.0), (-1, 0.0, -1, -1, 2.0))
    return Verifier(label, (tree,), 0.0, 1.0, 0.5, 0.5)


def test_a_health_span_below_its_verifiers_threshold_is_dropped_and_a_kept_one_shows_its_score():
    """Only the label given a verifier is scored: the name beside the conditions stays as the tagger kept it."""
    text = "Diabetes is common, the doctor said. My brother Omar Haddad has asthma."
    tagger = FakeTagger([("Diabetes", "HEALTH"), ("asthma", "HEALTH"), ("Omar Haddad", "REAL_NAME")])
    unverified = PiiTaggerRecognizer(tagger=tagger).find_many([text], languages=[ENGLISH])[0]
    assert sorted(text[s.start : s.end] for s in unverified) == ["Diabetes", "Omar Haddad", "asthma"]
    recognizer = PiiTaggerRecognizer(tagger=tagger, verifiers={"HEALTH": personal_stump("HEALTH")})
    spans = recognizer.find_many([text], languages=[ENGLISH])[0]
    assert sorted(text[s.start : s.end] for s in spans) == ["Omar Haddad", "asthma"]
    [asthma] = [s for s in spans if s.type == "HEALTH"]
    assert asthma.reason.endswith("health verifier 0.88 (keeps from 0.50)")
    [name] = [s for s in spans if s.type == "REAL_NAME"]
    assert "verifier" not in name.reason


def test_a_threshold_of_0_leaves_its_languages_spans_unscored():
    """HEALTH's shipped threshold for English texts is 0: every span would be kept, so none is scored there."""
    text = "Diabetes is common, the doctor said."
    stump = personal_stump("HEALTH")
    open_in_english = Verifier("HEALTH", stump.trees, stump.base, stump.rate, 0.0, 0.5)
    recognizer = PiiTaggerRecognizer(tagger=FakeTagger([("Diabetes", "HEALTH")]), verifiers={"HEALTH": open_in_english})
    [diabetes] = recognizer.find_many([text], languages=[ENGLISH])[0]
    assert "verifier" not in diabetes.reason
    assert recognizer.find_many([text], languages=[frozenset({"de"})])[0] == []


def test_span_features_read_shape_cues_and_agreement():
    text = "We moved last year. I live at 12 Elm Street now."
    start = text.index("12")
    values = dict(
        zip(SPAN_FEATURES, span_features("ADDRESS", text, start, start + 13, 0.7, ENGLISH, True), strict=True)
    )
    assert values["confidence"] == 0.7 and values["agreed"] == 1.0 and values["english"] == 1.0
    assert values["number_first"] == 1.0 and values["digits"] == 2 and values["words"] == 2
    assert values["inside"] == 1.0  # "Street": a street word of data/pii-tagger/lexicons.yaml
    assert values["personal"] == 1.0 and values["sentence_start"] == 0.0 and values["lang_de"] == 0.0
    work = "Ich arbeite seit März bei Siemens."
    start = work.index("Siemens")
    german = dict(
        zip(
            SPAN_FEATURES, span_features("EMPLOYER", work, start, start + 7, 0.9, frozenset({"de"}), False), strict=True
        )
    )
    assert german["talk"] == 1.0 and german["lang_de"] == 1.0 and german["english"] == 0.0  # "arbeite": work_words


def value_stump(label: str, feature: str) -> Verifier:
    """A hand-made verifier of one tree (a fake of a fitted one) over `VALUE_FEATURES`: a span whose `feature` is set
    scores 0.88, any other 0.12."""
    at = VALUE_FEATURES.index(feature)
    tree = ((at, 0.5, 1, 2, 0.0), (-1, 0.0, -1, -1, -2.0), (-1, 0.0, -1, -1, 2.0))
    return Verifier(label, (tree,), 0.0, 1.0, 0.5, 0.5)


def test_finance_and_credential_spans_below_their_verifiers_threshold_are_dropped():
    """An amount no money word comes before and a token in a sentence of no one's are dropped; the savings after their
    money word and a token in a sentence of the writer's are kept, their reasons giving the scores; the PIN a secret
    word introduces is kept unscored (CREDENTIAL's settling features)."""
    text = (
        "My locker sticker reads Zp44rt81. It said Kq88tz19 at the bottom. I saved $4,200 this year. After a long "
        "story about the trip he got €3,100. My PIN is 8812."
    )
    spans = [(r"\$4,200", "FINANCE"), ("€3,100", "FINANCE")]
    spans += [("8812", "CREDENTIAL"), ("Kq88tz19", "CREDENTIAL"), ("Zp44rt81", "CREDENTIAL")]
    tagger = FakeTagger(spans)
    unverified = PiiTaggerRecognizer(tagger=tagger).find_many([text], languages=[ENGLISH])[0]
    assert sorted(text[s.start : s.end] for s in unverified) == ["$4,200", "8812", "Kq88tz19", "Zp44rt81", "€3,100"]
    verifiers = {"FINANCE": value_stump("FINANCE", "cue"), "CREDENTIAL": value_stump("CREDENTIAL", "personal")}
    kept = PiiTaggerRecognizer(tagger=tagger, verifiers=verifiers).find_many([text], languages=[ENGLISH])[0]
    reasons = {text[s.start : s.end]: s.reason for s in kept}
    assert sorted(reasons) == ["$4,200", "8812", "Zp44rt81"]
    assert reasons["$4,200"].endswith("finance verifier 0.88 (keeps from 0.50)")
    assert reasons["Zp44rt81"].endswith("credential verifier 0.88 (keeps from 0.50)")
    assert reasons["8812"].endswith("credential verifier: kept unscored (agreed, cue)")


def test_value_features_read_shape_entropy_money_and_cues():
    text = "My salary is $72,000 a year. The wifi password: Hx9!kq2LmP"
    start = text.index("$")
    money = dict(
        zip(VALUE_FEATURES, value_features("FINANCE", text, start, start + 7, 0.8, ENGLISH, False), strict=True)
    )
    assert money["money"] == 1.0 and money["amount"] == 1.0 and money["digits"] == 5 and money["classes"] == 2
    assert money["cue"] == 1.0 and money["talk"] == 1.0 and money["personal"] == 1.0  # "salary": OWNED_MONEY
    start = text.index("Hx9")
    secret = dict(
        zip(VALUE_FEATURES, value_features("CREDENTIAL", text, start, start + 10, 0.9, ENGLISH, True), strict=True)
    )
    assert secret["cue"] == 1.0 and secret["talk"] == 1.0 and secret["agreed"] == 1.0  # "password": secret_words.yaml
    assert secret["classes"] == 4 and secret["entropy"] == pytest.approx(3.32, abs=0.01)  # 10 characters, all apart
    assert secret["money"] == 0.0 and secret["chars"] == 10
    plain = "Build A7f9Kq22 is out."
    assert (
        dict(zip(VALUE_FEATURES, value_features("CREDENTIAL", plain, 6, 14, 0.9, ENGLISH, False), strict=True))["cue"]
        == 0.0
    )


def test_each_labels_verifier_reads_back_from_its_file(tmp_path):
    verifier = personal_stump("EMPLOYER")
    path = tmp_path / KINDS["EMPLOYER"].weights.rsplit("/", 1)[-1]
    assert path.name == "employer_verifier.json"
    path.write_text(json.dumps(verifier.to_json(chosen="by hand")), encoding="utf-8")
    assert read_verifier(path, "EMPLOYER") == verifier
    with pytest.raises(ValueError, match="are not this version's"):
        read_verifier(path, "REAL_NAME")  # a name verifier reads other features


def test_the_shipped_verifiers_are_the_labels_with_weights():
    shipped = shipped_verifiers()
    assert {"REAL_NAME", "HEALTH", "EMPLOYER"} <= set(shipped) <= set(KINDS)
    for label, verifier in shipped.items():
        assert verifier.label == label and 0.0 <= verifier.threshold < 1.0 and 0.0 <= verifier.threshold_others < 1.0


@pytest.mark.real_model
def test_the_shipped_health_verifier_leaves_talk_of_a_disease_and_masks_a_mothers():
    """End to end (the shipped students and verifiers): the multilingual student tags "cancer" in a sentence about
    cancer in general, which the health verifier drops (masked without it); a mother's cancer is still masked, its
    reason giving the verifier's score."""
    general = "Le cancer du sein touche une femme sur huit selon la campagne de cette année."
    mother = "Ma mère a un cancer du sein et commence la chimio lundi."
    unverified = {label: v for label, v in shipped_verifiers().items() if label != "HEALTH"}
    without = Detector(
        [
            PiiTaggerRecognizer(verifiers=unverified) if isinstance(r, PiiTaggerRecognizer) else r
            for r in build_recognizers(models=True)
        ]
    )
    assert [general[s.start : s.end] for s in without.detect(general)] == ["cancer"]
    detector = Detector(build_recognizers(models=True))
    assert detector.detect(general) == []
    spans = detector.detect(mother)
    [cancer] = [s for s in spans if "cancer" in mother[s.start : s.end]]
    assert cancer.type == "HEALTH" and "health verifier" in cancer.reason


@pytest.mark.real_model
def test_the_shipped_credential_verifier_leaves_a_commit_hash_and_masks_a_password():
    """End to end (the shipped students and verifiers): the English student tags a commit in a bug report as a secret,
    which the credential verifier drops (masked without it); a password after its secret word is still masked, kept
    unscored."""
    report = "Fixed in 3c9d2e1f, token refresh now retries; see PR 412."  # t23's student: main@b71e0c4 at 0.22
    secret = "Bug: the PDF export drops the last page. My admin password is Kx7mv29qLr, please reset it."
    unverified = {label: v for label, v in shipped_verifiers().items() if label != "CREDENTIAL"}
    without = Detector(
        [
            PiiTaggerRecognizer(verifiers=unverified) if isinstance(r, PiiTaggerRecognizer) else r
            for r in build_recognizers(models=True)
        ]
    )
    assert [s.type for s in without.detect(report)] == ["CREDENTIAL"]
    detector = Detector(build_recognizers(models=True))
    assert detector.detect(report) == []
    [password] = [s for s in detector.detect(secret) if "Kx7mv29qLr" in secret[s.start : s.end]]
    assert password.type in ("CREDENTIAL", "PASSWORD")
