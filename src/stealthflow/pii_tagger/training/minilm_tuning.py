"""The fine-tuning loop the MiniLM readers share (health_reader.py, finance_reader.py): AdamW on the parameters left
trainable, a linear warm-up over the first twentieth of the steps and a linear decay, batches of word-piece windows
padded to their longest, progress logged every 50 steps."""

from __future__ import annotations

import random
import time


def tune(
    model,
    encoded: list[tuple[list[int], list[int]]],
    *,
    epochs: float,
    learning_rate: float,
    batch_size: int,
    shuffle: random.Random,
    log=print,
) -> None:
    """Train `model` (a token classifier; its trainable parameters: those with `requires_grad`) on `encoded`, (word-piece
    ids, labels: -100 where not scored) per example, for `epochs`; leaves it in eval mode."""
    import torch

    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=learning_rate)
    steps = max(1, int(len(encoded) / batch_size * epochs))
    warmup = max(1, steps // 20)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1, (s + 1) / warmup) * max(0, 1 - s / steps))
    started, step = time.time(), 0
    model.train()
    while step < steps:
        shuffle.shuffle(encoded)
        for first in range(0, len(encoded), batch_size):
            batch = encoded[first : first + batch_size]
            width = max(len(ids) for ids, _ in batch)
            ids = torch.tensor([i + [0] * (width - len(i)) for i, _ in batch])
            attention = torch.tensor([[1] * len(i) + [0] * (width - len(i)) for i, _ in batch])
            labels = torch.tensor([lab + [-100] * (width - len(lab)) for _, lab in batch])
            loss = model(input_ids=ids, attention_mask=attention, labels=labels).loss
            loss.backward()
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            step += 1
            if step % 50 == 0 or step == steps:
                log(f"step {step}/{steps}: loss {loss.item():.3f}, {time.time() - started:.0f} s")
            if step >= steps:
                break
    model.eval()


def trained_layers(layers: int, top_layers: int) -> tuple[str, ...]:
    """The name parts of the top `top_layers` of the bottom `layers` encoder layers: the ones trained and shipped."""
    return tuple(f"encoder.layer.{n}." for n in range(layers - top_layers, layers))


def freeze_all_but(model, trained: tuple[str, ...]) -> None:
    """Leave trainable only the head and the encoder layers named by `trained`."""
    for name, parameter in model.named_parameters():
        parameter.requires_grad = name.startswith("classifier") or any(part in name for part in trained)


def shipped_state(model, trained: tuple[str, ...]) -> dict:
    """What a reader ships: the head and the `trained` layers, in float16."""
    return {
        k: v.contiguous().half()
        for k, v in model.state_dict().items()
        if k.startswith("classifier") or any(p in k for p in trained)
    }
