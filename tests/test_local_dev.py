"""benchmarks/local_dev.py --stays: why each mark that stayed stayed (FAKE fluency scorer, gates and sentence vectors:
made up here, no model; the real run is benchmarks/local_dev.py itself)."""

import sys
from pathlib import Path

import numpy as np
import pytest
from gate_fakes import ScoreByTable, floors_gate

from stealthflow.anonymize.generalize import Generalizer
from stealthflow.anonymize.local import PostRewrite

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from local_dev import first_stay, outcomes, stay_table  # noqa: E402

TEXT = "Rent in Leeds keeps going up."


def near(texts):  # FAKE sentence vectors: every text the same, so every candidate clears the meaning floor
    return np.full((len(texts), 4), 0.5)


@pytest.mark.parametrize(
    ("score", "floor", "reason"),
    [
        (-9.0, 0.0, "gate probability under the threshold"),  # every edit reads badly
        (
            -2.0,
            -2.5,
            "a hard floor of gate.py",
        ),  # the gate passes "here" (0.62), its fluency is under the stand-in floor (-1.65)
        (0.8, 0.0, "accepted on replay"),
    ],
)
def test_the_first_stage_that_leaves_no_edit_is_the_reason(score, floor, reason):
    # the teacher's "in my city" (taught since sets d and e) reads a little worse than "here", so "here" is the best edit
    table = {"Rent here keeps going up.": score, "Rent in my city keeps going up.": score - 1.0}
    generalizer = Generalizer(ScoreByTable(table), floors_gate(floor), embed=near)
    row = first_stay(generalizer, TEXT, "in Leeds", "location", ["in Leeds"])
    assert row["reason"] == reason and row["gate_scored"]
    assert row["best"] == "here" and row["chance"] == round(1 / (1 + np.exp(-(score - floor))), 3)


def test_a_phrase_with_no_candidate_never_reaches_the_gate():
    generalizer = Generalizer(ScoreByTable({}), floors_gate(0.0), embed=near)
    row = first_stay(generalizer, "I bought a toaster yesterday.", "a toaster", "income", ["a toaster"])
    assert row["reason"].startswith("no candidate") and not row["gate_scored"] and row["chance"] is None
    assert first_stay(generalizer, TEXT, "in Paris", "location", []) is None  # not in the text


def test_the_table_counts_each_reason_and_the_best_chances_within_reach():
    rows = [
        {"reason": "a", "chance": 0.3, "gate_scored": True},
        {"reason": "a", "chance": 0.1, "gate_scored": True},
        {"reason": "b", "chance": None, "gate_scored": False},
    ]
    table = stay_table(rows, 0.25)
    assert table["by_reason"]["a"] == {"count": 2, "share": 0.667, "median_best_chance": 0.3}
    assert table["by_reason"]["b"] == {"count": 1, "share": 0.333}
    assert table["an_edit_reached_the_gate"] == 2 and table["best_chance_at_least"]["0.25"] == 1


def test_each_mark_ends_replaced_removed_or_stayed():
    """A made-up rewrite: "Leeds" took a stand-in, "ER nurse" left with nothing in its place, "my husband" stayed."""
    result = PostRewrite(
        text="Years at work and the rent here in my city keeps going up; my husband agrees.",
        changes=[
            {"phrase": "Leeds", "replacement": "my city", "attribute": "location", "by": "generalized"},
            {"phrase": "as an ER nurse", "replacement": "at work", "attribute": "occupation", "by": "generalized"},
            {"phrase": "Twelve", "replacement": "", "attribute": "age", "by": "generalized"},
        ],
        how="generalized",
        cues=[("Leeds", "location"), ("Twelve", "age"), ("ER nurse", "occupation"), ("my husband", "married")],
        unprotected=["my husband"],
    )
    table = outcomes([result])
    assert table["location"] == {"replaced": 1, "stayed_share": 0.0}
    assert table["age"] == {"removed": 1, "stayed_share": 0.0}
    assert table["occupation"] == {"replaced": 1, "stayed_share": 0.0}
    assert table["married"] == {"stayed": 1, "stayed_share": 1.0}
    assert table["all"] == {"replaced": 2, "removed": 1, "stayed": 1, "stayed_share": 0.25}
