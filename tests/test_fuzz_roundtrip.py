"""Fuzz: restore(protect(x)) == x for arbitrary text, placeholder-looking pieces included, and
no value a recognizer finds is left in clear in the protected text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from placeholder_fixtures import make_protector, protect_config

PIECES = st.sampled_from(
    [
        "<EMAIL_1>",
        "EMAIL_2",
        "\\<EMAIL_1>",
        "[[EMAIL:3f81a2c9]]",
        "\\",
        "dana@example.org",
        "4111 1111 1111 1111",
        "AKIAIOSFODNN7EXAMPLE",
        "10.0.0.1",
        "example.org/x",
        "\u200b",
        "\u00ad",
        "\u2028",
        "＠",
        " ",
        "\n",
        "x" * 300,
    ]
)
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=20)), max_size=12).map("".join)


@pytest.fixture(scope="module")
def protector(tmp_path_factory):
    monkeypatch = pytest.MonkeyPatch()
    yield make_protector(protect_config(tmp_path_factory.mktemp("fuzz"), monkeypatch))
    monkeypatch.undo()


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=TEXTS)
def test_restore_of_protect_gives_back_the_text(protector, text):
    protected = protector.protect(text, "fuzz")
    assert protector.restore(protected.text, "fuzz").text == text
    assert (
        "".join(protector.restore_stream([protected.text[i : i + 3] for i in range(0, len(protected.text), 3)], "fuzz"))
        == text
    )
    for span in protector.detector.detect(text):
        if protector.config.masks(span.type, span.level):
            value = text[span.start : span.end]
            assert value not in protected.text or len(value) < 3
