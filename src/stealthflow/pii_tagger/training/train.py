"""Train a span tagger (transformers `Trainer`, CPU): fine-tune the top MiniLM layers + head.

Examples are `(text, [(start, end, label), ...])`, or `(text, None)` for unlabelled text (real
prose: only the teacher's probabilities teach on it). Word pieces get BIO tags from the character
spans; the loss weighs tagged tokens more (`span_weight`), since most tokens are outside any
span and a tagger that says "O" everywhere would otherwise look good. With a `teacher` (a trained
tagger on the same tokenizer), part of the loss is the distance to the teacher's token
probabilities (distillation: a small student learns what the teacher generalised, not only the tags).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from stealthflow.data import DataError
from stealthflow.pii_tagger.model import MAX_TOKENS, SpanTagger, base_model, bio_labels
from stealthflow.pii_tagger.names import faker_name_lexicon
from stealthflow.pii_tagger.pieces import CASES, word_shapes
from stealthflow.pii_tagger.shape import StudentShape

Example = tuple[str, list[tuple[int, int, str]] | None]  # None: unlabelled, learnt from the teacher only


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
    threshold: float | None = None  # None: the starting tagger's (`init`), else 0.5
    seed: int = 0
    threads: int | None = None
    student: StudentShape | None = None  # train a convolutional student (student.py) instead of MiniLM layers
    teacher: str | None = None  # a trained tagger's directory: its token probabilities join the loss
    init: str | None = None  # a trained MiniLM tagger's directory to start from (warm start) instead of a fresh head
    distill_weight: float = 0.5  # the teacher's share of the loss
    temperature: float = 2.0  # softens the teacher's probabilities (the scaled loss keeps its size)
    soft_label_cache: str | None = None  # a file keeping the teacher's probabilities between runs
    context_dropout: float = (
        0.0  # share of the words outside spans hidden ([UNK]) per step: no single context word decides
    )
    lexicon_dropout: float = 0.0  # share of the word pieces whose name-lexicon flag is hidden per step: names outside the lexicon still count
    extra: dict = field(default_factory=dict)  # further transformers TrainingArguments


def encode(
    examples: list[Example],
    tokenizer,
    labels: list[str],
    max_length: int,
    lexicon: dict[str, int] | None = None,
    located: bool = False,
) -> list[dict]:
    """Token ids and BIO tag ids (-100 where no loss: special tokens, unlabelled texts); long texts are windowed.
    `located`: each row also says which example it is of and its pieces' character offsets (per-word distillation)."""
    tag_id = {tag: i for i, tag in enumerate(bio_labels(labels))}
    rows = []
    for number, (text, spans) in enumerate(examples):
        encoded = tokenizer(
            text,
            truncation=True,
            max_length=max_length,
            stride=16,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
        )
        for ids, offsets in zip(encoded["input_ids"], encoded["offset_mapping"], strict=True):
            tags, previous = [], None
            for start, end in offsets:
                if end <= start or spans is None:
                    tags.append(-100)
                    continue
                span = next((s for s in spans if s[0] <= start < s[1]), None)
                if span is None:
                    tags.append(tag_id["O"])
                else:
                    tags.append(tag_id[f"{'I' if previous == span else 'B'}-{span[2]}"])
                previous = span
            rows.append(
                {
                    "input_ids": ids,
                    "attention_mask": [1] * len(ids),
                    "labels": tags,
                    "case_ids": word_shapes(text, offsets, lexicon),
                }
            )
            if located:
                rows[-1] |= {"example": number, "offsets": offsets}
    return rows


def freeze_below(model, top_layers: int) -> None:
    for param in model.parameters():
        param.requires_grad = False
    for layer in model.bert.encoder.layer[-top_layers:]:
        for param in layer.parameters():
            param.requires_grad = True
    for param in model.classifier.parameters():
        param.requires_grad = True


def add_soft_labels(rows: list[dict], teacher: SpanTagger, temperature: float, batch_size: int = 64, log=print) -> None:
    """The teacher's token probabilities (at `temperature`, fp16) on each row's word pieces."""
    import torch

    order = sorted(range(len(rows)), key=lambda i: len(rows[i]["input_ids"]))  # little padding per batch
    log(f"teacher probabilities for {len(rows)} windows")
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            batch = collate([rows[i] for i in order[start : start + batch_size]])
            logits = teacher.model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).logits
            soft = torch.softmax(logits / temperature, dim=-1).half()
            for row, i in enumerate(order[start : start + batch_size]):
                rows[i]["teacher"] = soft[row, : len(rows[i]["input_ids"])].clone()


