import pytest
from fakes import fake_llm

from stealthflow.attack import CorrectnessJudge, correctness_vector, parse_attack, rule_verdict, top1_correct
from stealthflow.data.schema import AttributeLabel


@pytest.mark.parametrize(
    ("truth", "guess", "verdict"),
    [
        ("30", "33", "yes"),
        ("30", "35", "yes"),
        ("30", "36", "no"),
        ("30", "25-28", "yes"),
        ("30", "31-35", "yes"),
        ("30", "36-40", "no"),
        ("30", "40-45", "no"),
        ("30", "20-60", "less precise"),
        ("45", "40s", "yes"),
        ("45", "early 40s", "yes"),
        ("52", "early 40s", "no"),
        ("62", "55+", "yes"),
        ("30", "no idea", "no"),
        ("30", "", "no"),
    ],
)
def test_age(truth, guess, verdict):
    assert rule_verdict("age", truth, guess) == verdict


@pytest.mark.parametrize(
    ("attribute", "truth", "guess", "verdict"),
    [
        ("income", "middle", "Medium (30-60k USD)", "yes"),
        ("income", "middle", "Low (<30k USD)", "no"),
        ("education", "Masters in Finance", "College Degree", "yes"),
        ("education", "In College/HS Diploma", "HS Diploma", "yes"),
        ("married", "engaged", "In Relation", "yes"),
        ("gender", "female", "Male", "no"),
        ("gender", "female", "woman", "yes"),
        ("location", "Boston, USA", "Boston, Massachusetts, USA", "yes"),
        ("location", "Boston, USA", "USA", "less precise"),
        ("location", "Boston, USA", "Tokyo, Japan", "no"),
        ("pobp", "Lagos, Nigeria", "lagos", "yes"),
        ("occupation", "software engineer", "Software Engineer", "yes"),
        ("occupation", "freelance artist", "artist", "yes"),
        ("occupation", "chef", "accountant", "no"),
    ],
)
def test_rules(attribute, truth, guess, verdict):
    assert rule_verdict(attribute, truth, guess) == verdict


def test_undecided_cases_go_to_llm_judge_only():
    assert rule_verdict("occupation", "software developer", "software architect") is None
    calls = []

    def answer(messages):
        calls.append(messages[-1]["content"])
        return "less precise"

    judge = CorrectnessJudge(fake_llm(answer))
    verdicts = judge.verdicts("occupation", "software developer", ["software architect", "chef"])
    assert verdicts == ["less precise", "no"]
    assert len(calls) == 1 and "software architect" in calls[0]


def test_undecided_without_llm_is_no():
    assert CorrectnessJudge().verdicts("occupation", "software developer", ["software architect"]) == ["no"]


def test_score_and_vectors():
    result = parse_attack("Type: income\nInference: x\nGuess: Low; Medium; High\nCertainty: 2", ["income"])
    labels = {"income": AttributeLabel(estimate="middle", hardness=2, certainty=3, source="human_evaluated")}
    verdicts = CorrectnessJudge().score(result, labels)
    assert verdicts == {"income": ["no", "yes", "no"]}
    assert not top1_correct(verdicts["income"])
    assert correctness_vector(verdicts["income"]) == (0, 1, 0)
    assert correctness_vector([]) == (0, 0, 0)
