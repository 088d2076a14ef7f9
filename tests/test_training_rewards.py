"""The GRPO reward's edge cases, with a FAKE attacker whose answers are scripted per text."""

import json

import pytest

from stealthflow.attack.types import AttackResult, AttributeGuess
from stealthflow.training.rewards import AnonymizationReward

SOURCE = "I just turned 34 and my wife and I moved to Zurich for my banking job."
REWRITE = "I recently moved to a new city for work."
LABELS = {"age": "34", "married": "married"}


class ScriptedAttacker:
    """FAKE attacker: returns the given top-1 guesses for every text it is shown."""

    name = "fake"

    def __init__(self, top1: dict[str, str | None]):
        self.top1 = top1
        self.seen: list[str] = []

    def attack_many(self, texts, attributes):
        self.seen += texts
        return [
            AttackResult(
                attacker="fake",
                guesses={a: AttributeGuess(attribute=a, guesses=[g] if (g := self.top1.get(a)) else []) for a in attrs},
            )
            for attrs in attributes
        ]


def answer(text: str) -> list[dict]:
    return [{"role": "assistant", "content": f"I remove the age and the marriage.\n#\n{text}"}]


def rewards(attacker, completions, reward_lambda=0.5, **kwargs):
    reward = AnonymizationReward(attacker, reward_lambda, **kwargs)
    labels = [[{"attribute": a, "estimate": e} for a, e in LABELS.items()]] * len(completions)
    return reward(
        prompts=[None] * len(completions),
        completions=completions,
        labels=labels,
        source_text=[SOURCE] * len(completions),
    )


def utility_of(text: str) -> float:
    from stealthflow.utility import lexical_utility

    return lexical_utility(SOURCE, text).mean


@pytest.mark.parametrize(
    "garbled", ["", "   ", "Sure! Here is my answer without a separator.", [{"role": "assistant", "content": ""}]]
)
def test_garbled_or_empty_completion_earns_zero_and_is_not_attacked(garbled):
    attacker = ScriptedAttacker({"age": "50", "married": "single"})
    assert rewards(attacker, [garbled]) == [0.0]
    assert attacker.seen == []


def test_identical_copy_gets_utility_but_no_privacy_credit():
    attacker = ScriptedAttacker({"age": "50", "married": "single"})  # would be fooled, but is never asked
    [reward] = rewards(attacker, [answer(" ".join(SOURCE.split()) + "\n")])
    assert reward == pytest.approx(0.5 * 0 + 0.5 * 1.0)
    assert attacker.seen == []


def test_attacker_wrong_on_every_attribute_gives_full_anonymity():
    [reward] = rewards(ScriptedAttacker({"age": "60", "married": "single"}), [answer(REWRITE)])
    assert reward == pytest.approx(0.5 * 1.0 + 0.5 * utility_of(REWRITE))


def test_attacker_right_on_every_attribute_gives_no_anonymity():
    [reward] = rewards(ScriptedAttacker({"age": "35", "married": "Married"}), [answer(REWRITE)])
    assert reward == pytest.approx(0.5 * utility_of(REWRITE))


def test_half_right_and_lambda_weighting():
    [reward] = rewards(ScriptedAttacker({"age": "34", "married": "single"}), [answer(REWRITE)], reward_lambda=0.8)
    assert reward == pytest.approx(0.8 * 0.5 + 0.2 * utility_of(REWRITE))


def test_a_missing_attacker_guess_is_not_a_privacy_win():
    # no guess at all: nothing is known about privacy -> anonymity 0
    [reward] = rewards(ScriptedAttacker({}), [answer(REWRITE)])
    assert reward == pytest.approx(0.5 * utility_of(REWRITE))
    # one attribute unanswered, the other guessed wrong: the answered one decides (1/1)
    [reward] = rewards(ScriptedAttacker({"age": "60"}), [answer(REWRITE)])
    assert reward == pytest.approx(0.5 + 0.5 * utility_of(REWRITE))


def test_rewards_are_logged_per_step(tmp_path):
    log = tmp_path / "rewards.jsonl"
    attacker = ScriptedAttacker({"age": "35", "married": "single"})
    reward = AnonymizationReward(attacker, 0.5, log_path=log)
    reward.step = 7
    labels = [[{"attribute": a, "estimate": e} for a, e in LABELS.items()]] * 3
    values = reward(None, [answer(REWRITE), answer(SOURCE), ""], labels=labels, source_text=[SOURCE] * 3)
    [record] = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["step"] == 7 and record["completions"] == 3
    assert record["reward_mean"] == pytest.approx(sum(values) / 3)
    assert record["attacker_accuracy"] == pytest.approx(0.5)  # only the rewrite was attacked: 1 of 2 right
    assert record["parsed_share"] == pytest.approx(2 / 3) and record["copied_share"] == pytest.approx(1 / 3)


