"""Every pattern recognizer reads hostile runs in linear time. rev26 H1 and H2: a run of titles ("dr dr dr ...") and a
run of hyphenated letters ("a-a-a-...") were read again from each of their words, quadratic time (16 KB: 6-7 s), and
in a server the share of detection dealt to a helper stalled past its limit. Each text is a unit repeated to 8 KB and
to 32 KB: the larger may take at most 6 times the smaller's CPU time (linear is 4 times), above a floor, since machines
differ."""

from __future__ import annotations

import time
from functools import partial

import pytest

from stealthflow.placeholders.language import read, shared_guesser
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
    "pw=",  # rev28 F1: the password lookaheads ran to the end of the token at every place tried
    "AKIA",
    "ghp_",
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


# rev27b L1 and M3: a run of blanks read twice by `[ \t]*[,;/]?[ \t]*` (a sort code and an account number, two
# coordinates: 40 KB, 8-11 s), and an address blanked from each character of a long token without spaces in the
# language guess (64 KB, 23 s; one request froze the proxy for 110 s). Each text at 4 KB and 64 KB: the larger may take
# at most `WIDE_RATIO` times the smaller's CPU time (linear is 16 times, quadratic 256), above the floor.
WIDE_SMALL, WIDE_LARGE = 4_000, 64_000
WIDE_RATIO = 48
RUNS = {
    "sort_code_account": lambda n: "12-34-56" + " " * n + ",",
    "coordinates": lambda n: "1° N" + " " * n + "x",
}


def _cpu_seconds(read, text: str) -> float:
    started = time.process_time()
    read(text)
    return time.process_time() - started


def _scales_linearly(read, text_of) -> tuple[float, float] | None:
    """None if `read` takes at most `WIDE_RATIO` times as long on `text_of(WIDE_LARGE)` as on `text_of(WIDE_SMALL)`
    (above `FLOOR`), else both CPU times."""
    small, large = _cpu_seconds(read, text_of(WIDE_SMALL)), _cpu_seconds(read, text_of(WIDE_LARGE))
    return None if large <= WIDE_RATIO * max(small, FLOOR) else (small, large)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_pair_recognizer_reads_a_long_run_of_blanks_in_linear_time(recognizers, name):
    recognizer = next(recognizer for recognizer in recognizers if recognizer.name == name)
    assert _scales_linearly(recognizer.find, RUNS[name]) is None


def test_two_decimal_coordinates_with_long_runs_of_blanks_are_read_in_linear_time(recognizers):
    recognizer = next(recognizer for recognizer in recognizers if recognizer.name == "coordinates")
    assert _scales_linearly(recognizer.find, lambda n: "at 1.11111" + " " * (n // 2) + "," + " " * (n // 2)) is None


def test_the_language_guess_reads_a_long_token_beside_an_address_in_linear_time():
    """The reviewer's message: a non-ASCII letter, an e-mail address and a pasted attachment (one token), read with
    the real guesser (lingua)."""
    guesser = shared_guesser()
    read_text = partial(read, guesser=guesser)
    read_text("Merci José, warm-up.")
    assert (
        _scales_linearly(read_text, lambda n: "Merci José, the file from ann.smith@gmail.com: " + "QUJD" * (n // 4))
        is None
    )


# rev28 F1: a long periodic token masked whole as a key ("AKIAAKIA...") was searched for again in its own text (and a
# session's later texts), each search walking failure links as deep as the value at every character: 128 KB cost 15 s.
# The real protector (deterministic recognizers), each token at 8 KB and 128 KB: linear is 16 times, quadratic 256.
PROTECT_SMALL, PROTECT_LARGE, PROTECT_RATIO = 8_000, 128_000, 48


@pytest.mark.parametrize("unit", ["AKIA", "ghp_", "sk-", "xoxb-", "pw="])
def test_protect_masks_a_long_periodic_token_in_linear_time(tmp_path, monkeypatch, unit):
    from placeholder_fixtures import make_protector, protect_config

    protector = make_protector(protect_config(tmp_path, monkeypatch))
    sessions = iter(range(2))

    def protect(text):
        return protector.protect(text, f"s{next(sessions)}")

    def text_of(size):
        return "Summarise this page:\n" + unit * (size // len(unit))

    small, large = _cpu_seconds(protect, text_of(PROTECT_SMALL)), _cpu_seconds(protect, text_of(PROTECT_LARGE))
    assert large <= PROTECT_RATIO * max(small, FLOOR), (small, large)
