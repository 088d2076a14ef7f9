"""Fuzz: restore(protect(x)) == x for arbitrary text, placeholder-looking pieces included, and
no value a recognizer finds is left in clear in the protected text."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from placeholder_fixtures import FUZZ

SESSIONS = itertools.count()  # one session per example, the same names every run

PIECES = st.sampled_from(
    [
        "<EMAIL_1>",
        "EMAIL_2",
        "\\<EMAIL_1>",
        "[[EMAIL:3f81a2c9]]",
        "\\",
        "dana@mailbox.org",
        "4716 2830 5914 4476",
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
    # a session of its own: a session restores the first spelling it stored of a value (`Vault.issue`), which an
    # earlier text may have spelled otherwise ("1111\u200b4111" for "11114111")
    session = f"fuzz-{next(SESSIONS)}"
    protected = module_protector.protect(text, session)
    # a guarded value that does not stand apart in prose stays a placeholder by default, and is reported
    result = module_protector.restore(protected.text, session)
    assert result.text == text or result.withheld
    # with both opt-ins, only a value in a URL that loads by itself stays
    opted = module_protector.restore(protected.text, session, secrets_in_urls=True, values_in_links=True)
    assert opted.text == text or {why for _, why in opted.withheld} == {"in_loading_url"}
    chunks = [protected.text[i : i + 3] for i in range(0, len(protected.text), 3)]
    assert "".join(module_protector.restore_stream(chunks, session)) == result.text
    assert "".join(module_protector.restore_stream(chunks, session, True, True)) == opted.text
    for span in module_protector.detector.detect(text):
        if module_protector.config.masks(span.type, span.level):
            value = text[span.start : span.end]
            assert value not in protected.text or len(value) < 3
