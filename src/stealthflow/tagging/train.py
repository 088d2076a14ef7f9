"""Train a span tagger (transformers `Trainer`, CPU): fine-tune the top MiniLM layers + head.

Examples are `(text, [(start, end, label), ...])`. Word pieces get BIO tags from the character
spans; the loss weighs tagged tokens more (`span_weight`), since most tokens are outside any
span and a tagger that says "O" everywhere would otherwise look good.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from stealthflow.tagging.model import MAX_TOKENS, SpanTagger, base_model, bio_labels

Example = tuple[str, list[tuple[int, int, str]]]


@dataclass
class TaggerTrainConfig:
    labels: list[str]
    top_layers: int = 2  # the last N of MiniLM's 6 layers are trained (and shipped) with the head
    layers: int | None = None  # keep only MiniLM's bottom N layers (None: all 6)
    epochs: float = 2.0
    learning_rate: float = 1e-4
    batch_size: int = 16
    max_length: int = 128
    span_weight: float = 4.0
    threshold: float = 0.5
    seed: int = 0
    threads: int | None = None
    extra: dict = field(default_factory=dict)  # further transformers TrainingArguments


def encode(examples: list[Example], tokenizer, labels: list[str], max_length: int) -> list[dict]:
    """Token ids and BIO tag ids (-100 where no loss: special tokens); long texts are windowed."""
    tag_id = {tag: i for i, tag in enumerate(bio_labels(labels))}
    rows = []
    for text, spans in examples:
        encoded = tokenizer(text, truncation=True, max_length=max_length, stride=16, return_overflowing_tokens=True, return_offsets_mapping=True)
        for ids, offsets in zip(encoded["input_ids"], encoded["offset_mapping"], strict=True):
            tags, previous = [], None
            for start, end in offsets:
                if end <= start:
                    tags.append(-100)
                    continue
                span = next((s for s in spans if s[0] <= start < s[1]), None)
                if span is None:
                    tags.append(tag_id["O"])
                else:
                    tags.append(tag_id[f"{'I' if previous == span else 'B'}-{span[2]}"])
                previous = span
            rows.append({"input_ids": ids, "attention_mask": [1] * len(ids), "labels": tags})
    return rows


def freeze_below(model, top_layers: int) -> None:
    for param in model.parameters():
        param.requires_grad = False
    for layer in model.bert.encoder.layer[-top_layers:]:
        for param in layer.parameters():
            param.requires_grad = True
    for param in model.classifier.parameters():
        param.requires_grad = True


def train_tagger(examples: list[Example], config: TaggerTrainConfig, out_dir: str | Path, log=print) -> SpanTagger:
    import torch
    from datasets import Dataset
    from transformers import DataCollatorForTokenClassification, Trainer, TrainingArguments

    if config.threads:
        torch.set_num_threads(config.threads)
    random.Random(config.seed).shuffle(examples := list(examples))
    model, tokenizer = base_model(len(bio_labels(config.labels)), config.layers)
    freeze_below(model, config.top_layers)
    dataset = Dataset.from_list(encode(examples, tokenizer, config.labels, min(config.max_length, MAX_TOKENS)))
    weights = torch.full((len(bio_labels(config.labels)),), config.span_weight)
    weights[0] = 1.0

    class WeightedTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            labels = inputs.pop("labels")
            outputs = model(**inputs)
            loss = torch.nn.functional.cross_entropy(outputs.logits.view(-1, outputs.logits.size(-1)), labels.view(-1), weight=weights, ignore_index=-100)
            return (loss, outputs) if return_outputs else loss

    checkpoints = Path(out_dir) / "checkpoints"
    defaults = {"logging_steps": 20, "save_strategy": "no", "report_to": [], "disable_tqdm": True}
    args = TrainingArguments(
        output_dir=str(checkpoints),
        num_train_epochs=config.epochs,
        learning_rate=config.learning_rate,
        per_device_train_batch_size=config.batch_size,
        use_cpu=True,
        seed=config.seed,
        **(defaults | config.extra),
    )
    trainer = WeightedTrainer(model=model, args=args, train_dataset=dataset, data_collator=DataCollatorForTokenClassification(tokenizer))
    # With `save_strategy: steps` in `extra`, an interrupted run resumes from its last checkpoint.
    resume = checkpoints.is_dir() and any(checkpoints.glob("checkpoint-*"))
    log(f"training on {len(dataset)} windows of {len(examples)} texts" + (" (resuming)" if resume else ""))
    trainer.train(resume_from_checkpoint=resume or None)
    return SpanTagger(model, tokenizer, config.labels, config.threshold)
