"""benchmarks/rewrite_changes.py: two local_dev.py profile-row files of the same posts compared (the rows here are made
up)."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from rewrite_changes import compare, markdown  # noqa: E402


def row(original: str, rewrite: str, clue: bool, unprotected: list) -> dict:
    return {"original": original, "rewrite": rewrite, "clue": clue, "unprotected": unprotected}


def test_the_posts_a_change_altered_are_counted_with_what_became_protected():
    before = [
        row("With the kids today.", "With the kids today.", True, ["With the kids"]),
        row("I left Kabul in 1996.", "I left Kabul in 1996.", True, ["Kabul"]),
        row("Nice day.", "Nice day.", False, []),
        row("Love my mat.", "Love my rug.", False, []),
    ]
    after = [
        row("With the kids today.", "With the family today.", True, []),
        row("I left Kabul in 1996.", "I left the city in 1996.", True, []),
        row("Nice day.", "Nice day.", False, []),
        row("Love my mat.", "Love my mat.", False, ["mat"]),
    ]
    found = compare(before, after)
    assert (found["altered"], found["altered_clue_free"]) == (3, 1)
    assert found["not_protected"] == [2, 1] and (found["newly_protected"], found["newly_not_protected"]) == (2, 1)
    assert found["clue_free_changed"] == [0.5, 0.0]
    text = markdown(found, list(zip(before, after))[:1], "t")
    assert "before: With the kids today. (stayed: With the kids)" in text and "after: With the family today." in text


def test_rows_of_other_posts_are_refused():
    with pytest.raises(SystemExit):
        compare([row("a", "a", True, [])], [row("b", "b", True, [])])
