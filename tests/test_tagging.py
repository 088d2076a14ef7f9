"""The MiniLM span-tagger core: BIO encoding, training a few steps, offsets, save/load of the
trained layers only (real MiniLM from the packaged model, tiny data)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stealthflow.pii_tagger.model import SpanTagger, base_model, bio_labels
from stealthflow.pii_tagger.shape import StudentShape
from stealthflow.pii_tagger.training.train import TaggerTrainConfig, encode, train_tagger

TEXT = "I live in Leeds and work as a nurse."
SPANS = [(10, 15, "location"), (30, 35, "occupation")]


@pytest.fixture(scope="module")
def teacher(tmp_path_factory) -> Path:
    """A small MiniLM teacher trained on TEXT, saved once for the students of this module."""
    where = tmp_path_factory.mktemp("teacher")
    config = TaggerTrainConfig(
        labels=["location", "occupation"], top_layers=1, epochs=6, learning_rate=2e-3, batch_size=4
    )
    train_tagger([(TEXT, SPANS)] * 8, config, where / "run", log=lambda *_: None).save(where / "teacher")
    return where / "teacher"


def test_character_spans_become_bio_tags_on_word_pieces():
    _, tokenizer = base_model(len(bio_labels(["location", "occupation"])))
    row = encode([(TEXT, SPANS)], tokenizer, ["location", "occupation"], 64)[0]
    tags = bio_labels(["location", "occupation"])
    named = [tags[t] for t in row["labels"] if t != -100]
    assert named.count("B-location") == 1 and named.count("B-occupation") == 1
    assert row["labels"][0] == -100 and row["labels"][-1] == -100  # [CLS], [SEP]


def test_a_trained_tagger_finds_its_spans_with_exact_offsets_and_reloads_from_its_small_weights(tmp_path):
    config = TaggerTrainConfig(
        labels=["location", "occupation"], top_layers=1, epochs=6, learning_rate=2e-3, batch_size=4
    )
    tagger = train_tagger([(TEXT, SPANS)] * 8, config, tmp_path / "run", log=lambda *_: None)
    spans = tagger.tag(TEXT)
    assert [(s.start, s.end, s.label) for s in spans] == SPANS
    tagger.save(tmp_path / "tagger")
    size = (tmp_path / "tagger" / "tagger.safetensors").stat().st_size
    assert size < 5_000_000  # one layer and the head in fp16, not the whole encoder
    again = SpanTagger.load(tmp_path / "tagger")  # numpy
    assert [(s.start, s.end, s.label) for s in again.tag(TEXT)] == SPANS
    # a reloaded tagger saves the same parameters, not the whole model
    SpanTagger.load(tmp_path / "tagger", trainable=True).save(tmp_path / "resaved")
    assert (tmp_path / "resaved" / "tagger.safetensors").stat().st_size == size


def test_a_warm_start_trains_on_from_a_saved_taggers_weights_not_a_fresh_head(tmp_path, teacher):
    """With `init`, training starts from the teacher's trained layers and head: with a vanishing learning rate
    it still finds the teacher's spans (a fresh head finds none); a tagger of other labels is refused."""
    config = TaggerTrainConfig(
        labels=["location", "occupation"], top_layers=1, epochs=1, learning_rate=1e-12, batch_size=4, init=str(teacher)
    )
    tagger = train_tagger([("We met for lunch on Friday.", [])] * 4, config, tmp_path / "run", log=lambda *_: None)
    assert [(s.start, s.end, s.label) for s in tagger.tag(TEXT)] == SPANS
    config.init, config.labels = str(teacher), ["location"]
    with pytest.raises(ValueError, match="tags"):
        train_tagger([(TEXT, [])], config, tmp_path / "other", log=lambda *_: None)


