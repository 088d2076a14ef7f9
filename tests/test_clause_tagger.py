"""The clause tagger (pii_tagger/clauses.py): health and money told in a clause, opt-in (`protect.clause_tagger`)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import numpy as np
import pytest
from placeholder_fixtures import protect_config
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.pii_tagger.clauses import ClauseTagger, read_clause_tagger, sentence_maxima, sentences
from stealthflow.pii_tagger.minilm import vocabulary
from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.pii_tagger.training.clauses import ClauseRecipe, labelled_sentences, load_clause_recipe
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.placeholders.recognizers import build_recognizers


class FakeRuntime:
    """A fake MiniLM runtime (labelled as such): a word piece of `marked` scores 0.95 for its label, any other 0.99
    for nothing; it counts the sentences it reads."""

    def __init__(self, marked: dict[str, int]):
        self.marked, self.windows = marked, 0

    def padded_probabilities(self, windows):
        tokenizer, found = vocabulary().tokenizer, []
        for window in windows:
            self.windows += 1
            rows = np.tile([0.99, 0.005, 0.005], (len(window), 1))
            for n, piece in enumerate(window):
                if (label := self.marked.get(tokenizer.id_to_token(int(piece)))) is not None:
                    rows[n] = [0.03, 0.02, 0.02]
                    rows[n, label] = 0.95
            found.append(rows)
        return found


class FakeClauses:
    """A fake clause tagger (labelled as such): marks each of `marked` (value -> label) wherever it stands."""

    def __init__(self, marked: dict[str, str]):
        self.marked = marked

    def tag(self, text, maxima):
        return [
            TaggedSpan(text.index(value), text.index(value) + len(value), label, 0.97)
            for value, label in self.marked.items()
            if value in text
        ]


def test_sentences_are_the_texts_sentences_without_the_white_space_after_them():
    text = "I owe rent. It hurts!  \n\nThird one"
    assert [text[a:b] for a, b in sentences(text)] == ["I owe rent.", "It hurts!", "Third one"]
    assert sentences("  \n ") == []


def test_runs_of_marked_word_pieces_become_whole_token_spans_of_their_label():
    """Word pieces at the threshold make a run; runs of a label a space apart are one span."""
    clauses = ClauseTagger(FakeRuntime({"behind": 2, "on": 2, "rent": 2, "asthma": 1}), threshold=0.9, floor=0.3)
    text = "I am behind on rent again. My asthma is bad."
    found = clauses.spans(text, clauses.read(text, sentences(text)))
    assert [(text[s.start : s.end], s.label) for s in found] == [("behind on rent", "FINANCE"), ("asthma", "HEALTH")]
    assert all(s.score == pytest.approx(0.95) for s in found)
    assert clauses.spans(text, clauses.read(text, sentences(text)), threshold=0.96) == []


def test_only_the_sentences_the_student_finds_suspect_are_read():
    runtime = FakeRuntime({"rent": 2})
    clauses = ClauseTagger(runtime, threshold=0.9, floor=0.3)
    text = "I am behind on rent. I pay rent."
    first, second = sentences(text)
    found = clauses.tag(text, [(first, 0.1), (second, 0.5)])
    assert [text[s.start : s.end] for s in found] == ["rent"] and found[0].start > second[0]
    assert runtime.windows == 1
    assert clauses.tag(text, [(first, 0.1), (second, 0.2)]) == [] and runtime.windows == 1


def test_a_sentences_student_maximum_is_its_best_health_or_money_piece():
    text = "I owe a lot. Fine."
    offsets = np.array([[0, 1], [2, 5], [6, 7], [8, 11], [13, 17], [0, 0]])
    tags = ["O", "B-FINANCE", "I-FINANCE", "B-HEALTH", "I-HEALTH", "B-REAL_NAME", "I-REAL_NAME"]
    probabilities = np.zeros((6, 7))
    probabilities[:, 0] = 1.0
    probabilities[1, :3] = [0.2, 0.5, 0.3]  # "owe": FINANCE 0.8
    probabilities[4, 5] = 0.9  # "Fine": a name, no health or money
    assert sentence_maxima(text, offsets, probabilities, tags) == [((0, 12), pytest.approx(0.8)), ((13, 18), 0.0)]


def test_the_recognizer_adds_what_the_clause_tagger_marks_where_nothing_else_was_found():
    """With the gates off (no reader reads them): a marked clause is added with its reason; one over a pattern match
    (the e-mail address) or over the student's own span is not; without `clauses` nothing is added."""
    text = "Write to jo.brandt@posteo.de about it. I'm three months behind on the car payments."
    fake = FakeClauses({"three months behind on the car payments": "FINANCE", "jo.brandt@posteo.de": "FINANCE"})
    recognizers = [*build_recognizers(["email"]), PiiTaggerRecognizer(gates=(), clauses=fake)]
    found = Detector(recognizers).detect(text)
    assert {(text[s.start : s.end], s.type) for s in found} == {
        ("jo.brandt@posteo.de", "EMAIL"),
        ("three months behind on the car payments", "FINANCE"),
    }
    assert "told in a clause, clause tagger 0.97" in next(s.reason for s in found if s.type == "FINANCE")
    plain = Detector([*build_recognizers(["email"]), PiiTaggerRecognizer(gates=())]).detect(text)
    assert [s.type for s in plain] == ["EMAIL"]


