"""harvest -> SFT -> GRPO end to end on a tiny random Llama (no download), plus the recipe loader."""

import json
import math
from pathlib import Path

import pytest
import torch
from tiny_llama import build_tiny_llama
from trajectory_fixtures import corpus_profiles, write_run

from stealthflow import prompts
from stealthflow.harvest import harvest
from stealthflow.training import load_recipe, run_grpo, run_sft
from stealthflow.training.models import trainer_args
from stealthflow.training.sft import build_sft_trainer

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    torch.set_num_threads(1)
    root = tmp_path_factory.mktemp("training")
    profiles = corpus_profiles(3)
    corpus = [p.text for p in profiles] + [prompts.render("anonymizer_system"), prompts.render("attacker_system")]
    build_tiny_llama(root / "tiny", corpus)
    harvest(write_run(root / "run", profiles), root / "data", profiles)
    return root


def tiny_recipe(root: Path, recipe: str = "smollm2-cpu.yaml", **overrides):
    values = {
        "base_model": f"hf:{root / 'tiny'}",
        "output_dir": str(root / "out"),
        "threads": 1,
        "sft.data": str(root / "data"),
        "sft.max_length": 4096,
        "sft.batch_size": 2,
        "sft.gradient_accumulation_steps": 1,
        "sft.max_examples": 6,
        "grpo.max_steps": 2,
        "grpo.max_completion_length": 12,
        "grpo.attacker_max_new_tokens": 12,
        "grpo.save_steps": 1,
    } | overrides
    return load_recipe(REPO / "training" / recipe, values)


def test_sft_puts_the_loss_on_the_assistant_answer_only(workspace):
    trainer = build_sft_trainer(tiny_recipe(workspace))
    for row in trainer.train_dataset:
        trained = [label != -100 for label in row["labels"]]
        assert 0 < sum(trained) < len(trained)
        # the prompt (system + user turns) is masked, the assistant answer is trained
        assert not trained[0] and trained[-1]
        first = trained.index(True)
        assert all(trained[first:]) and not any(trained[:first])


def test_harvest_sft_grpo_round_trip_saves_reloadable_adapters(workspace):
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    recipe = tiny_recipe(workspace)
    sft_adapter = run_sft(recipe)
    assert (sft_adapter / "adapter_config.json").exists() and (sft_adapter / "tokenizer_config.json").exists()
    sft_info = json.loads((sft_adapter.parent / "run_info.json").read_text())
    assert sft_info["finished"] and sft_info["seed"] == recipe.seed and sft_info["versions"]["trl"]
    assert sft_info["steps"] == 3  # 6 examples / batch 2, one epoch
    assert (sft_adapter.parent / "loss.png").stat().st_size > 0
    assert load_recipe(sft_adapter.parent / "recipe.yaml") == recipe  # the resolved recipe reproduces the run

    grpo_adapter = run_grpo(recipe)
    out = grpo_adapter.parent
    rewards = [json.loads(line) for line in (out / "rewards.jsonl").read_text().splitlines()]
    assert {r["step"] for r in rewards} == {1, 2}
    assert all(0.0 <= r["reward_mean"] <= 1.0 for r in rewards)
    assert (out / "rewards.png").stat().st_size > 0
    assert json.loads((out / "run_info.json").read_text())["steps"] == 2

    base = AutoModelForCausalLM.from_pretrained(workspace / "tiny")
    tuned = PeftModel.from_pretrained(base, str(grpo_adapter))
    before = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(workspace / "tiny"), str(sft_adapter))
    # LoRA B starts at zero, so trained adapters differ from it, and GRPO changed the SFT adapter
    sft_weights = {k: v for k, v in before.state_dict().items() if "lora_B" in k}
    assert any(v.abs().sum() > 0 for v in sft_weights.values())
    assert tuned.state_dict().keys() == before.state_dict().keys()


def test_grpo_leaves_out_prompts_longer_than_the_limit(workspace):
    from datasets import load_from_disk
    from transformers import AutoTokenizer

    from stealthflow.training.grpo import short_prompts

    dataset = load_from_disk(str(workspace / "data" / "grpo"))
    tokenizer = AutoTokenizer.from_pretrained(workspace / "tiny")
    lengths = [
        len(tokenizer.apply_chat_template(r["prompt"], add_generation_prompt=True, return_dict=True)["input_ids"])
        for r in dataset
    ]
    shortest = min(lengths)
    kept = short_prompts(dataset, tokenizer, shortest)
    assert 0 < len(kept) == lengths.count(shortest) < len(dataset)
    assert short_prompts(dataset, tokenizer, None) is dataset
    with pytest.raises(ValueError, match="max_prompt_tokens"):
        short_prompts(dataset, tokenizer, shortest - 1)


