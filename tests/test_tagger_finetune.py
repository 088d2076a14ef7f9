"""`stealthflow tagger finetune` (pii_tagger/training/finetune.py): a trained tagger trained further on natural
messages, its own training windows replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stealthflow.data import DataError
from stealthflow.pii_tagger.model import SpanTagger
from stealthflow.pii_tagger.training.data import TAGGER_LABELS, build_splits, read_marked
from stealthflow.pii_tagger.training.finetune import FinetuneConfig, certain, finetune_tagger, pool_of
from stealthflow.pii_tagger.training.runs import (
    FinetuneRecipe,
    finetuned_card,
    load_finetune_recipe,
    load_tagger_recipe,
    pseudo_labelled,
    run_finetune,
)
from stealthflow.pii_tagger.training.train import TaggerTrainConfig, training_rows

REPO = Path(__file__).resolve().parent.parent
STUDENT = REPO / "models/pii-tagger-student"
RECIPE = REPO / "training/pii-tagger-student-finetune-languages.yaml"  # the shipped student's first fine-tune
SECOND_RECIPE = REPO / "training/pii-tagger-student-finetune-c.yaml"  # its second, from the first's weights
THIRD_RECIPE = REPO / "training/pii-tagger-student-finetune-xe.yaml"  # its third, from the second's weights
FOURTH_RECIPE = REPO / "training/pii-tagger-student-finetune-t23.yaml"  # its fourth, from the third's weights
SHIPPED_RECIPE = REPO / "training/pii-tagger-student-finetune-t47b.yaml"  # its fifth, from the fourth's weights


@pytest.mark.real_model
def test_a_few_steps_change_the_student_and_leave_it_ready_to_tag(tmp_path):
    """The shipped student and teacher, a small replay with the teacher's probabilities, three steps:
    its weights move, it is back in evaluation mode, and it still tags a name."""
    import torch

    base = load_tagger_recipe(REPO / "training/pii-tagger-student.yaml")
    loss = {
        key: getattr(base, key)
        for key in ("span_weight", "distill_weight", "temperature", "context_dropout", "lexicon_dropout")
    }
    config = TaggerTrainConfig(
        labels=TAGGER_LABELS, teacher=str(REPO / "models/pii-tagger"), **loss
    )  # the recipe's loss, no data directory
    tagger, teacher = (
        SpanTagger.load(STUDENT, trainable=True),
        SpanTagger.load(REPO / "models/pii-tagger", trainable=True),
    )
    before = {name: p.detach().clone() for name, p in tagger.model.named_parameters() if p.requires_grad}
    train, _ = build_splits(60)
    replay = training_rows(
        [(e.text, e.spans) for e in train], config, tagger.tokenizer, tagger.lexicon, log=lambda *_: None
    )
    negatives = ["Who painted the Sistine Chapel ceiling?", "How tall is the Eiffel Tower?"]
    personal = [("My sister Ama Owusu works at Kumasi General.", [(11, 20, "REAL_NAME"), (30, 44, "EMPLOYER")])]
    annotated = [("Meine Schwester Katrin Weiß arbeitet bei Siemens.", [(16, 27, "REAL_NAME"), (41, 48, "EMPLOYER")])]
    settings = FinetuneConfig(steps=3, batch_size=8, negatives_share=0.25, personal_share=0.25, annotated_share=0.25)
    finetune_tagger(
        tagger, replay, negatives, personal, teacher, config, settings, log=lambda *_: None, annotated=annotated
    )
    moved = [
        name for name, p in tagger.model.named_parameters() if p.requires_grad and not torch.equal(p, before[name])
    ]
    assert moved and all(torch.isfinite(p).all() for p in tagger.model.parameters())
    assert not tagger.model.training
    assert any(span.label == "REAL_NAME" for span in tagger.tag("Please call my brother Kwame Mensah tonight."))


@pytest.mark.real_model
def test_a_fine_tune_without_a_teacher_teaches_every_row_by_its_tags_alone():
    """A student on other word pieces than the teacher's (embedding_source.py) is fine-tuned with no teacher: no row
    carries a distillation target, and personal messages need no teacher's pass. Its weights still move."""
    import torch

    config = TaggerTrainConfig(labels=TAGGER_LABELS, span_weight=3.0)  # no teacher
    tagger = SpanTagger.load(STUDENT, trainable=True)
    before = {name: p.detach().clone() for name, p in tagger.model.named_parameters() if p.requires_grad}
    train, _ = build_splits(40)
    replay = training_rows([(e.text, e.spans) for e in train], config, tagger.tokenizer, tagger.lexicon, log=print)
    assert not any("teacher" in row for row in replay)
    personal = [("My sister Ama Owusu works at Kumasi General.", [(11, 20, "REAL_NAME"), (30, 44, "EMPLOYER")])]
    annotated = [("Meine Schwester Katrin Weiß arbeitet bei Siemens.", [(16, 27, "REAL_NAME"), (41, 48, "EMPLOYER")])]
    settings = FinetuneConfig(steps=3, batch_size=8, negatives_share=0.25, personal_share=0.25, annotated_share=0.25)
    negatives = ["Who painted the Sistine Chapel ceiling?", "How tall is the Eiffel Tower?"]
    finetune_tagger(
        tagger, replay, negatives, personal, None, config, settings, log=lambda *_: None, annotated=annotated
    )
    assert any(not torch.equal(p, before[name]) for name, p in tagger.model.named_parameters() if p.requires_grad)


