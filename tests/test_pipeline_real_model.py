"""The real embedded model (SmolLM2-135M) in the pipeline: the LLM extractor and a
`standard` rewrite on one tiny input. The model is weak; these tests check that whatever
it answers, the pipeline stays correct: no raw value leaves, every placeholder survives
or the rewrite is rejected with a reason."""

from __future__ import annotations

import pytest
from placeholder_fixtures import make_protector, protect_config

from stealthflow.anonymize.standard import StandardAnonymizer
from stealthflow.pipeline import rewrite_protected
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.extractor import LLMExtractor

TEXT = "My name is Anna Berg, I am a nurse in Boston and my email is anna.berg@mailbox.org."


@pytest.mark.real_model
def test_llm_extractor_and_standard_rewrite_on_the_embedded_model(tmp_path, monkeypatch, embedded_llm):
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    protector.detector = Detector(extractor=LLMExtractor(embedded_llm))
    protected = protector.protect(TEXT, "s")
    assert "anna.berg@mailbox.org" not in protected.text and "Anna Berg" not in protected.text
    for span in protected.spans:  # LLM spans are located in the text, never invented
        assert TEXT[span.start : span.end].strip()

    outcome = rewrite_protected(StandardAnonymizer(embedded_llm), [("a", protected.text, protected.placeholders)])[0]
    assert "anna.berg@mailbox.org" not in outcome.text and "Anna Berg" not in outcome.text
    if outcome.accepted:
        assert all(p in outcome.text for p in protected.placeholders)
    else:
        assert outcome.reason and outcome.text == protected.text
    assert protector.restore(protected.text, "s").text == TEXT