def test_a_finished_stage_is_not_trained_again_and_an_interrupted_one_resumes(workspace):
    recipe = tiny_recipe(workspace)
    messages = []
    run_sft(recipe, on_skip=messages.append)
    assert messages and "already trained" in messages[0]
    # interrupted: no run_info, a checkpoint on disk -> training resumes from it
    out = recipe.output / "grpo"
    (out / "run_info.json").unlink()
    resumed = run_grpo(recipe.model_copy(update={"grpo": recipe.grpo.model_copy(update={"max_steps": 3})}))
    info = json.loads((resumed.parent / "run_info.json").read_text())
    assert info["resumed_from"].endswith("checkpoint-2") and info["steps"] == 3


def test_trained_adapter_is_a_backend(workspace):
    from stealthflow.llm import ModelConfig, build_llm

    recipe = tiny_recipe(workspace)
    adapter = run_sft(recipe)
    llm = build_llm(
        ModelConfig(model=f"hf:{workspace / 'tiny'}", adapter=str(adapter), max_new_tokens=4, dtype="float32")
    )
    answer = llm.chat([{"role": "user", "content": "hello"}])
    assert answer.completion_tokens > 0 and str(adapter) in llm.info.model_id


def test_recipes_load_and_overrides_apply():
    cpu = load_recipe(REPO / "training" / "smollm2-cpu.yaml", {"sft.epochs": 2})
    assert cpu.sft.epochs == 2 and cpu.device == "cpu" and cpu.dtype == "float32"
    gpu = load_recipe(REPO / "training" / "llama31-8b-lora.yaml")
    assert (gpu.lora.r, gpu.sft.learning_rate, gpu.sft.epochs, gpu.sft.max_length, gpu.dtype) == (
        8,
        1e-4,
        3,
        8192,
        "bfloat16",
    )
    assert gpu.grpo.trainer["use_vllm"] is True
    deepspeed = REPO / "training" / gpu.sft.trainer["deepspeed"].removeprefix("training/")
    assert json.loads(deepspeed.read_text())["zero_optimization"]["stage"] in (2, 3)
    with pytest.raises(ValueError):
        load_recipe(REPO / "training" / "smollm2-cpu.yaml", {"sft.no_such_knob": 1})


def test_trainer_args_take_a_stages_section_and_its_trainer_extras_over_the_devices():
    cpu = load_recipe(REPO / "training" / "smollm2-cpu.yaml", {"output_dir": "/runs/a", "sft.learning_rate": 3e-4})
    args = trainer_args(cpu, "sft")
    assert (args["output_dir"], args["learning_rate"], args["per_device_train_batch_size"]) == (
        "/runs/a/sft/checkpoints",
        3e-4,
        cpu.sft.batch_size,
    )
    assert args["use_cpu"] is True and args["bf16"] is False and args["save_steps"] == cpu.sft.save_steps
    gpu = load_recipe(REPO / "training" / "llama31-8b-lora.yaml", {"grpo.trainer": {"save_total_limit": 5}})
    args = trainer_args(gpu, "grpo")
    assert args["output_dir"].endswith("/grpo/checkpoints") and args["bf16"] is True and args["save_total_limit"] == 5
    clashing = load_recipe(REPO / "training" / "smollm2-cpu.yaml", {"sft.trainer": {"learning_rate": 1.0}})
    with pytest.raises(TypeError, match="learning_rate"):
        trainer_args(clashing, "sft")


def test_balanced_options_repeat_the_rarer_options_of_each_attribute():
    from stealthflow.training.sft import balanced, option_key

    def row(kind, attributes, answer):
        return {"kind": kind, "attributes": attributes, "messages": [{"role": "assistant", "content": answer}]}

    rows = [row("attack", ["married"], "Married")] * 9 + [row("attack", ["married"], "Divorced")]
    rows += [row("attack", ["gender"], "Male")] * 4 + [row("anonymize", ["gender"], "a rewrite")]
    keys = [option_key(r) for r in rows]
    assert keys[-1] is None and keys[0] == ("married", "Married")
    full, root = balanced(keys, 1.0), balanced(keys, 0.5)
    assert full.count(9) == 9 and root.count(9) == 3  # Divorced: (9 / 1) ** x times
    assert all(full.count(i) == root.count(i) == 1 for i in [*range(9), *range(10, 15)])  # commonest, unkeyed
    assert balanced(keys, 0.0) == list(range(len(rows)))


