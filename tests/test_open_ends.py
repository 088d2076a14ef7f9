"""benchmarks/open_ends.py and benchmarks/reader_replay.py: where the gate's clause-end words come from and how the
replay of the readers' pairs sorts them. The posts of the first test are FAKE (made up in the test); the replay test
reads the shipped verdicts of seed 23; the cause and summary tests say which of their texts are made up."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from open_ends import clause_end_shares  # noqa: E402
from reader_replay import edit_cause, judged_pairs, summary  # noqa: E402

from stealthflow.anonymize.gate import OPEN_ENDS  # noqa: E402
from stealthflow.resources import listed_words, resource_dir  # noqa: E402


def test_a_function_word_is_counted_at_a_clause_end_only_before_punctuation_or_the_end():
    shares = clause_end_shares(["I logged in, then went to the shop.", "Went in"])
    assert shares["in"] == (2, 2) and shares["to"] == (1, 0) and shares["the"] == (1, 0)
    assert "shop" not in shares  # a content word is not counted


def test_the_shipped_open_ends_are_words_that_need_one_after_them():
    words = listed_words(resource_dir("data") / OPEN_ENDS)
    assert {"the", "of", "when", "and"} <= words
    assert not {"me", "them", "though", "lol"} & words  # pronoun objects and chat words end clauses


def test_the_replay_sorts_pairs_by_the_readers_verdicts():
    pairs = judged_pairs([23])
    rejected, accepted = pairs["rejected"], pairs["accepted"]
    assert rejected and accepted
    assert all(any(not fluent for fluent, _ in p["verdicts"]) for p in rejected)
    assert all(len(p["verdicts"]) == 2 and all(all(v) for v in p["verdicts"]) for p in accepted)


def _cause(original: str, old: str, new: str = "") -> str:
    return edit_cause(original, old, new, original.index(old))


def test_the_replay_names_what_each_edit_does_by_the_parse():
    """Readers' rejected rewrites of seeds 13, 17 and a made-up adjunct (FAKE)."""
    flood = "Flood in Atyrau region, I drive through there last week with load. Water everywhere."
    assert _cause(flood, " in Atyrau region") == "dangling reference"
    assert _cause("Grew up in Torry, three streets from the harbour.", " in Torry") == "missing object"
    assert _cause("We met in Berlin last spring and married.", " in Berlin") == "dropped modifier"
    assert _cause("Fika is not a coffee break.", "Fika", "Coffee") == "stand-in"


def test_the_replay_counts_a_reported_pair_as_changed_and_not_printed():
    """FAKE rows: a rejected pair produced again but reported is changed or reported, not printed."""
    row = {"kind": "rejected", "original": "a b.", "rewrite": "a.", "today": "a.", "reported": 1}
    accepted = {"kind": "accepted", "original": "c d.", "rewrite": "c.", "today": "c.", "reported": 0}
    report = summary([row, accepted])
    assert report["rejected"] == {"pairs": 1, "still_produced": 1, "changed_or_reported": 1, "still_printed": 0}
    assert report["accepted"] == {"pairs": 1, "still_produced": 1, "changed_or_reported": 0, "still_printed": 1}
