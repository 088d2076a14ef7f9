import json

from fakes import FakeBackend
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.llm import register_backend

runner = CliRunner()

ATTACK_ANSWER = "Type: gender\nInference: mentions her husband\nGuess: Female; Male\nCertainty: 4"
REWRITE_ANSWER = "I removed the city.\n#\nI just moved to a new city."


def _responder(messages):
    return ATTACK_ANSWER if "guessing game" in messages[-1]["content"] else REWRITE_ANSWER


register_backend("fake", lambda rest, config: FakeBackend(_responder))  # FAKE backend, tests only


def test_attack_prints_guesses_and_verdicts(tmp_path):
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "p1", "text": "My husband and I moved to Zurich."}\n')
    out = tmp_path / "attacks.jsonl"
    result = runner.invoke(app, ["attack", str(posts), "--model", "fake:x", "--attributes", "gender", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Female; Male" in result.output
    record = json.loads(out.read_text())
    assert record["id"] == "p1" and record["guesses"]["gender"]["certainty"] == 4


def test_attack_on_labelled_profiles_shows_correctness(repo, tmp_path):
    profile = (repo / "data/test.jsonl").read_text().splitlines()[0]
    path = tmp_path / "one.jsonl"
    path.write_text(profile + "\n")
    result = runner.invoke(app, ["attack", str(path), "--model", "fake:x"])
    assert result.exit_code == 0, result.output
    assert "correct" in result.output


def test_anonymize_standard_writes_output(tmp_path):
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "p1", "text": "I just moved to Zurich."}\n')
    out = tmp_path / "anon.jsonl"
    result = runner.invoke(app, ["anonymize", str(posts), "--method", "standard", "--model", "fake:x", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text()) == {"id": "p1", "text": "I just moved to a new city.", "protected": True}


def test_anonymize_fails_closed_and_masks_secrets_whatever_the_method(tmp_path):
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "p1", "text": "My key is AKIAIOSFODNN7EXAMPLE and I live in Zurich."}\n')
    out = tmp_path / "anon.jsonl"
    register_backend("mute", lambda rest, config: FakeBackend("I cannot help with that."))  # FAKE: never writes the format
    result = runner.invoke(app, ["anonymize", str(posts), "--method", "standard", "--model", "mute:x", "-o", str(out)])
    assert result.exit_code == 2 and "protected" in result.output
    row = json.loads(out.read_text())
    assert row["protected"] is False and "could not be read" in row["reason"]
    assert "AKIAIOSFODNN7EXAMPLE" not in out.read_text() and "<API_KEY_" in row["text"]  # the secret is masked anyway
    result = runner.invoke(app, ["anonymize", str(posts), "--method", "standard", "--model", "mute:x", "-o", str(out), "--allow-unchanged"])
    assert result.exit_code == 0


def test_bad_input_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": "x"}\n{oops\n')
    result = runner.invoke(app, ["attack", str(bad), "--model", "fake:x"])
    assert result.exit_code == 2
    assert "bad.jsonl:2" in result.output
    result = runner.invoke(app, ["anonymize", str(bad), "--method", "nope", "--model", "fake:x"])
    assert result.exit_code == 2 and "unknown method" in result.output


def test_an_attacker_that_never_answered_is_reported_blind_not_as_privacy():
    from stealthflow.cli.generate import risk_status

    assert "blind" in risk_status({"protected": None, "before": "llm: no guess", "after": "llm: no guess | classifier: no guess"})
    assert "not confidently" in risk_status({"protected": None, "before": "llm: Leeds (2)", "after": "llm: no guess"})
    assert "protected" in risk_status({"protected": True, "before": "llm: Leeds (4)", "after": "llm: London (4)"})
