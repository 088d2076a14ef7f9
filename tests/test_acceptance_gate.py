"""benchmarks/acceptance_gate.py: judged pairs turned into the gate's training items (the pairs and verdicts here
are FAKE: made up in the test, no reader's judgment)."""

import json
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "acceptance_gate.py"
sys.path.insert(0, str(SCRIPT.parent))

import numpy as np  # noqa: E402
from acceptance_gate import alone, judged, kept_threshold  # noqa: E402

ORIGINAL = "My boyfriend is from Cabra. The rent in Dublin is mad."
REWRITE = "My boyfriend is from my city. The rent is mad."


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def row(fluent: bool, note: str = "", rewrite: str = REWRITE) -> dict:
    return {"original": ORIGINAL, "rewrite": rewrite, "fluent": fluent, "faithful": True, "note": note}


def test_each_edit_is_applied_alone_to_its_sentence(tmp_path):
    items = judged([write(tmp_path / "fluency_reader_seed3.jsonl", [row(True)])])
    assert sorted((i["sentence"].strip(), i["edited"].strip(), i["accepted"]) for i in items) == [
        ("My boyfriend is from Cabra.", "My boyfriend is from my city.", 1.0),
        ("The rent in Dublin is mad.", "The rent is mad.", 1.0),
    ]
    assert {i["seed"] for i in items} == {3}


def test_a_second_reader_splits_the_label_and_a_repeated_pair_counts_once(tmp_path):
    first = write(tmp_path / "fluency_reader_seed4.jsonl", [row(True), row(True)])  # the same pair twice: one verdict
    second = write(tmp_path / "fluency_reader_seed4_second.jsonl", [row(False, "'my city' is vague")])
    items = judged([first, second])
    labels = {i["edited"].strip(): i["accepted"] for i in items}
    assert labels == {"My boyfriend is from my city.": 0.5, "The rent is mad.": 1.0}  # the note names one edit only


def test_an_edit_that_empties_its_sentence_or_only_inserts_is_left_out(tmp_path):
    rewrite = "The rent in Dublin is really mad."  # the first sentence dropped whole, a word put in the second
    items = judged([write(tmp_path / "fluency_reader_seed5.jsonl", [row(True, rewrite=rewrite)])])
    assert items == []


def test_alone_replaces_the_occurrence_at_its_place_only():
    assert alone("I moved to Leeds.", 11, "Leeds", "my city") == "I moved to my city."
    assert alone("Leeds, and then Leeds again.", 16, "Leeds", "my city") is None  # an earlier copy: not this edit


def test_the_one_edit_of_a_rejected_rewrite_is_rejected_whatever_the_note_names(tmp_path):
    one = "My boyfriend is from my city. The rent in Dublin is mad."
    rows = [row(False, "reads oddly", rewrite=one), row(False, "reads oddly")]  # the note names no edit
    path = write(tmp_path / "fluency_reader_seed6.jsonl", rows)
    items = judged([path], single_edits=True)
    assert [(i["edited"].strip(), i["accepted"]) for i in items] == [("My boyfriend is from my city.", 0.0)]
    assert judged([path]) == []  # by the notes alone, no edit is named


def test_a_pair_read_by_two_readers_in_one_line_counts_as_two_verdicts(tmp_path):
    arms = {
        "id": 0,
        "arms": ["A"],
        "original": ORIGINAL,
        "rewrite": REWRITE,
        "reader_1": {"fluent": True, "faithful": True, "note": "fine"},
        "reader_2": {"fluent": True, "faithful": False, "note": "'my city' hides that he is from elsewhere"},
    }
    items = judged([write(tmp_path / "rewrite_arms_seed16.jsonl", [arms, arms])])  # the line twice: still two
    found = {i["edited"].strip(): (i["accepted"], i["verdicts"]) for i in items}
    assert found == {"My boyfriend is from my city.": (0.5, 2), "The rent is mad.": (1.0, 1)}
    assert {i["seed"] for i in items} == {16}


def test_the_threshold_has_the_best_precision_among_those_accepting_enough():
    p = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    good = np.array([True, True, False, True, False, True])
    floors = np.array([True, True, True, True, True, False])  # the last clears no hard floor: never accepted
    assert kept_threshold(p, good, floors, 1) == 0.8  # 2 of 2 good (0.9 alone is as precise: the lower wins)
    assert kept_threshold(p, good, floors, 3) == 0.6  # at least 3 kept: 3 of 4 beats 2 of 3
    assert kept_threshold(p, good, floors, 5) == 0.4  # 5 kept only from 0.5 down; 0.4 adds a floored edit only