@pytest.mark.real_model
def test_an_interrupted_fine_tune_resumes_from_its_checkpoint_to_the_weights_of_an_unbroken_run(tmp_path):
    """Stopped after its checkpoint at step 2 of 4, a rerun with the same settings restores the weights,
    optimizer, schedule and random draws and ends where a run without a stop ends."""
    import torch

    base = load_tagger_recipe(REPO / "training/pii-tagger-student.yaml")
    loss = {key: getattr(base, key) for key in ("span_weight", "distill_weight", "temperature", "context_dropout")}
    config = TaggerTrainConfig(labels=TAGGER_LABELS, teacher=str(REPO / "models/pii-tagger"), **loss)
    teacher = SpanTagger.load(REPO / "models/pii-tagger", trainable=True)  # its torch module gives the probabilities
    train, _ = build_splits(40)
    negatives = ["Who painted the Sistine Chapel ceiling?", "urlLink Check this out &nbsp; lol"]
    personal = [("My sister Ama Owusu works at Kumasi General.", [(11, 20, "REAL_NAME"), (30, 44, "EMPLOYER")])]

    def run(checkpoint: Path | None, log=lambda *_: None) -> dict:
        tagger = SpanTagger.load(STUDENT, trainable=True)
        replay = training_rows([(e.text, e.spans) for e in train], config, tagger.tokenizer, tagger.lexicon, log=log)
        settings = FinetuneConfig(
            steps=4,
            batch_size=8,
            negatives_share=0.25,
            personal_share=0.25,
            save_steps=2,
            checkpoint=str(checkpoint) if checkpoint else None,
        )
        finetune_tagger(tagger, replay, negatives, personal, teacher, config, settings, log=log)
        return {name: p.detach().clone() for name, p in tagger.model.named_parameters() if p.requires_grad}

    class Stop(Exception):
        pass

    def stop_at_checkpoint(message: str) -> None:
        if message.startswith("checkpoint at step 2"):
            raise Stop

    checkpoint = tmp_path / "finetune.pt"
    with pytest.raises(Stop):
        run(checkpoint, stop_at_checkpoint)
    assert checkpoint.exists()
    messages = []
    resumed, unbroken = run(checkpoint, messages.append), run(None)
    assert any(message.startswith("resuming from step 2 of 4") for message in messages)
    assert all(torch.allclose(resumed[name], unbroken[name], atol=1e-5) for name in unbroken)
    with pytest.raises(ValueError, match="another fine-tune's settings"):
        tagger = SpanTagger.load(STUDENT, trainable=True)
        settings = FinetuneConfig(steps=6, batch_size=8, checkpoint=str(checkpoint), personal_share=0)
        finetune_tagger(tagger, [], negatives, [], teacher, config, settings, log=lambda *_: None)