@pytest.mark.real_model
def test_real_model_sft_step_and_adapter_backend(tmp_path):
    """SmolLM2-135M: one SFT step on a harvested reference attack example, a finite loss, then the adapter answers."""
    from stealthflow.harvest import HarvestConfig, collect
    from stealthflow.llm import ModelConfig, build_llm

    torch.set_num_threads(1)
    profiles = sorted(corpus_profiles(30), key=lambda p: len(p.text))[:6]  # short texts keep the step cheap
    sft, _ = collect({}, profiles, HarvestConfig(reference_scope="all"))
    from datasets import Dataset

    Dataset.from_list(sft[:1]).save_to_disk(str(tmp_path / "data" / "sft"))
    recipe = load_recipe(
        REPO / "training" / "smollm2-cpu.yaml",
        {
            "output_dir": str(tmp_path / "out"),
            "sft.data": str(tmp_path / "data"),
            "sft.batch_size": 1,
            "sft.gradient_accumulation_steps": 1,
            "sft.max_length": 768,
        },
    )
    adapter = run_sft(recipe)
    info = json.loads((adapter.parent / "run_info.json").read_text())
    assert info["steps"] == 1 and info["examples"] == 1 and math.isfinite(info["final_loss"])
    llm = build_llm(ModelConfig(model="embedded", adapter=str(adapter), max_new_tokens=8, dtype="float32"))
    assert llm.chat([{"role": "user", "content": "Hello"}]).completion_tokens > 0
    llm.close()


def test_top_layers_adapts_only_the_last_blocks(workspace):
    from transformers import AutoModelForCausalLM

    from stealthflow.training.models import top_layer_linears

    model = AutoModelForCausalLM.from_pretrained(workspace / "tiny")  # 2 blocks
    names = top_layer_linears(model, 1, "all-linear")
    assert len(names) == 7 and all(".layers.1." in name for name in names)
    assert top_layer_linears(model, 1, ["q_proj", "v_proj"]) == [
        "model.layers.1.self_attn.q_proj",
        "model.layers.1.self_attn.v_proj",
    ]
    with pytest.raises(ValueError, match="no linear layer"):
        top_layer_linears(model, 1, ["no_such_proj"])


def test_long_curves_are_drawn_with_their_moving_average(tmp_path):
    from stealthflow.training.plots import plot_curves

    noisy = [{"step": s, "loss": 2.0 - s / 100 + (0.5 if s % 2 else -0.5)} for s in range(100)]
    assert plot_curves(noisy, "step", ["loss"], tmp_path / "loss.png", "SFT loss").stat().st_size > 0
    assert plot_curves([{"step": 1}], "step", ["loss"], tmp_path / "none.png", "SFT loss") is None
    assert not (tmp_path / "none.png").exists()


def per_post_data(root: Path, attack_style: str = "answer") -> list:
    """Four tiny train profiles (an ER nurse in Leeds with a wife, labelled) harvested per post into root/data."""
    from stealthflow.data.schema import AttributeLabel, Comment, Profile
    from stealthflow.harvest.posts import harvest_posts

    torch.set_num_threads(1)
    answers = {
        "deepseek-ai/DeepSeek-V3": {
            "occupation": {"inference": 'says "an ER nurse"', "guess": ["nurse"]},
            "location": {"inference": 'rent in "Leeds"', "guess": ["Leeds, United Kingdom"]},
            "gender": {"inference": 'says "my wife"', "guess": ["male"]},
        }
    }
    labels = {
        "occupation": AttributeLabel(estimate="nurse", hardness=1, certainty=5, source="synth"),
        "location": AttributeLabel(estimate="Leeds, United Kingdom", hardness=1, certainty=5, source="synth"),
        "gender": AttributeLabel(estimate="male", hardness=1, certainty=5, source="synth"),
    }
    profiles = [
        Profile(
            id=f"tiny{i}",
            comments=[
                Comment(text=f"Twelve years as an ER nurse and my wife says rent in Leeds keeps going up {i}"),
                Comment(text=f"Nice weather {i}"),
            ],
            labels=labels,
            reference_predictions=answers,
        )
        for i in range(4)
    ]
    summary = harvest_posts(profiles, root / "data", attack_style=attack_style)
    assert summary["sft"]["teacher:evidence"] == 4 and summary["grpo_prompts"] == 4
    # the attack rows of the dual model: one answer per profile, or one option per categorical attribute (gender)
    source = "reference:" if attack_style == "answer" else "reference-choice:"
    assert summary["sft"][source + "deepseek-ai/DeepSeek-V3"] == 4
    return profiles


