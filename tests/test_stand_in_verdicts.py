"""benchmarks/stand_in_verdicts.py: the key a stand-in edit is tallied by, the refusal threshold, and the fit holding
one seed out at a time (the pairs of the fit are made up: no real judgment)."""

import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "stand_in_verdicts.py"
sys.path.insert(0, str(SCRIPT.parent))

from stand_in_verdicts import fit, held_out, refused, stand_in_key, table  # noqa: E402


@pytest.mark.parametrize(
    ("phrase", "replacement", "key"),
    [
        ("at TUM", "at school", "school"),
        ("my salary", "my income", "income"),
        ("in Leeds", "in my city", "city"),
        ("in Leeds", "", ""),  # a removal has no stand-in
        ("Twelve years", "About a decade", "about a decade"),
    ],
)
def test_a_stand_in_is_keyed_by_the_words_it_puts_in_the_phrase_s_place(phrase, replacement, key):
    assert stand_in_key(phrase, replacement) == key


def test_refused_needs_enough_rejections_and_few_acceptances():
    assert refused(accepted=2, rejected=16, min_rejected=5, max_accepted_share=0.5)
    assert refused(accepted=5, rejected=5, min_rejected=5, max_accepted_share=0.5)
    assert not refused(accepted=6, rejected=5, min_rejected=5, max_accepted_share=0.5)
    assert not refused(accepted=0, rejected=4, min_rejected=5, max_accepted_share=0.5)


def _pair(seed, kind, *keys):
    return {"seed": seed, "kind": kind, "keys": set(keys), "labelled": set(keys)}


def test_a_held_out_seed_is_judged_by_the_other_seeds_table_only():
    # "school" rejected on seeds 1 and 2, once each; accepted once on seed 3
    pairs = [_pair(1, "rejected", "school"), _pair(2, "rejected", "school"), _pair(3, "accepted", "school")]
    pairs += [_pair(s, "accepted", "partner") for s in (1, 2, 3)]
    assert table(pairs) == {"partner": (3, 0), "school": (1, 2)}
    # held out, seed 3's "school" is refused by seeds 1-2 (rejected 2, accepted 0); seeds 1 and 2 each see 1 to 1
    assert held_out(pairs, [1, 2, 3], min_rejected=2, share=0.5) == {"rejected": 0, "accepted": 1}
    assert held_out(pairs, [1, 2, 3], min_rejected=1, share=0.5) == {"rejected": 2, "accepted": 1}
    assert fit(pairs, [1, 2, 3])["chosen"] is None  # no threshold of the grid (at least 2 rejected) refuses any


def test_the_fit_chooses_the_most_rejected_with_at_most_half_as_many_accepted():
    pairs = [_pair(s, "rejected", "school") for s in (1, 2, 3, 4)] + [_pair(4, "accepted", "school")]
    pairs += [_pair(s, "accepted", "partner") for s in (1, 2, 3, 4)]
    chosen = fit(pairs, [1, 2, 3, 4])["chosen"]
    assert (chosen["rejected"], chosen["accepted"]) == (4, 1)
