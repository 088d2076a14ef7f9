"""benchmarks/pii_verifiers.py: the name verifier is fitted only on text the students did not train on; annotated
files outside the sets; the HEALTH thresholds chosen on real text, or given."""

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "benchmarks"), str(REPO / "training")]

from heldout_to_marked import marked_line  # noqa: E402
from pii_verifiers import (  # noqa: E402
    CONTEXT_FIT_SETS,
    NAME_CHOOSE_SETS,
    NAME_FIT_SETS,
    annotated_files,
    choose_on_real,
    fit_label,
    score_out_of_fold,
    trained_on,
)
from split_marked_batch import as_taught  # noqa: E402

from stealthflow.pii_tagger.verifier import KINDS  # noqa: E402

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


def test_more_annotated_files_are_sets_named_by_their_folder_of_the_kind_their_name_or_rows_tell():
    more = (Path("/work/real32/real_pii.jsonl"), REPO / "benchmarks/data/pii-heldout-w/pii_registers_w.jsonl")
    *_, real, check = annotated_files(more)
    assert real == ("real32", None, more[0])  # each row's "lang" tells
    assert check == ("pii-heldout-w", "en", more[1])


def fake_candidate(right: bool, verifier: float, context: float, covered: bool = False, english: bool = True) -> dict:
    """A hand-made row of the table (a fake): a HEALTH span, its shipped trees' and context model's scores."""
    x = [0.0] * len(KINDS["HEALTH"].features)
    x[KINDS["HEALTH"].features.index("english")] = float(english)
    return {"right": right, "values": [0] if right else [], "x": x, "covered": covered, "verifier": verifier,
            "score": context}  # fmt: skip


def fake_row(*candidates: dict, values: int = 1) -> dict:
    return {"values": values, "found_apart": [False] * values, "flagged_apart": False, "clean": values == 0,
            "candidates": list(candidates), "kind": "en"}  # fmt: skip


def test_the_choice_on_real_text_drops_wrong_spans_only_as_far_as_its_budget_of_values_allows():
    personal = fake_row(fake_candidate(True, verifier=0.9, context=0.5))
    general = fake_row(fake_candidate(False, verifier=0.9, context=0.3), values=0)
    covered = fake_row(fake_candidate(False, verifier=0.9, context=0.9, covered=True), values=0)
    verifier, (english, others) = choose_on_real([personal, general, covered], lose=0)
    assert 0.3 < english <= 0.5 and verifier.threshold == 0.0 and others == 0.0  # the lowest that drops the general
    # A bound on another set's values: its personal span scores 0.32, so the gate may not pass it.
    check = fake_row(fake_candidate(True, verifier=0.9, context=0.32))
    _, (english, _) = choose_on_real([personal, general, covered], lose=0, kept_rows=[check], keep=0)
    assert english <= 0.32
    # With a budget of one value, the personal span of the real text may go too, if that drops more wrong spans.
    wrong_above = fake_row(fake_candidate(False, verifier=0.9, context=0.6), values=0)
    _, (english, _) = choose_on_real([personal, general, wrong_above], lose=1)
    assert english > 0.6


def fake_table(path: Path) -> None:
    """A hand-made table (a fake of `table`'s output): ten texts of a real set "realx", each with a personal HEALTH span
    ("diagnosed with") and a general one ("symptoms of"), their terms' buckets and features."""
    record = {"set": "realx", "kind": "en", "clean": False, "trained": False}
    with path.open("w", encoding="utf-8") as sink:
        for row in range(10):
            personal = fake_candidate(True, verifier=0.0, context=0.0) | {"terms": [1, 2, 3 + row]}
            general = fake_candidate(False, verifier=0.0, context=0.0) | {"terms": [4, 5, 30 + row]}
            health = fake_row(personal, general) | {"extra": []}
            sink.write(json.dumps(record | {"row": row, "labels": {"HEALTH": health}}) + "\n")


def test_given_thresholds_are_set_as_given_not_chosen(tmp_path):
    """Through the real script: `context --real --given` fits the model and keeps the four thresholds it is given."""
    fake_table(tmp_path / "spans.jsonl")
    script = [sys.executable, str(REPO / "benchmarks" / "pii_verifiers.py"), "context", str(tmp_path / "spans.jsonl")]
    given = subprocess.run(
        script + ["--real", "realx", "--given", "0.12", "0.32", "0.34", "0.16"], capture_output=True, text=True
    )
    assert given.returncode == 0, given.stderr
    assert "thresholds given (`--given`, not chosen): verifier 0.12, 0.32; context model" in given.stdout
    assert "(texts read as English, as others) 0.34, 0.16" in given.stdout
    alone = subprocess.run(script + ["--given", "0.1", "0.1", "0.1", "0.1"], capture_output=True, text=True)
    assert alone.returncode == 2 and "give --real too" in alone.stderr


def fake_name_candidate(right: bool, confidence: float, words: int, english: bool = False) -> dict:
    """A hand-made REAL_NAME span of the table (a fake): its confidence and word count, the other features 0."""
    x = [0.0] * len(KINDS["REAL_NAME"].features)
    x[KINDS["REAL_NAME"].features.index("confidence")] = confidence
    x[KINDS["REAL_NAME"].features.index("words")] = float(words)
    x[KINDS["REAL_NAME"].features.index("english")] = float(english)
    return {"right": right, "values": [0] if right else [], "x": x, "covered": False}


def fake_set(name: str, kind: str = "ml", words: int = 1, reversed_: bool = False) -> list[dict]:
    """Fake table rows of one set: a right name of high confidence and a wrong one of low (`reversed_`: the other way
    round), each in its own text, all of `words` words."""
    right, wrong = (0.2, 0.9) if reversed_ else (0.9, 0.2)
    rows = [fake_row(fake_name_candidate(True, right + step / 100, words, kind == "en")) for step in range(3)]
    rows += [
        fake_row(fake_name_candidate(False, wrong + step / 100, words, kind == "en"), values=0) for step in range(3)
    ]
    return [{**row, "set": name, "kind": kind, "trained": False} for row in rows]


def test_out_of_fold_scores_come_from_a_model_fitted_without_the_rows_set():
    """Four sets say a confident name is right; a fifth, whose names alone have 3 words, says the reverse. Fitted on
    every set, the trees learn the fifth's own pattern from its word count; out of fold, its rows are scored by a model
    that never saw them, which follows the other four."""
    rows = [row for name in "abcd" for row in fake_set(name)] + fake_set("e", words=3, reversed_=True)
    score_out_of_fold("REAL_NAME", rows)
    fifth = [(c["right"], c["score"]) for row in rows if row["set"] == "e" for c in row["candidates"]]
    assert all(score < 0.5 for right, score in fifth if right)
    assert all(score > 0.5 for right, score in fifth if not right)


def test_the_more_sets_add_their_six_language_rows_only(capsys):
    """`fit_label` with `more`: the six-language rows of those sets are fitted and chosen on, their English rows not."""
    rows = [row for name in NAME_FIT_SETS[:4] for row in fake_set(name)] + fake_set(NAME_CHOOSE_SETS[0])
    added = fake_set("real-x") + fake_set("real-x", kind="en")
    fit_label("REAL_NAME", rows + added, budget=1.5, write=False, more=("real-x",))
    report = json.loads(capsys.readouterr().out.split("importances")[0])
    assert report["fit_spans"] == 4 * 6 + 6  # four fit sets and real-x's six-language rows
    assert report["choose_ml"]["before"]["clean"] == 3 + 3  # the choice set's texts without PII and real-x's
    assert report["choose_en"]["before"]["clean"] == 0
