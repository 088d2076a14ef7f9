"""Fuzz: restore(protect(x)) == x for arbitrary text, placeholder-looking pieces included, and
no value a recognizer finds is left in clear in the protected text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from placeholder_fixtures import FUZZ

PIECES = st.sampled_from(
    [
        "<EMAIL_1>",
        "EMAIL_2",
        "\\<EMAIL_1>",
        "[[EMAIL:3f81a2c9]]",
        "\\",
        "dana@mailbox.org",
        "4111 1111 1111 1111",
        "AKIAIOSFODNN7EXAMPLE",
        "81.0.0.1",
        "mailbox.org/x",
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


@settings(max_examples=150, **FUZZ)
@given(text=TEXTS)
def test_restore_of_protect_gives_back_the_text(module_protector, text):
    protected = module_protector.protect(text, "fuzz")
    # a guarded value that does not stand apart in prose stays a placeholder by default, and is reported
    result = module_protector.restore(protected.text, "fuzz")
    assert result.text == text or result.withheld
    assert module_protector.restore(protected.text, "fuzz", secrets_in_urls=True).text == text
    chunks = [protected.text[i : i + 3] for i in range(0, len(protected.text), 3)]
    assert "".join(module_protector.restore_stream(chunks, "fuzz")) == result.text
    assert "".join(module_protector.restore_stream(chunks, "fuzz", secrets_in_urls=True)) == text
    for span in module_protector.detector.detect(text):
        if module_protector.config.masks(span.type, span.level):
            value = text[span.start : span.end]
            assert value not in protected.text or len(value) < 3
