"""The stylometric classifier attacker: labels, training, artefacts, attacks, chance levels.

Uses the real MiniLM embedding model (small and fast on CPU); no LLM except a FAKE one in the
combined-attacker test.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from stealthflow.attack import CorrectnessJudge, rule_verdict
from stealthflow.attack.classifier import (
    SHIPPED_ARTIFACT,
    ArtifactError,
    ClassifierAttacker,
    ClassifierConfig,
    StylometricClassifier,
    certainty,
    classes_for,
    file_sha256,
    labelled_examples,
    normalise_label,
    refuse_held_out,
    train_classifier,
)
from stealthflow.attack.embeddings import SentenceEmbedder
from stealthflow.attack.features import frequent_words, words
from stealthflow.attack.strength import (
    ABOVE_MAJORITY,
    ABOVE_UNIFORM,
    NOT_ABOVE_CHANCE,
    POOLED,
    accuracy_rows,
    accuracy_vs_chance,
    attacker_accuracy,
    chance_levels,
    described_verdicts,
    markdown_table,
)
from stealthflow.data import load_profiles
from stealthflow.data.schema import AttributeLabel, Comment, Profile

FEMALE_OLD = [
    "my husband and I just celebrated our 35th anniversary, the grandkids visited",
    "retired from teaching last year, now I knit and tend my roses",
    "as a grandmother of five I have seen a lot of fads come and go",
]
MALE_YOUNG = [
    "lol my roommates and I pulled an all nighter before the midterm again",
    "freshman year at uni is wild bro, dorm food is terrible",
    "grinding ranked all weekend instead of studying for calc, classic me",
]


def _profile(pid: str, lines: list[str], gender: str, age: str) -> Profile:
    labels = {
        "gender": AttributeLabel(estimate=gender, hardness=2, certainty=3, source="synth"),
        "age": AttributeLabel(estimate=age, hardness=2, certainty=3, source="synth"),
    }
    return Profile(id=pid, comments=[Comment(text=t) for t in lines], labels=labels)


def fixture_profiles() -> list[Profile]:
    profiles = []
    for i in range(6):
        # Rotate the lines so profiles differ while keeping each group's style.
        profiles.append(_profile(f"f{i}", FEMALE_OLD[i % 3 :] + FEMALE_OLD[: i % 3], "female", str(60 + i)))
        profiles.append(_profile(f"m{i}", MALE_YOUNG[i % 3 :] + MALE_YOUNG[: i % 3], "male", str(18 + i)))
    return profiles


FIXTURE_CONFIG = ClassifierConfig(attributes=("gender", "age"))


@pytest.fixture(scope="module")
def embedder(tmp_path_factory):
    embedder = SentenceEmbedder(tmp_path_factory.mktemp("emb") / "cache.sqlite")
    yield embedder
    embedder.close()


@pytest.fixture(scope="module")
def trained(embedder):
    return train_classifier(fixture_profiles(), embedder, FIXTURE_CONFIG, train_data_sha256="fixture")


# -- label normalisation --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("attribute", "estimate", "expected"),
    [
        ("gender", "female", "Female"),
        ("gender", "M", "Male"),
        ("married", "single", "No relation"),
        ("married", "engaged", "In Relation"),
        ("married", "Engaged/Married", None),  # deliberately ambiguous: not trained on
        ("education", "Masters in Finance", "College Degree"),
        ("education", "In College/HS Diploma", None),
        ("income", "middle", "Medium (30-60k USD)"),
        ("income", "very high", "Very High (>150k USD)"),
        ("age", "24", "<25"),
        ("age", "25", "25-34"),
        ("age", "44.5", "35-44"),
        ("age", "25-30", "25-34"),
        ("age", "70", "55+"),
        ("age", "unknown", None),
        ("income", "banana", None),
    ],
)
def test_labels_are_normalised_onto_the_option_lists(attribute, estimate, expected):
    assert normalise_label(attribute, estimate) == expected


def test_unlabelled_and_ambiguous_profiles_are_left_out_of_training():
    profiles = fixture_profiles()[:2]
    profiles[0].labels["gender"] = AttributeLabel(estimate="", hardness=0, certainty=0, source="synth")
    profiles[1].labels["married"] = AttributeLabel(estimate="Engaged/Married", hardness=3, certainty=3, source="synth")
    assert labelled_examples(profiles, "gender") == ([1], ["Male"])
    assert labelled_examples(profiles, "married") == ([], [])


@pytest.mark.parametrize(
    ("truth", "bucket", "verdict"),
    [
        ("20", "<25", "yes"),
        ("12", "<25", "yes"),
        ("40", "<25", "no"),
        ("30", "25-34", "yes"),
        ("50", "25-34", "no"),
        ("62", "55+", "yes"),
        ("30", "55+", "no"),
        ("47", "45-54", "yes"),
    ],
)
def test_age_bucket_guesses_are_judged_as_ranges(truth, bucket, verdict):
    assert rule_verdict("age", truth, bucket) == verdict


# -- training, artefact, attack -------------------------------------------------------------
def _features(classifier, embedder, texts):
    return classifier.features(embedder.embed_profiles(texts), texts)


def test_training_on_a_small_fixture_separates_the_styles(trained, embedder):
    texts = [p.text for p in fixture_profiles()]
    predicted = trained.probabilities("gender", _features(trained, embedder, texts)).argmax(1)
    assert [classes_for("gender")[i] for i in predicted] == ["Female", "Male"] * 6
    assert trained.metadata["training_labels"]["age"] == {"55+": 6, "<25": 6}
    unseen = ["my husband and the grandchildren came over for my retirement party"]
    assert classes_for("gender")[trained.probabilities("gender", _features(trained, embedder, unseen))[0].argmax()] == (
        "Female"
    )


def test_artefact_is_versioned_and_reloads_to_identical_predictions(trained, embedder, tmp_path):
    path = tmp_path / "clf.json"
    trained.save(path)
    payload = json.loads(path.read_text())
    assert payload["train_data_sha256"] == "fixture"
    assert payload["embedding_model"].startswith("sentence-transformers/all-MiniLM-L6-v2")
    assert set(payload["versions"]) == {"scikit-learn", "numpy", "torch", "transformers"}
    assert payload["label_options"]["age"] == ["<25", "25-34", "35-44", "45-54", "55+"]

    reloaded = StylometricClassifier.load(path)
    texts = [p.text for p in fixture_profiles()] + ["hello there", "my wife says I work too much"]
    features = _features(trained, embedder, texts)
    assert np.array_equal(features["words"], _features(reloaded, embedder, texts)["words"])
    for attribute in ("gender", "age"):
        assert np.array_equal(trained.probabilities(attribute, features), reloaded.probabilities(attribute, features))
    before = ClassifierAttacker(trained, embedder).attack_many(texts, [["gender", "age"]] * len(texts))
    after = ClassifierAttacker(reloaded, embedder).attack_many(texts, [["gender", "age"]] * len(texts))
    assert [r.model_dump() for r in before] == [r.model_dump() for r in after]


def test_artefacts_that_do_not_fit_are_refused(trained, tmp_path):
    path = tmp_path / "clf.json"
    trained.save(path)
    payload = json.loads(path.read_text())
    with pytest.raises(ArtifactError, match="no classifier artefact"):
        StylometricClassifier.load(tmp_path / "missing.json")
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(ArtifactError, match="unreadable"):
        StylometricClassifier.load(tmp_path / "broken.json")
    for key, value, message in [
        ("embedding_model", "some/other-model", "trained on embeddings"),
        ("label_options", {"gender": ["Male", "Female", "Other"], "age": []}, "option lists changed"),
        ("format", 99, "format"),
    ]:
        path.write_text(json.dumps({**payload, key: value}))
        with pytest.raises(ArtifactError, match=message):
            StylometricClassifier.load(path)


def test_training_refuses_held_out_profiles(embedder):
    profiles = fixture_profiles()
    with pytest.raises(ValueError, match="held-out"):
        train_classifier(profiles, embedder, FIXTURE_CONFIG, held_out=[profiles[3]])
    with pytest.raises(ValueError, match="held-out"):  # an extra set is checked as well
        train_classifier(profiles[:4], embedder, FIXTURE_CONFIG, extra=profiles[4:], held_out=[profiles[9]])
    renamed = profiles[3].model_copy(update={"id": "renamed"})  # same text under another id
    with pytest.raises(ValueError, match="held-out"):
        train_classifier(profiles, embedder, FIXTURE_CONFIG, held_out=[renamed])


def test_extra_profiles_are_trained_on_with_their_weight(embedder):
    profiles = fixture_profiles()
    own, extra = profiles[:4], profiles[4:]
    config = ClassifierConfig(attributes=("gender",), C={"gender": 1.0}, extra_weight={"gender": 0.5})
    alone = train_classifier(own, embedder, config)
    weighed = train_classifier(own, embedder, config, extra=extra, extra_data_sha256={"extra.jsonl": "abc"})
    full = train_classifier(own, embedder, config.model_copy(update={"extra_weight": {"gender": 1.0}}), extra=extra)
    ignored = train_classifier(own, embedder, config.model_copy(update={"extra_weight": {"gender": 0.0}}), extra=extra)
    coef = {name: c.models["gender"].coef_ for name, c in [("alone", alone), ("weighed", weighed), ("full", full)]}
    assert np.array_equal(ignored.models["gender"].coef_, coef["alone"])
    # More (and heavier) examples of the same two styles: a surer separation.
    assert np.linalg.norm(coef["alone"]) < np.linalg.norm(coef["weighed"]) < np.linalg.norm(coef["full"])
    assert weighed.metadata["train_profiles"] == 4 and weighed.metadata["extra_profiles"] == 8
    assert weighed.metadata["extra_data_sha256"] == {"extra.jsonl": "abc"}
    assert weighed.metadata["training_labels"]["gender"] == {"Female": 6, "Male": 6}


def test_config_needs_the_settings_of_every_attribute():
    with pytest.raises(ValueError, match="classifier.C has no value for age"):
        ClassifierConfig(C={"gender": 1.0}, attributes=("gender", "age"))
    with pytest.raises(ValueError, match="classifier.extra_weight has no value for age"):
        ClassifierConfig(extra_weight={"gender": 1.0}, attributes=("gender", "age"))
    with pytest.raises(ValueError, match="classifier.blocks has no value for age"):
        ClassifierConfig(blocks={"gender": ("mean",)}, attributes=("gender", "age"))
    with pytest.raises(ValueError, match="at least one block"):
        ClassifierConfig(blocks={"gender": ()}, attributes=("gender",))


def test_attack_result_has_the_llm_attackers_structure(trained, embedder):
    attacker = ClassifierAttacker(trained, embedder)
    text = "my husband and I babysat the grandchildren\nthen I went back to my garden"
    [result] = attacker.attack_many([text], [["gender", "age", "location"]])
    assert result.attacker == "classifier" and result.well_formed and result.error is None
    gender = result.guesses["gender"]
    assert gender.guesses == ["Female", "Male"]
    assert 1 <= gender.certainty <= 5
    assert gender.inference.startswith("classifier: P(Female)=")
    p_female = float(gender.inference.split("P(Female)=")[1][:4])
    assert p_female > 0.5
    assert '"my husband and I babysat the grandchildren"' in gender.inference  # the line that gives it away
    assert result.guesses["age"].guesses[0] == "55+" and len(result.guesses["age"].guesses) == 2
    assert result.guesses["location"].guesses == [] and not attacker.covers("location")
    assert CorrectnessJudge().score(
        result, {"age": AttributeLabel(estimate="61", hardness=1, certainty=1, source="synth")}
    ) == {"age": ["yes", "no"]}


def test_certainty_rescales_between_chance_and_sure():
    assert certainty(0.5, 2) == 1
    assert certainty(1.0, 2) == 5
    assert certainty(0.75, 2) == 3
    assert certainty(0.2, 5) == 1
    assert certainty(0.6, 5) == 3


def test_shipped_artefact_is_its_recipes_and_keeps_no_rare_word(repo):
    from stealthflow.config import load_settings

    classifier = StylometricClassifier.load(SHIPPED_ARTIFACT)
    recipe = load_settings(repo / "configs/classifier-words-a-m.yaml").classifier
    assert SHIPPED_ARTIFACT.stat().st_size < 3_000_000
    assert classifier.metadata["train_data_sha256"] == file_sha256(repo / "data/train.jsonl")
    assert classifier.metadata["extra_data_sha256"] == {str(p): file_sha256(repo / p) for p in recipe.extra_data}
    assert classifier.metadata["held_out_profiles_checked"] == len(load_profiles(repo / "data/test.jsonl"))
    assert classifier.metadata["config"] == recipe.model_dump(mode="json", exclude={"artifact"})
    assert set(classifier.attributes) == {"age", "gender", "education", "income", "married"}
    texts = [p.text for p in load_profiles(repo / "data/train.jsonl")]
    texts += [p.text for path in recipe.extra_data for p in load_profiles(repo / path)]
    assert classifier.featurizer.vocabulary == frequent_words(texts)  # each word used by >= 5 training profiles


@pytest.mark.parametrize(
    ("recipe", "sets", "shipped"),
    [
        ("classifier-blind-sets.yaml", "abcdefghijk", False),
        ("classifier-blind-sets-a-m.yaml", "abcdefghijklm", False),
        ("classifier-words-a-m.yaml", "abcdefghijklm", True),
    ],
)
def test_blind_set_recipes_train_on_their_sets_and_no_test_profile(repo, recipe, sets, shipped):
    from stealthflow.config import load_settings

    settings = load_settings(repo / "configs" / recipe).classifier
    assert [str(path) for path in settings.extra_data] == [
        f"benchmarks/data/blind-profiles-{name}/profiles.jsonl" for name in sets
    ]
    extra = [p for path in settings.extra_data for p in load_profiles(repo / path)]
    refuse_held_out(extra, load_profiles(repo / "data/test.jsonl"))  # raises on a shared id or text
    # A candidate's training never overwrites the shipped artefact; the shipped one's recipe writes it.
    assert (settings.artifact is None) == shipped


# -- chance levels --------------------------------------------------------------------------
def test_chance_levels_use_the_same_rules_as_the_attacker():
    chance = chance_levels("gender", ["male", "male", "female", "m"])
    assert chance.majority_guess == "Male"
    assert chance.majority_top1.mean() == 0.75
    assert chance.uniform_top1 == 0.5
    assert chance.uniform_top3 == 1.0 and chance.majority_top3.mean() == 1.0  # two options: top-3 is trivial
    married = chance_levels("married", ["single"] * 3 + ["married"])
    assert married.uniform_top1 == pytest.approx(0.2)
    assert married.uniform_top3 == pytest.approx(0.6)  # 3 of 5 options drawn
    assert chance_levels("location", ["Paris"]) is None


def test_verdict_against_chance():
    truths = ["male"] * 30 + ["female"] * 30
    perfect = [["yes", "no"]] * 60
    assert accuracy_vs_chance("a", "gender", truths, perfect).verdict == ABOVE_MAJORITY
    always_male = [["yes", "no"]] * 30 + [["no", "yes"]] * 30
    row = accuracy_vs_chance("a", "gender", truths, always_male)
    assert row.verdict == NOT_ABOVE_CHANCE and row.top1.value == 0.5 and row.top3.value == 1.0
    silent = accuracy_vs_chance("a", "gender", truths, [[]] * 60)
    assert silent.verdict == NOT_ABOVE_CHANCE and silent.answered == 0
    skewed = ["single"] * 20 + ["married"] * 20 + ["divorced"] * 20
    majority_only = [["yes"]] * 20 + [["no"]] * 40  # as good as always guessing one class
    assert accuracy_vs_chance("a", "married", skewed, majority_only).verdict == ABOVE_UNIFORM


def test_pooled_row_decides_what_no_single_attribute_can():
    # 20 profiles per attribute, labels spread evenly over 5 options (uniform and majority level
    # 0.2), 8 right: neither attribute's interval clears chance, the 40 items together do.
    incomes = ["no income", "low", "medium", "high", "very high"] * 4
    relations = ["single", "in relationship", "married", "divorced", "widowed"] * 4
    right = [["yes"]] * 8 + [["no"]] * 12
    labelled = {"income": (incomes, right), "married": (relations, right), "location": (["Paris"] * 20, right)}
    rows = {r.attribute: r for r in accuracy_rows("a", labelled)}
    assert rows["income"].verdict == rows["married"].verdict == NOT_ABOVE_CHANCE
    pooled = rows[POOLED]
    assert pooled.n == 40 and pooled.top1.value == pytest.approx(0.4)  # free-text location is not pooled
    assert pooled.chance.uniform_top1 == pytest.approx(0.2) and pooled.chance.majority_top1.mean() == pytest.approx(0.2)
    assert (
        pooled.verdict == ABOVE_MAJORITY
        and pooled.top1.high - pooled.top1.low < rows["income"].top1.high - rows["income"].top1.low
    )
    assert POOLED not in {r.attribute for r in accuracy_rows("a", {"income": (incomes, right)}, n_boot=100)}


def test_attacker_accuracy_counts_missing_guesses_as_wrong(trained, embedder):
    profiles = fixture_profiles()[:4]
    attacker = ClassifierAttacker(trained, embedder)
    results = attacker.attack_many([p.text for p in profiles], [["gender"]] * 4)  # age not asked
    rows = {r.attribute: r for r in attacker_accuracy("classifier", profiles, results, ["gender", "age"], n_boot=200)}
    assert rows["gender"].top1.value == 1.0 and rows["gender"].n == 4
    assert rows["age"].answered == 0 and rows["age"].top1.value == 0.0
    assert "| classifier | gender | 4 | 4 | 1.00" in markdown_table(list(rows.values()))


# -- CLI ------------------------------------------------------------------------------------
def test_cli_refuses_to_train_on_the_test_split_or_evaluate_on_the_training_file(repo, tmp_path):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    runner = CliRunner()
    target = tmp_path / "clf.json"
    trained = runner.invoke(
        app, ["attacker", "train", "--data", str(repo / "data/test.jsonl"), "--out", str(target), "--no-cache"]
    )
    assert trained.exit_code == 2 and "held-out test profiles" in trained.output
    assert not target.exists()
    evaluated = runner.invoke(app, ["attacker", "eval", "--data", str(repo / "data/train.jsonl"), "--no-cache"])
    assert evaluated.exit_code == 2 and "trained on" in evaluated.output


def _corpus_line(profile: Profile) -> str:
    """The profile in the corpus (AgentStealth) format, the one labelled files use."""
    reviews = {
        a: {"estimate": label.estimate, "hardness": label.hardness, "certainty": label.certainty}
        for a, label in profile.labels.items()
    }
    comments = [{"text": c.text, "subreddit": "synthetic", "timestamp": "1722586067.0"} for c in profile.comments]
    record = {"username": profile.id, "comments": [{"comments": comments}], "reviews": {"synth": reviews}}
    return json.dumps(record) + "\n"


def test_cli_trains_and_evaluates_a_fixture(tmp_path):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    train, held_out = tmp_path / "train.jsonl", tmp_path / "test.jsonl"
    unseen = [_profile("t1", FEMALE_OLD[:2], "female", "66"), _profile("t2", MALE_YOUNG[1:], "male", "19")]
    train.write_text("".join(_corpus_line(p) for p in fixture_profiles()))
    held_out.write_text("".join(_corpus_line(p) for p in unseen))
    config = tmp_path / "clf.yaml"
    config.write_text(f"classifier:\n  artifact: {tmp_path / 'clf.json'}\n  attributes: [gender, age]\n")
    runner = CliRunner()
    trained = runner.invoke(app, ["attacker", "train", "--data", str(train), "--config", str(config), "--no-cache"])
    assert trained.exit_code == 0, trained.output
    assert json.loads((tmp_path / "clf.json").read_text())["held_out_profiles_checked"] == 2
    extra = tmp_path / "more.jsonl"
    extra.write_text(_corpus_line(_profile("e1", FEMALE_OLD[1:], "female", "70")))
    with_extra = runner.invoke(
        app, ["attacker", "train", "--data", str(train), "--extra", str(extra), "--config", str(config), "--no-cache"]
    )
    assert with_extra.exit_code == 0, with_extra.output
    payload = json.loads((tmp_path / "clf.json").read_text())
    assert payload["extra_profiles"] == 1 and payload["extra_data_sha256"] == {"more.jsonl": file_sha256(extra)}
    assert payload["training_labels"]["gender"] == {"Female": 7, "Male": 6}
    extra.write_text(_corpus_line(unseen[0]))  # a held-out profile among the extra ones
    refused = runner.invoke(
        app, ["attacker", "train", "--data", str(train), "--extra", str(extra), "--config", str(config), "--no-cache"]
    )
    assert refused.exit_code == 2 and "held-out test profiles" in refused.output
    evaluated = runner.invoke(app, ["attacker", "eval", "--data", str(held_out), "--config", str(config), "--no-cache"])
    assert evaluated.exit_code == 0, evaluated.output
    assert "└" in evaluated.output  # the accuracy table was printed


# -- feature blocks beside the mean embedding ---------------------------------------------------
class ConstantEmbedder(SentenceEmbedder):
    """FAKE embedder: every line gets the same unit vector, so the embeddings carry no signal."""

    def _encode(self, lines):
        vector = np.zeros(384, dtype=np.float32)
        vector[0] = 1.0
        return np.tile(vector, (len(lines), 1))


# Two groups that only their words tell apart (the FAKE embeddings are identical); "ziggurat" is
# used by one profile only, as a name or a handle would be.
WIFE_LINES = ["my wife cooked dinner", "the wife and I went out"]
SINGLE_LINES = ["still single and fine", "dating apps are awful"]


def _word_profiles(per_group: int = 6) -> list[Profile]:
    profiles = []
    for i in range(per_group):
        married = _profile(f"w{i}", WIFE_LINES + (["ziggurat"] if i == 0 else []), "female", "40")
        married.labels["married"] = AttributeLabel(estimate="married", hardness=2, certainty=3, source="synth")
        single = _profile(f"s{i}", SINGLE_LINES, "male", "40")
        single.labels["married"] = AttributeLabel(estimate="single", hardness=2, certainty=3, source="synth")
        profiles += [married, single]
    return profiles


def _words_config(*blocks: str) -> ClassifierConfig:
    return ClassifierConfig(attributes=("married",), blocks={"married": blocks})


def test_frequent_words_need_five_profiles():
    texts = ["my wife"] * 5 + ["my ziggurat"] * 4
    assert frequent_words(texts) == ["my", "wife"]
    assert words("I'm 34, my WIFE's car") == ["i'm", "34", "my", "wife's", "car"]


def test_a_model_reading_words_learns_what_the_embeddings_cannot_tell(tmp_path):
    embedder = ConstantEmbedder()
    profiles = _word_profiles()
    with_words = train_classifier(profiles, embedder, _words_config("mean", "words"))
    mean_only = train_classifier(profiles, embedder, _words_config("mean"))
    attacker = ClassifierAttacker(with_words, embedder)
    [result] = attacker.attack_many(["dating is over\nmy wife laughed"], [["married"]])
    guess = result.guesses["married"]
    assert guess.guesses[0] == "Married" and guess.certainty > 1
    assert '"my wife laughed"' in guess.inference  # the line whose own words push hardest
    [blind] = ClassifierAttacker(mean_only, embedder).attack_many(["my wife laughed"], [["married"]])
    assert blind.guesses["married"].certainty == 1  # identical embeddings: chance
    path = tmp_path / "clf.json"
    with_words.save(path)
    saved = path.read_text()
    assert "wife" in json.loads(saved)["vocabulary"] and "ziggurat" not in saved  # no rare string at rest
    assert json.loads(saved)["attributes"]["married"]["blocks"] == ["mean", "words"]
    reloaded = ClassifierAttacker(StylometricClassifier.load(path), embedder)
    assert (
        reloaded.attack_many(["my wife laughed"], [["married"]])[0].model_dump()
        == attacker.attack_many(["my wife laughed"], [["married"]])[0].model_dump()
    )


def test_per_attribute_settings_reach_the_fitted_models():
    config = ClassifierConfig(
        attributes=("married", "gender"),
        blocks={"married": ("words",), "gender": ("mean",)},
        C={"married": 0.5, "gender": 3.0},
    )
    trained = train_classifier(_word_profiles()[:11], ConstantEmbedder(), config)
    married, gender = trained.models["married"], trained.models["gender"]
    assert (married.C, married.coef_.shape[1]) == (0.5, len(trained.featurizer.vocabulary))
    assert (gender.C, gender.coef_.shape[1]) == (3.0, 384)
    assert trained.blocks == {"married": ("words",), "gender": ("mean",)}


def test_a_mean_only_classifier_keeps_no_vocabulary(trained):
    assert trained.featurizer.vocabulary == [] and set(trained.blocks.values()) == {("mean",)}


def test_shipped_artefact_attacks_a_real_text_end_to_end(repo, embedder):
    attacker = ClassifierAttacker(StylometricClassifier.load(SHIPPED_ARTIFACT), embedder)
    text = (
        "my wife and I just dropped our youngest at college, the house is so quiet\n"
        "twenty years at the plant and the mortgage is finally paid off"
    )
    [result] = attacker.attack_many([text], [["age", "gender", "married", "income", "education"]])
    for attribute, guess in result.guesses.items():
        assert guess.guesses and set(guess.guesses) <= set(classes_for(attribute)), attribute
        assert guess.inference.startswith("classifier: P(") and any(
            f'"{line}"' in guess.inference for line in text.split("\n")
        )
    assert result.guesses["married"].guesses[0] == "Married"


def test_grpo_classifier_drop_sees_a_rewritten_comments_words():
    from stealthflow.training.rewards import ClassifierDrop

    embedder = ConstantEmbedder()
    profiles = _word_profiles()
    trained = train_classifier(profiles, embedder, _words_config("mean", "words"))
    married = profiles[2]  # "my wife cooked dinner" / "the wife and I went out"
    drop = ClassifierDrop(trained, embedder, {married.id: married})
    assert drop.drop(married.id, 0, "dating apps are awful") > 0.1  # the married words are gone
    assert drop.drop(married.id, 0, married.comments[0].text) == 0.0


def test_described_verdicts_group_the_attributes_and_keep_a_models_only_for_that_model(monkeypatch):
    from stealthflow.attack import strength

    measured = {
        "classifier": {"gender": ABOVE_MAJORITY, "married": ABOVE_MAJORITY, "age": NOT_ABOVE_CHANCE},
        "llm:embedded": {"gender": ABOVE_UNIFORM},
    }
    monkeypatch.setattr(strength, "measured_verdicts", lambda: measured)
    assert described_verdicts("embedded") == {
        "classifier": f"{ABOVE_MAJORITY} on gender, married; {NOT_ABOVE_CHANCE} on age",
        "llm": f"{ABOVE_UNIFORM} on gender",
    }
    assert set(described_verdicts("openai/gpt-4o-mini")) == {"classifier"}
