"""benchmarks/pii_real_calibration.py: gate scores read from span reasons, the figures of a threshold choice, the
coordinate ascent, and thresholds written into the gates' files byte for byte elsewhere (fake tables and a copy of
the shipped files); `record` end to end on the real detector."""

import json
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from pii_real_calibration import GATES, figures, fit, record, scores_in, shipped_thresholds, write  # noqa: E402


def span(kind: str, values: list[int], **scores: float) -> dict:
    return {"type": kind, "values": values, "scores": {name.replace("_", " "): s for name, s in scores.items()}}


def passage(values: list[str], *spans: dict, route: str = "en") -> dict:
    return {"route": route, "values": values, "spans": list(spans)}


@pytest.fixture
def gate_files(tmp_path: Path) -> Path:
    """A copy of the shipped gates' files under tmp_path/data and tmp_path/models."""
    for gate in GATES:
        target = tmp_path / gate.file
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / gate.file, target)
    return tmp_path


def test_scores_are_read_from_a_reason_the_second_health_context_as_the_unlisted_model():
    reason = (
        "health filter: no word of its word lists; its context model decides; health verifier 0.47 (keeps from "
        "0.30); health context verifier 0.72 (keeps from 0.14); health context verifier 0.89 (keeps from 0.55)"
    )
    assert scores_in(reason) == {"health": 0.47, "health context": 0.72, "health context (unlisted)": 0.89}
    assert scores_in("health reader 0.98 (keeps from 0.30)") == {"health reader": 0.98}  # a pattern match's note
    judged = "real_name filter: a person the writer deals with; a name of the lexicons, name candidate judge 0.83"
    assert scores_in(judged) == {"name candidate": 0.83}


def test_a_span_below_a_gates_threshold_is_not_masked_and_a_threshold_of_0_scores_nothing():
    rows = [
        passage(["REAL_NAME"], span("REAL_NAME", [0], name=0.9), span("REAL_NAME", [], name=0.3)),
        passage([], span("HEALTH", [], health=0.2)),
    ]
    kept_all = figures(rows, {"name": 0.0, "health": 0.0})
    assert (kept_all["spans"], kept_all["right"], kept_all["found"], kept_all["flagged"]) == (3, 1, 1, "1/1")
    gated = figures(rows, {"name": 0.5, "health": 0.5})
    assert (gated["precision"], gated["recall"], gated["flagged"]) == (1.0, 1.0, "0/1")
    assert figures(rows, {"name": 0.95})["recall"] == 0.0


def test_the_ascent_raises_a_threshold_that_drops_wrong_spans_only(gate_files: Path):
    rows = [passage(["EMPLOYER"], span("EMPLOYER", [0], employer=0.9), span("EMPLOYER", [], employer=0.4))] * 3
    rows += [passage([], span("EMPLOYER", [], employer=0.5))]
    chosen = fit(rows, "en", gate_files)
    assert 0.5 < chosen["employer"] <= 0.9
    shipped = shipped_thresholds(gate_files)["en"]
    assert {name: t for name, t in chosen.items() if name != "employer"} == {
        name: t for name, t in shipped.items() if name != "employer"
    }


def test_only_the_gates_of_the_labels_asked_move(gate_files: Path):
    rows = [passage(["EMPLOYER"], span("EMPLOYER", [0], employer=0.9), span("EMPLOYER", [], employer=0.4))] * 3
    rows += [passage(["HEALTH"], span("HEALTH", [0], health=0.9), span("HEALTH", [], health=0.4))] * 3
    shipped = shipped_thresholds(gate_files)["en"]
    chosen = fit(rows, "en", gate_files, labels=("EMPLOYER",))
    assert chosen["employer"] > 0.4 and chosen["health"] == shipped["health"]
    assert fit(rows, "en", gate_files)["health"] > 0.4


def test_a_guarded_fit_keeps_the_guard_sets_recall_of_the_label_it_moves(gate_files: Path):
    rows = [passage(["EMPLOYER"], span("EMPLOYER", [0], employer=0.96), span("EMPLOYER", [], employer=0.8))] * 3
    guard = [passage(["EMPLOYER"], span("EMPLOYER", [0], employer=0.7))] * 10  # right spans the raise would drop
    assert fit(rows, "en", gate_files, labels=("EMPLOYER",))["employer"] > 0.8
    assert fit(rows, "en", gate_files, guard=guard, labels=("EMPLOYER",))["employer"] <= 0.7


def test_written_thresholds_change_only_their_numbers_and_the_note_of_how(gate_files: Path):
    before = {gate.file: (gate_files / gate.file).read_text(encoding="utf-8") for gate in GATES}
    shipped = shipped_thresholds(gate_files)["others"]
    moved = {name: round(shipped[name] + 0.02, 2) for name in ("employer", "health context (unlisted)")}
    chosen = {**shipped, **moved}
    write("others", chosen, "fake table: 3 passages", gate_files)
    assert shipped_thresholds(gate_files)["others"] == chosen
    for gate in GATES:
        after = (gate_files / gate.file).read_text(encoding="utf-8")
        if gate.name not in ("employer", "health context (unlisted)"):
            assert after == before[gate.file]
            continue
        stored, old = json.loads(after), json.loads(before[gate.file])
        assert stored["chosen"].startswith(old["chosen"]) and "fake table: 3 passages" in stored["chosen"]
        assert {k: v for k, v in stored.items() if k not in ("threshold_others", "chosen")} == {
            k: v for k, v in old.items() if k not in ("threshold_others", "chosen")
        }
        assert len(after.splitlines()) == len(before[gate.file].splitlines())  # laid out as it was


def test_record_scores_every_span_with_the_real_detector(tmp_path: Path):
    annotated = tmp_path / "real.jsonl"
    rows = [
        {"lang": "en", "text": "Had coffee with Hannah Kowalski yesterday, she starts at Lidl next week.",
         "pii": [{"value": "Hannah Kowalski", "type": "REAL_NAME"}, {"value": "Lidl", "type": "EMPLOYER"}]},
        {"lang": "de", "text": "Der Supermarkt hat sonntags geschlossen, das Wetter war schön.", "pii": []},
    ]  # fmt: skip
    annotated.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    record(tmp_path / "table.jsonl", [annotated])
    table = [json.loads(line) for line in (tmp_path / "table.jsonl").open()]
    assert [row["route"] for row in table] == ["en", "others"]
    assert table[0]["values"] == ["REAL_NAME", "EMPLOYER"]
    name, employer = (next(s for s in table[0]["spans"] if s["type"] == kind) for kind in ("REAL_NAME", "EMPLOYER"))
    assert name["values"] == [0] and 0 < name["scores"]["name"] <= 1  # scored though no gate would drop it
    assert employer["values"] == [1] and "employer" in employer["scores"]
    assert not {"Kowalski", "Lidl", "Supermarkt"} & set(json.dumps(table).replace('"', " ").split())  # no text