def test_a_rewrite_that_keeps_almost_nothing_is_garbled_and_earns_zero_unattacked(tmp_path):
    attacker = ScriptedAttacker({"age": "60", "married": "single"})  # would be fooled by anything
    noise = "Haha #CityLiving #BirdFriendly"
    assert utility_of(noise) < 0.1 <= utility_of(REWRITE)
    log = tmp_path / "rewards.jsonl"
    reward = AnonymizationReward(attacker, 0.5, log_path=log)
    labels = [[{"attribute": a, "estimate": e} for a, e in LABELS.items()]] * 2
    values = reward(None, [answer(noise), answer(REWRITE)], labels=labels, source_text=[SOURCE] * 2)
    assert values == [0.0, pytest.approx(0.5 + 0.5 * utility_of(REWRITE))]
    assert attacker.seen == [REWRITE]
    [record] = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["garbled_share"] == 0.5 and record["parsed_share"] == 1.0
    # the floor is a setting: at 0 the noise is attacked and paid for fooling the attacker
    [paid] = rewards(ScriptedAttacker({"age": "60", "married": "single"}), [answer(noise)], min_utility=0.0)
    assert paid == pytest.approx(0.5)


def test_reward_trend_compares_the_first_and_last_quarter_with_a_ci():
    from stealthflow.training.grpo import reward_trend

    rising = [{"step": k, "reward_mean": 0.2 + 0.01 * k + (0.02 if k % 2 else 0)} for k in range(1, 41)]
    trend = reward_trend(rising + rising[-1:])  # a step logged twice (resumed run) counts once
    assert trend["steps"] == 40 and trend["last_quarter_mean"] > trend["first_quarter_mean"]
    assert trend["difference_ci"][0] > 0
    assert reward_trend(rising[:5]) is None  # too few steps for two quarters


# --- the dual model's per-post reward: its own attack half on the rewrite ---------------------------------


class ScriptedFluency:
    """FAKE fluency scorer: the given score for every rewrite it is shown (the real one is utility/fluency.py)."""

    def __init__(self, score: float):
        self.score = score
        self.seen: list[tuple[str, str]] = []

    def compare(self, originals, rewrites):
        from stealthflow.utility.fluency import Fluency

        self.seen += list(zip(originals, rewrites))
        return [Fluency(self.score, self.score) for _ in rewrites]


class ScriptedChoices:
    """FAKE choice attacker: for every text, `truth_p[attribute]` on the true option of LABELS, the rest spread
    evenly over the other options; records the texts and attributes it was asked about."""

    def __init__(self, truth_p: dict[str, float]):
        self.truth_p = truth_p
        self.seen: list[str] = []
        self.asked: list[list[str]] = []

    def choose_many(self, texts, attributes):
        from stealthflow.attack.choice import Choice
        from stealthflow.attack.classifier import classes_for, normalise_label

        self.seen += texts
        self.asked += [list(a) for a in attributes]
        out = []
        for attrs in attributes:
            choices = {}
            for a in attrs:
                options, truth, p = classes_for(a), normalise_label(a, LABELS[a]), self.truth_p[a]
                rest = (1 - p) / (len(options) - 1)
                choices[a] = Choice(a, options, tuple(p if o == truth else rest for o in options))
            out.append(choices)
        return out


POST = "Twelve years as an ER nurse and I just turned 34 and my wife and I moved to Zurich."
POST_REWRITE = "Years in my job, and with a birthday behind me, we moved to a new city."


def self_attack(attacker, completions, fluency=0.0, attributes=("age", "married"), evidence=("34", "my wife"), **kw):
    from stealthflow.training.rewards import SelfAttackReward

    reward = SelfAttackReward(attacker, kw.pop("scorer", None) or ScriptedFluency(fluency), **kw)
    n = len(completions)
    return reward(
        prompts=[None] * n,
        completions=completions,
        source_text=[POST] * n,
        evidence=[list(evidence)] * n,
        evidence_attributes=[list(attributes)] * n,
        labels=[[{"attribute": a, "estimate": e} for a, e in LABELS.items()]] * n,
    )


def post_utility(text: str, credit: float) -> float:
    from stealthflow.utility import lexical_utility

    return 0.5 * lexical_utility(POST, text).mean + 0.5 * credit


