"""Name candidates (pii_tagger/name_candidates.py): the name lexicon's capitalised words the tagger leaves in clear,
judged by a tree ensemble stored as data."""

from __future__ import annotations

import re

import numpy as np
import pytest

from stealthflow.pii_tagger.context_model import ContextModel
from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.name_candidates import (
    CANDIDATE_FEATURES,
    CandidateJudge,
    TokenReader,
    candidate_features,
    candidate_places,
    read_judge,
    shipped_candidate_judge,
)
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers

ENGLISH = frozenset({"en"})


class SilentTagger:
    """A fake tagger (labelled as such): tags nothing; each word is a token whose REAL_NAME probability is the one
    given for it (0 for the rest)."""

    labels = ["REAL_NAME"]
    span_thresholds = {"REAL_NAME": 0.5}

    def __init__(self, name_probabilities: dict[str, float]):
        self.name_probabilities = name_probabilities

    def token_probabilities(self, texts, batch_size=16):
        out = []
        for text in texts:
            words = list(re.finditer(r"\w+", text))
            offsets = np.array([[m.start(), m.end()] for m in words], dtype=np.int64).reshape(-1, 2)
            probabilities = np.zeros((len(words), 3))
            for row, m in enumerate(words):
                p = self.name_probabilities.get(m.group(), 0.0)
                probabilities[row] = (1.0 - p, p, 0.0)
            out.append((offsets, probabilities))
        return out

    def tag_many(self, texts, batch_size=16, settled=None, threshold=None, tokens=None):
        return [[] for _ in texts]


def confidence_stump(threshold: float = 0.5) -> CandidateJudge:
    """A hand-made judge of one tree (a fake of the fitted one): a candidate whose REAL_NAME probability is above 0.3
    scores 0.88, any other 0.12."""
    tree = ((CANDIDATE_FEATURES.index("confidence"), 0.3, 1, 2, 0.0), (-1, 0.0, -1, -1, -2.0), (-1, 0.0, -1, -1, 2.0))
    return CandidateJudge("REAL_NAME", (tree,), 0.0, 1.0, threshold, threshold)


def test_candidates_are_capitalised_words_of_the_name_lexicon_in_pairs_and_none_where_a_span_is():
    text = "Yesterday Noemi Souza met Thiago and the table at the Park. thiago waved."
    places = [text[s:e] for s, e in candidate_places(text, [])]
    assert "Noemi Souza" in places and "Thiago" in places
    assert "thiago" not in places and "Yesterday" not in places
    taken = [(text.index("Thiago"), text.index("Thiago") + 6)]
    assert "Thiago" not in [text[s:e] for s, e in candidate_places(text, taken)]


def test_features_read_the_students_probability_and_a_name_masked_elsewhere():
    text = "Thiago came by. Later Thiago left."
    tokens = TokenReader(SilentTagger({"Thiago": 0.4}).token_probabilities([text])[0], (1, 2))
    start = text.rindex("Thiago")
    row = candidate_features(text, start, start + 6, tokens, ENGLISH, frozenset({"thiago"}))
    assert len(row) == len(CANDIDATE_FEATURES)
    assert row[CANDIDATE_FEATURES.index("confidence")] == pytest.approx(0.4)
    assert row[CANDIDATE_FEATURES.index("inside")] == pytest.approx(0.4)
    assert row[CANDIDATE_FEATURES.index("masked_elsewhere")] == 1.0


def test_the_judge_keeps_the_candidates_that_reach_its_threshold_with_fakes():
    """A fake tagger and a hand-made judge (labelled fakes): the recognizer adds what the judge keeps."""
    text = "Sorry for the late reply, Noemi and Gerd came over."
    recognizer = PiiTaggerRecognizer(tagger=SilentTagger({"Noemi": 0.45, "Gerd": 0.1}), candidates=confidence_stump())
    found = recognizer.find_many([text], languages=[ENGLISH])[0]
    assert [text[s.start : s.end] for s in found] == ["Noemi"]
    assert found[0].type == "REAL_NAME" and "name candidate judge 0.88" in found[0].reason


