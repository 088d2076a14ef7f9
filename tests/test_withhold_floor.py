"""benchmarks/withhold_floor.py: which posts a calibration of the decision to withhold would print, and the greedy
choice of its floors (the rows here are made up, as benchmarks/withhold_rows.py writes them)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from withhold_floor import choose, figures, withheld  # noqa: E402


def row(author: str, clue: bool, stayed: list[tuple[str, float]], changed: bool = False, unread=()) -> dict:
    return {
        "set": "s",
        "author": author,
        "clue": clue,
        "changed": changed,
        "unread": list(unread),
        "stayed": [{"phrase": "p", "attribute": a, "confidence": c, "evidence": False} for a, c in stayed],
    }


def test_a_post_is_withheld_when_unread_when_several_stayed_or_one_reaches_its_floor():
    floors = {"location": 0.6}
    assert not withheld(row("a", False, []), floors)
    assert withheld(row("a", False, [], unread=["es"]), floors)  # another language: withheld whatever the floors
    assert not withheld(row("a", False, [("location", 0.5)]), floors)
    assert withheld(row("a", False, [("location", 0.6)]), floors)
    assert withheld(row("a", False, [("age", 0.1)]), floors)  # no floor for age: any score withholds
    assert withheld(row("a", False, [("", 0.1)]), floors)  # no attribute (a value)
    assert withheld(row("a", False, [("location", 0.0)]), floors)  # scored 0: not found in the post
    assert not withheld(row("a", False, [("location", 0.5), ("location", 0.5)]), floors)
    assert withheld(row("a", False, [("location", 0.5), ("location", 0.5)]), floors, several=2)


def test_figures_count_clue_posts_changed_as_protected_and_authors_with_every_post_withheld():
    rows = [
        row("a", False, [("location", 0.4)]),
        row("a", True, [("location", 0.9)]),
        row("b", True, [("location", 0.4)], changed=True),
        row("b", False, []),
    ]
    main = figures(rows, {})
    assert (main["clue_free_withheld"], main["clue_withheld"], main["authors_all_withheld"]) == (0.5, 1.0, 1)
    at = figures(rows, {"location": 0.5})
    assert (at["clue_free_withheld"], at["clue_withheld"], at["clue_withheld_or_changed"]) == (0.0, 0.5, 1.0)
    assert at["authors_all_withheld"] == 0


def test_the_choice_raises_a_floor_only_within_the_budget_of_clue_posts_given_up():
    free = [row(f"f{i}", False, [("location", 0.4)]) for i in range(9)] + [row("f9", False, [("location", 0.5)])]
    weak_clue = [row("c", True, [("location", 0.45)])]  # printed as written once the floor passes 0.45
    sure_clue = [row(f"s{i}", True, [("location", 0.9)]) for i in range(9)]
    rows = free + weak_clue + sure_clue
    floors, path = choose(rows, budget=0.0, several=None)
    assert floors == {"location": 0.45} and path[-1]["clue_withheld_or_changed"] == 1.0  # frees 9, keeps the clue
    floors, path = choose(rows, budget=10.0, several=None)  # one clue post of 10 may go: the last clue-free is freed
    assert floors == {"location": 0.55} and path[-1]["clue_free_withheld"] == 0.0


def test_the_rows_give_each_phrase_that_stayed_the_real_taggers_confidence_and_the_datas_verdict():
    """benchmarks/withhold_rows.py with the shipped cue tagger (no rewrite: the phrase that stayed is given)."""
    from withhold_rows import stayed_rows

    from stealthflow.anonymize.cues import load_cue_tagger

    post = "Rent in Leeds keeps going up."
    (found,) = stayed_rows(load_cue_tagger(), post, [("Leeds", "location")], ["Leeds"])
    assert found["attribute"] == "location" and 0.3 <= found["confidence"] <= 1.0
    assert found["evidence"] is True  # a place name is evidence of a location by the data (`gives_away`)
    (absent,) = stayed_rows(load_cue_tagger(), post, [("Leeds", "location")], ["Paris"])
    assert absent["confidence"] == 0.0 and absent["evidence"] is False
