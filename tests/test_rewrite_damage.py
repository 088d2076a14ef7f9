"""benchmarks/rewrite_damage.py: which judged rewrites drop a whole sentence, which removals leave a fragment or take a
clause, and which judged rewrites a replay still prints as protected (the pairs and verdicts here are made up: no real judgment)."""

import json
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "rewrite_damage.py"
sys.path.insert(0, str(SCRIPT.parent))

from rewrite_damage import dropped_sentences, fragments, sentence_drops, still_protected  # noqa: E402

POST = "Household income around 240k. 529s are at 60 percent of target, should we catch up?"


def test_a_sentence_is_dropped_only_when_none_of_its_words_is_kept():
    assert dropped_sentences(POST, "Household income around 240k.") == [
        "529s are at 60 percent of target, should we catch up?"
    ]
    assert dropped_sentences(POST, "Household income is fine. 529s are behind target, should we catch up?") == []


def test_drops_and_fragments_are_counted_by_verdict():
    rows = [
        (
            "seeds 2-7",
            {"original": POST, "rewrite": "Household income around 240k.", "fluent": True, "faithful": False},
        ),
        ("seeds 2-7", {"original": POST, "rewrite": POST.replace("240k", "a lot"), "fluent": True, "faithful": True}),
    ]
    assert sentence_drops(rows) == {
        "seeds 2-7, drops a sentence": {"fluent only": 1},
        "seeds 2-7, drops none": {"fluent+faithful": 1},
    }
    broken = {"original": "Respect to BMRCL for that.", "rewrite": "Respect to for that.", "fluent": False}
    whole = {"original": "Rent in Leeds keeps going up.", "rewrite": "Rent keeps going up.", "fluent": True}
    found = fragments([("seeds 8-10", dict(broken, faithful=True, note="without BMRCL it is broken"))])
    assert found["fragment"] == {"edit rejected": 1, "post faithful only": 1} and found["stands"] == {}
    found = fragments([("seeds 8-10", dict(whole, faithful=True, note=""))])
    assert found["stands"] == {"edit accepted": 1, "post fluent+faithful": 1} and found["fragment"] == {}
    kayak = {"original": "Turned 50 on Monday and my kids got me a kayak.", "rewrite": "Turned 50 on Monday."}
    found = fragments([("seeds 8-10", dict(kayak, fluent=True, faithful=False, note=""))])
    assert found["clause"] == {"edit not counted": 1, "post fluent only": 1} and found["stands"] == {}


def test_a_judged_rewrite_is_still_protected_only_when_the_replay_prints_it_unchanged_with_no_mark_left(tmp_path):
    row = {"original": POST, "rewrite": "Household income around 240k.", "fluent": True, "faithful": False}
    replay = tmp_path / "replay.jsonl"
    for rewrite, unprotected, outcome in [
        (row["rewrite"], [], "same rewrite, protected"),
        (POST.replace("240k", "a lot"), [], "other rewrite, protected"),
        (POST, ["240k"], "not protected"),
    ]:
        replay.write_text(json.dumps({"original": POST, "rewrite": rewrite, "unprotected": unprotected}) + "\n")
        assert still_protected([("seeds 8-10", row)], replay) == {"fluent only": {outcome: 1}}
