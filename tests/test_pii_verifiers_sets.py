"""benchmarks/pii_verifiers.py: the name verifier is fitted only on text the students did not train on."""

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "benchmarks"), str(REPO / "training")]

from heldout_to_marked import marked_line  # noqa: E402
from pii_verifiers import CONTEXT_FIT_SETS, NAME_CHOOSE_SETS, NAME_FIT_SETS, trained_on  # noqa: E402
from split_marked_batch import as_taught  # noqa: E402

NATURAL = REPO / "data" / "tagger-natural"


def test_the_rows_of_a_used_held_back_set_it_calls_trained_are_the_ones_in_the_training_files():
    rows = [json.loads(line) for line in (REPO / "benchmarks/data/pii-heldout-x/pii_languages_x.jsonl").open()]
    trained = {line for path in (NATURAL / "languages").glob("*-hx.txt") for line in path.read_text().splitlines()}
    held = {line for path in (NATURAL / "validation-hx").glob("*.txt") for line in path.read_text().splitlines()}
    for row in rows:
        line = marked_line(row)
        assert (as_taught(line) in trained) == trained_on("pii-heldout-x", row)
        assert (line in held) == (not trained_on("pii-heldout-x", row))
    assert 0 < sum(trained_on("pii-heldout-x", row) for row in rows) < len(rows)


def test_sets_no_student_reads_are_never_trained_on_and_the_choice_sets_are_not_fitted_on():
    row = {"lang": "en", "text": "Call Ana Ruiz.", "pii": [{"value": "Ana Ruiz", "type": "REAL_NAME"}]}
    assert not any(trained_on(name, row) for name in ("pii-heldout", "pii_test", "pii-heldout-u", "pii-heldout-v"))
    assert not set(NAME_FIT_SETS) & set(NAME_CHOOSE_SETS)
    assert "pii-heldout-w" not in NAME_FIT_SETS + NAME_CHOOSE_SETS  # the final check


def test_the_health_context_model_is_fitted_on_no_check_set():
    checks = {f"pii-heldout-{name}" for name in ("u", "v", "w", "zd", "ze")}
    assert not checks & set(CONTEXT_FIT_SETS)