def test_a_warm_start_training_fewer_layers_saves_the_starts_other_layers_and_keeps_its_threshold(tmp_path):
    """A start trained on two layers, trained on with `top_layers=1` and a vanishing learning rate: the saved tagger
    reloads as the start (the frozen layer the start had trained was not saved, and fell back to MiniLM's), and it
    tags at the start's threshold unless one is given."""
    config = TaggerTrainConfig(
        labels=["location", "occupation"], top_layers=2, epochs=6, learning_rate=2e-3, batch_size=4, threshold=0.4
    )
    start = train_tagger([(TEXT, SPANS)] * 8, config, tmp_path / "run", log=lambda *_: None)
    start.save(tmp_path / "start")
    config = TaggerTrainConfig(
        labels=["location", "occupation"], top_layers=1, epochs=1, learning_rate=1e-12, batch_size=4
    )
    config.init = str(tmp_path / "start")
    warm = train_tagger([("We met for lunch on Friday.", [])] * 4, config, tmp_path / "warm", log=lambda *_: None)
    warm.save(tmp_path / "saved")
    again = SpanTagger.load(tmp_path / "saved", trainable=True)
    assert again.trained == start.trained and again.threshold == 0.4
    before = SpanTagger.load(tmp_path / "start").tag(TEXT)
    assert [(s.start, s.end, s.label) for s in SpanTagger.load(tmp_path / "saved").tag(TEXT)] == [
        (s.start, s.end, s.label) for s in before
    ]


def test_the_cli_refuses_a_start_of_other_tags_with_an_error_line(tmp_path, teacher):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    result = CliRunner().invoke(
        app, ["train", "cue-tagger", "--out", str(tmp_path / "out"), "--init", str(teacher), "--epochs", "0.1"]
    )
    assert result.exit_code == 2 and "error:" in result.output and "Traceback" not in result.output, result.output


def test_long_texts_are_tagged_in_windows_with_offsets_into_the_whole_text(tmp_path):
    config = TaggerTrainConfig(
        labels=["location", "occupation"], top_layers=1, epochs=6, learning_rate=2e-3, batch_size=4
    )
    tagger = train_tagger([(TEXT, SPANS)] * 8, config, tmp_path / "run", log=lambda *_: None)
    long_text = "Nothing to see here at all. " * 120 + TEXT
    found = [(long_text[s.start : s.end], s.label) for s in tagger.tag(long_text)]
    assert ("Leeds", "location") in found and ("nurse", "occupation") in found