def add_word_soft_labels(
    rows: list[dict], texts: list[str], teacher: SpanTagger, temperature: float, chunk: int = 2000, log=print
) -> None:
    """The teacher's per-word probabilities (at `temperature`, fp16) on each row's pieces, for a student that reads
    other word pieces than the teacher (alignment.py); `rows` from `encode(..., located=True)` over `texts`, their
    location keys removed."""
    import torch

    from stealthflow.pii_tagger.training.alignment import soften, word_targets

    log(f"teacher probabilities per word for {len(rows)} windows of {len(texts)} texts")
    by_example: dict[int, list[dict]] = {}
    for row in rows:
        by_example.setdefault(row["example"], []).append(row)
    for first in range(0, len(texts), chunk):
        judged = teacher.token_probabilities(texts[first : first + chunk])
        for number, (offsets, probabilities) in enumerate(judged, start=first):
            softened = soften(probabilities, temperature)
            for row in by_example.get(number, []):
                targets = word_targets(texts[number], offsets, softened, row.pop("offsets"))
                row["teacher"] = torch.from_numpy(targets).half()
                del row["example"]
        log(f"  {min(first + chunk, len(texts))} of {len(texts)} texts")


def taught_rows(
    examples: list[Example],
    tokenizer,
    labels: list[str],
    max_length: int,
    lexicon: dict[str, int] | None,
    teacher: SpanTagger,
    temperature: float,
    log=print,
) -> list[dict]:
    """`encode`d rows with the teacher's probabilities: on the rows' own word pieces when the teacher reads the
    student's vocabulary, else per word (alignment.py)."""
    if teacher.tokenizer.get_vocab() == tokenizer.get_vocab():
        rows = encode(examples, tokenizer, labels, max_length, lexicon)
        add_soft_labels(rows, teacher, temperature, log=log)
        return rows
    rows = encode(examples, tokenizer, labels, max_length, lexicon, located=True)
    add_word_soft_labels(rows, [text for text, _ in examples], teacher, temperature, log=log)
    return rows


def collate(rows: list[dict]) -> dict:
    """Pads a batch: ids with 0 ([PAD]), labels with -100 (no loss), teacher probabilities with 0."""
    import torch

    length = max(len(r["input_ids"]) for r in rows)

    def pad(values, fill):
        return [v + [fill] * (length - len(v)) for v in values]

    batch = {
        "input_ids": torch.tensor(pad([r["input_ids"] for r in rows], 0)),
        "attention_mask": torch.tensor(pad([r["attention_mask"] for r in rows], 0)),
        "labels": torch.tensor(pad([r["labels"] for r in rows], -100)),
        "case_ids": torch.tensor(pad([r["case_ids"] for r in rows], 0)),
    }
    if "teacher" in rows[0]:
        batch["teacher"] = torch.stack(
            [torch.nn.functional.pad(r["teacher"], (0, 0, 0, length - len(r["input_ids"]))) for r in rows]
        )
    return batch


def training_rows(
    examples: list[Example], config: TaggerTrainConfig, tokenizer, lexicon: dict[str, int] | None = None, log=print
) -> list[dict]:
    """The examples shuffled (by `config.seed`) and encoded, with the teacher's probabilities where
    `config` names a teacher (read from `config.soft_label_cache` when it holds them for these rows)."""
    import torch

    random.Random(config.seed).shuffle(examples := list(examples))
    max_length = min(config.max_length, MAX_TOKENS)
    if not config.teacher:
        return encode(examples, tokenizer, config.labels, max_length, lexicon)
    cache = Path(config.soft_label_cache) if config.soft_label_cache else None
    if cache and cache.exists():
        rows = encode(examples, tokenizer, config.labels, max_length, lexicon)
        for row, soft in zip(rows, torch.load(cache), strict=True):
            row["teacher"] = soft
        return rows
    teacher = SpanTagger.load(config.teacher, trainable=True)
    rows = taught_rows(examples, tokenizer, config.labels, max_length, lexicon, teacher, config.temperature, log)
    if cache:
        torch.save([row["teacher"] for row in rows], cache)
    return rows


