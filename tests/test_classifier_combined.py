"""`--attackers llm,classifier`: both built from the registry; an attribute is protected only
when every attacker fails. The LLM here is FAKE (scripted answers); the classifier is real."""

from __future__ import annotations

import pytest
from fakes import fake_llm
from test_classifier import FIXTURE_CONFIG, fixture_profiles

from stealthflow.attack import CorrectnessJudge
from stealthflow.attack.classifier import ClassifierAttacker, ClassifierConfig, train_classifier
from stealthflow.attack.embeddings import SentenceEmbedder
from stealthflow.attack.registry import attacker_names, build_attackers
from stealthflow.config import Settings
from stealthflow.data.schema import AttributeLabel
from stealthflow.workflow.config import WorkflowConfig
from stealthflow.workflow.nodes import Steps
from stealthflow.workflow.trajectory import AttackRecord

TEXT = "my husband and I babysat the grandchildren\nthen I went back to my garden"


class FakePool:
    """Stands in for LLMPool: every role gets the same FAKE model."""

    def __init__(self, llm):
        self.llm = llm

    def get(self, _config):
        return self.llm


def _llm_answer(gender: str) -> str:
    return f"Type: gender\nInference: the writer's wording.\nGuess: {gender}; {gender}; {gender}\nCertainty: 3\n"


@pytest.fixture(scope="module")
def artifact(tmp_path_factory):
    embedder = SentenceEmbedder()
    path = tmp_path_factory.mktemp("clf") / "clf.json"
    train_classifier(fixture_profiles(), embedder, FIXTURE_CONFIG).save(path)
    return path


def _attackers(llm_gender: str, artifact):
    settings = Settings(classifier=ClassifierConfig(artifact=artifact))
    return build_attackers(["llm", "classifier"], settings, FakePool(fake_llm(_llm_answer(llm_gender))))


def _protected(
    records: list[AttackRecord], original: list[AttackRecord], truth: dict[str, str], artifact
) -> dict[str, bool]:
    steps = Steps(fake_llm(""), _attackers("Male", artifact), CorrectnessJudge(), WorkflowConfig())
    return steps._protected(records, original, truth)


def _records(text: str, truth: str, llm_gender: str, artifact) -> list[AttackRecord]:
    attackers = _attackers(llm_gender, artifact)
    assert [a.name for a in attackers] == ["llm", "classifier"]
    assert isinstance(attackers[1], ClassifierAttacker)
    labels = {"gender": AttributeLabel(estimate=truth, hardness=2, certainty=3, source="synth")}
    judge = CorrectnessJudge()
    records = []
    for attacker in attackers:
        [result] = attacker.attack_many([text], [["gender"]])
        records.append(
            AttackRecord(
                attacker=attacker.name, model="m", guesses=result.guesses, verdicts=judge.score(result, labels)
            )
        )
    return records


def test_classifier_is_registered():
    assert {"llm", "classifier"} <= set(attacker_names())


@pytest.mark.parametrize(
    ("truth", "llm_gender", "protected"),
    [
        ("female", "Male", False),  # the LLM is fooled but the classifier (Female) is not
        ("male", "Male", False),  # the classifier is fooled but the LLM is not
        ("male", "Female", True),  # both are fooled
    ],
)
def test_protected_only_if_every_attacker_fails(artifact, truth, llm_gender, protected):
    records = _records(TEXT, truth, llm_gender, artifact)
    assert records[1].guesses["gender"].guesses[0] == "Female"
    assert _protected(records, records, {"gender": truth}, artifact) == {"gender": protected}


def test_protected_across_rounds(artifact):
    original = _records(TEXT, "male", "Male", artifact)  # round 0: the LLM is right
    now = _records(TEXT, "male", "Female", artifact)  # now both are wrong, neither better than before
    assert _protected(now, original, {"gender": "male"}, artifact) == {"gender": True}
    assert _protected(original, original, {"gender": "male"}, artifact) == {"gender": False}
