"""The dual model's probe attacker (attack/probe.py): layer and C chosen by cross-validation on FAKE hidden states
that carry one attribute in one layer, the artefact round trip and its checks, the strength table, the GRPO
self-attack reward reading its privacy term from a probe over a FAKE model (`grpo.self_attacker: probe`); two
real_model tests: the embedded SmolLM2's own states answering through `train probe-eval`, and the shipped probe on it
inside the reward."""

from __future__ import annotations

import json

import numpy as np
import pytest
from trajectory_fixtures import REPO, corpus_profiles

from stealthflow.attack.classifier import classes_for
from stealthflow.attack.probe import HiddenStateProbe, ProbeError, fit_probe, profile_folds
from stealthflow.attack.strength import ABOVE_MAJORITY
from stealthflow.training.compare import probe_table

LAYERS, HIDDEN = 4, 8
DUAL = REPO / "training" / "dual-model.yaml"


def fake_states(profiles, seed: int = 0) -> np.ndarray:
    """FAKE hidden states: noise, except layer 2's first dimension, which says the profile's gender."""
    rng = np.random.default_rng(seed)
    states = rng.normal(size=(len(profiles), LAYERS, HIDDEN))
    for i, profile in enumerate(profiles):
        gender = profile.labelled().get("gender")
        if gender is not None:
            states[i, 2, 0] = 3.0 if gender.estimate.lower().startswith("m") else -3.0
    return states


@pytest.fixture(scope="module")
def profiles():
    return corpus_profiles(120)


@pytest.fixture(scope="module")
def fitted(profiles):
    return fit_probe(profiles, fake_states(profiles), layers=(0, 2), Cs=(0.01, 1.0), folds=3, metadata={"model": "m"})


def test_cross_validation_finds_the_layer_that_carries_the_attribute(fitted):
    probe, scores = fitted
    assert probe.attributes["gender"].layer == 2
    assert scores["gender"][(2, 1.0)] > 0.95 > 0.75 > scores["gender"][(0, 1.0)]
    assert probe.metadata["selection"]["chosen"]["gender"]["layer"] == 2
    assert set(probe.attributes) <= {"gender", "income", "education", "married", "age"}


def test_the_probe_answers_the_gender_the_state_says_in_the_option_order(fitted, profiles):
    probe, _ = fitted
    states = np.zeros((2, LAYERS, HIDDEN))
    states[0, 2, 0], states[1, 2, 0] = 3.0, -3.0
    male, female = probe.choices(states, [["gender", "location"], ["gender"]])
    assert set(male) == {"gender"}  # location has no options: not answered
    assert male["gender"].options == classes_for("gender") and male["gender"].answer == "Male"
    assert female["gender"].answer == "Female" and sum(female["gender"].probabilities) == pytest.approx(1.0)


def test_folds_are_per_profile_and_balanced():
    folds = profile_folds(10, 3, seed=0)
    assert sorted(np.bincount(folds)) == [3, 3, 4]
    assert (profile_folds(10, 3, seed=0) == folds).all()


def test_the_artefact_round_trips_and_refuses_another_model(fitted, tmp_path):
    probe, _ = fitted
    path = tmp_path / "probe.json"
    probe.save(path)
    loaded = HiddenStateProbe.load(path)
    states = fake_states(corpus_profiles(5), seed=1)
    asked = [["gender", "income", "age"]] * 5
    assert loaded.choices(states, asked) == probe.choices(states, asked)
    loaded.check_reads("m", "")
    loaded.check_width(HIDDEN)
    with pytest.raises(ProbeError, match="fit one on this model"):
        loaded.check_reads("m", "abc123")
    with pytest.raises(ProbeError, match="hidden dimensions"):
        loaded.check_width(HIDDEN + 1)
    payload = json.loads(path.read_text())
    payload["label_options"]["gender"] = ["Male", "Female", "Other"]
    path.write_text(json.dumps(payload))
    with pytest.raises(ProbeError, match="option lists changed"):
        HiddenStateProbe.load(path)
    path.write_text("{not json")
    with pytest.raises(ProbeError, match="unreadable"):
        HiddenStateProbe.load(path)


def test_fitting_refuses_a_held_out_profile(profiles):
    with pytest.raises(ValueError, match="held-out"):
        fit_probe(profiles, fake_states(profiles), layers=(2,), Cs=(1.0,), folds=3, held_out=profiles[:1])