class TaggingLoss:
    """A batch's loss: weighted cross-entropy on the gold tags and, where the batch carries a teacher's
    probabilities, the distillation distance to them (`distill_weight` of the total); in training, words
    outside spans are hidden (`context_dropout`) and name-lexicon flags too (`lexicon_dropout`)."""

    def __init__(self, config: TaggerTrainConfig, unknown_id: int):
        import torch

        self.config, self.unknown_id = config, unknown_id
        self.num_tags = len(bio_labels(config.labels))
        self.weights = torch.full((self.num_tags,), config.span_weight)
        self.weights[0] = 1.0

    def __call__(self, model, inputs: dict) -> tuple:
        """(loss, model outputs); takes the labels, teacher probabilities and word shapes out of `inputs`."""
        import torch

        config, num_tags, temperature = self.config, self.num_tags, self.config.temperature
        labels, teacher, cases = inputs.pop("labels"), inputs.pop("teacher", None), inputs.pop("case_ids")
        if model.training and config.context_dropout:
            hidden = (labels == 0) & (torch.rand(labels.shape) < config.context_dropout)
            inputs["input_ids"] = inputs["input_ids"].masked_fill(hidden, self.unknown_id)
        if model.training and config.lexicon_dropout:
            cases = torch.where(torch.rand(cases.shape) < config.lexicon_dropout, cases % CASES, cases)
        outputs = model(**inputs, **({"case_ids": cases} if getattr(model, "uses_case", False) else {}))
        logits, labels = outputs.logits.view(-1, num_tags), labels.view(-1)
        gold = labels != -100  # none in a batch of unlabelled texts (the mean over no token would be NaN)
        loss = (
            torch.nn.functional.cross_entropy(logits, labels, weight=self.weights, ignore_index=-100)
            if gold.any()
            else logits.sum() * 0
        )
        if teacher is not None:
            scored = inputs["attention_mask"].view(-1).bool()  # every real token, labelled or not
            soft = torch.nn.functional.log_softmax(logits[scored] / temperature, dim=-1)
            distance = (
                torch.nn.functional.kl_div(soft, teacher.view(-1, num_tags)[scored].float(), reduction="batchmean")
                * temperature**2
            )
            loss = (1 - config.distill_weight) * loss + config.distill_weight * distance
        return loss, outputs


def train_tagger(examples: list[Example], config: TaggerTrainConfig, out_dir: str | Path, log=print) -> SpanTagger:
    import torch
    from transformers import Trainer, TrainingArguments

    if config.threads:
        torch.set_num_threads(config.threads)
    num_tags = len(bio_labels(config.labels))
    threshold, trained = config.threshold, None
    lexicon = faker_name_lexicon() if config.student and config.student.lexicon else None
    if config.student:
        from stealthflow.pii_tagger.student import student_model

        model, tokenizer = student_model(num_tags, config.student)
    elif config.init:
        start = SpanTagger.load(config.init, trainable=True)
        if start.labels != config.labels:
            raise DataError(f"--init {config.init} tags {start.labels}, not {config.labels}")
        model, tokenizer = start.model.train(), start.tokenizer
        freeze_below(model, config.top_layers)
        threshold = start.threshold if threshold is None else threshold
        # the start's trained layers stay saved when this run trains fewer: frozen, they still differ from MiniLM's
        trained = start.trained | {name for name, param in model.named_parameters() if param.requires_grad}
    else:
        model, tokenizer = base_model(num_tags, config.layers)
        freeze_below(model, config.top_layers)
    rows = training_rows(examples, config, tokenizer, lexicon, log)
    loss_of = TaggingLoss(config, tokenizer.unk_token_id)

    class WeightedTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, **kwargs):
            loss, outputs = loss_of(model, inputs)
            return (loss, outputs) if return_outputs else loss

    checkpoints = Path(out_dir) / "checkpoints"
    defaults = {
        "logging_steps": 20,
        "save_strategy": "no",
        "report_to": [],
        "disable_tqdm": True,
        "remove_unused_columns": False,
    }
    args = TrainingArguments(
        output_dir=str(checkpoints),
        num_train_epochs=config.epochs,
        learning_rate=config.learning_rate,
        per_device_train_batch_size=config.batch_size,
        use_cpu=True,
        seed=config.seed,
        **(defaults | config.extra),
    )
    trainer = WeightedTrainer(model=model, args=args, train_dataset=rows, data_collator=collate)
    # With `save_strategy: steps` in `extra`, an interrupted run resumes from its last checkpoint.
    resume = checkpoints.is_dir() and any(checkpoints.glob("checkpoint-*"))
    log(f"training on {len(rows)} windows of {len(examples)} texts" + (" (resuming)" if resume else ""))
    trainer.train(resume_from_checkpoint=resume or None)
    return SpanTagger(
        model, tokenizer, config.labels, 0.5 if threshold is None else threshold, trained=trained, lexicon=lexicon
    )
