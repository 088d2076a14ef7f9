"""Insight memory: operation parser, scoring, persistence, contrastive pairs, learner (FAKE LLM)."""

import pytest
from fakes import fake_llm

from stealthflow.attack import AttributeGuess
from stealthflow.insights import (
    InsightLearner,
    InsightMemory,
    Operation,
    attacker_beaten,
    contrastive_pairs,
    first_success,
    parse_operations,
)
from stealthflow.workflow.config import InsightConfig
from stealthflow.workflow.trajectory import AnonymizerTurn, AttackRecord, RoundRecord


def test_parser_copes_with_markdown_brackets_and_numbering():
    raw = """Here are my operations:
1. **ADD**: Replace exact ages with a life stage.
2. EDIT [2]: Name the region instead of the city.
- UPVOTE<3>
**DOWNVOTE #1**
ADD - "Drop brand names of workplaces."
"""
    assert parse_operations(raw) == [
        Operation("ADD", None, "Replace exact ages with a life stage."),
        Operation("EDIT", 2, "Name the region instead of the city."),
        Operation("UPVOTE", 3),
        Operation("DOWNVOTE", 1),
    ]  # at most 4: the fifth is cut


def test_parser_drops_invalid_operations_and_prose():
    raw = "UPVOTE: great rule\nEDIT: no number\nADD:\nI think we should ADD more rules.\nREMOVE 2\nDOWNVOTE 2: too specific"
    assert parse_operations(raw) == [Operation("DOWNVOTE", 2)]
    assert parse_operations("") == [] and parse_operations("nonsense") == []


def _memory(**rules: list[tuple[str, int]]) -> InsightMemory:
    return InsightMemory.model_validate(
        {"rules": {a: [{"text": t, "score": s} for t, s in rs] for a, rs in rules.items()}}
    )


def test_scores_follow_add_edit_upvote_downvote():
    memory = _memory(age=[("old rule", 3), ("weak rule", 1)])
    ops = [Operation("ADD", rule="new rule"), Operation("EDIT", 1, "better rule"), Operation("DOWNVOTE", 2)]
    updated = memory.apply({"age": [ops]})
    assert [(r.text, r.score) for r in updated.rules["age"]] == [
        ("better rule", 4),
        ("new rule", 2),
    ]  # weak rule hit 0: dropped
    assert updated.version == 1 and memory.rules["age"][0].text == "old rule"  # the old version is untouched
    upvoted = updated.apply({"age": [[Operation("UPVOTE", 2)]]})
    assert [(r.text, r.score) for r in upvoted.rules["age"]] == [("better rule", 4), ("new rule", 3)]


def test_scores_are_capped_and_new_rules_can_enter_a_full_memory():
    memory = _memory(age=[(f"rule {i}", 10) for i in range(5)])
    capped = memory.apply({"age": [[Operation("UPVOTE", 1)] * 3]})
    assert max(r.score for r in capped.rules["age"]) == 10
    # Capped at 10, even the most upvoted rule is voted out by 10 downvotes (uncapped it never would be).
    worn = capped
    for _ in range(10):
        worn = worn.apply({"age": [[Operation("DOWNVOTE", 5)]]})
    assert "rule 4" not in worn.rules_for("age")
    full = _memory(age=[(f"rule {i}", 2) for i in range(5)])
    entered = full.apply({"age": [[Operation("ADD", rule="fresh rule")]]})
    assert len(entered.rules["age"]) == 5 and "fresh rule" in entered.rules_for("age")  # newer wins a tie


def test_rule_numbers_refer_to_the_memory_each_call_was_shown():
    memory = _memory(age=[("a", 2), ("b", 2)])
    # Two parallel calls: the first drops rule 1, the second upvotes rule 2 of the same listing.
    calls = [[Operation("DOWNVOTE", 1), Operation("DOWNVOTE", 1)], [Operation("UPVOTE", 2), Operation("EDIT", 7, "x")]]
    updated = memory.apply({"age": calls})
    assert [(r.text, r.score) for r in updated.rules["age"]] == [("b", 3)]
    outcomes = [op.outcome for op in updated.history[-1].operations]
    assert outcomes == ["applied", "applied", "applied", "unknown rule"]


def test_an_update_proposed_against_an_older_version_applies_to_the_newest():
    # Pipelined runs: batch 2's calls were shown version 0 while batch 1's update made version 1.
    shown = _memory(age=[("a", 2), ("b", 2)])
    newest = shown.apply({"age": [[Operation("ADD", rule="c"), Operation("DOWNVOTE", 1), Operation("DOWNVOTE", 1)]]})
    updated = newest.apply({"age": [[Operation("UPVOTE", 2), Operation("UPVOTE", 1)]]}, shown=shown)
    # "2" is b as shown; "1" is a as shown, dropped since (in the newest listing "1" is c): no vote.
    assert [(r.text, r.score) for r in updated.rules["age"]] == [("b", 3), ("c", 2)]
    assert [op.outcome for op in updated.history[-1].operations] == ["applied", "unknown rule"]
    assert updated.version == 2 and updated.rules_for("age") == ["b", "c"]


