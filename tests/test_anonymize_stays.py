"""`anonymize` with a method that does not check its own rewrite (`standard`: a model's rewrite) says "protected" only
when no phrase the cue tagger marks in the original stayed and the rewrite put no marker in place of words
(`anonymize/stays.py`, uxfixb: "fellow farmers" kept and `[[EMPLOYER]]` printed, both as "protected"). Through the real
CLI, the real cue tagger, and a real HTTP model server on loopback (`MockOpenAI`, its answer chosen per test)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stealthflow.anonymize.methods import Anonymized
from stealthflow.anonymize.placeholders_kept import new_markers
from stealthflow.cli import app
from stealthflow.testing.mock_openai import MockOpenAI, Reply

POST = "Hey fellow farmers, what do you feed your chickens in winter? The cold here is brutal."


def anonymized(tmp_path, monkeypatch, answer: str):
    """`stealthflow anonymize POST --method standard --json` with the model answering `answer` (after its `#`)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("MOCK_KEY", "unused")
    post = tmp_path / "post.txt"
    post.write_text(POST)
    with MockOpenAI(respond=lambda body: Reply(f"What gives the writer away.\n#\n{answer}")) as model:
        config = tmp_path / "model.yaml"
        config.write_text(f"model:\n  model: openai/x\n  api_base: {model.base_url}\n  api_key_env: MOCK_KEY\n")
        result = CliRunner().invoke(app, ["anonymize", str(post), "--method", "standard", "-c", str(config), "--json"])
        assert model.received, "the model was asked"
    return result, json.loads(result.stdout.splitlines()[0])


def test_a_model_rewrite_that_kept_a_marked_phrase_is_not_protected(tmp_path, monkeypatch):
    result, row = anonymized(tmp_path, monkeypatch, "Hey fellow farmers, what do you feed your chickens in winter?")
    assert result.exit_code == 2 and row["protected"] is False, result.output
    assert row["reason"] == "no generalization by the rewrite: 1 phrase(s) stayed" and "text" not in row
    assert "fellow farmers" not in result.stdout


def test_a_model_rewrite_with_a_marker_in_place_of_words_is_not_protected(tmp_path, monkeypatch):
    result, row = anonymized(tmp_path, monkeypatch, "Hey all, what do you feed your chickens at [[EMPLOYER]]?")
    assert result.exit_code == 2 and row["protected"] is False, result.output
    assert row["reason"] == "the rewrite put marker(s) in place of words ([[EMPLOYER]]): it is no text to post"
    assert "[[EMPLOYER]]" not in result.stdout.replace(row["reason"], "")


def test_a_model_rewrite_that_left_no_marked_phrase_is_protected(tmp_path, monkeypatch):
    """The check can pass: it is no blanket refusal of the model's rewrites."""
    result, row = anonymized(tmp_path, monkeypatch, "Hey all, what do you feed your chickens in winter?")
    assert result.exit_code == 0 and row == {
        "id": "post",
        "text": "Hey all, what do you feed your chickens in winter?",
        "protected": True,
    }, result.output


@pytest.mark.parametrize(
    ("original", "rewritten", "new"),
    [
        ("I work at Acme.", "I work at [[EMPLOYER]].", ["[[EMPLOYER]]"]),
        ("I live here.", "I live in <LOCATION> near [CITY].", ["<LOCATION>", "[CITY]"]),
        ("Mail <EMAIL_1> today.", "Write to <EMAIL_1> soon.", []),  # protect's placeholder it held: kept on purpose
        ("[EDIT] fixed typo", "[EDIT] fixed a typo", []),
        ("I work at Acme.", "I work at a firm [1].", []),
    ],
)
def test_new_markers_are_those_the_rewrite_wrote(original, rewritten, new):
    assert new_markers(original, rewritten) == new
    reason = Anonymized("p", rewritten).failure(original)
    assert (reason is not None and "marker" in reason) == bool(new)
