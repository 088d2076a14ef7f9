"""Further training of a trained tagger on natural messages, from its own weights.

Why: generated templates teach a tagger what PII looks like, but natural messages without PII
(questions about famous people, characters, products, places) still set it off. Shown such
messages as holding nothing, a student with ~37 word pieces of static context unlearns names in
personal messages too; shown personal messages beside them (labelled by the tagger itself, with
its teacher's probabilities), it learns the difference at little cost (docs/pii-tagger.md).
Each batch mixes the tagger's own training windows (replay, so it keeps what it
knew) with a share of each kind of natural message.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from stealthflow.pii_tagger.model import MAX_TOKENS, SpanTagger, bio_labels
from stealthflow.pii_tagger.training.train import (
    Example,
    TaggerTrainConfig,
    TaggingLoss,
    collate,
    encode,
    taught_rows,
)


@dataclass
class FinetuneConfig:
    steps: int = 2000
    learning_rate: float = 1e-4  # decays linearly to 0
    batch_size: int = 64
    negatives_share: float = 0.05  # of each batch: messages without PII
    personal_share: float = 0.05  # of each batch: personal messages
    annotated_share: float = 0.0  # of each batch: messages with hand-marked spans
    seed: int = 0
    threads: int | None = None
    checkpoint: str | None = None  # the run's state is saved here every `save_steps` steps; a rerun resumes from it
    save_steps: int = 200


def finetune_tagger(
    tagger: SpanTagger,
    replay: list[dict],
    negatives: list[str],
    personal: list[Example],
    teacher: SpanTagger | None,
    train_config: TaggerTrainConfig,
    config: FinetuneConfig,
    log=print,
    annotated: list[Example] = (),
) -> SpanTagger:
    """`tagger` trained further (in place) for `config.steps` batches. `replay`: its training rows
    (`training_rows`, with the teacher's probabilities); `negatives` are taught as all "O", their
    distillation target a certain "O" (the teacher's own judgement of them is the flags to unlearn);
    `personal` with their spans and the teacher's probabilities (per word for a student on other word pieces,
    alignment.py); `annotated` with their hand-marked
    spans, the distillation target their own tags for certain (the teacher knows English only).
    `train_config` gives the loss (as in the tagger's own training). `teacher` None: every row teaches by its tags
    alone (the replay rows then carry no teacher's probabilities either)."""
    import torch

    if config.threads:
        torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    model, tokenizer, lexicon = tagger.model, tagger.tokenizer, tagger.lexicon
    max_length = min(train_config.max_length, MAX_TOKENS)
    num_tags = len(bio_labels(tagger.labels))
    # Without a teacher no row carries a distillation target.
    target = partial(certain, num_tags=num_tags) if teacher is not None else list
    negative_rows = target(encode([(text, []) for text in negatives], tokenizer, tagger.labels, max_length, lexicon))
    personal_rows = (
        taught_rows(personal, tokenizer, tagger.labels, max_length, lexicon, teacher, train_config.temperature, log)
        if teacher is not None
        else encode(personal, tokenizer, tagger.labels, max_length, lexicon)
    )
    annotated_rows = target(encode(list(annotated), tokenizer, tagger.labels, max_length, lexicon))
    pools = [(config.negatives_share, negative_rows), (config.personal_share, personal_rows)]
    pools.append((config.annotated_share, annotated_rows))
    loss_of = TaggingLoss(train_config, tokenizer.unk_token_id)
    parameters = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(parameters, lr=config.learning_rate, weight_decay=0.0)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1 - step / config.steps)
    rng = random.Random(config.seed)
    log(
        f"fine-tuning for {config.steps} steps: {len(replay)} replay windows, {len(negative_rows)} without PII, "
        f"{len(personal_rows)} personal, {len(annotated_rows)} hand-marked"
    )
    start = resume(config, model, optimizer, schedule, rng, log)
    model.train()
    for step in range(start, config.steps):
        batch = [rng.choice(pool_of(rng.random(), pools, replay)) for _ in range(config.batch_size)]
        loss, _ = loss_of(model, collate(batch))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        schedule.step()
        if step % 200 == 0 or step == config.steps - 1:
            log(f"step {step + 1}/{config.steps}: loss {loss.item():.4f}")
        if config.checkpoint and (step + 1) % config.save_steps == 0 and step + 1 < config.steps:
            save_state(config, step + 1, model, optimizer, schedule, rng)
            log(f"checkpoint at step {step + 1}: {config.checkpoint}")
    model.eval()
    return tagger


def certain(rows: list[dict], num_tags: int) -> list[dict]:
    """`rows` with their own tags as the distillation target, for certain ("O" where no tag counts)."""
    import torch

    for row in rows:
        tags = torch.tensor(row["labels"], dtype=torch.long).clamp(min=0)  # -100 (special tokens) -> "O"
        row["teacher"] = torch.nn.functional.one_hot(tags, num_tags).half()
    return rows


def pool_of(draw: float, pools: list[tuple[float, list[dict]]], rest: list[dict]) -> list[dict]:
    """The pool a draw in [0, 1) falls in: each of `pools` takes its share of [0, 1) in turn, `rest` the remainder."""
    for share, rows in pools:
        if draw < share:
            return rows
        draw -= share
    return rest


def save_state(config: FinetuneConfig, step: int, model, optimizer, schedule, rng: random.Random) -> None:
    import torch

    state = {
        "config": asdict(config),
        "step": step,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "schedule": schedule.state_dict(),
        "rng": rng.getstate(),
        "torch_rng": torch.get_rng_state(),
    }
    path = Path(config.checkpoint)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(state, path.with_suffix(".tmp"))
    path.with_suffix(".tmp").replace(path)  # a run stopped while saving keeps the last whole checkpoint


def resume(config: FinetuneConfig, model, optimizer, schedule, rng: random.Random, log) -> int:
    """The step to start from: 0, or the step of `config.checkpoint` with the run's state restored."""
    import torch

    path = Path(config.checkpoint) if config.checkpoint else None
    if not path or not path.exists():
        return 0
    state = torch.load(path, weights_only=False)  # our own file, written by save_state
    if state["config"] != asdict(config):
        raise ValueError(f"{path} is the checkpoint of another fine-tune's settings: delete it to start over")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    schedule.load_state_dict(state["schedule"])
    rng.setstate(state["rng"])
    torch.set_rng_state(state["torch_rng"])
    log(f"resuming from step {state['step']} of {config.steps} ({path})")
    return state["step"]
