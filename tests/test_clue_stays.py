"""benchmarks/clue_stays.py: why the marks left in clue posts stayed, counted from local_dev.py's profile rows (the rows
here are made up; the generalizer's stages run for real, no fluency model is needed for a mark with no candidate)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from clue_stays import stays  # noqa: E402


def row(text: str, clue: bool, cues: list, unprotected: list) -> dict:
    return {"original": text, "rewrite": text, "clue": clue, "cues": cues, "unprotected": unprotected}


def test_only_the_marks_left_in_clue_posts_are_counted_by_the_stage_that_left_them():
    rows = [
        row("The croissant here is never as good as back home.", True, [["croissant", "pobp"]], ["croissant"]),
        row("I walked the dog in the rain.", True, [], []),
        row("The mat is on the floor.", False, [["mat", "income"]], ["mat"]),  # clue-free: not counted
    ]
    found = stays(rows, sample=10, seed=0)
    assert (found["clue_posts"], found["clue_posts_not_protected"], found["marks_stayed"]) == (2, 1, 1)
    assert found["withheld_posts_by_marks_stayed"] == {1: 1}
    assert found["sample"] == 1 and all(reason.startswith("no candidate") for reason in found["by_reason"])
    assert found["evidence_by_the_data"] == {"pobp": {"yes": 0, "no": 1}}