@pytest.mark.parametrize(("bias", "kept"), [(-5.0, []), (5.0, ["Noemi"])])
def test_the_gates_read_the_judges_names_as_the_students(bias, kept):
    """A fake tagger and a hand-made judge (labelled fakes) with a REAL_NAME context model of constant score as the
    gate: the judge stands in for the name verifier only; a name it keeps is dropped where the gate scores it below its
    threshold, and carries the gate's score where it is kept."""
    text = "Sorry for the late reply, Noemi and Gerd came over."
    gate = ContextModel(window=2, bias=bias, weights=(0.0,) * 8, threshold=0.5, threshold_others=0.5, label="REAL_NAME")
    recognizer = PiiTaggerRecognizer(
        tagger=SilentTagger({"Noemi": 0.45, "Gerd": 0.1}), candidates=confidence_stump(), gates=(gate,)
    )
    found = recognizer.find_many([text], languages=[ENGLISH])[0]
    assert [text[s.start : s.end] for s in found] == kept
    assert all("real_name context verifier 0.99 (keeps from 0.50)" in s.reason for s in found)


def test_a_stored_judge_reads_back_and_refuses_other_features(tmp_path):
    judge = confidence_stump(0.7)
    path = tmp_path / "judge.json"
    path.write_text(__import__("json").dumps(judge.to_json()), encoding="utf-8")
    assert read_judge(path) == judge
    stored = judge.to_json()
    stored["features"] = stored["features"][:-1]
    path.write_text(__import__("json").dumps(stored), encoding="utf-8")
    with pytest.raises(ValueError, match="not this version's"):
        read_judge(path)


@pytest.fixture(scope="module")
def detector() -> Detector:
    if shipped_candidate_judge() is None:
        pytest.skip("no name candidates' judge shipped")
    return Detector(build_recognizers(models=True))


def masked(detector: Detector, text: str) -> list[str]:
    return [text[s.start : s.end] for s in detector.detect(text) if s.type == "REAL_NAME"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("I told Noemi about the move and she said she would help us pack on Saturday.", "Noemi"),
        ("We stayed at my aunt's house and Thiago cooked for everyone that night.", "Thiago"),
    ],
)
def test_real_names_in_plain_sentences_are_found_by_the_real_detector(detector, text, name):
    assert any(name in value for value in masked(detector, text))


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("Barack Obama gave a speech about healthcare on television last night.", "Obama"),
        ("The weather was nice so we took a long walk in the Park after lunch.", "Park"),
    ],
)
def test_a_public_figure_and_a_common_word_are_not_masked_by_the_real_detector(detector, text, word):
    assert not any(word in value for value in masked(detector, text))


def test_tagged_spans_are_the_same_with_token_probabilities_given():
    """The real student: spans from precomputed token probabilities equal those it computes itself."""
    from stealthflow.pii_tagger.model import load_pii_tagger

    tagger = load_pii_tagger()
    texts = ["Please call Oluwaseun Adeyemi tomorrow about the invoice.", "Nothing here."]
    tokens = tagger.token_probabilities(texts, 16)
    spans: list[list[TaggedSpan]] = tagger.tag_many(texts, 16, tokens=tokens)
    assert spans == tagger.tag_many(texts, 16)


def test_the_token_means_are_numpys_means_over_the_tokens_a_candidate_covers():
    rng = np.random.default_rng(0)
    offsets = np.array([[3 * i, 3 * i + 2] for i in range(40)])
    probabilities = rng.random((40, 5), dtype=np.float32)
    reader = TokenReader((offsets, probabilities), (1, 2))
    for start, end in [(0, 2), (3, 20), (4, 61), (0, 120), (119, 200), (2, 3)]:
        covered = (offsets[:, 1] > start) & (offsets[:, 0] < end)
        expected = (
            (
                float((probabilities[covered, 1] + probabilities[covered, 2]).mean()),
                1.0 - float(probabilities[covered, 0].mean()),
            )
            if covered.any()
            else (0.0, 0.0)
        )
        assert reader.means(start, end) == expected, (start, end)
