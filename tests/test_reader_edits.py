"""benchmarks/reader_edits.py: a blind reader's judged pair split into labelled edits, and which of them a rewrite
of the same original still makes (the pairs here are made up: no real judgment)."""

import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "reader_edits.py"
sys.path.insert(0, str(SCRIPT.parent))

from reader_edits import edits, judged_edits, still_made  # noqa: E402

ORIGINAL = "My boyfriend is from Cabra and the rent in Dublin is mad."
REWRITE = "Someone is from the place I grew up and the rent is mad."


def test_a_pair_splits_into_its_word_level_edits():
    found = [(e.old, e.new) for e in edits(ORIGINAL, REWRITE)]
    assert found == [("My boyfriend", "Someone"), ("Cabra", "the place I grew up"), ("in Dublin", "")]
    assert all(ORIGINAL[e.start : e.start + len(e.old)] == e.old for e in edits(ORIGINAL, REWRITE))


def test_an_edit_is_rejected_only_when_the_note_names_it_and_accepted_only_in_a_post_judged_fluent_and_faithful():
    rejected = {"original": ORIGINAL, "rewrite": REWRITE, "fluent": False, "faithful": False}
    rejected["note"] = "'Someone is from the place I grew up' invents the author's hometown"
    labels = {(e.old, e.label) for e in judged_edits([rejected])}
    assert labels == {("My boyfriend", "rejected"), ("Cabra", "rejected")}  # "in Dublin" is not named: not counted
    accepted = dict(rejected, fluent=True, faithful=True)
    assert {e.label for e in judged_edits([accepted])} == {"accepted"} and len(judged_edits([accepted])) == 3


def test_still_made_counts_the_judged_edits_a_new_rewrite_repeats():
    row = {"original": ORIGINAL, "rewrite": REWRITE, "fluent": False, "faithful": True, "note": "'Someone' is odd"}
    judged = judged_edits([row])
    assert still_made(judged, {ORIGINAL: REWRITE}) == {"rejected": 1.0, "accepted": 0.0}
    assert still_made(judged, {ORIGINAL: "My boyfriend is from home and the rent is mad."})["rejected"] == 0.0
