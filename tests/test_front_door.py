"""A newcomer's first hour: text in and out, fast answers, clear errors, any directory.

Most tests run the installed `stealthflow` command in a subprocess from a temporary
directory (not the repository), as a user would; the vault lives in that directory.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stealthflow.anonymize.coarser import vaguer_durations
from stealthflow.evaluation.runner import run_evaluation
from stealthflow.placeholders.keys import new_secret

STEALTHFLOW = shutil.which("stealthflow", path=str(Path(sys.executable).parent)) or "stealthflow"
POST = "Hi, I'm at anna.berg@mailbox.org and my AWS key is AKIAIOSFODNN7EXAMPLE."


def user_env(tmp_path: Path) -> dict:
    """Environment of a user whose vault and key live under tmp_path."""
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    env["STEALTHFLOW_VAULT_KEY"] = new_secret()
    return env


@pytest.fixture
def home(tmp_path):
    """Environment of a user whose vault and key live under tmp_path; cwd is tmp_path."""
    return user_env(tmp_path)


def run(args: list[str], env: dict, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [STEALTHFLOW, *args], input=stdin, capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def test_a_post_round_trips_through_stdin_and_stdout(home, tmp_path):
    protected = run(["protect", "-", "--session", "chat", "--rewrite", "none"], home, tmp_path, stdin=POST)
    assert protected.returncode == 0, protected.stderr
    assert "anna.berg@mailbox.org" not in protected.stdout and "AKIAIOSFODNN7EXAMPLE" not in protected.stdout
    assert "<EMAIL_1>" in protected.stdout
    assert (
        "masked 2 value(s) (EMAIL 1, API_KEY 1)" in protected.stderr
        and "rotate" in protected.stderr
        and "read those texts before sending them" in " ".join(protected.stderr.split())
    )  # a summary and warnings on stderr, which give no all-clear for a text that held a secret

    restored = run(["restore", "--session", "chat", "-"], home, tmp_path, stdin=protected.stdout)
    assert restored.returncode == 0, restored.stderr
    assert restored.stdout.rstrip("\n") == POST


def test_text_argument_json_output_and_jsonl_through_pipes(home, tmp_path):
    as_json = run(["protect", POST, "--json", "--session", "s", "--rewrite", "none"], home, tmp_path)
    assert as_json.returncode == 0, as_json.stderr
    body = json.loads(as_json.stdout)
    assert {span["type"] for span in body["spans"]} >= {"EMAIL"} and "<EMAIL_1>" in body["text"]

    records = json.dumps({"id": "a", "text": POST}) + "\n"
    piped = run(["protect", "-i", "-", "-o", "-", "--session", "s", "--rewrite", "none"], home, tmp_path, stdin=records)
    assert piped.returncode == 0, piped.stderr
    assert json.loads(piped.stdout)["text"] == body["text"]  # same value, same placeholder

    plain_file = tmp_path / "post.txt"
    plain_file.write_text(POST + "\n")
    from_file = run(["protect", str(plain_file), "--session", "s", "--rewrite", "none"], home, tmp_path)
    assert from_file.returncode == 0 and from_file.stdout.strip() == body["text"].strip()


def test_protect_rewrites_post_by_post_by_default_and_says_what_changed(home, tmp_path):
    post = "Twelve years as an ER nurse and the rent here in Leeds keeps going up. Mail me: anna.berg@mailbox.org"
    result = run(["protect", post, "--session", "s", "--json"], home, tmp_path)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["rewrite"]["method"] == "local" and "<EMAIL_1>" in body["text"]  # the placeholder kept
    if "Leeds" in body["text"]:  # nothing replaced the phrase fluently: it stays, and protect says which
        assert "Leeds" in body["rewrite"]["reason"], body["rewrite"]
    else:  # generalized, or left out where its sentence stays whole without it ("the rent keeps going up")
        assert body["rewrite"]["accepted"]
        assert any("Leeds" in c["phrase"] for c in body["rewrite"]["changes"])
        assert not re.search(r"\b(?:in|at|from|as)\s*[.,]", body["text"]), body["text"]  # no dangling preposition
    restored = run(["restore", "--session", "s", body["text"]], home, tmp_path)
    assert "anna.berg@mailbox.org" in restored.stdout


def test_a_typo_in_a_method_or_model_is_an_error_listing_the_choices(home, tmp_path):
    typo = run(["protect", "hello", "--rewrite", "stealht"], home, tmp_path)
    assert typo.returncode == 2 and "stealth" in typo.stderr and "Provider List" not in typo.stderr + typo.stdout
    typo = run(["anonymize", "hello", "--method", "stealht"], home, tmp_path)
    assert typo.returncode == 2 and "unknown method" in typo.stderr
    model = run(["attack", "hello", "--model", "deepseek"], home, tmp_path)
    assert model.returncode == 2 and "not a model spec" in model.stderr


def test_a_bad_setting_is_one_readable_line_per_field(home, tmp_path):
    result = run(["protect", "hello", "--levels", "PL9"], home, tmp_path)
    assert result.returncode == 2
    assert "levels: not a privacy level" in result.stderr
    assert "pydantic" not in result.stderr and "http" not in result.stderr


def test_version_help_and_methods_answer_without_heavy_imports(home, tmp_path):
    version = run(["--version"], home, tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("stealthflow ")
    probe = (
        "import sys; from stealthflow.cli import app; from stealthflow.anonymize import method_names; "
        "names = method_names(); heavy = [m for m in ('torch', 'transformers', 'langgraph', 'litellm', 'presidio_analyzer') if m in sys.modules]; "
        "print(names, heavy)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "'stealth'" in result.stdout and result.stdout.rstrip().endswith("[]")  # no heavy module imported


def test_python_dash_m_runs_the_same_cli(home, tmp_path):
    via_module = subprocess.run(
        [sys.executable, "-m", "stealthflow", "--version"], capture_output=True, text=True, env=home, cwd=tmp_path
    )
    assert via_module.returncode == 0, via_module.stderr
    assert via_module.stdout == run(["--version"], home, tmp_path).stdout


HEAVY_MODULES = (
    "torch",
    "transformers",
    "spacy",
    "presidio_analyzer",
    "numpy",
    "litellm",
    "langgraph",
    "fastapi",
    "uvicorn",
    "stealthflow.placeholders.detector",
)


@pytest.mark.parametrize(
    "args, stdin",
    [
        (["protect", "--help"], None),
        (["protect", "hello", "--rewrite", "locl"], None),
        (["protect", "-"], ""),
        (["serve", "--help"], None),
    ],
)
def test_help_and_argument_errors_import_no_model_library(args, stdin, home, tmp_path):
    """A command's help and its argument errors cost the CLI's own imports only: no torch, Presidio,
    spaCy, numpy, litellm, langgraph or web server (they took 1.3 s of CPU and more before)."""
    probe = (
        "import atexit, sys; "
        f"atexit.register(lambda: print([m for m in {HEAVY_MODULES!r} if m in sys.modules], file=sys.stderr)); "
        f"sys.argv = ['stealthflow', *{args!r}]; from stealthflow.cli import main; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], input=stdin, capture_output=True, text=True, cwd=tmp_path, env=home, timeout=60
    )
    assert result.returncode == (0 if "--help" in args else 2), result.stderr
    assert result.stderr.rstrip().endswith("[]"), result.stderr  # the modules imported, printed at exit


def test_protect_without_the_tagger_imports_no_nlp_library(home, tmp_path):
    """`protect --rewrite none --no-tagger` detects with the project's own recognizers: no Presidio,
    spaCy, torch or transformers is imported (Presidio's predefined recognizers, which ran detection
    before, pulled them all in: ~5.5 s of a cold call)."""
    nlp = ("presidio_analyzer", "spacy", "torch", "transformers")
    post = POST + " Card 4716 2830 5914 4476, IBAN DE44 3704 0044 0532 9130 00, see https://mailbox.org/x"
    probe = (
        "import atexit, sys; "
        f"atexit.register(lambda: print([m for m in {nlp!r} if m in sys.modules], file=sys.stderr)); "
        f"sys.argv = ['stealthflow', 'protect', '--rewrite', 'none', '--no-tagger', {post!r}]; "
        "from stealthflow.cli import main; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=home, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert all(f"<{kind}_1>" in result.stdout for kind in ("EMAIL", "CREDIT_CARD", "IBAN", "URL")), result.stdout
    assert result.stderr.rstrip().endswith("[]"), result.stderr  # the modules imported, printed at exit


@pytest.mark.real_model
def test_protect_with_the_default_rewrite_imports_neither_torch_nor_transformers(home, tmp_path):
    """The default rewrite (`local`) runs the cue tagger (MiniLM), spaCy's parse and the SmolLM2 fluency
    scorer all without torch: importing it cost a cold call ~2 s of its ~7.7 s of CPU."""
    heavy = ("torch", "transformers")
    post = "Twelve years as an ER nurse and the rent here in Leeds keeps going up. Mail me: anna.berg@mailbox.org"
    probe = (
        "import atexit, sys; "
        f"atexit.register(lambda: print([m for m in {heavy!r} if m in sys.modules], file=sys.stderr)); "
        f"sys.argv = ['stealthflow', 'protect', {post!r}]; from stealthflow.cli import main; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=home, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert "ER nurse" not in result.stdout and "<EMAIL_1>" in result.stdout, result.stdout  # rewritten and masked
    assert result.stderr.rstrip().endswith("[]"), result.stderr  # the modules imported, printed at exit


def test_detection_imports_presidio_without_transformers_pipelines(tmp_path):
    """`import presidio_analyzer` would load transformers' pipelines (~2.5 s of a CLI call) for engines
    stealthflow does not use; presidio_import.py defers them, and leaves `transformers.pipeline` whole."""
    probe = (
        "import sys; import stealthflow.placeholders.detector, stealthflow.anonymize.ner_mask; "
        "deferred = 'transformers.pipelines' not in sys.modules; "
        "from transformers import pipeline; from presidio_analyzer.nlp_engine import huggingface_token_pipe as hf; "
        "print(deferred, pipeline.__module__, hf.hf_pipeline is not None)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "True",
        "transformers.pipelines",
        "True",
    ]  # deferred; afterwards transformers' own; Presidio still sees one


def test_commands_find_the_bundled_data_from_any_directory(home, tmp_path):
    result = run(["attacker", "eval", "--limit", "2", "--no-cache"], home, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "data/test.jsonl (2 profiles)" in result.stdout
    assert not [p for p in tmp_path.rglob("*") if p.suffix in (".jsonl", ".json")]  # nothing written where it ran


def test_a_failed_evaluate_can_be_rerun_into_the_same_out(tmp_path, repo):
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    data = tmp_path / "two.jsonl"
    data.write_text("\n".join((repo / "data/test.jsonl").read_text().splitlines()[:2]) + "\n")
    out = tmp_path / "eval"
    broken = Settings.model_validate(
        {"evaluation": {"methods": ["ner-mask"], "data": str(data), "attackers": ["nope"]}}
    )
    with pytest.raises(ValueError, match="unknown attackers"):
        run_evaluation(broken, LLMPool(), out)
    assert (out / "run.json").exists()  # the failed run left its settings behind...
    fixed = broken.model_copy(
        update={"evaluation": broken.evaluation.model_copy(update={"attackers": ["classifier"], "llm_judge": False})}
    )
    fixed = fixed.model_copy(update={"judge": fixed.model.model_copy(update={"model": "openai/unused"})})
    evaluation = run_evaluation(fixed, LLMPool(), out)  # ...but no result, so the corrected command goes on
    assert len((out / "originals.jsonl").read_text().splitlines()) == 2
    assert evaluation.failed == {} or "scoring (ner-mask)" in evaluation.failed


def test_a_model_that_cannot_connect_fails_the_command_before_any_output(home, tmp_path):
    config = tmp_path / "remote.yaml"
    config.write_text(
        "model: {model: openai/some-model, api_base: 'http://127.0.0.1:9/v1', max_retries: 1, timeout: 5}\n"
    )
    out = tmp_path / "anon.jsonl"
    result = run(
        ["anonymize", "I live in Leeds.", "--method", "standard", "--config", str(config), "-o", str(out)],
        home,
        tmp_path,
    )
    assert result.returncode == 2 and "did not answer" in result.stderr
    assert len([line for line in result.stderr.splitlines() if line.startswith("error:")]) == 1
    assert not out.exists()  # nothing written as if it had worked


def test_a_long_text_argument_is_text_not_a_file_name(tmp_path, monkeypatch):
    from stealthflow.cli.source import read_source

    long_sentence = (
        "I have been working in Leeds for twelve years and the shifts are long. " * 6
    )  # > 255 bytes: too long for a file name
    assert read_source(long_sentence).text == long_sentence
    assert read_source("a\x00b").text == "a\x00b"
    post = tmp_path / "post.txt"
    post.write_text("hello")
    assert read_source(str(post)).path == post


def test_a_post_with_nothing_to_change_is_printed_as_it_is_by_the_default_method(home, tmp_path):
    """The default `anonymize` (method local, the shipped cue tagger) on a post that gives nothing away."""
    post = "Just got my cat a new bed, she loves it."
    result = run(["anonymize", post], home, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == post and "nothing to change" in result.stderr


# Three posts the default `anonymize` (method local, the shipped models) generalizes, each by another table of
# data/generalize; before, each phrase stayed and its post was not printed. One command reads the three as JSONL
# records (the shipped models load once; each post is rewritten on its own), each test checks its own row.
GENERALIZED = {
    "duration": "Twenty years on and he still leaves wet towels on the bed.",
    "year": "We bought this house in 1998 and the roof still leaks.",
    "institution": "Still waiting on the NHS, it's been months.",
}


@pytest.fixture(scope="module")
def generalized_rows(tmp_path_factory) -> dict[str, dict]:
    """`stealthflow anonymize posts.jsonl --json` (the default method) run once over GENERALIZED, rows by id."""
    tmp_path = tmp_path_factory.mktemp("generalized")
    posts = tmp_path / "posts.jsonl"
    posts.write_text("".join(json.dumps({"id": key, "text": text}) + "\n" for key, text in GENERALIZED.items()))
    result = run(["anonymize", str(posts), "--json"], user_env(tmp_path), tmp_path)
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row for row in map(json.loads, result.stdout.splitlines())}
    assert set(rows) == set(GENERALIZED), result.stdout
    return rows


def test_a_duration_is_worded_as_a_range_that_holds_it_by_the_default_method(generalized_rows):
    """A post whose "Twenty years" gives the author away: it becomes a true, coarser wording (coarser.yaml)."""
    post, row = GENERALIZED["duration"], generalized_rows["duration"]
    wordings = vaguer_durations("Twenty years", "", post.removeprefix("Twenty years"))  # "Decades", ...
    assert row["protected"] is True and row["text"] in {post.replace("Twenty years", w) for w in wordings}


def test_a_calendar_year_is_worded_as_its_decade_by_the_default_method(generalized_rows):
    """A post whose "1998" (marked as an age) dates the author: it becomes its decade (coarser.yaml `years`)."""
    row = generalized_rows["year"]
    assert row["protected"] is True and row["text"] == "We bought this house in the 1990s and the roof still leaks."


def test_anonymize_puts_a_generic_kind_in_place_of_a_country_specific_institution(generalized_rows):
    """A post whose "the NHS" says the author lives in Britain: the marked name gives way to its kind
    (data/generalize/institution_kinds.tsv)."""
    row = generalized_rows["institution"]
    assert row["protected"] is True and row["text"] == "Still waiting on the health service, it's been months."


def test_a_post_that_could_not_be_protected_leaves_no_text_in_the_output_file(home, tmp_path):
    """The default `anonymize` (method local, the shipped models) on a post whose "Wife" nothing generalizes: the
    file a user uploads holds its id, the reason and what stayed, never its text, and neither does stderr, piped,
    unless --show-unprotected asks for the phrases that stayed there; the other post is written."""
    posts = tmp_path / "posts.jsonl"
    posts.write_text(
        '{"id": "wife", "text": "Wife says it\'s distinguished."}\n'
        '{"id": "cat", "text": "Just got my cat a new bed, she loves it."}\n'
    )
    out = tmp_path / "anon.jsonl"
    result = run(["anonymize", str(posts), "-o", str(out)], home, tmp_path)
    assert result.returncode == 2, result.stderr
    rows = {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert "distinguished" not in out.read_text()
    assert set(rows["wife"]) <= {"id", "protected", "reason", "unprotected"} and rows["wife"]["protected"] is False
    assert "Wife" not in out.read_text() and rows["wife"]["unprotected"][0]["phrases"] >= 1  # counted, not named
    assert "Wife" not in result.stderr and re.search(
        r"wife: no fluent generalization for \d+ phrase\(s\):", result.stderr
    )
    assert "named only on a terminal" in result.stderr  # a pipe keeps stderr: what stayed is counted, not named
    assert rows["cat"]["text"] == "Just got my cat a new bed, she loves it." and rows["cat"]["protected"] is True
    assert "--show-unprotected names here the phrases that stayed" in " ".join(result.stderr.split())
    as_json = run(["anonymize", str(posts), "--json", "--show-unprotected"], home, tmp_path)
    assert [json.loads(line) for line in as_json.stdout.splitlines()] == list(rows.values())  # still none of its words
    assert re.search(r'wife: no fluent generalization for "[^"]*Wife[^"]*"', as_json.stderr)  # asked for: named


def test_the_demo_cue_list_names_each_post(home, tmp_path, repo):
    """`make demo`'s first step: each post of a JSONL is named by its id, not all "post 1"."""
    result = run(["attack", str(repo / "examples/posts.jsonl"), "--attackers", "classifier"], home, tmp_path)
    assert result.returncode == 0, result.stderr
    cue_lines = [line for line in result.stdout.splitlines() if "phrases that point to you" in line]
    assert len(cue_lines) >= 2 and len({line.split(":")[0] for line in cue_lines}) == len(cue_lines)
    assert all(line.startswith("post-") and not line.startswith("post 1") for line in cue_lines)