def test_save_load_keeps_history_and_rolls_back(tmp_path):
    memory = InsightMemory().with_snapshot()
    v1 = memory.apply({"age": [[Operation("ADD", rule="r1")]]}, note="batch 1")
    v2 = v1.apply({"age": [[Operation("ADD", rule="r2")]]}, note="batch 2")
    path = tmp_path / "insights.json"
    v2.save(path)
    loaded = InsightMemory.load(path)
    assert loaded == v2 and [h.note for h in loaded.history] == ["start", "batch 1", "batch 2"]
    assert loaded.at_version(1).rules_for("age") == ["r1"]
    assert loaded.at_version(0).rules == {}
    with pytest.raises(ValueError):
        loaded.at_version(7)
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="bad.json"):
        InsightMemory.load(tmp_path / "bad.json")


def test_protection_needs_wrong_top1_and_no_better_top3():
    guess = AttributeGuess(attribute="age", guesses=["40", "34"])
    assert attacker_beaten(guess, ["no", "yes"], ["yes", "no"])
    assert not attacker_beaten(guess, ["no", "yes"], ["no", "no"])  # top-3 got better than round 0
    assert not attacker_beaten(guess, ["yes"], ["yes"])
    assert attacker_beaten(guess, ["no", "no"], ["no", "no"])  # "no better": equal counts
    assert not attacker_beaten(AttributeGuess(attribute="age"), [], ["yes"])  # an empty answer is no win


def test_contrastive_pairs_and_successes():
    assert contrastive_pairs([False, False, True, False, False, True]) == [(1, 2), (3, 5), (4, 5)]
    assert contrastive_pairs([False, False, False]) == []
    assert first_success([False, True, True]) == 1
    assert first_success([True, True]) is None  # never exposed: nothing learned


def _round(k: int, text: str, protected: bool, guess: str) -> RoundRecord:
    turn = AnonymizerTurn(
        prompt_id="anonymizer",
        messages=[],
        raw="",
        explanation=f"edit {k}",
        parsed=True,
        utility_warning=False,
        model="m",
    )
    attack = AttackRecord(attacker="llm", model="m", guesses={"age": AttributeGuess(attribute="age", guesses=[guess])})
    return RoundRecord(
        run_id="r",
        profile_id="p",
        round=k,
        text=text,
        anonymizer=turn if k else None,
        attacks=[attack],
        protected={"age": protected},
    )


def test_learner_makes_one_call_per_pair_and_applies_the_operations():
    seen = []

    def responder(messages):
        seen.append(messages[-1]["content"])
        return "ADD: Say 'a while ago' instead of dates.\nUPVOTE 1"

    trajectory = [
        _round(0, "text zero", False, "34"),
        _round(1, "text one", False, "34"),
        _round(2, "text two", True, "60"),
    ]
    memory = _memory(age=[("existing", 2)])
    updated = InsightLearner(fake_llm(responder), InsightConfig()).update(memory, [trajectory])
    assert len(seen) == 1
    assert "text one" in seen[0] and "text two" in seen[0] and "1. existing (score 2)" in seen[0]
    assert [(r.text, r.score) for r in updated.rules["age"]] == [
        ("existing", 3),
        ("Say 'a while ago' instead of dates.", 2),
    ]


def test_learner_falls_back_to_successes_and_skips_attributes_with_nothing_to_learn():
    seen = []

    def responder(messages):
        seen.append(messages[-1]["content"])
        return "no operations, sorry"

    exposed_then_hidden = [_round(0, "orig A", False, "34"), _round(1, "hidden A", True, "60")]
    never_exposed = [_round(0, "orig B", True, "60"), _round(1, "still B", True, "60")]
    updated = InsightLearner(fake_llm(responder)).update(InsightMemory(), [exposed_then_hidden, never_exposed])
    assert len(seen) == 1 and "orig A" in seen[0] and "hidden A" in seen[0] and "orig B" not in seen[0]
    assert updated.rules == {} and updated.version == 1


def test_the_agentstealth_memory_converts_onto_the_bounded_scale_and_is_stealths_default(tmp_path):
    from stealthflow.insights.agentstealth import convert, shipped_memory_path
    from stealthflow.workflow.methods import frozen_memory

    reference = {
        "age": {"insights": ["<Remove life-stage terms.>", "<Drop dates.>", "Keep tone."], "scores": [100, 50, 2]}
    }
    memory = convert(reference)
    assert [(r.text, r.score) for r in memory.rules["age"]] == [
        ("Remove life-stage terms.", 10),
        ("Drop dates.", 5),
        ("Keep tone.", 1),
    ]
    shipped = frozen_memory(None)
    assert shipped == InsightMemory.load(shipped_memory_path())
    assert set(shipped.rules) == {"age", "gender", "education", "occupation", "income", "married", "location", "pobp"}
    assert all(
        1 <= r.score <= shipped.score_cap and not r.text.startswith("<")
        for rules in shipped.rules.values()
        for r in rules
    )
    assert frozen_memory("none").rules == {}
