"""The base/SFT/GRPO comparison table and the quick self-attack check (FAKE model answers)."""

import pytest
from fakes import fake_llm
from trajectory_fixtures import corpus_profiles

from stealthflow.attack.strength import ABOVE_UNIFORM, NOT_ABOVE_CHANCE
from stealthflow.evaluation.records import AttackScore, OriginalRecord, ScoreRecord, TextScore
from stealthflow.evaluation.runner import Evaluation
from stealthflow.training.compare import attacker_figures, comparison_table, self_attack


def write_evaluation(directory, self_right: bool, well_formed: bool):
    evaluation = Evaluation(directory)
    labels = {"gender": "female", "age": "30"}
    guesses = {"gender": ["Female" if self_right else "Male"], "age": ["31" if self_right else "70"]}
    verdict = ["yes"] if self_right else ["no"]
    originals, scores = [], []
    for index in range(4):
        attacks = {
            "llm": AttackScore(guesses=guesses, verdicts={"gender": verdict, "age": verdict}, well_formed=well_formed),
            "classifier": AttackScore(guesses={"gender": ["Female"]}, verdicts={"gender": ["yes"]}, well_formed=True),
        }
        originals.append(
            OriginalRecord(profile_id=f"p{index}", labels=labels, score=TextScore(round=0, attacks=attacks))
        )
        after = {
            "llm": AttackScore(guesses=guesses, verdicts={"gender": ["no"], "age": ["no"]}),
            "classifier": AttackScore(
                guesses={"gender": ["Male"]}, verdicts={"gender": ["no"] if index % 2 else ["yes"]}
            ),
        }
        scores.append(
            ScoreRecord(
                profile_id=f"p{index}",
                method="standard",
                rounds=[TextScore(round=1, attacks=after, bleu=0.5, rouge1=0.5, rougel=0.5, meaning=5.5)],
            )
        )
    evaluation.originals().append(originals)
    evaluation.scores("standard").append(scores)
    return directory


def test_attacker_figures_count_every_labelled_attribute(tmp_path):
    figures = attacker_figures(Evaluation(write_evaluation(tmp_path / "sft", self_right=True, well_formed=True)))
    assert figures["attributes"] == 8 and figures["top1"] == 1.0 and figures["well_formed"] == 1.0
    # Every label is "female" / "30": the majority guess is always right; a uniform draw is right
    # for gender 1 time in 2 and for age 3 buckets in 5 (<25, 25-34, 35-44 are within ±5 years of 30).
    pooled = figures["categorical"]
    assert pooled.n == 8 and pooled.chance.majority_top1.mean() == 1.0
    assert pooled.chance.uniform_top1 == pytest.approx((0.5 + 0.6) / 2)
    assert pooled.verdict == ABOVE_UNIFORM  # always right, but so is the constant majority guess
    figures = attacker_figures(Evaluation(write_evaluation(tmp_path / "base", self_right=False, well_formed=False)))
    assert (
        figures["top1"] == 0.0 and figures["well_formed"] == 0.0 and figures["categorical"].verdict == NOT_ABOVE_CHANCE
    )


def test_comparison_table_has_one_row_per_model_and_both_attackers(tmp_path):
    table = comparison_table(
        {
            "base": write_evaluation(tmp_path / "base", self_right=False, well_formed=False),
            "sft": write_evaluation(tmp_path / "sft", self_right=True, well_formed=True),
        }
    )
    lines = table.strip().splitlines()
    assert "Anonymity (classifier)" in lines[0] and "Score_Utility (llm)" in lines[0]
    base, sft = lines[2].split(" | "), lines[3].split(" | ")
    assert base[0] == "| base" and sft[0] == "| sft"
    assert base[2] == "0.00" and sft[2] == "1.00" and sft[3].startswith("1.00 [1.00, 1.00] / 1.00 / 0.55")
    assert base[4] == NOT_ABOVE_CHANCE and sft[4] == ABOVE_UNIFORM and sft[5] == "100%"


def test_self_attack_reports_accuracy_and_format_share():
    profiles = [
        p.model_copy(update={"labels": {"gender": p.labels["gender"]}})
        for p in corpus_profiles(20)
        if "gender" in p.labelled()
    ][:3]
    answer = "Type: gender\nInference: writes about her husband\nGuess: Female; Male\nCertainty: 4"
    done: list[int] = []
    table, well_formed = self_attack(fake_llm(answer, batch_size=2), profiles, on_done=done.append)
    assert done == [1, 1, 1]  # progress as each answer arrives
    females = sum(p.labels["gender"].estimate.lower() == "female" for p in profiles)
    [row] = [line for line in table.splitlines() if "| gender |" in line]
    assert "| 3 |" in row and f"{females / 3:.2f}" in row
    assert well_formed == 1.0


class ScriptedOptionScores:
    """FAKE choice attacker: fixed log-probabilities per option; of the gender options "Male" has the better
    sum and "Female" the better mean per token."""

    def option_scores_many(self, text, attributes):
        from stealthflow.attack.classifier import classes_for

        scripted = {a: ([-1.0] * len(classes_for(a)), [1] * len(classes_for(a))) for a in attributes}
        return scripted | ({"gender": ([-2.0, -3.0], [1, 6])} if "gender" in attributes else {})


def test_choice_attack_tables_both_ways_of_scoring_the_options_from_one_pass():
    from stealthflow.training.compare import choice_attack

    profiles = [p for p in corpus_profiles(40) if "gender" in p.labelled()][:4]
    done: list[int] = []
    tables = choice_attack(ScriptedOptionScores(), "fake", profiles, on_done=done.append)
    assert done == [1] * len(profiles)
    summed, mean = tables.split("Options scored by log-probability mean per token")
    males = sum(p.labels["gender"].estimate.lower() == "male" for p in profiles) / len(profiles)
    [row] = [line for line in summed.splitlines() if "| gender |" in line]
    assert f"| {len(profiles)} | {len(profiles)} | {males:.2f}" in row  # summed: always "Male", always answered
    [row] = [line for line in mean.splitlines() if "| gender |" in line]
    assert f"| {len(profiles)} | {len(profiles)} | {1 - males:.2f}" in row  # per token: always "Female"
