"""Secrets introduced by context in wordings the first patterns missed (issue 19 item 4: the
held-out set left these in clear), and prose around the same words that must stay unflagged."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector


@pytest.fixture(scope="module")
def detector():
    return Detector()


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("Log in to the router with password Tr0ub4dor&3 and reboot it.", "PASSWORD", "Tr0ub4dor&3"),
        ("ssh using the passphrase blue-Falcon-77 please", "PASSWORD", "blue-Falcon-77"),
        ("Please rotate 9fQxL2mV8rT4kZ1pW6yB3nC7 before Friday.", "API_KEY", "9fQxL2mV8rT4kZ1pW6yB3nC7"),
        ("the code they texted is 906812", "OTP", "906812"),
        ("The code I got was 4417, can you enter it?", "OTP", "4417"),
        ("They sent me a code. It's 956712", "OTP", "956712"),
    ],
)
def test_secrets_introduced_by_context_are_found(detector, text, kind, value):
    assert (kind, value) in {(s.type, text[s.start : s.end]) for s in detector.detect(text)}


@pytest.mark.parametrize(
    "text",
    [
        "I forgot which password manager we use, it's 2024 after all.",
        "The code review took 45 minutes. It's fine now.",
        "Please rotate the tyres every 10000 km.",
        "Sign in with password reset enabled.",
    ],
)
def test_prose_around_the_same_words_is_not_flagged(detector, text):
    assert detector.detect(text) == []


def test_a_recognizer_gets_the_whole_batch_of_normalised_texts_once():
    """A model-backed recognizer (the tagger) batches its forward passes: the detector hands each
    recognizer every text of a `detect_many` call at once, normalised, and maps its spans back."""
    from stealthflow.placeholders.recognizers import Recognizer

    class Batched(Recognizer):  # a fake model: flags the word "secret" in each text
        name, type = "batched_fake", "PASSWORD"
        calls: list[list[str]] = []

        def find_many(self, texts):
            self.calls.append(texts)
            return [[self.span(t.index("secret"), t.index("secret") + 6)] if "secret" in t else [] for t in texts]

    recognizer = Batched()
    texts = ["a se\u200bcret here", "nothing", "secret"]
    spans = Detector([recognizer]).detect_many(texts)
    assert recognizer.calls == [["a secret here", "nothing", "secret"]]
    assert [[t[s.start : s.end] for s in found] for t, found in zip(texts, spans, strict=True)] == [["se\u200bcret"], [], ["secret"]]
