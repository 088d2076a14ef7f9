"""Fuzz, detection half: a value a recognizer finds in the *normalised* text (format characters
dropped, NFKC, digits mapped) is masked in the original, so no fragment of it survives in clear,
whatever zero-width characters, soft hyphens, non-breaking spaces or fullwidth forms hide it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from placeholder_fixtures import FUZZ

from stealthflow.placeholders.normalize import shadow

VALUES = ["dana.berg@mailbox.org", "4716 2830 5914 4476", "AKIAIOSFODNN7EXAMPLE", "81.20.30.40", "+1 415 555 0100"]
NOISE = st.sampled_from(["\u200b", "\u00ad", "\u2060", "\ufeff", ""])
FOLDS = {"@": "＠", "1": "１", "4": "٤", " ": "\u00a0"}


@st.composite
def disguised(draw) -> str:
    """A value with format characters inserted and some characters swapped for look-alikes."""
    value = draw(st.sampled_from(VALUES))
    chars = [FOLDS[c] if c in FOLDS and draw(st.booleans()) else c for c in value]
    return "".join(c + draw(NOISE) for c in chars[:-1]) + chars[-1]


TEXTS = st.tuples(st.text(max_size=15), disguised(), st.sampled_from([" ", ", ", "\n"]), st.text(max_size=15)).map(
    lambda parts: f"{parts[0]} note {parts[1]}{parts[2]}{parts[3]}"
)


@settings(max_examples=120, **FUZZ)
@given(text=TEXTS)
def test_no_value_found_in_the_normalised_text_survives_in_clear(module_protector, text):
    normalised, _ = shadow(text)
    found = [
        normalised[s.start : s.end]
        for r in module_protector.detector.recognizers
        for s in r.find(normalised)
        if module_protector.config.masks(s.type, s.level)
    ]
    protected_shadow, _ = shadow(module_protector.protect(text, "fuzz").text)
    kept = "".join(c for c in protected_shadow if c.isalnum())  # fragments rejoined across separators
    for value in found:
        core = "".join(c for c in value if c.isalnum())
        assert len(core) < 6 or core not in kept, value


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            [*"ab1 @.", "é", "\u200b", "\u00ad", "\u00a0", "\u3000", "＠", "１", "٤", "Ⅻ", "ﬁ", "中"]
        ),
        max_size=30,
    )
)
def test_the_shadow_maps_each_character_back_to_the_one_it_came_from(text):
    import unicodedata

    normalised, offsets = shadow(text)
    if offsets is None:
        assert normalised == text
        return
    assert normalised != text and len(offsets) == len(normalised) + 1 and offsets[-1] == len(text)
    assert offsets == sorted(offsets)
    for k, index in enumerate(offsets[:-1]):
        original = text[index]
        assert (
            normalised[k] == original
            if original.isascii()
            else normalised[k] in unicodedata.normalize("NFKC", original) + " 0123456789"
        )
    dropped = set(range(len(text))) - set(offsets)
    # only format characters go, and the spaces around an @ between two words ("a @ b.org")
    assert all(unicodedata.category(text[i]) == "Cf" or _beside_an_at(text, i) for i in dropped)


def _beside_an_at(text: str, index: int) -> bool:
    return text[index] == " " and (text[:index].rstrip(" ").endswith("@") or text[index:].lstrip(" ").startswith("@"))


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from([*"\\%&+;#xXuU/abcdefABCDEF0123456789 _é"]), max_size=40))
def test_the_encodings_are_found_where_the_pattern_with_a_repeated_group_first_finds_them(text):
    """normalize's `_ENCODED` writes a run of percent-escapes `%XX(?:%XX)*` so that each alternative opens with a literal
    (a fast scan to the next candidate): it finds what the pattern written with `(?:%XX)+` finds."""
    import re

    from stealthflow.placeholders.normalize import _ENCODED

    percent_run = "%[0-9a-fA-F]{2}(?:%[0-9a-fA-F]{2})*"
    assert percent_run in _ENCODED.pattern
    grouped = re.compile(_ENCODED.pattern.replace(percent_run, "(?:%[0-9a-fA-F]{2})+"))
    assert [m.span() for m in _ENCODED.finditer(text)] == [m.span() for m in grouped.finditer(text)]
