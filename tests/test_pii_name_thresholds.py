"""benchmarks/pii_name_thresholds.py and pii_name_stages.py: the REAL_NAME threshold per language chosen on real
annotated passages, and what each missed or wrong name is; the threshold set through the real detector."""

import sys
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from pii_multilingual import predict  # noqa: E402
from pii_name_stages import kind_of_value, missed_stage  # noqa: E402
from pii_name_thresholds import choose, counts, set_thresholds, shipped  # noqa: E402

from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer  # noqa: E402
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402

# A French name the multilingual student tags at about 0.8: kept or dropped by the French threshold alone.
DINNER = "Hier soir, j'ai dîné avec Julien et sa femme, c'était très sympa."
ROW = {"text": DINNER, "lang": "fr", "pii": [{"value": "Julien", "type": "REAL_NAME"}]}


def test_choose_takes_the_most_names_found_less_wrong_names_and_the_higher_value_on_a_tie():
    # fake counts, not a detector's
    grid = {
        0.5: {"fr": Counter(names=12, names_found=10, name_spans_wrong=6)},  # 4
        0.7: {"fr": Counter(names=12, names_found=9, name_spans_wrong=3)},  # 6
        0.9: {"fr": Counter(names=12, names_found=8, name_spans_wrong=2)},  # 6: the tie goes to the higher value
    }
    assert choose(grid, "fr", 0.85) == 0.9
    assert choose(grid, "de", 0.55) == 0.55  # a language no set holds keeps its threshold
    assert choose({0.5: {"de": Counter()}, 0.9: {"de": Counter()}}, "de", 0.55) == 0.55  # nor one without names


def test_kind_of_value_tells_kinship_frequent_words_full_names_and_given_names():
    assert kind_of_value("Oma", "de") == "kinship word"
    assert kind_of_value("Helaas", "nl") == kind_of_value("Bill", "en") == "one word, another word of its language"
    assert kind_of_value("Jeanne Phillips", "en") == "two words or more"
    assert kind_of_value("Gertrude", "en") == "one word, a given name of the lexicons"
    assert kind_of_value("Oluwaseun", "en") == "one word, other"


@pytest.fixture
def detector():
    before = shipped()
    yield Detector(build_recognizers(models=True), cache_entries=0)
    set_thresholds(before)  # the loaded students are shared by the process


def test_the_french_threshold_alone_decides_a_name_the_student_is_unsure_of(detector):
    before = shipped()
    set_thresholds({**before, "fr": 0.5})
    low = counts([ROW], predict(detector, [DINNER]))["fr"]
    set_thresholds({**before, "fr": 0.9})
    high = counts([ROW], predict(detector, [DINNER]))["fr"]
    assert (low["names"], low["names_found"], low["name_spans_wrong"]) == (1, 1, 0)
    assert (high["names"], high["names_found"]) == (1, 0)
    start = DINNER.index("Julien")
    assert missed_stage(PiiTaggerRecognizer(), DINNER, start, start + 6, "REAL_NAME").endswith("threshold")


def test_a_value_a_reader_drops_is_lost_by_that_reader():
    """The real detector: an address the English student tags and the address filter keeps, which the address reader
    scores far below its threshold (0.04 against 0.65 when written: read as a school's address), is lost by it."""
    text = "For the school registration: Ayşe Bélanger, Løkkeveien 34B, 0368 Oslo."
    start = text.index("Løkkeveien")
    end = text.index(".", start)
    assert missed_stage(PiiTaggerRecognizer(), text, start, end, "ADDRESS") == "address reader"
