"""Can the dual model's rewriting half write a rewrite GRPO can learn from? Sample as GRPO samples, count.

Takes the recipe's GRPO prompts as `train grpo` does (grpo/ of the harvest, train split only, prompts of at most
`grpo.max_prompt_tokens` tokens, shuffled with the recipe's seed), the first `--prompts` of them, and samples
`grpo.num_generations` completions of each from the SFT adapter as trl's GRPOTrainer does (temperature
`grpo.temperature`, top-p 1, no top-k, at most `grpo.max_completion_length` new tokens). Each completion is scored
by the recipe's self-attack reward (the same screen, self-attacker and fluency credit as in GRPO) and counted:
parsed (a `#` line and a text after it), garbled (parsed, but keeping less than `grpo.min_utility` of its post),
copied, cut (it ran into the token limit before its end-of-turn token), readable (parsed, not garbled, not a copy),
and per prompt whether its completions earned equal rewards (a group without gradient). The completions go to
`--out` (JSONL, under runs/: never committed), the counts to stdout as a markdown row.

    python benchmarks/dual_rewrite_format.py --recipe training/dual-model.yaml --prompts 40 \
        --out runs/format/before.jsonl [--set grpo.adapter=runs/dual/sft/adapter ...]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from typer import Exit

from stealthflow.cli.app import recipe_overrides
from stealthflow.training.grpo import self_attack_reward, short_prompts
from stealthflow.training.recipes import Recipe, load_recipe
from stealthflow.training.rewards import labels_dict


def prompts(recipe: Recipe, tokenizer, count: int) -> list[dict]:
    """The first `count` GRPO prompts in the order `train grpo` shuffles them."""
    from datasets import load_from_disk

    from stealthflow.training.stage import dataset_dir

    dataset = load_from_disk(str(dataset_dir(recipe.grpo_data(), "grpo")))
    dataset = short_prompts(dataset, tokenizer, recipe.grpo.max_prompt_tokens).shuffle(seed=recipe.seed)
    return dataset.select(range(min(count, len(dataset)))).to_list()


def sample(recipe: Recipe, rows: list[dict]) -> list[dict]:
    """`num_generations` completions per row: text, tokens and whether the token limit cut it."""
    import torch
    from peft import PeftModel

    from stealthflow.llm.checkpoints import load_tokenizer
    from stealthflow.training.models import configure_torch, load_base_model

    configure_torch(recipe)
    settings, adapter = recipe.grpo, recipe.sft_adapter()
    tokenizer = load_tokenizer(adapter)
    model = PeftModel.from_pretrained(load_base_model(recipe), str(adapter)).eval()
    out = []
    for index, row in enumerate(rows):
        ids = tokenizer.apply_chat_template(row["prompt"], add_generation_prompt=True, return_tensors="pt")
        ids = ids["input_ids"] if not torch.is_tensor(ids) else ids
        with torch.no_grad():
            generated = model.generate(
                ids,
                attention_mask=torch.ones_like(ids),
                do_sample=True,
                temperature=settings.temperature,
                top_p=1.0,
                top_k=0,
                max_new_tokens=settings.max_completion_length,
                num_return_sequences=settings.num_generations,
                pad_token_id=tokenizer.pad_token_id,
                eos_token_id=tokenizer.eos_token_id,
            )
        for sequence in generated[:, ids.shape[1] :].tolist():
            ended = tokenizer.eos_token_id in sequence
            tokens = sequence.index(tokenizer.eos_token_id) + 1 if ended else len(sequence)
            out.append(
                {
                    "prompt": index,
                    "text": tokenizer.decode(sequence[:tokens], skip_special_tokens=True),
                    "tokens": tokens,
                    "cut": not ended,
                }
            )
    return out


def score(recipe: Recipe, rows: list[dict], completions: list[dict], out: Path) -> list[dict]:
    """Each completion with its reward and what the reward's screen made of it."""
    reward, _ = self_attack_reward(recipe, out.parent)
    reward.log_path = None  # counted here, not logged as a GRPO step
    by_prompt = [rows[c["prompt"]] for c in completions]
    scored = reward.score_posts(
        [c["text"] for c in completions],
        [r["source_text"] for r in by_prompt],
        [r["evidence"] for r in by_prompt],
        [r["evidence_attributes"] for r in by_prompt],
        [labels_dict(r["labels"]) for r in by_prompt],
    )
    for completion, (part, terms) in zip(completions, scored, strict=True):
        completion |= {
            "reward": part.reward,
            "parsed": part.parsed,
            "garbled": part.garbled,
            "copied": part.copied,
            "readable": part.parsed and not part.garbled and not part.copied,
            "self_anonymity": terms["self_anonymity"],
        }
    return completions


def summary(completions: list[dict]) -> dict:
    groups: dict[int, list[float]] = {}
    for c in completions:
        groups.setdefault(c["prompt"], []).append(c["reward"])
    n = len(completions)
    attacked = [c["self_anonymity"] for c in completions if c["self_anonymity"] is not None]
    return {
        "completions": n,
        **{key: sum(c[key] for c in completions) for key in ("parsed", "garbled", "copied", "cut", "readable")},
        "readable_share": sum(c["readable"] for c in completions) / n,
        "equal_reward_groups": sum(max(g) == min(g) for g in groups.values()) / len(groups),
        "reward_mean": sum(c["reward"] for c in completions) / n,
        "self_anonymity_attacked": sum(attacked) / len(attacked) if attacked else None,
        "tokens_median": sorted(c["tokens"] for c in completions)[n // 2],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--recipe", type=Path, required=True)
    parser.add_argument("--set", dest="sets", action="append", default=[], help="recipe override KEY=VALUE")
    parser.add_argument("--prompts", type=int, default=40)
    parser.add_argument("--out", type=Path, required=True, help="completions (JSONL; keep it under runs/)")
    parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    args = parser.parse_args()
    if args.out.exists() and not args.force:
        parser.error(f"{args.out} exists: not overwritten (give another --out, or --force)")
    try:
        sets = recipe_overrides(args.sets)
    except Exit as stop:  # it has printed which --set is not KEY=VALUE
        raise SystemExit(stop.exit_code) from None
    recipe = load_recipe(args.recipe, sets)
    from stealthflow.llm.checkpoints import load_tokenizer

    started = time.time()
    rows = prompts(recipe, load_tokenizer(recipe.sft_adapter()), args.prompts)
    completions = score(recipe, rows, sample(recipe, rows), args.out)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(c) + "\n" for c in completions), encoding="utf-8")
    facts = summary(completions) | {"seconds": round(time.time() - started)}
    print(json.dumps(facts))
    print(
        "| parsed | garbled | copied | cut by the limit | readable | equal-reward groups | mean reward |\n"
        "|---|---|---|---|---|---|---|\n"
        f"| {facts['parsed']} | {facts['garbled']} | {facts['copied']} | {facts['cut']} | "
        f"{facts['readable']} ({facts['readable_share']:.0%}) | {facts['equal_reward_groups']:.0%} | "
        f"{facts['reward_mean']:.3f} |"
    )


if __name__ == "__main__":
    main()
