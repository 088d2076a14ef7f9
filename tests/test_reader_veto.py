"""benchmarks/reader_veto.py: replayed pairs turned into labelled edits, and the veto's threshold (the pairs, verdicts
and chances here are FAKE: made up in the test, no reader's judgment)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import numpy as np  # noqa: E402
from reader_veto import labelled, veto_threshold  # noqa: E402

ORIGINAL = "My boyfriend is from Cabra. The rent in Dublin is mad."
REWRITE = "My boyfriend is from my city. The rent is mad."


def pair(verdicts, notes, today=REWRITE) -> dict:
    return {"seed": 29, "id": 1, "original": ORIGINAL, "rewrite": REWRITE, "today": today} | {
        "verdicts": verdicts,
        "notes": notes,
    }


def edits_of(items) -> list[tuple[str, str, float]]:
    return sorted((i["old"], i["new"], i["accepted"]) for i in items)


def test_a_post_both_readers_accepted_labels_each_edit_today_still_makes_accepted():
    items = labelled([pair([(True, True), (True, True)], ["fine", "fine"])])
    assert edits_of(items) == [("Cabra", "my city", 1.0), ("in Dublin", "", 1.0)]
    assert all(i["verdicts"] == 2 for i in items)
    today = "My boyfriend is from Cabra. The rent is mad."  # today's code keeps "Cabra": that edit has no label
    assert edits_of(labelled([pair([(True, True), (True, True)], ["", ""], today)])) == [("in Dublin", "", 1.0)]


def test_a_rejected_post_labels_the_edit_the_note_names_or_every_edit_when_none_is_named():
    named = labelled([pair([(True, True), (False, True)], ["fine", "'my city' reads wrong"])])
    assert edits_of(named) == [("Cabra", "my city", 0.0)]
    unclear = labelled([pair([(True, False), (True, True)], ["the point is lost", "fine"])])
    assert edits_of(unclear) == [("Cabra", "my city", 0.0), ("in Dublin", "", 0.0)]


def test_the_threshold_vetoes_at_least_two_rejected_edits_for_each_accepted_one():
    p = np.array([0.1, 0.2, 0.25, 0.3, 0.5, *[0.9] * 40])
    good = np.array([False, False, True, False, True, *[True] * 40])
    assert veto_threshold(p, good) == 0.5  # under 0.5: 3 rejected, 1 accepted (under 0.9: 3 rejected, 2 accepted)
    assert veto_threshold(np.array([0.1, 0.9]), np.array([True, False])) == 0.0  # no veto pays
