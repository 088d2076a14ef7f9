"""benchmarks/dual_rewrite_format.py: the counts on hand-made completions (a fake), then the real sampling and the
real self-attack reward on a tiny random Llama trained with the dual model's recipe."""

from __future__ import annotations

import sys
from pathlib import Path

from test_training import per_post_run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from dual_rewrite_format import prompts, sample, score, summary  # noqa: E402


def _completion(prompt: int, reward: float, **flags) -> dict:
    """A fake scored completion: only the fields `summary` reads."""
    facts = {"parsed": True, "garbled": False, "copied": False, "cut": False, "self_anonymity": None, "tokens": 10}
    facts |= flags
    readable = facts["parsed"] and not facts["garbled"] and not facts["copied"]
    return {"prompt": prompt, "reward": reward, "readable": readable, **facts}


def test_summary_counts_readable_rewrites_and_groups_without_gradient():
    completions = [
        _completion(0, 0.0, parsed=False, cut=True),
        _completion(0, 0.0, parsed=True, garbled=True),  # group 0: equal rewards, no gradient
        _completion(1, 0.4, self_anonymity=0.8),
        _completion(1, 0.5, copied=True),
    ]
    facts = summary(completions)
    assert (facts["parsed"], facts["garbled"], facts["copied"], facts["cut"], facts["readable"]) == (3, 1, 1, 1, 1)
    assert facts["readable_share"] == 0.25 and facts["equal_reward_groups"] == 0.5
    assert facts["self_anonymity_attacked"] == 0.8


def test_sampling_and_scoring_through_the_real_reward(tmp_path, monkeypatch):
    """The tiny model's SFT adapter samples as GRPO does; the self-attack reward (its frozen adapter as choice
    attacker, the real fluency scorer over the tiny model) settles each completion."""
    from stealthflow.training import run_sft
    from stealthflow.utility import fluency

    recipe = per_post_run(
        tmp_path,
        "dual-model.yaml",
        "choice",
        **{"grpo.min_utility": 0.0, "sft.trainer": {}, "sft.max_examples": None, "grpo.max_completion_length": 8},
    )
    monkeypatch.setattr(fluency, "shared_scorer", lambda: fluency.FluencyScorer(tmp_path / "tiny"))
    run_sft(recipe)
    from stealthflow.llm.checkpoints import load_tokenizer

    rows = prompts(recipe, load_tokenizer(recipe.sft_adapter()), 3)
    completions = score(recipe, rows, sample(recipe, rows), tmp_path / "format.jsonl")
    assert len(completions) == 3 * recipe.grpo.num_generations
    assert {c["prompt"] for c in completions} == {0, 1, 2}
    for c in completions:
        assert 1 <= c["tokens"] <= 8 and (not c["cut"] or c["tokens"] == 8)
        assert c["readable"] == (c["parsed"] and not c["garbled"] and not c["copied"])
        assert 0.0 <= c["reward"] <= 1.0
    assert not (tmp_path / "rewards.jsonl").exists()  # counted, not logged as a GRPO step