@pytest.mark.real_model
def test_personal_messages_are_labelled_by_the_whole_detector_with_the_taggers_types_only():
    texts = ["My name is Ingrid Johansson and my email is ingrid.j@mailbox.org", "How tall is the Eiffel Tower?"]
    (first, first_spans), (_, second_spans) = pseudo_labelled(texts, STUDENT)
    assert ("Ingrid Johansson", "REAL_NAME") in [(first[a:b], kind) for a, b, kind in first_spans]
    assert all(
        kind in TAGGER_LABELS for _, _, kind in first_spans
    )  # the email is a pattern's: not the tagger's to learn
    assert second_spans == []


def test_the_shipped_student_is_fine_tuned_and_a_second_fine_tune_of_it_is_refused(tmp_path):
    """A rerun of the recipe on its own output would train the weights further each time."""
    card = json.loads((STUDENT / "tagger.json").read_text(encoding="utf-8"))
    assert card["finetune"]["out"] == str(load_finetune_recipe(SHIPPED_RECIPE).out)
    assert card["languages"] == load_finetune_recipe(SHIPPED_RECIPE).languages
    # the first ran under another out folder: known by its steps
    first, second, third, fourth = card["earlier_finetunes"]
    assert first["steps"] == load_finetune_recipe(RECIPE).steps
    assert second["out"] == str(load_finetune_recipe(SECOND_RECIPE).out)
    assert third["out"] == str(load_finetune_recipe(THIRD_RECIPE).out)
    assert fourth["out"] == str(load_finetune_recipe(FOURTH_RECIPE).out)
    recipe = FinetuneRecipe.model_validate(
        load_finetune_recipe(RECIPE).model_dump()
        | {"base": REPO / "training/pii-tagger-student.yaml", "init_from": STUDENT, "out": tmp_path / "out"}
    )
    with pytest.raises(DataError, match="fine-tuned already"):
        run_finetune(recipe, log=lambda *_: None)


def test_a_fine_tuned_student_is_trained_further_only_when_the_recipe_says_so_and_into_another_folder(tmp_path):
    """`init_finetuned: true` lets the shipped student be trained further (here it gets past that check and
    stops at the empty negatives); writing over init_from, where each rerun would train it again, is refused."""
    from pydantic import ValidationError

    empty = tmp_path / "empty.txt"
    empty.write_text("\n", encoding="utf-8")
    settings = {"base": REPO / "training/pii-tagger-student.yaml", "init_from": STUDENT, "negatives": [empty]}
    recipe = FinetuneRecipe.model_validate(
        settings | {"out": tmp_path / "out", "init_finetuned": True, "personal_share": 0}
    )
    with pytest.raises(DataError, match="no messages in"):
        run_finetune(recipe, log=lambda *_: None)
    with pytest.raises(ValidationError, match="set another out"):
        FinetuneRecipe.model_validate(settings | {"out": STUDENT, "init_finetuned": True, "personal_share": 0})


def test_a_second_fine_tunes_card_keeps_the_first_fine_tunes_record():
    shipped = json.loads((STUDENT / "tagger.json").read_text(encoding="utf-8"))
    card = finetuned_card(shipped, {"all": {}}, {"steps": 7}, ["en", "de"])
    assert card["finetune"] == {"steps": 7} and card["languages"] == ["en", "de"]
    earlier = shipped.get("earlier_finetunes", [])
    assert card["earlier_finetunes"] == [*earlier, shipped["finetune"]]
    assert card["train_messages"] == shipped["train_messages"]  # the base training's record stays
    again = finetuned_card(card, {"all": {}}, {"steps": 9}, ["en"])
    assert again["earlier_finetunes"] == [*earlier, shipped["finetune"], {"steps": 7}]


def test_a_recipe_needs_messages_without_pii():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="negatives"):
        FinetuneRecipe.model_validate({"base": "b.yaml", "init_from": "m", "out": "o", "negatives": []})