def test_the_strength_table_puts_the_probe_above_majority_where_the_state_carries_the_label(fitted):
    probe, _ = fitted
    test = [p for p in corpus_profiles(300)[150:] if "gender" in p.labelled()]
    table = probe_table(probe, "fake-probe", test, fake_states(test, seed=2))
    [row] = [line for line in table.splitlines() if "| gender |" in line]
    assert ABOVE_MAJORITY in row and f"| {len(test)} | {len(test)} |" in row


@pytest.mark.real_model
def test_real_model_smollm2_states_feed_a_probe_through_the_cli(tmp_path):
    import torch
    from typer.testing import CliRunner

    from stealthflow.attack.probe import text_states
    from stealthflow.cli import app
    from stealthflow.llm.checkpoints import load_causal_lm

    torch.set_num_threads(1)
    model, tokenizer = load_causal_lm("embedded")
    profiles = [p for p in corpus_profiles(40) if "gender" in p.labelled()][:6]
    texts = [" ".join(p.text.split()[:30]) for p in profiles]
    states = text_states(model.eval(), tokenizer, texts)
    layers = model.config.num_hidden_layers + 1
    assert states.shape == (6, layers, model.config.hidden_size) and np.isfinite(states).all()
    ids = tokenizer(texts[0], return_tensors="pt")["input_ids"]
    with torch.no_grad():
        last = model.model(input_ids=ids).last_hidden_state[0].mean(0).numpy()
    np.testing.assert_allclose(states[0, -1], last, rtol=1e-4, atol=1e-4)

    names = [p.id for p in profiles]
    for profile, text in zip(profiles, texts, strict=True):
        profile.comments = profile.comments[:1]
        profile.comments[0].text = text
    probe, _ = fit_probe(profiles, states, layers=(layers - 1,), Cs=(1.0,), folds=2, metadata={"model": "embedded"})
    probe.save(tmp_path / "probe.json")
    data = tmp_path / "profiles.jsonl"
    rows = [json.loads(line) for line in (REPO / "data" / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [row for row in rows if row["username"] in names[:2]]
    for row in rows:  # two comments each: short to read
        row["comments"][0]["comments"] = row["comments"][0]["comments"][:2]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    result = CliRunner().invoke(
        app, ["train", "probe-eval", "--probe", str(tmp_path / "probe.json"), "--data", str(data)]
    )
    assert result.exit_code == 0, result.output
    assert "probe on embedded" in result.output and "gender" in result.output
    other = HiddenStateProbe.load(tmp_path / "probe.json")
    other.metadata["model"] = "hf:elsewhere"
    other.save(tmp_path / "other.json")
    refused = CliRunner().invoke(
        app, ["train", "probe-eval", "--probe", str(tmp_path / "other.json"), "--data", str(data)]
    )
    assert refused.exit_code != 0 and "fit one on this model" in refused.output


class FakeModel:
    """FAKE causal LM: every text's hidden states are `state` (layers x hidden) on each of its three tokens."""

    def __init__(self, state: np.ndarray):
        from types import SimpleNamespace

        self.state = state
        self.config = SimpleNamespace(hidden_size=state.shape[1])

    def eval(self):
        return self

    def __call__(self, input_ids, output_hidden_states, logits_to_keep):
        from types import SimpleNamespace

        import torch

        layers = torch.tensor(self.state, dtype=torch.float32)[:, None, None, :].expand(-1, 1, input_ids.shape[1], -1)
        return SimpleNamespace(hidden_states=tuple(layers))


def fake_tokenizer(text, truncation, max_length, return_tensors):
    """FAKE tokenizer: three tokens for any text."""
    import torch

    return {"input_ids": torch.tensor([[1, 2, 3]])}


class Fluent:
    """FAKE fluency scorer: every rewrite as fluent as its original."""

    def compare(self, originals, rewrites):
        from stealthflow.utility.fluency import Fluency

        return [Fluency(0.0, 0.0) for _ in rewrites]


def test_the_self_attack_reward_reads_one_minus_the_probes_probability_of_the_truth(fitted, tmp_path):
    from stealthflow.attack.classifier import normalise_label
    from stealthflow.attack.probe import ProbeAttacker
    from stealthflow.training.rewards import SelfAttackReward

    probe, _ = fitted
    state = np.random.default_rng(3).normal(size=(LAYERS, HIDDEN))
    labels = {"age": "34", "married": "married"}
    expected = np.mean(
        [
            1 - probe.attributes[a].probabilities(a, state[None])[0][classes_for(a).index(normalise_label(a, truth))]
            for a, truth in labels.items()
        ]
    )
    log = tmp_path / "rewards.jsonl"
    reward = SelfAttackReward(ProbeAttacker(FakeModel(state), fake_tokenizer, probe), Fluent(), log_path=log)
    post = "Twelve years as an ER nurse and I just turned 34 and my wife and I moved to Zurich."
    rewrite = "Years in my job, and with a birthday behind me, we moved to a new city."
    reward(
        prompts=[None],
        completions=[[{"role": "assistant", "content": f"I remove the age and the marriage.\n#\n{rewrite}"}]],
        source_text=[post],
        evidence=[["34", "my wife"]],
        evidence_attributes=[list(labels)],
        labels=[[{"attribute": a, "estimate": e} for a, e in labels.items()]],
    )
    [row] = [json.loads(line) for line in log.read_text().splitlines()]
    assert row["self_anonymity_mean"] == pytest.approx(expected)


def test_the_recipe_setting_puts_the_shipped_probe_on_the_base_model_in_the_reward(tmp_path, monkeypatch):
    from stealthflow.attack import probe as probe_module
    from stealthflow.attack.probe import SHIPPED_PROBE, ProbeAttacker
    from stealthflow.training import grpo, load_recipe

    shipped = HiddenStateProbe.load(SHIPPED_PROBE)
    layers = 1 + max(p.layer for p in shipped.attributes.values())
    hidden = shipped.attributes["gender"].coef.shape[1]
    loaded = []
    monkeypatch.setattr(
        probe_module,
        "load_causal_lm",
        lambda base, adapter, dtype: loaded.append(adapter) or (FakeModel(np.zeros((layers, hidden))), fake_tokenizer),
    )
    recipe = load_recipe(DUAL, {"grpo.self_attacker": "probe", "output_dir": str(tmp_path)})
    attacker, described = grpo.self_attacker(recipe)
    assert isinstance(attacker, ProbeAttacker) and loaded == [None]  # fitted on the base model: no adapter
    assert described == {"probe": str(SHIPPED_PROBE), "adapter": None}
    assert set(attacker.choose_many(["any text"], [["gender", "age"]])[0]) == {"gender", "age"}
    # a probe fitted on some adapter's states is refused unless that adapter is the SFT one
    other = tmp_path / "other.json"
    shipped.metadata["adapter_sha256"] = "0" * 64
    shipped.save(other)
    (tmp_path / "sft" / "adapter").mkdir(parents=True)
    (tmp_path / "sft" / "adapter" / "adapter_model.safetensors").write_bytes(b"not the adapter the probe read")
    recipe = load_recipe(DUAL, {"grpo.self_attacker": "probe", "grpo.probe": str(other), "output_dir": str(tmp_path)})
    with pytest.raises(ProbeError, match="fit one on this model"):
        grpo.self_attacker(recipe)
    del shipped.attributes["income"], shipped.metadata["label_options"]["income"]
    shipped.save(other)
    with pytest.raises(ProbeError, match="none for \\['income'\\]"):
        grpo.self_attacker(recipe)
    assert load_recipe(DUAL).grpo.self_attacker == "choice"


def _shipped_shape(shipped: HiddenStateProbe) -> tuple[int, int]:
    """(layers, hidden) of states the shipped probe can read."""
    return 1 + max(p.layer for p in shipped.attributes.values()), shipped.attributes["gender"].coef.shape[1]


def test_attack_runs_the_shipped_probe_by_name_over_a_fake_model(monkeypatch):
    """`stealthflow attack --attackers probe`: the registry loads the shipped probe on the embedded model, no adapter.
    A FAKE model stands in for it (every text's states are zeros), so the rows, not the figures, are checked here."""
    from typer.testing import CliRunner

    from stealthflow.attack import probe as probe_module
    from stealthflow.attack.probe import SHIPPED_PROBE
    from stealthflow.cli import app

    shipped = HiddenStateProbe.load(SHIPPED_PROBE)
    layers, hidden = _shipped_shape(shipped)
    loaded = []
    monkeypatch.setattr(
        probe_module,
        "load_causal_lm",
        lambda base, adapter, dtype: (
            loaded.append((base, adapter)) or (FakeModel(np.zeros((layers, hidden))), fake_tokenizer)
        ),
    )
    post = "My wife and I moved here last spring."
    result = CliRunner().invoke(app, ["attack", post, "--attackers", "probe", "--json"])
    assert result.exit_code == 0, result.output
    assert loaded == [("embedded", None)]
    [row] = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["kind"] == row["attacker"] == "probe" and row["well_formed"] and row["error"] is None
    assert set(row["guesses"]) == set(shipped.attributes)  # all 8 asked: free-text ones have no probe
    expected = shipped.choices(np.zeros((1, layers, hidden)), [list(shipped.attributes)])[0]
    for attribute, guess in row["guesses"].items():
        assert guess["guesses"] == expected[attribute].ranked()[:3]
    assert row["strength"].startswith("above majority on gender, income, married, age")
    table = CliRunner().invoke(app, ["attack", post, "--attackers", "probe"])
    assert table.exit_code == 0 and "probe attacker" in table.stdout
    unknown = CliRunner().invoke(app, ["attack", post, "--attackers", "probes"])
    assert unknown.exit_code != 0 and "classifier, llm, probe" in unknown.output


@pytest.mark.real_model
def test_real_model_attack_runs_the_shipped_probe_on_the_embedded_smollm2():
    """The real thing: `attack --attackers probe` on the embedded model answers what the shipped probe reads from
    that model's own states of the text."""
    import torch
    from typer.testing import CliRunner

    from stealthflow.attack.probe import SHIPPED_PROBE, text_states
    from stealthflow.cli import app
    from stealthflow.llm.checkpoints import load_causal_lm

    torch.set_num_threads(1)
    post = "Twelve years as an ER nurse, and my husband still cooks every night."
    asked = ["gender", "married", "location"]
    result = CliRunner().invoke(
        app, ["attack", post, "--attackers", "probe", "--attributes", ",".join(asked), "--json"]
    )
    assert result.exit_code == 0, result.output
    [row] = [json.loads(line) for line in result.stdout.splitlines()]
    assert row["attacker"] == "probe" and set(row["guesses"]) == {"gender", "married"}
    model, tokenizer = load_causal_lm("embedded")
    expected = HiddenStateProbe.load(SHIPPED_PROBE).choices(text_states(model.eval(), tokenizer, [post]), [asked])[0]
    for attribute, guess in row["guesses"].items():
        assert guess["guesses"] == expected[attribute].ranked()[:3]
        assert len(guess["guesses"]) == min(3, len(classes_for(attribute)))


@pytest.mark.real_model
def test_real_model_the_shipped_probe_in_the_reward_logs_its_term_over_the_attacked_rewrites_only(tmp_path):
    """The recipe's probe self-attacker (the shipped probe on the real embedded SmolLM2) in the self-attack reward,
    a FAKE fluency scorer: of two rewrites only the one with an attribute with options is attacked, and the log's
    self_anonymity_mean is its 1 - p(true option), not halved by the other."""
    import torch

    from stealthflow.attack.classifier import normalise_label
    from stealthflow.training import grpo, load_recipe
    from stealthflow.training.rewards import SelfAttackReward

    torch.set_num_threads(1)
    attacker, _ = grpo.self_attacker(load_recipe(DUAL, {"grpo.self_attacker": "probe", "output_dir": str(tmp_path)}))
    post = "Twelve years as an ER nurse and I just turned 34, so my knees hurt after every night shift."
    rewrite = "Years in my job and a birthday behind me, so my knees hurt after every shift."
    [choice] = [c["age"] for c in attacker.choose_many([rewrite], [["age"]])]
    expected = 1 - choice.probabilities[choice.options.index(normalise_label("age", "34"))]
    log = tmp_path / "rewards.jsonl"
    SelfAttackReward(attacker, Fluent(), log_path=log)(
        prompts=[None] * 2,
        completions=[[{"role": "assistant", "content": f"I remove the age.\n#\n{rewrite}"}]] * 2,
        source_text=[post] * 2,
        evidence=[["34"]] * 2,
        evidence_attributes=[["age"], ["occupation"]],
        labels=[[{"attribute": "age", "estimate": "34"}]] * 2,
    )
    [row] = [json.loads(line) for line in log.read_text().splitlines()]
    assert 0.0 < expected < 1.0 and row["self_anonymity_mean"] == pytest.approx(expected)