def test_the_setting_is_off_by_default_and_reaches_the_tagger():
    assert ProtectConfig().clause_tagger is False
    [tagger] = [r for r in build_recognizers(models=True) if r.name == "pii_tagger"]
    assert tagger.clauses is None
    [tagger] = [r for r in build_recognizers(models=True, clauses=True) if r.name == "pii_tagger"]
    assert isinstance(tagger.clauses, ClauseTagger)


def test_a_sentence_is_labelled_by_the_values_its_word_pieces_fall_in(tmp_path):
    path = tmp_path / "annotated.jsonl"
    rows = [
        {"text": "I owe £900 in rent. Nice day.", "pii": [{"value": "owe £900 in rent", "type": "FINANCE"}]},
        {"text": "My name is Ana.", "pii": [{"value": "Ana", "type": "REAL_NAME"}]},
    ]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    from transformers import AutoTokenizer

    from stealthflow.pii_tagger.minilm import model_dir

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir()))
    holding, without = labelled_sentences([path], tokenizer)
    assert len(holding) == 1 and len(without) == 2  # a name is no value of its labels
    ids, labels = holding[0]
    pieces = tokenizer.convert_ids_to_tokens(ids)
    assert [p for p, label in zip(pieces, labels, strict=True) if label == 2] == [
        "owe",
        "£",
        "##90",
        "##0",
        "in",
        "rent",
    ]
    assert labels[0] == labels[-1] == -100  # [CLS] and [SEP] are not scored


def tiny_recipe(tmp_path) -> Path:
    annotated = tmp_path / "annotated.jsonl"
    rows = [
        {
            "text": "I'm behind on my rent. The park is nice.",
            "pii": [{"value": "behind on my rent", "type": "FINANCE"}],
        },
        {"text": "Since my stroke I rest a lot.", "pii": [{"value": "my stroke", "type": "HEALTH"}]},
    ]
    annotated.write_text("".join(json.dumps(row) + "\n" for row in rows * 4), encoding="utf-8")
    reader_recipe = tmp_path / "reader.yaml"
    reader_recipe.write_text(f"annotated: [{annotated}, {tmp_path / 'kept-elsewhere.jsonl'}]\n", encoding="utf-8")
    recipe = tmp_path / "clauses.yaml"
    recipe.write_text(f"recipes: [{reader_recipe}]\nout: {tmp_path / 'clauses'}\nlayers: 1\nepochs: 1\n")
    return recipe


def test_a_recipe_reads_the_annotated_files_its_readers_recipes_name(tmp_path):
    from stealthflow.pii_tagger.training.clauses import annotated_files

    recipe = load_clause_recipe(tiny_recipe(tmp_path))
    assert recipe.layers == 1 and recipe.threshold == 0.9 and recipe.floor == 0.3
    assert annotated_files(recipe) == [tmp_path / "annotated.jsonl"]  # a file kept elsewhere is left out
    with pytest.raises(ValueError):
        ClauseRecipe(recipes=[], out=tmp_path / "x", layers=7)


