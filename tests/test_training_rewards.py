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
