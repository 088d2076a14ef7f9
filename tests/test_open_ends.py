"""benchmarks/open_ends.py and benchmarks/reader_replay.py: where the gate's clause-end words come from and how the
replay of the readers' pairs sorts them. The posts of the first test are FAKE (made up in the test); the replay test
reads the shipped verdicts of seed 23."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from open_ends import clause_end_shares  # noqa: E402
from reader_replay import judged_pairs  # noqa: E402

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