def per_post_run(root: Path, recipe: str, attack_style: str = "answer", **overrides):
    """`per_post_data` and a tiny random Llama that knows its words: the recipe to train it with."""
    profiles = per_post_data(root, attack_style)
    build_tiny_llama(
        root / "tiny",
        [c.text for p in profiles for c in p.comments] + ["Rewrite this post so a reader cannot tell"],
    )
    return tiny_recipe(root, recipe, **{"grpo.max_prompt_tokens": None} | overrides)


def test_harvest_posts_keeps_attack_rows_of_profiles_within_attack_words(tmp_path):
    from stealthflow.harvest.posts import harvest_posts

    profiles = per_post_data(tmp_path / "default")  # 16-word profiles: an attack row each at the default 100
    summary = harvest_posts(profiles, tmp_path / "short", attack_words=10)
    assert "reference:deepseek-ai/DeepSeek-V3" not in summary["sft"] and summary["attack_words"] == 10


def grpo_log(recipe) -> list[dict]:
    return [json.loads(line) for line in (recipe.output / "grpo" / "rewards.jsonl").read_text().splitlines()]


def test_per_post_harvest_sft_grpo_with_the_evidence_reward(tmp_path):
    """The local anonymizer's path on a tiny random Llama: evidence -> teacher rows -> SFT ->
    GRPO rewarded by evidence removal (no classifier term), rewards logged per step."""
    recipe = per_post_run(tmp_path, "local-anonymizer.yaml", **{"grpo.classifier_weight": 0.0})
    assert (run_sft(recipe) / "adapter_config.json").exists()
    assert (run_grpo(recipe) / "adapter_config.json").exists()
    logged = grpo_log(recipe)
    assert logged and all("evidence_removed_mean" in row and "zero_variance_groups" in row for row in logged)


def test_dual_model_grpo_with_the_self_attack_reward(tmp_path, monkeypatch):
    """The dual model's recipe on a tiny random Llama: SFT on rewrites and choice attack rows, then GRPO whose
    reward runs the frozen SFT adapter as choice attacker on each rewrite, with the fluency gate's score (the
    real numpy scorer, over the tiny model here) inside utility."""
    from stealthflow.utility import fluency

    recipe = per_post_run(
        tmp_path,
        "dual-model.yaml",
        "choice",
        **{"grpo.min_utility": 0.0, "sft.trainer": {}, "sft.max_examples": None},  # every row, one epoch
    )
    assert recipe.grpo.reward == "self-attack"
    monkeypatch.setattr(fluency, "shared_scorer", lambda: fluency.FluencyScorer(tmp_path / "tiny"))
    assert (run_sft(recipe) / "adapter_config.json").exists()
    assert (run_grpo(recipe) / "adapter_config.json").exists()
    logged = grpo_log(recipe)
    assert {row["step"] for row in logged} == {1, 2}
    assert all(0.0 <= row["reward_mean"] <= 1.0 and "self_anonymity_mean" in row for row in logged)
    info = json.loads((recipe.output / "grpo" / "run_info.json").read_text())
    assert info["reward"] == "self-attack" and info["attacker"]["choice"] == str(recipe.sft_adapter())


@pytest.mark.real_model
def test_real_model_dual_model_sft_and_self_attack_grpo_step(tmp_path):
    """SmolLM2-135M with the dual model's recipe: one SFT step, one GRPO step of a few tokens whose
    reward runs the frozen SFT adapter as attacker and the real fluency scorer."""
    per_post_data(tmp_path, "choice")
    recipe = load_recipe(
        REPO / "training" / "dual-model.yaml",
        {
            "output_dir": str(tmp_path / "out"),
            "sft.data": str(tmp_path / "data"),
            "sft.max_examples": 1,
            "sft.trainer": {},  # one epoch: one step
            "sft.batch_size": 1,
            "sft.gradient_accumulation_steps": 1,
            "grpo.max_steps": 1,
            "grpo.batch_size": 2,
            "grpo.max_completion_length": 24,
            "grpo.min_utility": 0.0,
        },
    )
    run_sft(recipe)
    run_grpo(recipe)
    [row] = grpo_log(recipe)
    assert row["step"] == 1 and row["completions"] == 2 and 0.0 <= row["reward_mean"] <= 1.0
    assert json.loads((recipe.output / "grpo" / "run_info.json").read_text())["steps"] == 1