def test_a_share_without_its_messages_is_refused_before_any_work(tmp_path):
    """Found at the first batch that drew from it, an empty pool had stopped the run with an IndexError."""
    from pydantic import ValidationError

    minimal = {"base": "b.yaml", "init_from": "m", "out": "o", "negatives": ["n.txt"]}
    with pytest.raises(ValidationError, match="personal_share needs personal messages"):
        FinetuneRecipe.model_validate(minimal)
    with pytest.raises(ValidationError, match="leave room"):
        FinetuneRecipe.model_validate(minimal | {"personal": ["p.txt"], "negatives_share": 0.5, "personal_share": 0.5})
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    recipe = FinetuneRecipe.model_validate(
        minimal
        | {
            "base": REPO / "training/pii-tagger-student.yaml",
            "init_from": tmp_path,
            "negatives": [empty],
            "personal_share": 0,
        }
    )
    (tmp_path / "tagger.json").write_text("{}", encoding="utf-8")  # a card without a fine-tune record
    with pytest.raises(DataError, match="no messages in"):
        run_finetune(recipe, log=lambda *_: None)


def test_hand_marked_messages_read_to_their_text_and_the_values_spans(tmp_path):
    marked = tmp_path / "personal-de.txt"
    marked.write_text(
        "Ich bin [Jürgen Weißmann](REAL_NAME), wohne in der [Schillerstraße 12, 80336 München](ADDRESS).\n\n"
        "[quote]Kein Wert hier[/quote], Tel. [0171 2345678](PHONE)\n",
        encoding="utf-8",
    )
    (first, first_spans), (second, second_spans) = read_marked(marked)
    assert first == "Ich bin Jürgen Weißmann, wohne in der Schillerstraße 12, 80336 München."
    assert [(first[a:b], kind) for a, b, kind in first_spans] == [
        ("Jürgen Weißmann", "REAL_NAME"),
        ("Schillerstraße 12, 80336 München", "ADDRESS"),
    ]
    assert second == "[quote]Kein Wert hier[/quote], Tel. 0171 2345678"
    assert [(second[a:b], kind) for a, b, kind in second_spans] == [("0171 2345678", "PHONE")]
    marked.write_text("schreib mir auf insta, [@kim.bauer92](USERNAME)\n", encoding="utf-8")
    ((handle, handle_spans),) = read_marked(marked)  # a structured type, scored and not taught
    assert [(handle[a:b], kind) for a, b, kind in handle_spans] == [("@kim.bauer92", "USERNAME")]
    marked.write_text("DB_PASSWORT=[Kaffeetasse!77](PASSWORD) von [jschmitt](USERNAME)\n", encoding="utf-8")
    ((secret, secret_spans),) = read_marked(marked)  # any type the detector masks is read
    assert [(secret[a:b], kind) for a, b, kind in secret_spans] == [
        ("Kaffeetasse!77", "PASSWORD"),
        ("jschmitt", "USERNAME"),
    ]
    marked.write_text("ok\n[Anna](REAL_NAME) und [Ben](NAME)\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"personal-de.txt:2: unknown type 'NAME'"):
        read_marked(marked)


def test_an_annotated_share_without_its_messages_is_refused():
    from pydantic import ValidationError

    minimal = {"base": "b.yaml", "init_from": "m", "out": "o", "negatives": ["n.txt"], "personal_share": 0}
    with pytest.raises(ValidationError, match="annotated_share needs hand-marked messages"):
        FinetuneRecipe.model_validate(minimal | {"annotated_share": 0.1})
    with pytest.raises(ValidationError, match="leave room"):
        FinetuneRecipe.model_validate(
            minimal | {"annotated": ["a.txt"], "annotated_share": 0.5, "negatives_share": 0.5}
        )


def test_each_draw_falls_in_its_pools_share_and_hand_marked_rows_teach_their_own_tags_for_certain():
    negatives, personal, annotated, replay = ["n"], ["p"], ["a"], ["r"]
    pools = [(0.05, negatives), (0.05, personal), (0.1, annotated)]
    assert [pool_of(draw, pools, replay) for draw in (0.0, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 0.99)] == [
        negatives,
        negatives,
        personal,
        personal,
        annotated,
        annotated,
        replay,
        replay,
    ]
    (row,) = certain([{"labels": [-100, 0, 1, 2, -100]}], num_tags=13)
    assert row["teacher"].argmax(-1).tolist() == [0, 0, 1, 2, 0]
    assert row["teacher"].max(-1).values.tolist() == [1.0] * 5