def test_self_attack_privacy_is_one_minus_the_probability_of_the_true_option():
    # every evidence phrase gone (1.0); p(true) 0.2 on age, 0.4 on married: self-anonymity (0.8 + 0.6) / 2
    attacker = ScriptedChoices({"age": 0.2, "married": 0.4})
    [reward] = self_attack(attacker, [answer(POST_REWRITE)])
    assert reward == pytest.approx(0.5 * (0.5 * 1.0 + 0.5 * 0.7) + 0.5 * post_utility(POST_REWRITE, 1.0))
    assert attacker.seen == [POST_REWRITE]
    # sure of the truth on both: only the evidence half of privacy is left
    [reward] = self_attack(ScriptedChoices({"age": 1.0, "married": 1.0}), [answer(POST_REWRITE)])
    assert reward == pytest.approx(0.5 * 0.5 + 0.5 * post_utility(POST_REWRITE, 1.0))
    # attack_weight 1: the self-attacker alone decides privacy, densely (a less sure right answer earns a little)
    [reward] = self_attack(ScriptedChoices({"age": 0.9, "married": 0.5}), [answer(POST_REWRITE)], attack_weight=1.0)
    assert reward == pytest.approx(0.5 * 0.3 + 0.5 * post_utility(POST_REWRITE, 1.0))


def test_self_attack_asks_only_for_labelled_attributes_with_options_the_post_carries_evidence_for():
    attacker = ScriptedChoices({"age": 0.0})
    self_attack(attacker, [answer(POST_REWRITE)], attributes=("age", "occupation", "age"))
    assert attacker.asked == [["age"]]  # occupation is not labelled (and has no options), age counted once
    # no such attribute at all: not attacked, privacy is the evidence term alone
    attacker = ScriptedChoices({})
    [reward] = self_attack(attacker, [answer(POST_REWRITE)], attributes=("occupation",))
    assert attacker.seen == [] and reward == pytest.approx(0.5 * 1.0 + 0.5 * post_utility(POST_REWRITE, 1.0))


def test_the_logged_self_anonymity_is_the_mean_over_the_attacked_rewrites_only(tmp_path):
    from stealthflow.training.rewards import SelfAttackReward

    log = tmp_path / "rewards.jsonl"
    reward = SelfAttackReward(ScriptedChoices({"age": 0.2}), ScriptedFluency(0.0), group_size=2, log_path=log)
    reward(
        None,
        [answer(POST_REWRITE)] * 2,
        source_text=[POST] * 2,
        evidence=[["34"]] * 2,
        evidence_attributes=[["age"], ["occupation"]],  # the second has no attribute with options: not attacked
        labels=[[{"attribute": a, "estimate": e} for a, e in LABELS.items()]] * 2,
    )
    [record] = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["self_anonymity_mean"] == pytest.approx(0.8)  # not (0.8 + 0) / 2
    assert record["fluency_mean"] == 1.0 and record["attacker_accuracy"] == 0.0


def test_fluency_gate_score_lowers_utility_below_the_floor():
    from stealthflow.anonymize.local import MODEL_FLOOR
    from stealthflow.training.rewards import FLUENCY_SPAN, fluency_credit

    assert fluency_credit(0.0) == fluency_credit(MODEL_FLOOR) == 1.0
    assert fluency_credit(MODEL_FLOOR - FLUENCY_SPAN / 2) == pytest.approx(0.5)
    assert fluency_credit(MODEL_FLOOR - 10) == 0.0
    fooled = {"age": 0.0, "married": 0.0}
    [fluent] = self_attack(ScriptedChoices(fooled), [answer(POST_REWRITE)], fluency=-0.1)
    [broken] = self_attack(ScriptedChoices(fooled), [answer(POST_REWRITE)], fluency=-3.0)
    assert fluent - broken == pytest.approx(0.5 * 0.5 * 1.0)  # (1 - λ) · fluency_weight · full credit lost


def test_self_attack_settles_copies_and_garbage_without_attacking_or_scoring_them(tmp_path):
    from stealthflow.training.rewards import SelfAttackReward

    attacker, scorer = ScriptedChoices({"age": 0.0, "married": 0.0}), ScriptedFluency(0.0)
    log = tmp_path / "rewards.jsonl"
    reward = SelfAttackReward(attacker, scorer, group_size=2, log_path=log)
    labels = [[{"attribute": a, "estimate": e} for a, e in LABELS.items()]] * 4
    values = reward(
        None,
        [answer(POST), "no separator", answer("Haha #CityLiving"), answer(POST_REWRITE)],
        source_text=[POST] * 4,
        evidence=[["34"]] * 4,
        evidence_attributes=[["age"]] * 4,
        labels=labels,
    )
    assert values[:3] == [pytest.approx(0.5), 0.0, 0.0]  # copy: utility 1, no privacy; unreadable; garbled
    assert attacker.seen == [POST_REWRITE] and scorer.seen == [(POST, POST_REWRITE)]
    [record] = [json.loads(line) for line in log.read_text().splitlines()]
    assert record["self_anonymity_mean"] == 1.0 and record["fluency_mean"] == 1.0
    assert record["attacker_accuracy"] == 0.0
    assert record["evidence_removed_mean"] == pytest.approx(0.25) and record["zero_variance_groups"] == 0.0