@pytest.mark.real_model
def test_the_command_trains_a_clause_tagger_the_runtime_loads(tmp_path):
    """The CLI, for real: one layer of MiniLM, one epoch of the rows above, loaded back by the numpy runtime."""
    result = CliRunner().invoke(app, ["tagger", "clauses", "--recipe", str(tiny_recipe(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "8 sentences with a value, 4 without" in result.output  # each row four times
    clauses = read_clause_tagger(tmp_path / "clauses")
    assert clauses.runtime.config.num_hidden_layers == 1 and clauses.floor == 0.3
    text = "I'm behind on my rent."
    assert len(clauses.read(text, sentences(text))) == 1


@pytest.mark.real_model
def test_protect_with_the_setting_masks_money_told_in_a_clause_and_restores(tmp_path, monkeypatch):
    """The real chain: the shipped students, readers and clause tagger, a vault on disk, placeholders, restore."""
    from stealthflow.config import Settings
    from stealthflow.placeholders.restore import restore_text

    monkeypatch.setenv("STEALTHFLOW_TAGGER", "1")
    settings = Settings(protect=protect_config(tmp_path, monkeypatch, clause_tagger=True))
    protector = Protector.from_settings(settings, vault=open_vault(settings.protect))
    text = "I still owe my sister about three grand since the car broke down."
    protected = protector.protect(text, "s")
    [span] = [s for s in protected.spans if text[s.start : s.end] == "about three grand"]
    assert span.type == "FINANCE" and "told in a clause, clause tagger" in span.reason
    assert protected.text == "I still owe my sister <FINANCE_1> since the car broke down."
    assert restore_text(protected.text, protector.resolver("s")).text == text
    protector.close()


def test_the_protect_command_takes_the_setting_from_its_flag():
    from stealthflow.cli.app import protect_settings

    assert protect_settings(None, None, None, clause_tagger=True).protect.clause_tagger is True
    assert protect_settings(None, None, None, clause_tagger=None).protect.clause_tagger is False


def test_a_span_is_apart_only_from_ranges_it_does_not_overlap():
    from stealthflow.pii_tagger.recognizer import _apart

    tagged = [TaggedSpan(a, b, "FINANCE", 0.95) for a, b in ((0, 5), (5, 9), (12, 14), (30, 40))]
    taken = [(20, 25), (9, 12), (2, 3), (0, 1), (35, 36)]
    assert [(t.start, t.end) for t in _apart(tagged, taken)] == [(5, 9), (12, 14)]  # touching is no overlap
    assert _apart(tagged, []) == tagged


def test_the_python_apis_protect_takes_the_setting(tmp_path, monkeypatch):
    """`pipeline.protect(..., clause_tagger=True)` builds its default protector with the clause tagger, as
    `--clause-tagger` does; without it, none."""
    from stealthflow.pipeline import api
    from stealthflow.placeholders.keys import new_secret

    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name))
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", new_secret())
    monkeypatch.setenv("STEALTHFLOW_TAGGER", "1")
    api.default_protector.cache_clear()
    try:
        taggers = {
            clause_tagger: [
                r for r in api.default_protector(None, clause_tagger).detector.recognizers if r.model_backed
            ]
            for clause_tagger in (None, True)
        }
        assert taggers[None][0].clauses is None and isinstance(taggers[True][0].clauses, ClauseTagger)
        assert api.protect("hello there", session="s", clause_tagger=True).text == "hello there"
    finally:
        for protector in (api.default_protector(None, None), api.default_protector(None, True)):
            protector.close()
        api.default_protector.cache_clear()


class _Stop(Exception):
    """Raised by the fake settings below once a command has asked for its settings."""


@pytest.mark.parametrize(
    ("module", "args"),
    [
        ("app", ["ui", "--no-open"]),
        ("app", ["serve"]),
        ("app", ["proxy"]),
        ("memory", ["memory", "append", "--user", "u", "--text", "x"]),
        ("batch", ["batch", "protect", "in.jsonl", "-o", "out"]),
        ("batch", ["batch", "anonymize", "in.jsonl", "-o", "out"]),
    ],
)
def test_every_command_that_protects_takes_the_flag(monkeypatch, module, args):
    """The flag reaches the settings of ui, serve, proxy, memory append and batch as it does protect's (a fake
    `protect_settings`, labelled: it records its overrides and stops the command before anything loads)."""
    seen = []

    def fake_protect_settings(*_, **overrides):
        seen.append(overrides.get("clause_tagger"))
        raise _Stop

    monkeypatch.setattr(importlib.import_module(f"stealthflow.cli.{module}"), "protect_settings", fake_protect_settings)
    for flag, expected in (([], None), (["--clause-tagger"], True)):
        result = CliRunner().invoke(app, [*args, *flag])
        assert isinstance(result.exception, _Stop), result.output
        assert seen.pop() is expected
