"""Per-type span thresholds chosen on validation: the best F1, and 0.5 (no span dropped) unless a
higher one gains enough."""

from __future__ import annotations

from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.training.data import Example
from stealthflow.pii_tagger.training.thresholds import MIN_GAIN, choose, marked


def _example(text: str, *spans) -> Example:
    return Example(text, list(spans), "t")


def test_a_threshold_that_drops_only_false_alarms_is_chosen_and_a_tie_keeps_the_lowest():
    examples = [_example("Anna Berg at Acme", (0, 9, "REAL_NAME"), (13, 17, "EMPLOYER")), _example("Oh well")]
    predictions = [
        [TaggedSpan(0, 9, "REAL_NAME", 0.9), TaggedSpan(13, 17, "EMPLOYER", 0.9)],
        [TaggedSpan(0, 2, "REAL_NAME", 0.62)],  # a false alarm, less sure than the true name
    ]
    chosen = choose(examples, predictions, ["REAL_NAME", "EMPLOYER"])
    assert chosen["REAL_NAME"]["threshold"] == 0.65 and chosen["REAL_NAME"]["f1"] == 1.0
    assert chosen["REAL_NAME"]["f1_lowest"] < 1.0 - MIN_GAIN
    assert chosen["EMPLOYER"]["threshold"] == 0.5  # every threshold up to 0.9 gives the same F1


def test_a_gain_smaller_than_the_margin_keeps_today_s_threshold():
    names = [_example(f"Name{i} here", (0, 5, "REAL_NAME")) for i in range(400)] + [_example("Oh well")]
    predictions = [[TaggedSpan(0, 5, "REAL_NAME", 0.9)] for _ in range(400)] + [[TaggedSpan(0, 2, "REAL_NAME", 0.6)]]
    chosen = choose(names, predictions, ["REAL_NAME"])
    assert chosen["REAL_NAME"]["threshold"] == 0.5  # F1 0.9988 -> 1.0 is noise, not a reason to drop spans


def test_natural_messages_join_the_choice_with_their_marked_values_of_the_taggers_types(tmp_path):
    """`tagger thresholds --also`: a natural message without PII counts against every span the tagger
    finds in it; a structured value marked for the whole detector (a phone) is no tagger label."""
    natural = tmp_path / "natural.txt"
    natural.write_text(
        "urlLink Pics from the lake &nbsp; lol\n[Anna Berg](REAL_NAME) ruft an: [0171 2345678](PHONE)\n",
        encoding="utf-8",
    )
    first, second = marked([natural])
    assert (first.text, first.spans) == ("urlLink Pics from the lake &nbsp; lol", [])
    assert (second.text, second.spans) == ("Anna Berg ruft an: 0171 2345678", [(0, 9, "REAL_NAME")])


def test_a_recall_budget_keeps_the_threshold_that_would_drop_true_values():
    """`tagger thresholds --max-recall-loss 0.02`: a threshold that gains F1 by dropping one of ten true
    names (recall 1.0 -> 0.9) does not compete; one that drops false alarms alone still does."""
    names = [_example(f"Name{i} here", (0, 5, "REAL_NAME")) for i in range(10)] + [_example("Oh well")] * 4
    unsure_true = [[TaggedSpan(0, 5, "REAL_NAME", 0.9 if i else 0.6)] for i in range(10)]
    false_alarms = [[TaggedSpan(0, 2, "REAL_NAME", 0.6)]] * 4
    assert choose(names, unsure_true + false_alarms, ["REAL_NAME"])["REAL_NAME"]["threshold"] == 0.65
    budget = choose(names, unsure_true + false_alarms, ["REAL_NAME"], max_recall_loss=0.02)["REAL_NAME"]
    assert (budget["threshold"], budget["recall"]) == (0.5, 1.0)
    sure_true = [[TaggedSpan(0, 5, "REAL_NAME", 0.9)] for _ in range(10)]
    assert (
        choose(names, sure_true + false_alarms, ["REAL_NAME"], max_recall_loss=0.02)["REAL_NAME"]["threshold"] == 0.65
    )
    assert choose([_example("Oh well")], [[]], ["CREDENTIAL"], max_recall_loss=0.02)["CREDENTIAL"]["threshold"] == 0.5
