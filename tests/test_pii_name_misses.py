"""benchmarks/pii_name_stages.py's name-candidate stages and benchmarks/pii_name_candidates.py's out-of-fold choice:
where a missed name is lost among the name candidates (pii_tagger/name_candidates.py), and a judge's thresholds chosen
without the set it is scored on."""

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

import pii_name_candidates  # noqa: E402
from pii_name_stages import RecordingJudge, candidate_stage  # noqa: E402
from test_name_candidates import ENGLISH, SilentTagger, confidence_stump  # noqa: E402

from stealthflow.pii_tagger.name_candidates import CandidateJudge, shipped_candidate_judge  # noqa: E402
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer  # noqa: E402

BELOW = "name candidate: judge below its threshold"


def test_a_candidate_below_the_judges_threshold_is_told_from_one_it_kept_and_from_no_candidate_with_fakes():
    """A fake tagger and a hand-made judge (labelled fakes, test_name_candidates.py): "Noemi" scores 0.88 and is kept,
    "Gerd" 0.12 and is not; "reply" is no word of the name lexicon."""
    text = "Sorry for the late reply, Noemi and Gerd came over."
    judge = RecordingJudge(confidence_stump())
    recognizer = PiiTaggerRecognizer(tagger=SilentTagger({"Noemi": 0.45, "Gerd": 0.1}), candidates=judge)
    recognizer.find_many([text], languages=[ENGLISH])

    def at(word: str) -> str | None:
        start = text.index(word)
        return candidate_stage(judge, text, start, start + len(word))

    assert at("Gerd") == BELOW
    assert at("Noemi") == "name candidate: kept by the judge, dropped by the guards after it"
    assert at("reply") is None


def test_a_piece_the_detector_normalised_is_matched_by_its_words_with_fakes():
    """A recorded candidate (fake) of a text whose quotes the detector normalised: found by the candidate's words."""
    judge = RecordingJudge(confidence_stump())
    judge.seen.append(("Ask 'Gerd' today", 5, 9, 0.12))
    text = "Ask ‘Gerd’ today"
    assert candidate_stage(judge, text, 5, 9) == BELOW


def test_each_set_is_scored_by_a_judge_fitted_without_it(monkeypatch):
    """`choose` with a fake fit (labelled): the fold that scores a set never fits on its rows, and the threshold is the
    lowest whose candidates kept are 80 % right and flag no clean passage beyond 1 in 200."""
    fitted_on = []

    def fake_fit(rows):
        fitted_on.append({r["set"] for r in rows})
        return CandidateJudge("REAL_NAME", (((-1, 0.0, 0, 0, 0.0),),), 0.0, 1.0, 0.5, 0.5)

    monkeypatch.setattr(pii_name_candidates, "fitted", fake_fit)
    monkeypatch.setattr(CandidateJudge, "scores", lambda self, rows: [row[0] for row in rows])
    records = [
        {"set": name, "english": True, "clean": False, "flagged": False, "candidates": candidates}
        for name in ("real1", "real2", "real3")
        for candidates in ([{"x": [0.9], "right": True, "name": True, "covered": False}],
                           [{"x": [0.7], "right": True, "name": True, "covered": False}],
                           [{"x": [0.6], "right": False, "name": False, "covered": False}])
    ] + [{"set": "pii-heldout", "english": True, "clean": True, "flagged": False, "candidates": []}]  # fmt: skip
    chosen, _ = pii_name_candidates.choose(records, ("real1", "real2", "real3"))
    assert fitted_on == [{"pii-heldout", "real2", "real3"}, {"pii-heldout", "real1", "real3"},
                         {"pii-heldout", "real1", "real2"}]  # fmt: skip
    assert chosen["en"] == 0.62  # from 0.62 only the right candidates (0.7, 0.9) are kept
    assert chosen["others"] == 1.01  # no text in the six other languages: none is kept


@pytest.fixture(scope="module")
def recorded():
    """The real detector with the shipped judge, recording the candidates it scores."""
    if shipped_candidate_judge() is None:
        pytest.skip("no name candidates' judge shipped")
    judge = RecordingJudge(shipped_candidate_judge())
    return pii_name_candidates.detector_with(judge, cache_entries=0), judge


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Am Wochenende war Matthias mit den Kindern beim Schwimmen, ich hatte frei.", "Matthias"),
        ("Vorige week is Stijn bij ons komen eten, het was erg gezellig.", "Stijn"),
    ],
)
def test_a_name_main_misses_is_put_at_the_judges_stage_by_the_real_detector(recorded, text, name):
    """Known misses of the shipped detector (benchmarks/results/pii_name_misses.md): a given name alone in German and
    Dutch, a candidate of the lexicon the judge scores below its threshold."""
    detector, judge = recorded
    judge.forget()
    start = text.index(name)
    spans = detector.detect(text)
    assert not any(s.start < start + len(name) and start < s.end for s in spans)
    assert candidate_stage(judge, text, start, start + len(name)) == BELOW
