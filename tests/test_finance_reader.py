"""The finance reader (pii_tagger/finance_reader.py): MiniLM finding money someone has, earns or owes in the six
languages' texts, as a recognizer beside the tagger, and its training (pii_tagger/training/finance_reader.py,
`stealthflow tagger finance-reader`)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.pii_tagger.finance_reader import (
    FinanceReader,
    FinanceReaderRecognizer,
    read_finance_reader,
    sentences,
    shipped_finance_reader,
)
from stealthflow.pii_tagger.minilm import vocabulary
from stealthflow.pii_tagger.training.finance_reader import FinanceReaderRecipe, learn_cues, sentence_examples
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

ENGLISH, GERMAN = frozenset({"en"}), frozenset({"de"})


class FakeRuntime:
    """A fake MiniLM runtime (labelled as such): the word pieces of `words` score `score`, the others 0.1."""

    def __init__(self, words: set[str], score: float = 0.9):
        self.pieces = {i for w in words for i in vocabulary().tokenizer.encode(w, add_special_tokens=False).ids}
        self.score = score
        self.read: list[np.ndarray] = []

    def padded_probabilities(self, windows):
        self.read += windows
        scores = [[self.score if int(i) in self.pieces else 0.1 for i in ids] for ids in windows]
        return [np.array([[1 - s, s] for s in row]) for row in scores]


def fake_reader(words: set[str], score: float = 0.9, threshold: float = 0.7) -> FinanceReader:
    return FinanceReader(FakeRuntime(words, score), threshold, {"de": frozenset({"dispo", "bürgergeld"})}, GERMAN)


def test_a_cued_sentences_run_of_likely_pieces_is_one_span_of_whole_words_and_an_uncued_one_is_not_read():
    reader = fake_reader({"voll", "im", "dispo"})
    text = "Wir waren im Urlaub. Ich bin voll im Dispo, schon wieder."
    [found] = reader.find_many([text], [GERMAN])
    assert [(text[a:b], round(s, 2)) for a, b, s in found] == [("voll im Dispo", 0.9)]
    assert len(reader.runtime.read) == 1  # "Wir waren im Urlaub." holds no cue: not read


def test_a_run_under_the_threshold_is_no_span_and_a_currency_sign_is_a_cue():
    assert fake_reader({"dispo"}, score=0.6).find_many(["Ich bin im Dispo."], [GERMAN]) == [[]]
    reader = fake_reader({"300"})
    [found] = reader.find_many(["Ich habe noch 300 € auf dem Konto."], [GERMAN])
    assert [round(s, 2) for _, _, s in found] == [0.9]


def test_text_read_as_english_or_in_another_language_is_not_read():
    reader = fake_reader({"dispo"})
    assert reader.find_many(["Ich bin im Dispo."] * 3, [ENGLISH, frozenset({"en", "de"}), frozenset({"tr"})]) == [
        [],
        [],
        [],
    ]
    assert reader.runtime.read == []


def test_the_recognizer_gives_finance_spans_with_the_score_in_their_reason():
    recognizer = FinanceReaderRecognizer(reader=fake_reader({"bürgergeld"}))
    [[span]] = recognizer.find_many(["Seit März lebe ich von Bürgergeld."], languages=[GERMAN])
    assert (span.type, span.source, span.reason) == (
        "FINANCE",
        "pii_tagger_finance_reader",
        "finance reader 0.90 (from 0.70)",
    )


def test_it_is_built_with_the_models_and_after_the_tagger():
    names = [r.name for r in build_recognizers(models=True) if r.model_backed]
    assert names == ["pii_tagger", "pii_tagger_finance_reader"]
    assert not any(r.model_backed for r in build_recognizers())


def test_sentences_are_cut_at_their_ends_and_line_breaks():
    text = "Erste Zeile.\nZweite! Dritte"
    assert [text[a:b] for a, b in sentences(text)] == ["Erste Zeile.", "Zweite!", "Dritte"]


def test_cues_are_the_words_of_sentences_holding_a_value(tmp_path):
    (tmp_path / "personal-de.txt").write_text(
        "\n".join(["Ich bin [voll im Dispo](FINANCE). Schönes Wetter heute."] * 3 + ["Das Wetter ist schön."]),
        encoding="utf-8",
    )
    recipe = FinanceReaderRecipe(marked={"de": [tmp_path / "personal-de.txt"]}, out=tmp_path / "out")
    examples = sentence_examples(recipe)
    assert [e["finance"] for e in examples[:2]] == [[(8, 21)], []]
    assert learn_cues(examples, min_values=3, min_share=0.5)["de"] == ["bin", "dispo", "ich", "im", "voll"]


def test_training_writes_a_reader_the_runtime_loads(tmp_path):
    marked = tmp_path / "personal-de.txt"
    marked.write_text(
        "\n".join(["Ich bin [voll im Dispo](FINANCE) und das nervt.", "Ich bin müde und das nervt."] * 20),
        encoding="utf-8",
    )
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text(
        f"marked: {{de: [{marked}]}}\nout: {tmp_path / 'reader'}\nlayers: 1\ntop_layers: 1\nepochs: 1\n"
        "validation_share: 0.3\ncue_min_share: 0.6\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["tagger", "finance-reader", "--recipe", str(recipe)])
    assert result.exit_code == 0, result.output
    card = json.loads((tmp_path / "reader" / "reader.json").read_text(encoding="utf-8"))
    assert card["cues"]["de"] == ["dispo", "im", "voll"] and card["validation"]["sentences"] > 0
    reader = read_finance_reader(tmp_path / "reader")
    assert reader.languages == GERMAN and reader.runtime.tags == 2


@pytest.mark.skipif(shipped_finance_reader() is None, reason="the finance reader is not shipped")
def test_the_shipped_reader_finds_money_said_in_words_through_the_detector():
    detector = Detector(build_recognizers(models=True))
    text = "Hallo zusammen, ich bin seit März auf Bürgergeld und mein Konto ist voll im Dispo. Hat jemand Tipps?"
    spans = [s for s in detector.detect(text) if s.type == "FINANCE"]
    assert spans and any("Bürgergeld" in s.text_in(text) or "Dispo" in s.text_in(text) for s in spans)
    assert detector.detect("Ich bin heute mit dem Fahrrad zur Arbeit gefahren.") == []
