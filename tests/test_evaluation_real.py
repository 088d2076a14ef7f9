"""`stealthflow evaluate` end to end on the real embedded SmolLM2-135M: one profile, a method of each kind (a
recognizer mask, the anonymizer-attacker loop; `standard` and `aa` run on the real model in test_real_model.py and as
the loop without insights)."""

from __future__ import annotations

import csv

import pytest
from short_profile import shortest_labelled
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.llm.cache import ResponseCache


@pytest.mark.real_model
def test_evaluate_a_mask_and_the_loop_on_the_embedded_model(tmp_path, repo):
    config = tmp_path / "tiny.yaml"
    # Tiny budget: the point is that every stage runs for real, not the quality of a 135M model.
    config.write_text("model:\n  model: embedded\n  max_new_tokens: 16\n  batch_size: 8\n  threads: 1\n")
    data = tmp_path / "one.jsonl"
    data.write_text(shortest_labelled(repo / "data" / "test.jsonl")[1])
    out = tmp_path / "eval"
    args = [
        "evaluate",
        "--config",
        str(config),
        "--data",
        str(data),
        "--limit",
        "1",
        "--rounds",
        "1",
        "--methods",
        "ner-mask,stealth",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    with (out / "table.csv").open() as handle:
        rows = {(r["method"], r["attacker"]): r for r in csv.DictReader(handle)}
    assert set(rows) == {(m, "llm") for m in ("original", "ner-mask", "stealth")}
    for method in ("ner-mask", "stealth"):
        assert rows[(method, "llm")]["profiles"] == "1"
        assert 0.0 <= float(rows[(method, "llm")]["BLEU"]) <= 1.0
    assert (out / "tradeoff.png").stat().st_size > 0 and (out / "attack_accuracy.png").stat().st_size > 0
    # Rerunning the same command repeats no model call: every answer is on disk.
    before = _cached_answers(out)
    scores = (out / "scores-stealth.jsonl").read_text()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert _cached_answers(out) == before and (out / "scores-stealth.jsonl").read_text() == scores


def _cached_answers(out) -> int:
    cache = ResponseCache(out / "responses.sqlite")
    try:
        return len(cache)
    finally:
        cache.close()