def test_a_long_texts_windows_are_of_one_length_share_the_stride_and_each_token_is_read_away_from_a_seam():
    import numpy as np

    from stealthflow.pii_tagger.model import STRIDE, _each_token_once, window_bounds

    for pieces in (0, 5, 1022, 1023, 3400, 100_000):
        bounds = window_bounds(pieces, 1022)
        assert bounds[0][0] == 0 and bounds[-1][1] == pieces and len({stop - start for start, stop in bounds}) == 1
        assert all(stop - start <= 1022 for start, stop in bounds) and len(bounds) == max(
            1, -(-(pieces - STRIDE) // (1022 - STRIDE))
        )
        assert all(
            0 < stop - next_start >= STRIDE for (_, stop), (next_start, _) in zip(bounds, bounds[1:], strict=False)
        )
    windows = []  # three windows over 200 one-character pieces; each window's probabilities are its number
    for number, (start, stop) in enumerate(window_bounds(200, 90)):
        offsets = np.array([[0, 0]] + [[i, i + 1] for i in range(start, stop)] + [[0, 0]])
        windows.append((offsets, np.full((len(offsets), 1), float(number))))
    offsets, probabilities = _each_token_once(windows)
    assert offsets[:, 0].tolist() == list(range(200))
    (first_stop, second_start), (second_stop, third_start) = [
        (windows[n][0][-2, 1], windows[n + 1][0][1, 0]) for n in (0, 1)
    ]
    assert (
        probabilities[second_start + STRIDE // 2 - 1, 0] == 0 and probabilities[second_start + STRIDE // 2, 0] == 1
    )  # the shared pieces split in half
    assert (
        probabilities[third_start + STRIDE // 2 - 1, 0] == 1
        and probabilities[-1, 0] == 2
        and first_stop > second_start
        and second_stop > third_start
    )


def test_a_convolutional_student_learns_from_gold_tags_and_a_teacher_and_ships_without_the_embedding_table(
    tmp_path, teacher
):
    config = TaggerTrainConfig(
        labels=["location", "occupation"], student=StudentShape(width=32, dilations=[1, 2]), teacher=str(teacher),
        epochs=30, learning_rate=1e-2, batch_size=4, soft_label_cache=str(tmp_path / "soft.pt"),
    )  # fmt: skip
    student = train_tagger([(TEXT, SPANS)] * 8, config, tmp_path / "run", log=lambda *_: None)
    assert (tmp_path / "soft.pt").exists(), "the teacher's probabilities are kept for the next run"
    assert [(s.start, s.end, s.label) for s in student.tag(TEXT)] == SPANS
    student.save(tmp_path / "student")
    assert (
        tmp_path / "student" / "tagger.safetensors"
    ).stat().st_size < 200_000  # MiniLM's 30522 x 384 table is not in it
    again = SpanTagger.load(tmp_path / "student")
    assert [(s.start, s.end, s.label) for s in again.tag(TEXT)] == SPANS
    found = {
        (s.start, s.end, s.label) for s in again.tag("Nothing here. " * 100 + TEXT)
    }  # one long window, offsets into the whole text
    assert {(s + 1400, e + 1400, label) for s, e, label in SPANS} <= found


def test_the_students_shifted_copies_are_the_sequence_shifted_by_each_tap_with_zeros_past_the_ends():
    import torch

    from stealthflow.pii_tagger.student import shifted_copies

    x = torch.arange(1, 11, dtype=torch.float).view(1, 5, 2)  # 5 positions, width 2
    for dilation in (1, 2, 4, 9):  # 9: every shifted tap falls past the ends
        padded = torch.nn.functional.pad(x, (0, 0, 2 * dilation, 2 * dilation))
        expected = torch.cat([padded[:, j * dilation : j * dilation + 5] for j in range(5)], dim=-1)  # kernel 5
        assert torch.equal(shifted_copies(x, dilation, 5), expected)


def test_a_separable_students_taps_are_its_full_convolution_with_per_channel_weights():
    import torch

    from stealthflow.pii_tagger.student import depthwise_taps, shifted_copies

    x, weight = torch.randn(2, 7, 3), torch.randn(5, 3)  # kernel 5, width 3
    for dilation in (1, 2, 4, 9):  # 9: every tap but the centre falls past the ends
        full = shifted_copies(x, dilation, 5).view(2, 7, 5, 3)  # (batch, positions, tap, channel)
        assert torch.allclose(depthwise_taps(x, weight, dilation), (full * weight).sum(2), atol=1e-6)


def test_a_separable_student_learns_its_spans_and_reloads_with_the_same_shape(tmp_path):
    config = TaggerTrainConfig(
        labels=["location", "occupation"], student=StudentShape(width=32, dilations=[1, 2], separable=True),
        epochs=30, learning_rate=1e-2, batch_size=4,
    )  # fmt: skip
    student = train_tagger([(TEXT, SPANS)] * 8, config, tmp_path / "run", log=lambda *_: None)
    assert [(s.start, s.end, s.label) for s in student.tag(TEXT)] == SPANS
    assert student.model.mixes[0].in_features == 32  # a width x width mix, not kernel x width
    student.save(tmp_path / "student")
    again = SpanTagger.load(tmp_path / "student")
    assert again.model.shape.separable and [(s.start, s.end, s.label) for s in again.tag(TEXT)] == SPANS


def test_a_student_learns_unlabelled_text_from_the_teachers_probabilities_alone(tmp_path, teacher):
    config = TaggerTrainConfig(
        labels=["location", "occupation"], student=StudentShape(width=32, dilations=[1, 2]), teacher=str(teacher),
        epochs=30, learning_rate=1e-2, batch_size=4,
    )  # fmt: skip
    student = train_tagger(
        [(TEXT, None)] * 8, config, tmp_path / "run", log=lambda *_: None
    )  # no gold tag in any batch
    assert [(s.start, s.end, s.label) for s in student.tag(TEXT)] == SPANS


def test_the_name_lexicon_comes_from_fakers_locales_without_function_words_or_initials():
    from stealthflow.pii_tagger.names import FAMILY, GIVEN, faker_name_lexicon

    lexicon = faker_name_lexicon()
    assert lexicon["xiomara"] == GIVEN and lexicon["nnamani"] == FAMILY and lexicon["grace"] == GIVEN | FAMILY
    assert lexicon["аристарх"] == GIVEN  # casefolded, every script
    assert not {"the", "a", "my", "e"} & set(lexicon)  # words some name holds that carry no signal


def test_the_six_languages_given_names_are_fakers_of_their_locales_as_shipped():
    from stealthflow.pii_tagger.names import languages_given_names
    from stealthflow.placeholders.language import OTHERS
    from stealthflow.resources import data_words

    names = languages_given_names(OTHERS)
    assert {"juan", "sofia", "jürgen"} <= set(names) and not {"toma", "bebe"} & set(names)  # other locales only
    assert names == sorted(data_words("languages/given-names.txt"))  # the shipped list is the builder's, unedited


def test_a_students_word_shapes_carry_each_words_lexicon_flag_on_all_its_pieces():
    from stealthflow.pii_tagger.names import FAMILY, GIVEN
    from stealthflow.pii_tagger.pieces import CASES, word_shapes

    _, tokenizer = base_model(len(bio_labels(["name"])))
    text = "ask Oyindasola Smith, not the smith"
    encoded = tokenizer(text, return_offsets_mapping=True)
    plain = word_shapes(text, encoded["offset_mapping"])
    flagged = word_shapes(text, encoded["offset_mapping"], {"oyindasola": GIVEN, "smith": FAMILY})
    word_flag = {}  # each word's flags, from all its pieces
    for (start, end), shape, base in zip(encoded["offset_mapping"], flagged, plain, strict=True):
        assert shape % CASES == base  # case and shape unchanged
        if end > start:
            word = next((m.group() for m in re.finditer(r"\w+", text) if m.start() <= start < m.end()), None)
            word_flag.setdefault(word, set()).add(shape // CASES)
    assert word_flag == {
        "ask": {0},
        "Oyindasola": {GIVEN},
        "Smith": {FAMILY},
        None: {0},
        "not": {0},
        "the": {0},
        "smith": {FAMILY},
    }  # None: the comma


def test_a_student_with_a_name_lexicon_ships_it_beside_its_weights(tmp_path):
    import pytest

    config = TaggerTrainConfig(
        labels=["location", "occupation"], student=StudentShape(width=32, dilations=[1, 2], lexicon=True),
        epochs=30, learning_rate=1e-2, batch_size=4, lexicon_dropout=0.3,
    )  # fmt: skip
    student = train_tagger([(TEXT, SPANS)] * 8, config, tmp_path / "run", log=lambda *_: None)
    assert [(s.start, s.end, s.label) for s in student.tag(TEXT)] == SPANS
    student.save(tmp_path / "student")
    again = SpanTagger.load(tmp_path / "student")
    assert again.lexicon == student.lexicon and len(again.lexicon) > 10_000
    assert [(s.start, s.end, s.label) for s in again.tag(TEXT)] == SPANS
    with pytest.raises(ValueError, match="lexicon needs case"):
        train_tagger(
            [(TEXT, SPANS)],
            TaggerTrainConfig(labels=["location"], student=StudentShape(case=False, lexicon=True)),
            tmp_path / "bad",
            log=lambda *_: None,
        )


def test_the_students_fused_product_falls_back_to_the_plain_pair_where_torch_or_the_cpu_lacks_it(monkeypatch):
    import torch

    from stealthflow.pii_tagger.student import _linear_gelu, _packed_linear_gelu

    weight, bias, taps = torch.randn(4, 6), torch.randn(4), torch.randn(1, 3, 6)

    def missing(*_):
        raise RuntimeError("mkldnn bf16 path needs avx512")

    monkeypatch.setattr(torch.ops.mkldnn, "_linear_pointwise", missing)
    assert torch.equal(_packed_linear_gelu(weight, bias)(taps), _linear_gelu(taps, weight, bias))
