"""Every pattern recognizer reads hostile runs in linear time. rev26 H1 and H2: a run of titles ("dr dr dr ...") and a
run of hyphenated letters ("a-a-a-...") were read again from each of their words, quadratic time (16 KB: 6-7 s), and
in a server the share of detection dealt to a helper stalled past its limit. Each text is a unit repeated to 8 KB and
to 32 KB: the larger may take at most 6 times the smaller's CPU time (linear is 4 times), above a floor, since machines
differ."""

from __future__ import annotations

import time

import pytest

from stealthflow.placeholders.recognizers import build_recognizers

SMALL, LARGE = 8_000, 32_000
RATIO = 6  # linear: 4; quadratic: 16
FLOOR = 0.05  # CPU seconds: a recognizer faster than this on the small text may take 6x this on the large one

# The reviewer's units (titles in any case, hyphens and apostrophes between letters) and shapes of the same kind: a
# greedy run before a suffix, words a run of titles, name words or spelled dots is made of.
UNITS = [
    "dr ",
    "FR ",
    "Mx ",
    "Dr ",
    "Dr. ",
    "herr dr. ",
    "sig.ra ",
    "a-",
    "A-",
    "A'",
    "Aa-Aa-",
    "aa-bb ",
    "straße-",
    "Weg ",
    "a.",
    "A. ",
    "Aa ",
    "a ",
    "1-",
    "my dr ",
    "dot ",  # spelled_email: a run of spelled dots with no "at" after (found by the sweep of the lexicons' words)
    "DOT ",
    "a punto ",
]


@pytest.fixture(scope="module")
def recognizers():
    return build_recognizers()


def _seconds(recognizer, unit: str, size: int) -> float:
    text = (unit * (size // len(unit) + 1))[:size]
    started = time.process_time()
    recognizer.find(text)
    return time.process_time() - started


@pytest.mark.parametrize("unit", UNITS)
def test_every_pattern_recognizer_reads_a_long_run_in_linear_time(recognizers, unit):
    slow = []
    for recognizer in recognizers:
        small = _seconds(recognizer, unit, SMALL)
        large = _seconds(recognizer, unit, LARGE)
        if large > RATIO * max(small, FLOOR):
            slow.append((recognizer.name, round(small, 3), round(large, 3)))
    assert not slow, slow
