"""benchmarks/open_ends.py and benchmarks/reader_replay.py: where the gate's clause-end words come from and how the
replay of the readers' pairs sorts them. The posts of the first test are FAKE (made up in the test); the replay test
reads the shipped verdicts of seed 23; the cause and summary tests say which of their texts are made up."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from open_ends import clause_end_shares  # noqa: E402
from reader_edits import edits  # noqa: E402
from reader_replay import edit_cause, edit_summary, judged_pairs, names_edit, reject_causes, summary  # noqa: E402

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


def test_with_unfaithful_a_pair_judged_fluent_but_not_faithful_is_rejected_too():
    fluent_only = [p for p in judged_pairs([53], unfaithful=True)["rejected"] if all(f for f, _ in p["verdicts"])]
    assert fluent_only and not [p for p in judged_pairs([53])["rejected"] if all(f for f, _ in p["verdicts"])]


def _cause(original: str, old: str, new: str = "") -> str:
    return edit_cause(original, old, new, original.index(old))


def test_the_replay_names_what_each_edit_does_by_the_parse():
    """Readers' rejected rewrites of seeds 13, 17 and a made-up adjunct (FAKE)."""
    flood = "Flood in Atyrau region, I drive through there last week with load. Water everywhere."
    assert _cause(flood, " in Atyrau region") == "dangling reference"
    assert _cause("Grew up in Torry, three streets from the harbour.", " in Torry") == "missing object"
    assert _cause("We met in Berlin last spring and married.", " in Berlin") == "dropped modifier"
    assert _cause("Fika is not a coffee break.", "Fika", "Coffee") == "stand-in"
    # seeds 51 and 53: the words before a noun that stays, shown as a removal or as the noun capitalised
    assert (
        _cause("Printed boarding passes. I don't trust my phone.", "Printed boarding passes", "Passes") == "bare head"
    )
    assert _cause("Rent is $2800 for a one bedroom.", "one") == "bare head"


def test_the_replay_counts_a_reported_pair_as_changed_and_not_printed():
    """FAKE rows: a rejected pair produced again but reported is changed or reported, not printed."""
    row = {"kind": "rejected", "original": "a b.", "rewrite": "a.", "today": "a.", "reported": 1}
    accepted = {"kind": "accepted", "original": "c d.", "rewrite": "c.", "today": "c.", "reported": 0}
    report = summary([row, accepted])
    assert report["rejected"] == {"pairs": 1, "still_produced": 1, "changed_or_reported": 1, "still_printed": 0}
    assert report["accepted"] == {"pairs": 1, "still_produced": 1, "changed_or_reported": 0, "still_printed": 1}


def _row(original: str, rewrite: str, today: str, verdicts: list, notes: list) -> dict:
    return {"kind": "rejected", "seed": 0, "id": 0, "original": original, "rewrite": rewrite, "today": today,
            "reported": 0, "verdicts": verdicts, "notes": notes}  # fmt: skip


def test_a_note_names_an_edit_by_its_words_or_by_the_stretch_of_the_rewrite_around_it():
    """FAKE notes in the form of seed 53's: "'24 and living.' dangles" names the removal before the full stop."""
    original, rewrite = "No money. 24 and living with my parents in Madina.", "No money. 24 and living."
    (edit,) = edits(original, rewrite)
    assert names_edit({"fluent": False, "faithful": False, "note": "'24 and living.' dangles"}, edit, rewrite)
    assert not names_edit({"fluent": False, "faithful": False, "note": "'No money.' is odd"}, edit, rewrite)
    assert not names_edit({"fluent": True, "faithful": True, "note": "'24 and living.' fine"}, edit, rewrite)


def test_rejected_edits_are_sorted_by_cause_and_counted_when_still_made():
    """FAKE rows: a named removal still made, and one today's code no longer makes."""
    row = _row("No money. 24 and living with my parents in Madina.", "No money. 24 and living.",
               "No money. 24 and living.", [(False, False), (False, True)], ["'24 and living.' dangles", "fragment"])  # fmt: skip
    gone = _row("Printed boarding passes. I print them.", "Passes. I print them.", "Printed boarding passes. I print them.",
                [(False, False)], ["'Passes.' fragment"])  # fmt: skip
    causes = reject_causes([row, gone])
    assert sum(c["edits"] for c in causes.values()) == 2 and sum(c["still_made"] for c in causes.values()) == 1
    assert causes["bare head"] == {**causes["bare head"], "edits": 1, "verdicts": 1, "still_made": 0}
    # by `reader_edits.label` only the note quoting the new words names an edit: "Passes", no longer made
    assert edit_summary([row, gone])["rejected"] == {"edits": 1, "still_made": 0, "not_made": 1}
