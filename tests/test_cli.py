import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import typer
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


def test_anonymize_a_method_that_does_not_check_what_stays_is_not_protected(tmp_path):
    """A rewrite nothing checks (ner-mask masks named entities only: a name it misses goes out) is not reported
    protected: the row says why, without the text, nothing is printed and the command exits 2 (--allow-unchanged: 0,
    still nothing printed)."""
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "p1", "text": "Hi, I\'m Margaret Okafor and I work at Siemens AG in Berlin."}\n')
    out = tmp_path / "anon.jsonl"
    command = ["anonymize", str(posts), "--method", "ner-mask"]
    result = runner.invoke(app, [*command, "-o", str(out)])
    assert result.exit_code == 2, result.output
    reason = "not checked: ner-mask does not check what stays"
    assert json.loads(out.read_text()) == {"id": "p1", "protected": False, "reason": reason}
    allowed = runner.invoke(app, [*command, "--allow-unchanged"])
    assert allowed.exit_code == 0 and allowed.stdout == "" and reason in allowed.stderr
    sentences = runner.invoke(app, [*command, "--remove-sentences"])
    assert sentences.exit_code == 2 and "--remove-sentences is for --method local" in sentences.stderr


def test_anonymize_fails_closed_and_masks_secrets_whatever_the_method(tmp_path):
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "p1", "text": "My key is AKIAIOSFODNN7EXAMPLE and I live in Zurich."}\n')
    out = tmp_path / "anon.jsonl"
    register_backend(
        "mute", lambda rest, config: FakeBackend("I cannot help with that.")
    )  # FAKE: never writes the format
    result = runner.invoke(app, ["anonymize", str(posts), "--method", "standard", "--model", "mute:x", "-o", str(out)])
    assert result.exit_code == 2 and "protected" in result.output
    row = json.loads(out.read_text())
    assert row["protected"] is False and "could not be read" in row["reason"]
    assert "text" not in row and "Zurich" not in out.read_text()  # the file a user publishes holds no unprotected text
    result = runner.invoke(
        app, ["anonymize", str(posts), "--method", "standard", "--model", "mute:x", "-o", str(out), "--allow-unchanged"]
    )
    assert result.exit_code == 0
    from stealthflow.anonymize.methods import Anonymized, register_method

    class Leaky:  # FAKE: a checked rewrite that keeps the key
        name = "leaky"

        def anonymize_many(self, profiles, on_progress=None):
            return [Anonymized(p.id, "My key is AKIAIOSFODNN7EXAMPLE.", checked=True) for p in profiles]

    register_method("leaky", lambda settings, pool, options: Leaky())
    result = runner.invoke(app, ["anonymize", str(posts), "--method", "leaky", "--model", "fake:x", "-o", str(out)])
    row = json.loads(out.read_text())
    assert result.exit_code == 0 and row["protected"] is True
    assert "AKIAIOSFODNN7EXAMPLE" not in out.read_text() and "<API_KEY_" in row["text"]  # the secret is masked


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

    assert "blind" in risk_status(
        {"protected": None, "before": "llm: no guess", "after": "llm: no guess | classifier: no guess"}
    )
    assert "not confidently" in risk_status({"protected": None, "before": "llm: Leeds (2)", "after": "llm: no guess"})
    assert "protected" in risk_status({"protected": True, "before": "llm: Leeds (4)", "after": "llm: London (4)"})


# -- the front door: fail closed, clear errors, --json, help (issue 50) -----------------------------


@pytest.fixture
def user_home(tmp_path, monkeypatch):
    """This process's vault and key under tmp_path (the CLI runs in-process)."""
    from stealthflow.placeholders.keys import new_secret

    for name, sub in (
        ("HOME", ""),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
    ):
        monkeypatch.setenv(name, str(tmp_path / sub))
    monkeypatch.setenv("STEALTHFLOW_VAULT_KEY", new_secret())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_anonymize_never_prints_a_text_it_could_not_protect(tmp_path):
    register_backend(
        "mute", lambda rest, config: FakeBackend("I cannot help with that.")
    )  # FAKE: never writes the format
    post = "I just moved to Zurich with my husband."
    result = runner.invoke(app, ["anonymize", post, "--method", "standard", "--model", "mute:x"])
    assert result.exit_code == 2
    assert "Zurich" not in result.stdout  # a shell pipe gets nothing unprotected
    assert "not protected" in result.stderr and "could not be read" in result.stderr
    as_json = runner.invoke(app, ["anonymize", post, "--method", "standard", "--model", "mute:x", "--json"])
    row = json.loads(as_json.stdout)
    assert as_json.exit_code == 2 and row["protected"] is False and "text" not in row and "Zurich" not in as_json.stdout


def test_anonymize_json_prints_one_row_per_profile(tmp_path):
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "p1", "text": "I just moved to Zurich."}\n{"id": "p2", "text": "I live in Zurich."}\n')
    result = runner.invoke(app, ["anonymize", str(posts), "--method", "standard", "--model", "fake:x", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["id"], r["text"], r["protected"]) for r in rows] == [
        ("p1", "I just moved to a new city.", True),
        ("p2", "I just moved to a new city.", True),
    ]


def test_attack_without_attackers_runs_the_classifier_on_the_embedded_model_and_the_llm_on_another():
    """The embedded model gives no usable answer as an attacker (docs/attack.md): with it, `attack` defaults to the
    classifier; with any other model, to the LLM attacker."""
    from stealthflow.attack.registry import default_attackers
    from stealthflow.config import load_settings

    assert default_attackers(load_settings()) == ["classifier"]
    assert default_attackers(load_settings(model="fake:x")) == ["llm"]
    post = "Twelve years as an ER nurse and the rent here in Leeds keeps going up."
    for extra, attacker in (([], "classifier"), (["--model", "fake:x"], "fake-model")):  # the LLM attacker: its model
        result = runner.invoke(app, ["attack", post, "--attributes", "age", "--json", *extra])
        assert result.exit_code == 0, result.output
        assert [json.loads(line)["attacker"] for line in result.stdout.splitlines()] == [attacker]


def test_restore_fails_when_the_vault_never_saw_the_session(user_home):
    """ux28 finding 19: a mistyped session restored nothing and exited 0, so a script could not tell it from
    success. It is an error now (exit 2, the session named, nothing on stdout, no -o file written); a text without
    placeholders still restores under any session, and "not issued" is said only for a session the vault knows."""
    protected = runner.invoke(app, ["protect", "mail me at ann.berg@mailbox.org", "-s", "real", "--rewrite", "none"])
    assert protected.exit_code == 0, protected.output
    reply = protected.stdout.strip() + " <EMAIL_7>"
    typo = runner.invoke(app, ["restore", "--session", "raal", reply])
    assert typo.exit_code == 2 and typo.stdout == ""
    assert "no session of that name in the vault" in typo.stderr and "2 placeholder(s)" in typo.stderr
    out = user_home / "restored.txt"
    assert runner.invoke(app, ["restore", "--session", "raal", reply, "-o", str(out)]).exit_code == 2
    assert not out.exists()
    plain = runner.invoke(app, ["restore", "--session", "raal", "no placeholder here"])
    assert plain.exit_code == 0 and plain.stdout == "no placeholder here\n"
    known = runner.invoke(app, ["restore", "--session", "real", reply])
    assert "ann.berg@mailbox.org" in known.stdout and "no session" not in known.stderr
    said = " ".join(known.stderr.split())
    assert "1 placeholder(s) have no value in session 'real' (never issued to it, or forgotten since)" in said


def test_protect_refuses_records_keyed_by_a_value_it_finds_and_writes_nothing(user_home):
    """rev21 finding 8: `protect -i` copied the id column into the protected rows as it was (a dataset keyed by
    e-mail addresses kept them in the file meant for the cloud). An id holding a value detection finds is refused:
    exit 2, its line named, not the id; nothing written. Ids without one are written as they are."""
    keyed = user_home / "keyed.jsonl"
    keyed.write_text(
        '{"id": "row-1", "text": "Please reset my account."}\n'
        '{"id": "dana.kerr@mailbox.org", "text": "Please reset my account, my email is dana.kerr@mailbox.org"}\n'
    )
    refused = runner.invoke(app, ["protect", "-i", "keyed.jsonl", "-o", "out.jsonl", "-s", "ids", "--rewrite", "none"])
    said = " ".join(refused.stderr.split())
    assert refused.exit_code == 2 and "1 record(s) refused, nothing protected: " in said
    assert "keyed.jsonl:2: its id holds EMAIL" in said and "dana.kerr" not in refused.output
    assert not (user_home / "out.jsonl").exists()
    keyed.write_text('{"id": "row-1", "text": "My email is dana.kerr@mailbox.org"}\n')
    written = runner.invoke(app, ["protect", "-i", "keyed.jsonl", "-o", "out.jsonl", "-s", "ids", "--rewrite", "none"])
    assert written.exit_code == 0 and json.loads((user_home / "out.jsonl").read_text())["id"] == "row-1"


def test_a_repeated_id_is_named_by_its_lines_not_printed(user_home):
    """rev26 L3: two rows keyed by the same e-mail printed it ("duplicate id 'dana.kerr@mailbox.org'") before the id
    check could refuse it. The error names the lines; the id is not printed; nothing is written."""
    keyed = user_home / "dup.jsonl"
    row = '{"id": "dana.kerr@mailbox.org", "text": "Please reset my account."}\n'
    keyed.write_text(row + row)
    refused = runner.invoke(app, ["protect", "-i", "dup.jsonl", "-o", "out.jsonl", "-s", "ids", "--rewrite", "none"])
    assert refused.exit_code == 2
    assert "dup.jsonl:2: duplicate id, the same as line 1's" in " ".join(refused.stderr.split())
    assert "dana.kerr" not in refused.output and not (user_home / "out.jsonl").exists()


def test_json_lines_nested_too_deep_or_with_a_too_long_number_are_named_not_a_traceback(user_home):
    """rev31: a JSONL line of arrays nested past Python's stack stopped protect, restore, memory append and anonymize
    with a traceback (exit 1), and a number of more digits than Python converts with Python's own message and no
    line. Each is now a clear error naming the file and line, exit 2, nothing written."""
    deep = '{"id": "a", "text": "mail quillon.varrick@examplemail.org", "m": ' + "[" * 100_000 + "]" * 100_000 + "}"
    long_number = '{"id": ' + "9" * 5_000 + ', "text": "mail quillon.varrick@examplemail.org"}'
    for name, line, why in (("deep", deep, "nested too deep"), ("long", long_number, "too many digits")):
        path = user_home / f"{name}.jsonl"
        path.write_text('{"id": "ok", "user": "ann", "text": "hello"}\n' + line + "\n")
        for command in (
            ["protect", "-i", str(path), "-o", "out.jsonl", "--rewrite", "none", "--no-tagger"],
            ["restore", "-i", str(path), "-o", "out.jsonl", "-s", "default"],
            ["memory", "append", "--user", "ann", "-i", str(path), "--no-tagger"],
            ["anonymize", str(path), "--method", "ner-mask"],
        ):
            said = runner.invoke(app, command)
            output = " ".join(said.output.split())
            assert said.exit_code == 2, (command, said.output[-300:])
            assert f"{name}.jsonl:2" in output and "Traceback" not in output and "quillon" not in output
            assert command[0] != "protect" or why in output
            assert not (user_home / "out.jsonl").exists()


def test_restore_names_the_session_the_rows_were_protected_in(user_home):
    """`restore -i` under another session than the rows carry restores nothing: it names the rows' session (main
    said nothing about it); a forgotten value is not called "never issued" (main: "were not issued")."""
    (user_home / "in.jsonl").write_text('{"id": "a", "text": "mail me at ann.berg@mailbox.org"}\n')
    protected = runner.invoke(app, ["protect", "-i", "in.jsonl", "-o", "out.jsonl", "-s", "demo", "--rewrite", "none"])
    assert protected.exit_code == 0, protected.output
    runner.invoke(app, ["protect", "hello bob.berg@mailbox.org", "-s", "other", "--rewrite", "none"])
    wrong = runner.invoke(app, ["restore", "--session", "other", "-i", "out.jsonl"])
    # refused, nothing restored: other's own <EMAIL_1> (bob) must not be put into demo's rows
    assert wrong.exit_code == 2 and "ann.berg" not in wrong.stdout and "bob.berg" not in wrong.stdout
    assert "the rows were protected in session 'demo', not 'other': restore them with --session demo" in " ".join(
        wrong.stderr.split()
    )
    right = runner.invoke(app, ["restore", "--session", "demo", "-i", "out.jsonl"])
    assert "ann.berg@mailbox.org" in right.stdout and "the rows were protected" not in right.stderr
    forget = runner.invoke(app, ["vault", "forget", "--value"], input="ann.berg@mailbox.org\n")
    assert forget.exit_code == 0, forget.output
    forgotten = runner.invoke(app, ["restore", "--session", "demo", "-i", "out.jsonl"])
    said = " ".join(forgotten.stderr.split())
    assert "ann.berg" not in forgotten.stdout and "were not issued" not in said and "never" not in said
    # ux24: main said "session 'demo' was deleted" where one value was forgotten
    assert (
        "1 placeholder(s) stay as they are: their value(s) were forgotten (deleted from the vault; the session was not)"
        in said
    )
    runner.invoke(app, ["protect", "-i", "in.jsonl", "-o", "gone.jsonl", "-s", "gone", "--rewrite", "none"])
    assert runner.invoke(app, ["vault", "forget", "--session", "gone"]).exit_code == 0
    deleted = runner.invoke(app, ["restore", "--session", "gone", "-i", "gone.jsonl"])
    assert "the session was deleted, and its values with it: its 1 placeholder(s)" in " ".join(deleted.stderr.split())


def test_anonymize_judges_and_prints_each_post_of_a_plain_text_and_names_the_ones_withheld(tmp_path, monkeypatch):
    """ux22 M6: a plain-text file of four posts was one profile, so one post that could not be rewritten withheld all
    four. Each post (a paragraph, or a line in a file without blank lines) is judged and printed on its own; the
    error names the posts withheld; the local method has no model to fix; --allow-unchanged changes the exit code
    only."""
    from stealthflow.anonymize import methods
    from stealthflow.anonymize.methods import Anonymized

    class StuckOnTheNurse:  # FAKE local method: generalizes nothing, and cannot generalize "nurse"
        name = "local"

        def anonymize_many(self, profiles, on_progress=None):
            stuck = {"unprotected": [{"phrase": "nurse", "post": 0}]}
            return [
                Anonymized(p.id, p.text, details=stuck)
                if "nurse" in p.text
                else Anonymized(p.id, p.text, [], True, {}, True)
                for p in profiles
            ]

    monkeypatch.setitem(methods._METHODS, "local", lambda settings, pool, options: StuckOnTheNurse())
    monkeypatch.setattr(
        sys.modules["stealthflow.cli.app"], "stderr_is_terminal", lambda: True
    )  # the phrases are named there only
    for text, printed in [
        ("My cat sleeps all day.\n\nTwelve years as a nurse.\n\nThe weather was nice.\n", "\n\n"),
        ("My cat sleeps all day.\nTwelve years as a nurse.\nThe weather was nice.\n", "\n"),
    ]:
        posts = tmp_path / "posts.txt"
        posts.write_text(text)
        result = runner.invoke(app, ["anonymize", str(posts)])
        assert result.exit_code == 2 and result.stdout == f"My cat sleeps all day.{printed}The weather was nice.\n"
        said = " ".join(result.stderr.split())
        assert 'not protected: posts:2: no fluent generalization for "nurse"' in said
        assert "1 of 3 text(s) could not be anonymized and were not printed (posts:2;" in said
        assert "model" not in result.stderr and "it still prints none of them" in result.stderr
        allowed = runner.invoke(app, ["anonymize", str(posts), "--allow-unchanged"])
        assert allowed.exit_code == 0 and allowed.stdout == result.stdout
    assert "still not printed" in " ".join(runner.invoke(app, ["anonymize", "--help"]).stdout.split())


@pytest.mark.parametrize(
    ("post", "language"),
    [
        ("Hallo zusammen, ich bin neu hier und lese am Wochenende gern Krimis.", "de"),
        ("Ciao a tutti, ho letto un bel libro questa settimana e ve lo consiglio.", "it"),
    ],
)
def test_anonymize_local_says_a_post_it_cannot_read_was_not_checked_and_names_none_of_its_words(
    post, language, monkeypatch
):
    """A new user's German and Italian posts went through the English cue tagger's marks and were refused with
    everyday words ("Hallo zusammen", "ho letto un bel libro") as the phrases that stayed. The real CLI and models:
    the post is not printed (exit 2; 0 with --allow-unchanged), its row and stderr line say it was not checked, and
    no word of it is named, even on a terminal."""
    monkeypatch.setattr(sys.modules["stealthflow.cli.app"], "stderr_is_terminal", lambda: True)
    reason = f"not checked: the local rewrite reads English only (language: {language})"
    as_json = runner.invoke(app, ["anonymize", "-", "--json"], input=post)
    row = json.loads(as_json.stdout)
    assert as_json.exit_code == 2 and {k: v for k, v in row.items() if k != "id"} == {
        "protected": False,
        "reason": reason,
    }
    said = " ".join(as_json.stderr.split())
    assert f"not protected: {row['id']}: {reason}" in said
    assert not {word.strip(",.") for word in post.split()} & set(said.replace(":", " ").split())  # none of its words
    assert "1 of them not checked, in languages the local rewrite does not read" in said  # the closing advice
    assert "phrases that stayed" not in said  # none stayed: the rewrite did not read the post
    allowed = runner.invoke(app, ["anonymize", "-", "--allow-unchanged"], input=post)
    assert allowed.exit_code == 0 and allowed.stdout == ""


def test_the_closing_advice_names_each_kind_of_text_not_protected():
    """Texts whose phrases stayed get the advice about those phrases; texts the local rewrite did not read get their
    own (no phrase of theirs stayed); one with both, the phrases' advice."""
    from stealthflow.anonymize.methods import Anonymized
    from stealthflow.cli.anonymize import _remedy

    stayed = Anonymized("a", "t", details={"unprotected": [{"post": 0, "phrase": "p"}], "not_read": []})
    unread = Anonymized("b", "t", details={"unprotected": [], "not_read": [{"post": 0, "language": "de"}]})
    both = Anonymized("c", "t", details={"unprotected": [{"post": 0, "phrase": "p"}], "not_read": [{"language": "de"}]})
    assert "phrases that stayed" in _remedy([stayed], "local") and "not checked" not in _remedy([stayed], "local")
    assert "phrases that stayed" not in _remedy([unread], "local") and "1 of them not checked" in _remedy(
        [unread], "local"
    )
    mixed = _remedy([stayed, unread, unread, both], "local")
    assert "phrases that stayed" in mixed and "2 of them not checked" in mixed
    assert _remedy([unread], "llm") == "`--method local` rewrites them and checks what stays"


def test_a_text_read_but_for_a_sentence_is_said_to_be_not_checked_in_part(user_home):
    """ux24 M2: a German sentence before an English one the rewrite rewrote: main said the text was "not checked"
    beside what it rewrote. The summary and the reason say what was read and what was not."""
    from stealthflow.anonymize.methods import Anonymized, register_method

    class ReadsEnglishOnly:  # FAKE: rewrites "Leeds", not the German sentence before it
        name = "english-only"

        def anonymize_many(self, profiles, on_progress=None):
            unread = [{"post": 0, "language": "de", "whole": False}]
            return [Anonymized(p.id, p.comments[0].text.replace("Leeds", "my city"), details={"not_read": unread})
                    for p in profiles]  # fmt: skip

    register_method("english-only", lambda settings, pool, options: ReadsEnglishOnly())
    post = "Ich arbeite hier seit zehn Jahren. I live in Leeds."
    result = runner.invoke(app, ["protect", post, "--rewrite", "english-only", "--no-tagger", "--json"])
    assert result.exit_code == 0, result.output
    reason = json.loads(result.stdout)["rewrite"]["reason"]
    assert reason == "not checked in part: the local rewrite reads English only (language: de)"
    said = " ".join(result.stderr.split())
    assert "1 text(s) not checked in part (a sentence in another language)" in said
    assert "text(s) not checked:" not in said


def test_protect_sends_a_post_the_rewrite_cannot_read_with_its_placeholders_and_says_it_was_not_checked(user_home):
    """`protect` keeps its promise (the placeholders; the text goes) and its rewrite field says the local rewrite did
    not read the German post, with no phrase listed as having stayed. Exit 0 (its output is the placeholder text),
    with a warning line of its own saying what "protected": false means: the summary's count was easy to miss."""
    post = "Hallo zusammen, ich bin neu hier und lese am Wochenende gern Krimis. Schreibt mir: ann.berg@mailbox.org"
    result = runner.invoke(app, ["protect", post, "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout)
    assert "ann.berg" not in row["text"] and "<EMAIL_1>" in row["text"] and "Hallo zusammen" in row["text"]
    assert row["rewrite"] == {
        "method": "local",
        "accepted": True,
        "protected": False,
        "reason": "not checked: the local rewrite reads English only (language: de)",
    }
    said = " ".join(result.stderr.split())
    assert "1 text(s) not checked: the local rewrite reads English only" in said
    assert 'warning: 1 text(s) not protected against attribute inference ("rewrite": {"protected": false})' in said
    assert "Krimis" not in result.stderr


def test_a_text_with_nothing_to_change_is_protected_as_it_is_and_an_echo_is_not():
    from stealthflow.anonymize.methods import Anonymized

    post = "Just got my cat a new bed, she loves it."
    assert Anonymized("p", post, nothing_to_change=True).failure(post) is None  # the method found nothing to change
    assert "nothing was rewritten" in Anonymized("p", post).failure(post)  # a model that echoed the post
    assert "could not be read" in Anonymized("p", post, parsed=False, nothing_to_change=True).failure(post)


def test_anonymize_removes_sentences_only_when_asked(monkeypatch):
    from stealthflow.anonymize import methods
    from stealthflow.anonymize.methods import Anonymized

    seen = []

    class Unchanged:  # FAKE local method: records its options, changes nothing
        name = "local"

        def anonymize_many(self, profiles, on_progress=None):
            return [Anonymized(p.id, p.text, nothing_to_change=True, checked=True) for p in profiles]

    def build(settings, pool, options):
        seen.append(options)
        return Unchanged()

    monkeypatch.setitem(methods._METHODS, "local", build)
    assert runner.invoke(app, ["anonymize", "My cat sleeps all day."]).exit_code == 0
    assert runner.invoke(app, ["anonymize", "My cat sleeps all day.", "--remove-sentences"]).exit_code == 0
    assert "remove_sentences" not in seen[0] and seen[1]["remove_sentences"] is True


def test_anonymize_defaults_to_the_offline_method():
    import click

    from stealthflow.cli.app import Typer

    command = typer.main.get_command(app).get_command(click.Context(click.Command("x")), "anonymize")
    assert next(p for p in command.params if p.name == "method").default == "local"
    assert isinstance(app, Typer)


def test_attack_json_prints_the_parsed_attack(tmp_path):
    result = runner.invoke(
        app, ["attack", "My husband and I moved to Zurich.", "--model", "fake:x", "--attributes", "gender", "--json"]
    )
    assert result.exit_code == 0, result.output
    row = json.loads(result.stdout.splitlines()[0])
    assert row["kind"] == "llm" and row["guesses"]["gender"]["guesses"] == ["Female", "Male"] and "strength" in row


@pytest.mark.parametrize("value", ["nosuch.txt", "posts/nosuch.jsonl", "C:\\posts\\a.txt"])
def test_a_path_looking_argument_that_names_no_file_is_an_error(value, user_home):
    from stealthflow.cli.source import looks_like_path, read_source
    from stealthflow.data import DataError

    assert looks_like_path(value)
    with pytest.raises(DataError, match="no such file"):
        read_source(value)
    for command in (["protect", value, "--rewrite", "none", "--no-tagger"], ["attack", value, "--model", "fake:x"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "no such file" in result.stderr, result.output
        assert result.stdout == ""


@pytest.mark.parametrize(
    "value",
    [
        "hello",
        "see https://mailbox.org/a.txt",
        "mailbox.com",
        "I moved to Leeds.",
        "ann.lee@mailbox.org",
        "3/4 of my pay",
    ],
)
def test_text_that_does_not_look_like_a_path_is_the_text(value, user_home):
    from stealthflow.cli.source import looks_like_path, read_source

    assert not looks_like_path(value) and read_source(value).text == value


BINARY = bytes(range(256)) * 16


@pytest.mark.parametrize(
    "command",
    [
        ["anonymize", "-", "--method", "local"],
        ["attack", "-", "--attackers", "classifier"],
        ["protect", "-", "--rewrite", "none"],
        ["protect", "-i", "-", "--rewrite", "none"],
        ["restore", "--session", "s", "-i", "-"],
        ["memory", "hydrate", "--user", "ann", "--request", "r"],
        ["memory", "append", "-i", "-"],
    ],
)
def test_binary_input_is_one_clear_line_on_every_command(command, user_home):
    result = runner.invoke(app, command, input=BINARY)
    assert result.exit_code == 2, result.output
    assert "not UTF-8" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)  # no traceback


@pytest.mark.parametrize(
    "command",
    [
        ["proxy", "--upstream", "openai/gpt-4o-mini"],
        ["ui", "--no-open", "--rewrite", "none"],
        ["serve", "--rewrite", "none"],
    ],
)
def test_a_server_on_a_port_in_use_says_so_in_one_line_before_any_banner(command, user_home):
    """ux25 L9: the proxy printed its "proxying ... on http://127.0.0.1:P/v1" banner, then uvicorn's "address already
    in use", and exited 3."""
    import socket

    with socket.create_server(("127.0.0.1", 0)) as held:
        port = held.getsockname()[1]
        result = runner.invoke(app, [*command, "--port", str(port)])
    assert result.exit_code == 2, result.output
    assert f"127.0.0.1:{port}: the port is in use" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_protect_and_restore_records_keep_the_ids_json_type(user_home):
    """ux25 L5: `protect -i` wrote an id `1` as `"1"` (docs/commands.md: "the id as it is"); a run resumed on that file
    still knows the row, and `restore -i` keeps the type too."""
    records = user_home / "ids.jsonl"
    records.write_text('{"id": 1, "text": "mail me at ann.lee@mailbox.org"}\n{"id": "b2", "text": "hello there"}\n')
    out = user_home / "out.jsonl"
    command = ["protect", "-i", str(records), "--session", "s", "--rewrite", "none", "--no-tagger", "-o", str(out)]
    assert runner.invoke(app, command).exit_code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [row["id"] for row in rows] == [1, "b2"] and "ann.lee" not in rows[0]["text"]
    again = runner.invoke(app, command)
    assert again.exit_code == 0 and "wrote 0 protected texts" in again.stderr, again.output
    restored = runner.invoke(app, ["restore", "-i", str(out), "--session", "s"])
    assert [json.loads(line)["id"] for line in restored.stdout.splitlines()] == [1, "b2"]


def test_protect_writes_into_a_named_pipe_and_leaves_it_a_pipe(user_home):
    """rev25b L4: `protect -o` renamed a file over any path (as root, `-o /dev/null` made /dev/null a regular file); a
    pipe stands in for the device here (the real /dev/null is never touched): it gets the protected text, stays a
    pipe."""
    pipe = user_home / "out.fifo"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        command = ["protect", "mail me at ann.lee@mailbox.org", "-s", "s", "--rewrite", "none", "--no-tagger"]
        result = runner.invoke(app, [*command, "-o", str(pipe)])
        assert result.exit_code == 0, result.output
        written = os.read(reader, 1000).decode()
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode) and "<EMAIL_1>" in written and "ann.lee" not in written


UTF16_POST = "Kontakt: Juergen Haessler, j.haessler@posteo.de\n"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-16"])
@pytest.mark.parametrize("via", ["file", "stdin", "records"])
def test_utf16_text_is_refused_whole_not_protected_in_part(encoding, via, user_home):
    """UTF-16 without a byte order mark is valid UTF-8 (ASCII with NULs between): it was protected in part, the name
    sent as `J.u.e.r.g.e.n`. It is refused whole, naming the encoding and how to convert it; nothing is printed."""
    raw = UTF16_POST.encode(encoding)
    path = user_home / ("post.jsonl" if via == "records" else "post.txt")
    path.write_bytes(raw)
    source = "-" if via == "stdin" else str(path)
    result = runner.invoke(app, ["protect", source, "--rewrite", "none", "--no-tagger"], input=raw)
    assert result.exit_code == 2, result.output
    assert "not UTF-8 text" in result.stderr and "UTF-16" in result.stderr and "iconv" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


STRAY_NUL = {  # input file, what it holds, the command reading it
    "records": ("post.jsonl", json.dumps({"id": 1, "text": "a\0b Juergen Haessler"}) + "\n", "protect"),
    "posts": ("posts.jsonl", json.dumps({"id": 1, "posts": [{"text": "ok"}, {"text": "a\0b Juergen"}]}), "anonymize"),
    "file": ("post.txt", "Hello Juergen\0 Haessler\n", "protect"),
    "stdin": ("post.txt", "Hello Juergen\0 Haessler\n", "protect"),
}


@pytest.mark.parametrize("via", list(STRAY_NUL))
def test_a_stray_nul_is_refused_whole_without_the_utf16_advice(via, user_home):
    """A NUL in a JSONL record's text (`\\u0000`) was protected and written back; a UTF-8 file with one stray NUL was
    refused with `iconv -f UTF-16LE` advice that garbles it. Both are refused whole, UTF-16 named only when NULs
    alternate with other characters (`test_utf16_text_is_refused_whole_not_protected_in_part`); nothing is printed."""
    name, text, command = STRAY_NUL[via]
    path = user_home / name
    path.write_text(text)
    options = ["--method", "ner-mask"] if command == "anonymize" else ["--rewrite", "none", "--no-tagger"]
    result = runner.invoke(app, [command, "-" if via == "stdin" else str(path), *options], input=text)
    assert result.exit_code == 2, result.output
    assert "NUL character" in result.stderr and "UTF-16" not in result.stderr and "iconv" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and result.stdout == ""


def test_a_json_document_given_as_records_says_what_records_are_and_how_to_send_it(user_home):
    """A `.json` export (pretty-printed, or one object on one line) is read as JSONL records: the error says so and
    how to send the document itself (pipe it), rather than "not valid JSON" of a valid JSON file."""
    document = {"users": [{"name": "Oliver Grant", "dob": "1984-03-02"}]}
    for name, text in (("pretty.json", json.dumps(document, indent=2)), ("line.json", json.dumps(document))):
        (user_home / name).write_text(text)
        result = runner.invoke(app, ["protect", name, "--rewrite", "none", "--no-tagger"])
        assert result.exit_code == 2 and result.stdout == "", result.output
        assert "JSONL" in result.stderr and "one {" in result.stderr and "protect - < FILE" in result.stderr
        assert "Oliver" not in result.stderr
    assert "a JSON document, not JSONL records" in runner.invoke(app, ["protect", "pretty.json"]).stderr


@pytest.mark.parametrize(
    "command",
    [
        ["protect", "-", "--rewrite", "none"],
        ["anonymize", "-"],
        ["attack", "-"],
        ["memory", "hydrate", "--user", "ann", "--request", "r"],
    ],
)
def test_empty_input_is_an_error_before_any_model_loads(command, user_home):
    result = runner.invoke(app, command, input=" \n")
    assert result.exit_code == 2 and ("empty" in result.stderr or "no text" in result.stderr), result.output
    assert result.stdout == ""


def test_errors_in_arguments_come_before_any_model_or_vault(tmp_path):
    """`--rewrite locl` (and an empty input) fail before detection's modules are imported."""
    probe = (
        "import sys; from typer.testing import CliRunner; from stealthflow.cli import app; "
        "r = CliRunner().invoke(app, ['protect', 'hello', '--rewrite', 'locl']); "
        "print(r.exit_code, 'stealthflow.placeholders.detector' in sys.modules, 'torch' in sys.modules, 'locl' in r.stderr)"
    )
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert result.stdout.split() == ["2", "False", "False", "True"], result.stdout + result.stderr
    assert not (tmp_path / "data").exists()  # no vault was opened


def test_protect_prints_a_one_line_summary_and_lists_spans_with_verbose(user_home):
    post = "Mail anna.berg@mailbox.org or bob@mailbox.com; key AKIAIOSFODNN7EXAMPLE"
    result = runner.invoke(app, ["protect", post, "--rewrite", "none", "--no-tagger"])
    assert result.exit_code == 0, result.output
    assert "masked 3 value(s) (EMAIL 2, API_KEY 1)" in result.stderr
    assert "as <EMAIL_1>" not in result.stderr  # no line per span
    verbose = runner.invoke(app, ["protect", post, "--rewrite", "none", "--no-tagger", "--verbose"])
    assert "masked EMAIL (PL2) as <EMAIL_1>" in verbose.stderr and "masked API_KEY (PL4)" in verbose.stderr


def test_protect_says_a_rewrite_that_left_a_phrase_is_not_protected(user_home, tmp_path, monkeypatch):
    """A rewrite that generalized one cue and left another is the text sent (what it changed passed the gate):
    accepted, not protected. Text mode and JSONL mode say on stderr how many phrases stayed in how many texts
    (--verbose names them), and the rows say it as the Python result does."""
    from stealthflow.anonymize.methods import Anonymized, register_method

    class PartlyProtecting:  # FAKE: generalizes "Leeds", cannot generalize "nurse"
        name = "partly"

        def anonymize_many(self, profiles, on_progress=None):
            return [
                Anonymized(p.id, p.comments[0].text.replace("Leeds", "the city"), details={"unprotected": [
                    {"phrase": "nurse", "attribute": "occupation"}]} if "nurse" in p.comments[0].text else {})
                for p in profiles
            ]  # fmt: skip

    register_method("partly", lambda settings, pool, options: PartlyProtecting())
    post = "Twelve years as a nurse and the rent in Leeds keeps going up."
    result = runner.invoke(app, ["protect", post, "--rewrite", "partly", "--no-tagger"])
    assert result.exit_code == 0, result.output
    assert "the rent in the city" in result.stdout
    assert "1 phrase(s) could not be generalized and stayed, in 1 of 1 text(s)" in result.stderr
    verbose = runner.invoke(app, ["protect", post, "--rewrite", "partly", "--no-tagger", "-v"])
    # not a terminal: counted; ux24 M2: with the attribute each phrase that stayed points to
    assert "stayed: 1 phrase(s) (occupation 1)" in verbose.stderr and "nurse" not in verbose.stderr
    assert "'rewrite' field" in verbose.stderr
    with monkeypatch.context() as terminal:
        terminal.setattr(sys.modules["stealthflow.cli.app"], "stderr_is_terminal", lambda: True)
        verbose = runner.invoke(app, ["protect", post, "--rewrite", "partly", "--no-tagger", "-v"])
    assert 'stayed: "nurse" (occupation)' in verbose.stderr
    as_json = json.loads(runner.invoke(app, ["protect", post, "--rewrite", "partly", "--no-tagger", "--json"]).stdout)
    assert as_json["rewrite"]["accepted"] and not as_json["rewrite"]["protected"]
    assert as_json["rewrite"]["unprotected"] == ["nurse"]
    records = tmp_path / "posts.jsonl"
    records.write_text(
        json.dumps({"id": "a", "text": post}) + "\n" + json.dumps({"id": "b", "text": "I live in Leeds."})
    )
    jsonl = runner.invoke(
        app, ["protect", "-i", str(records), "-o", str(tmp_path / "out.jsonl"), "--rewrite", "partly"]
    )
    assert jsonl.exit_code == 0, jsonl.output
    assert "1 phrase(s) could not be generalized and stayed, in 1 of 2 text(s)" in jsonl.stderr
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [(r["rewrite"]["accepted"], r["rewrite"]["protected"]) for r in rows] == [(True, False), (True, True)]
    from stealthflow.pipeline import pieces

    monkeypatch.setattr(pieces, "split_text", lambda text: [text[:30], text[30:]])  # a long text's pieces: one text
    split = runner.invoke(app, ["protect", "A nurse here. " * 4, "--rewrite", "partly", "--no-tagger"])
    assert "2 phrase(s) could not be generalized and stayed, in 1 of 1 text(s)" in split.stderr, split.stderr


def test_a_rewrite_that_lost_a_placeholder_is_rejected_with_its_own_reason(user_home):
    """A rewrite that dropped a placeholder is rejected (the placeholder text is sent) and says so, even when the
    method also reported a phrase that stayed: the rejection's reason is the one given."""
    from stealthflow.anonymize.methods import Anonymized, register_method

    class Lossy:  # FAKE: drops the e-mail's placeholder, cannot generalize "nurse"
        name = "lossy"

        def anonymize_many(self, profiles, on_progress=None):
            return [
                Anonymized(p.id, "A nurse wrote this.", details={"unprotected": [{"phrase": "nurse"}]})
                for p in profiles
            ]

    register_method("lossy", lambda settings, pool, options: Lossy())
    post = "Twelve years as a nurse, mail ann.berg@mailbox.org"
    result = runner.invoke(app, ["protect", post, "--rewrite", "lossy", "--no-tagger", "--json", "-v"])
    assert result.exit_code == 0, result.output
    rewrite = json.loads(result.stdout)["rewrite"]
    assert not rewrite["accepted"] and not rewrite["protected"] and "lost placeholder(s) <EMAIL_1>" in rewrite["reason"]
    assert json.loads(result.stdout)["text"] == "Twelve years as a nurse, mail <EMAIL_1>"
    assert "rewrite rejected: the rewrite lost placeholder(s) <EMAIL_1>" in " ".join(result.stderr.split())
    assert "1 rewrite(s) rejected" in result.stderr


def test_a_rewrite_that_changed_nothing_because_every_phrase_stayed_is_accepted_not_rejected(user_home):
    """Every marked phrase stayed: the text sent is the placeholder text either way; the rewrite is accepted and
    not protected (not "rejected", not "nothing to rewrite")."""
    from stealthflow.anonymize.methods import Anonymized, register_method
    from stealthflow.pipeline.rewrite import rewrite_protected

    class Stuck:  # FAKE: marks "nurse", generalizes nothing
        name = "stuck"

        def anonymize_many(self, profiles, on_progress=None):
            return [
                Anonymized(p.id, p.comments[0].text, details={"unprotected": [{"phrase": "nurse"}]}) for p in profiles
            ]

    post = "Twelve years as a nurse."
    [outcome] = rewrite_protected(Stuck(), [("a", post, set())])
    assert outcome.accepted and not outcome.protected and outcome.unprotected == ("nurse",)
    register_method("stuck", lambda settings, pool, options: Stuck())
    result = runner.invoke(app, ["protect", post, "--rewrite", "stuck", "--no-tagger"])
    assert result.exit_code == 0 and result.stdout == post + "\n"
    assert "rejected" not in result.stderr and "nothing to rewrite" not in result.stderr
    assert "rewrote no phrase; 1 phrase(s) could not be generalized and stayed, in 1 of 1 text(s)" in result.stderr
    assert "(--verbose names what stayed)" in " ".join(result.stderr.split())
    verbose = " ".join(runner.invoke(app, ["protect", post, "--rewrite", "stuck", "--no-tagger", "-v"]).stderr.split())
    assert "--verbose names what stayed" not in verbose  # ux22 L6: said with --verbose given, off a terminal
    assert "the rows' 'rewrite' field, --json or -i/-o, names what stayed" in verbose


def test_protect_verbose_counts_the_phrases_rewritten_off_a_terminal_once(user_home):
    """ux22 L6: off a terminal `protect --verbose` said "rewrote 3 phrase(s) rewritten"."""
    from stealthflow.anonymize.methods import Anonymized, register_method

    class Generalizes:  # FAKE: rewrites "a nurse" to "in health care"
        name = "generalizes"

        def anonymize_many(self, profiles, on_progress=None):
            change = {"phrase": "a nurse", "replacement": "in health care", "attribute": "occupation", "post": 0}
            text = profiles[0].comments[0].text.replace("a nurse", "in health care")
            return [Anonymized(p.id, text, details={"changes": [change]}) for p in profiles]

    register_method("generalizes", lambda settings, pool, options: Generalizes())
    result = runner.invoke(
        app, ["protect", "Twelve years as a nurse.", "--rewrite", "generalizes", "--no-tagger", "-v"]
    )
    assert result.exit_code == 0 and result.stdout == "Twelve years as in health care.\n"
    said = " ".join(result.stderr.split())
    assert "text: 1 phrase(s) rewritten (occupation 1)" in said and "rewrote 1 phrase(s) rewritten" not in said


def test_protect_explain_and_json_say_why_each_value_was_masked(user_home):
    """The real detector and shipped tagger: each span names its recognizer, the tagger's filter and rule,
    and its confidence, in the JSON and (with --explain) on stderr, without the value itself."""
    post = "Hi, Tane Whatarau here. Mail me at tane.w@mailbox.org, I work at Halvorsen Logistics."
    result = runner.invoke(app, ["protect", post, "--rewrite", "none", "--tagger", "--json", "--explain"])
    assert result.exit_code == 0, result.output
    spans = {post[s["start"] : s["end"]]: s for s in json.loads(result.stdout)["spans"]}
    email, name = spans["tane.w@mailbox.org"], spans["Tane Whatarau"]
    # given as the writer's ("Mail me at"), the address is masked without the e-mail reader's reading, and says so
    assert (email["source"], email["confidence"]) == ("email", 1.0)
    assert email["reason"].startswith("email: email reader: kept unscored ("), email["reason"]
    assert "given as someone's" in email["reason"]
    assert name["source"] == "pii_tagger" and name["reason"].startswith("pii_tagger: real_name filter: ")
    assert name["reason"].endswith("; tagged by pii-tagger-student")  # an English text: the English student
    assert 0.5 <= name["confidence"] <= 1.0
    assert (
        f"masked EMAIL (PL2) as {email['placeholder']} at {email['start']}-{email['end']}: {email['reason']}, "
        "confidence 1.00" in (result.stderr.replace("\n", " "))
    )
    assert "real_name filter" in result.stderr and "Whatarau" not in result.stderr


@pytest.mark.parametrize(
    ("post", "name"),
    [
        ("Ich heiße Thomas Müller und wohne in Köln.", "Thomas Müller"),
        ("Soy David Silva, vivo en Sevilla.", "David Silva"),
        ("Bonjour, je suis Paul Martin, joignable au 06 12 34 56 78", "Paul Martin"),
        ("I'm Marta Kowalczyk, 34, nurse in Bristol", "Marta Kowalczyk"),
    ],
)
def test_protect_masks_the_name_a_writer_introduces_as_their_own(user_home, post, name):
    """The real detector and shipped tagger: a name the writer gives as theirs is masked though a famous person shares
    it (the first three are in data/public_names.txt), and though their age follows it after a comma."""
    result = runner.invoke(app, ["protect", post, "--rewrite", "none", "--tagger", "--json"])
    assert result.exit_code == 0, result.output
    protected = json.loads(result.stdout)
    assert name in [post[span["start"] : span["end"]] for span in protected["spans"]]
    assert name not in protected["text"]


def test_a_long_text_is_protected_in_pieces_with_progress(user_home, monkeypatch):
    """FAKE-free, real detector (no tagger): a 200 KB one-line text goes through in pieces, with byte progress
    (on a terminal); one value keeps one placeholder across pieces and the JSON spans point into the whole text."""
    from stealthflow.pipeline.pieces import PIECE_CHARS

    monkeypatch.setattr(sys.modules["stealthflow.cli.app"].console, "_force_terminal", True)

    sentence = "My friend writes from anna.berg@mailbox.org every week, and I answer her at night. "
    text = sentence * (2 * 3 * PIECE_CHARS // len(sentence))
    (user_home / "big.txt").write_text(text)
    result = runner.invoke(
        app, ["protect", "big.txt", "--rewrite", "none", "--no-tagger", "--json", "--session", "big"]
    )
    assert result.exit_code == 0, result.output
    assert "kB/s" in result.stderr or "MB/s" in result.stderr  # progress in bytes per second
    body = json.loads(result.stdout)
    assert "anna.berg" not in body["text"] and body["text"].count("<EMAIL_1>") == text.count("anna.berg@mailbox.org")
    assert len(body["spans"]) == text.count("anna.berg@mailbox.org")
    assert all(text[s["start"] : s["end"]] == "anna.berg@mailbox.org" for s in body["spans"])
    assert len(result.stderr.splitlines()) < 10  # a summary, not a line per value


def test_progress_bars_show_on_a_terminal_only_and_end_at_the_total(monkeypatch, capsys):
    """A log (stderr a file or a pipe) keeps no bar; main printed the bar's last state there ("0/3" for attack)."""
    cli_app = sys.modules["stealthflow.cli.app"]
    for terminal in (True, False):
        monkeypatch.setattr(cli_app.console, "_force_terminal", terminal)
        with cli_app.progress_bar("attacking", 3) as progress:
            progress.advance(0, 3)
        shown = capsys.readouterr().err
        assert ("attacking" in shown and "3/3" in shown) if terminal else shown == "", shown


def test_split_text_cuts_at_line_then_sentence_then_word_ends():
    from stealthflow.pipeline.pieces import split_text

    text = ("Anna Berg lives here. " * 30) + "\n" + ("word " * 100) + "x" * 500
    pieces = split_text(text, 200)
    assert "".join(pieces) == text
    assert all(p.endswith((". ", "\n", " ")) for p in pieces[:-1])
    assert all("Anna Berg" in p or "Anna" not in p for p in pieces)  # a name is never cut in two
    assert split_text("short") == ["short"]


def test_the_rows_of_a_texts_pieces_join_into_the_row_of_the_whole_text():
    from stealthflow.pipeline.pieces import join_rows

    def row(text, spans, rewrite, language="en", warnings=()):
        return {"vault": "v1", "text": text, "spans": spans, "rewrite": rewrite, "language": language} | (
            {"warnings": list(warnings)} if warnings else {}
        )

    first = row(
        "Mail <EMAIL_1>. ",
        [{"type": "EMAIL", "start": 5, "end": 14}],
        {"method": "local", "accepted": True, "protected": True, "changes": [{"phrase": "a nurse"}]},
        warnings=["w"],
    )
    second = row(
        "Call <PHONE_1>.",
        [{"type": "PHONE", "start": 5, "end": 14}],
        {"method": "local", "accepted": True, "protected": False, "reason": "stayed", "unprotected": ["Leeds"]},
        language="de",
        warnings=["w"],
    )
    joined = join_rows([first, second], ["Mail ann@mailbox.org. ", "Call 0113 496 0000."])
    assert joined["text"] == "Mail <EMAIL_1>. Call <PHONE_1>." and joined["vault"] == "v1"
    assert [(s["start"], s["end"]) for s in joined["spans"]] == [(5, 14), (27, 36)]  # offsets into the whole input
    assert joined["rewrite"] == {
        "method": "local",
        "accepted": True,
        "protected": False,
        "reason": "stayed",
        "changes": [{"phrase": "a nurse"}],
        "unprotected": ["Leeds"],
    }
    assert joined["warnings"] == ["w"] and joined["language"] == ["en", "de"]
    assert join_rows([first], ["Mail ann@mailbox.org. "])["language"] == "en"


def test_restore_ends_its_output_with_a_line_end_as_protect_does(user_home):
    """ux22 L5: `restore` of a reply without a final line end printed none, so the shell's next output ran on
    ("... I will write to you.rc=0"); from stdin (streamed) and from a file alike, and a line end is never doubled."""
    protected = runner.invoke(app, ["protect", "-", "-s", "l5", "--rewrite", "none", "--no-tagger"], input="a@b.org")
    placeholder = protected.stdout.strip()
    for reply in (f"Sure {placeholder}, I will write to you.", f"Sure {placeholder}\n"):
        restored = runner.invoke(app, ["restore", "-s", "l5", "-"], input=reply)
        assert restored.exit_code == 0 and restored.stdout == reply.replace(placeholder, "a@b.org").rstrip("\n") + "\n"
    assert runner.invoke(app, ["restore", "-s", "l5", "-"], input="").stdout == ""


def test_memory_hydrate_reports_placeholders_that_are_not_the_users(user_home):
    from stealthflow.config import load_settings
    from stealthflow.memory.store import MemoryStore, default_store_path
    from stealthflow.pipeline.protector import Protector, open_vault

    settings = load_settings()
    protector = Protector.from_settings(
        settings.model_copy(update={"protect": settings.protect.model_copy(update={"tagger": False})})
    )
    store = MemoryStore(
        default_store_path(), protector, embed=lambda texts: np.ones((len(texts), 4), np.float32)
    )  # FAKE embedder
    item = store.append("ann", "My email is ann.lee@mailbox.org")
    request = ["--request", store.pack("ann", "my email").request]
    store.close()
    protector.close()
    assert oct(default_store_path().stat().st_mode & 0o777) == "0o600"  # like the vault: owner only
    mine = item.text.split()[-1]
    result = runner.invoke(
        app, ["memory", "hydrate", "--user", "ann", "--json", *request], input=f"I wrote to {mine} and <EMAIL_9>."
    )
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert body["text"] == "I wrote to ann.lee@mailbox.org and <EMAIL_9>."
    # never issued to ann's session: unresolved, as in the process that protected it (ux25 L2: withheld "not in the
    # request" in another process, and so were values forgotten since)
    assert body["withheld"] == [] and body["unresolved"] == ["<EMAIL_9>"]
    plain = runner.invoke(app, ["memory", "hydrate", "--user", "ann", *request], input="I wrote to <EMAIL_9>.")
    assert plain.stdout == "I wrote to <EMAIL_9>.\n" and "not issued to this user's memories" in " ".join(
        plain.stderr.split()
    )
    assert open_vault  # the vault module the store used


def test_help_is_readable_at_80_columns():
    top = runner.invoke(app, ["--help"], terminal_width=80)
    commands = [
        line.split()[0]
        for line in top.stdout.split("Commands:")[1].splitlines()
        if line.startswith("  ") and not line.startswith("   ")
    ]
    assert commands[:2] == ["protect", "restore"] and commands.index("generate") > commands.index("anonymize")
    for args in (
        ["--help"],
        ["protect", "--help"],
        ["anonymize", "--help"],
        ["vault", "list", "--help"],
        ["memory", "hydrate", "--help"],
    ):
        text = runner.invoke(app, args, terminal_width=80).stdout
        assert "<bool>" not in text and "<str>" not in text and "╭" not in text
        assert max(len(line) for line in text.splitlines()) <= 80
    protect_help = runner.invoke(app, ["protect", "--help"], terminal_width=80).stdout
    assert (
        "then rewrite the phrases that give you away" in " ".join(protect_help.split())
        and "optionally rewrite" not in protect_help
    )
    assert (
        "-s, --session TEXT          conversation/session id: restoration only" in protect_help
    )  # not wrapped to ~20 characters


def test_vault_list_prints_whole_session_names_and_dates(user_home):
    session = "newsletter-to-the-whole-neighbourhood-association-2026"
    assert (
        runner.invoke(
            app, ["protect", "mail anna.berg@mailbox.org", "--session", session, "--rewrite", "none", "--no-tagger"]
        ).exit_code
        == 0
    )
    result = runner.invoke(app, ["vault", "list"], terminal_width=80)
    name, values, created, last_used = result.stdout.splitlines()[0].split("\t")
    assert (name, values) == (session, "1") and len(created) == len(last_used) == len("2026-11-28T16:46:09+00:00")


def test_the_cli_modules_import_no_cycle():
    """Every import between the CLI's modules (at the top or inside a function) points one way."""
    import ast

    import stealthflow.cli

    folder = Path(stealthflow.cli.__file__).parent
    imports = {}
    for path in folder.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("stealthflow.cli."):
                found.add(node.module.removeprefix("stealthflow.cli."))
        imports[path.stem] = found - {path.stem}

    def reaches(start: str, goal: str, seen: set) -> bool:
        return any(n == goal or (n not in seen and reaches(n, goal, seen | {n})) for n in imports.get(start, ()))

    assert not [module for module in imports if module != "__init__" and reaches(module, module, {module})]


def test_show_prints_the_texts_only_to_a_terminal(tmp_path, monkeypatch):
    """--show writes the raw text before protection: never into a redirected stderr, on a terminal (a pty) as asked."""
    import pty

    from placeholder_fixtures import key_file_config

    config = key_file_config(tmp_path, monkeypatch, "  tagger: false\n")
    args = [
        "protect",
        "mail sabine.fuchs@web.de",
        "--show",
        "--rewrite",
        "none",
        "--session",
        "s",
        "--config",
        str(config),
    ]
    redirected = runner.invoke(app, args)
    assert redirected.exit_code == 0 and "sabine.fuchs" not in redirected.stderr + redirected.stdout
    assert "--show: not shown, stderr is not a terminal" in " ".join(redirected.stderr.split())
    terminal, stderr = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-m", "stealthflow", *args],
        stdout=subprocess.PIPE,
        stderr=stderr,
        env={**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"},
        timeout=300,
    )
    os.close(stderr)
    shown = b""
    while True:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the pty's writer closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(terminal)
    assert done.returncode == 0 and b"before: mail sabine.fuchs@web.de" in shown


def test_protect_input_shows_on_a_terminal_the_check_of_the_ids_then_the_protection(tmp_path):
    """`protect -i` checks every id for personal values before it writes a row (~1.4 ms an id: 30,000 rows took
    18.8 s with nothing on screen); on a terminal a bar says so, then the protection's bar."""
    import contextlib
    import pty

    (tmp_path / "posts.jsonl").write_text(
        "".join(f'{{"id": "{i}", "text": "mail jo{i}@mailbox.org"}}\n' for i in range(40))
    )
    args = ["protect", "-i", "posts.jsonl", "-o", "out.jsonl", "--session", "s", "--rewrite", "none"]
    terminal, stderr = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-m", "stealthflow", *args],
        stdout=subprocess.PIPE,
        stderr=stderr,
        cwd=tmp_path,
        env={**os.environ, "HOME": str(tmp_path), "COLUMNS": "200"},
        timeout=300,
    )
    os.close(stderr)
    shown = b""
    with contextlib.suppress(OSError):  # the pty's writer closed
        while chunk := os.read(terminal, 4096):
            shown += chunk
    os.close(terminal)
    assert done.returncode == 0 and len((tmp_path / "out.jsonl").read_text().splitlines()) == 40
    assert b"checking ids" in shown and b"40/40" in shown and shown.index(b"checking ids") < shown.index(b"protecting")


def test_every_option_of_every_command_says_what_it_does():
    def options(command, path):
        for name, sub in getattr(command, "commands", {}).items():  # a group
            yield from options(sub, [*path, name])
        yield from ((" ".join(path), p.opts) for p in command.params if p.param_type_name == "option" and not p.help)

    assert list(options(typer.main.get_command(app), [])) == []


def test_attack_lists_no_masked_value_as_a_cue_and_names_the_text_as_its_table_does():
    """The shipped cue tagger marks "4242" (income) and a GitHub token (location) in the demo's posts; protect
    masks both with a placeholder, so the cue line counts them instead (main listed them as attribute cues,
    and called a plain text "post 1" under a table titled "text · ...")."""
    token = "ghp_9fQx7LmN2pRt5VwY8zA1bC3dE6fG0hJ4kL7m"
    post = f"Turning 30 next month, card ending 4242. My github token is {token}, please ignore."
    result = runner.invoke(app, ["attack", post, "--model", "fake:x", "--attributes", "gender"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.stdout.split())
    assert "text · llm" in flat and "text: phrases that point to you:" in flat and "post 1" not in flat
    assert token not in flat and '"4242"' not in flat
    assert "2 value(s) that protect masks with a placeholder" in flat


def test_an_output_file_is_never_the_file_stdin_reads(user_home):
    """`protect - -o f < f` and `restore -s S - -o f < f` (a real shell redirect: the CLI in a subprocess) are refused
    as `-i f -o f` is, and f keeps its text; on main protect replaced it with the protected text and exited 0."""
    posts = user_home / "posts.txt"
    posts.write_text("I am Jonas Weber\n")
    for command in (
        ["protect", "-", "-o", "posts.txt", "--rewrite", "none"],
        ["restore", "-s", "a", "-", "-o", "posts.txt"],
    ):
        with posts.open() as stdin:
            done = subprocess.run(
                [sys.executable, "-m", "stealthflow", *command], stdin=stdin, capture_output=True, text=True
            )
        assert done.returncode == 2 and "is the input file read on stdin" in done.stderr, (command, done.stderr)
        assert posts.read_text() == "I am Jonas Weber\n"


def test_an_output_file_is_never_the_input_nor_a_file_of_other_rows(user_home):
    """`-o` naming the input (the same path, another spelling, a link) is refused before anything is written, by
    every command that reads a file and writes one; protect resumes only rows it wrote for the session, and refuses
    (naming the line) an `-o` holding anything else. On main `protect -i f -o f` kept the raw posts and exited 0."""
    raw = '{"id": "a", "text": "I am Jonas Weber, mail jonas.weber@mailbox.org"}\n'
    posts = user_home / "posts.jsonl"
    posts.write_text(raw)
    (user_home / "link.jsonl").symlink_to(posts)
    for command in (
        ["protect", "-i", "posts.jsonl", "-o", "posts.jsonl", "--rewrite", "none"],
        ["protect", "posts.jsonl", "-o", "./posts.jsonl", "--rewrite", "none"],
        ["protect", "-i", "posts.jsonl", "-o", "link.jsonl", "--rewrite", "none"],
        ["restore", "-s", "default", "-i", "posts.jsonl", "-o", "posts.jsonl"],
        ["anonymize", "posts.jsonl", "--method", "standard", "--model", "fake:x", "-o", "link.jsonl"],
        ["attack", "posts.jsonl", "--model", "fake:x", "-o", "posts.jsonl"],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "is the input file" in result.stderr, (command, result.output)
        assert posts.read_text() == raw, command
    other = user_home / "other.jsonl"
    other.write_text('{"id": "z", "text": "Anna Berg, anna.berg@mailbox.org"}\n')
    result = runner.invoke(app, ["protect", "-i", "posts.jsonl", "-o", "other.jsonl", "--rewrite", "none"])
    assert result.exit_code == 2 and "other.jsonl:1: not a row protect wrote" in " ".join(result.stderr.split())
    assert other.read_text() == '{"id": "z", "text": "Anna Berg, anna.berg@mailbox.org"}\n'  # not appended to
    first = runner.invoke(app, ["protect", "-i", "posts.jsonl", "-o", "out.jsonl", "--rewrite", "none"])
    again = runner.invoke(app, ["protect", "-i", "posts.jsonl", "-o", "out.jsonl", "--rewrite", "none"])
    assert first.exit_code == 0 and again.exit_code == 0 and "resuming: 1 of 1" in again.stderr
    assert "jonas.weber@mailbox.org" not in (user_home / "out.jsonl").read_text()


def test_anonymize_names_a_posts_phrases_on_a_terminal_only_and_never_a_value_protect_masks(tmp_path, monkeypatch):
    """The change list and the phrases that stayed: into a file or pipe (CliRunner's stderr is not a terminal) only
    counts and attributes (main wrote the IBAN, the name and the diagnosis there); on a terminal the phrases, but a
    phrase holding a value protect masks (an IBAN, a name) is counted, not named. A JSONL row is named by its id
    (main: "post 1:" for every row)."""
    from stealthflow.anonymize import methods
    from stealthflow.anonymize.methods import Anonymized

    iban = "DE44 3704 0044 0532 9130 00"

    class Partly:  # FAKE local method: one change holding an IBAN, one without; "type 1 diabetes" stays
        name = "local"

        def anonymize_many(self, profiles, on_progress=None):
            changes = [
                {"post": 0, "phrase": f"IBAN {iban}", "replacement": "my account", "attribute": "income"},
                {"post": 0, "phrase": "in Munich", "replacement": "in a city", "attribute": "location"},
            ]
            stayed = [{"phrase": "type 1 diabetes", "post": 0}, {"phrase": "night shifts", "post": 0}]
            key = [{"post": 0, "phrase": "key AKIAIOSFODNN7EXAMPLE", "replacement": "a key", "attribute": None}]
            return [
                Anonymized(p.id, p.text, details={"changes": changes, "unprotected": stayed})
                if p.id == "b2"
                else Anonymized(p.id, "The weather was fine.", details={"changes": key}, checked=True)
                for p in profiles
            ]

    monkeypatch.setitem(methods._METHODS, "local", lambda settings, pool, options: Partly())
    posts = tmp_path / "posts.jsonl"
    posts.write_text(
        '{"id": "a1", "text": "The weather was nice, key AKIAIOSFODNN7EXAMPLE."}\n'
        f'{{"id": "b2", "text": "Pay IBAN {iban} in Munich; type 1 diabetes, night shifts."}}\n'
    )
    command = ["anonymize", str(posts), "-o", str(tmp_path / "out.jsonl"), "--allow-unchanged"]
    piped = runner.invoke(app, command)
    said = " ".join(piped.stderr.split())
    assert piped.exit_code == 0, piped.output
    for words in (iban, "Munich", "diabetes", "night shifts", "AKIA"):
        assert words not in said
    written = (tmp_path / "out.jsonl").read_text()  # the change list kept in -o: its credential masked
    assert "AKIAIOSFODNN7EXAMPLE" not in written and re.search(r'"phrase": "key <API_KEY_\d+>"', written)  # any
    # number: the session "anonymize" of the tests' shared vault may hold another key (test_anonymize_rows runs first)
    assert "b2: 2 phrase(s) rewritten (yearly income level 1, current place of living 1)" in said
    assert "for 2 phrase(s)" in said
    assert "named only on a terminal" in said and "post 1" not in said
    monkeypatch.setattr(sys.modules["stealthflow.cli.app"], "stderr_is_terminal", lambda: True)
    shown = " ".join(runner.invoke(app, command).stderr.split())
    assert '"in Munich" -> "in a city" (current place of living)' in shown and '"night shifts"' in shown
    assert iban not in shown and "AKIA" not in shown
    assert "1 phrase(s) holding a value protect masks (yearly income level 1)" in shown
    assert "named only on a terminal" not in shown


def test_anonymize_show_unprotected_names_the_phrases_that_stayed_on_a_pipe_and_never_in_the_rows(
    tmp_path, monkeypatch
):
    """Off a terminal, a refused text's stderr line and row said only "2 phrase(s)", and stderr said the rows "list
    their changes", though a refused row has none: the user could not tell what to reword. --show-unprotected names
    the phrases that stayed on stderr (a phrase holding a value protect masks still only counted); the -o rows keep
    none of the post's words. FAKE local method: two phrases stay, one of them holding an IBAN."""
    from stealthflow.anonymize import methods
    from stealthflow.anonymize.methods import Anonymized

    iban = "DE44 3704 0044 0532 9130 00"

    class Stays:  # FAKE local method
        name = "local"

        def anonymize_many(self, profiles, on_progress=None):
            stayed = [{"phrase": "night shifts", "post": 0}, {"phrase": f"IBAN {iban}", "post": 0}]
            return [Anonymized(p.id, p.text, details={"unprotected": stayed}) for p in profiles]

    monkeypatch.setitem(methods._METHODS, "local", lambda settings, pool, options: Stays())
    post = f"I work night shifts, pay to IBAN {iban}."
    command = ["anonymize", "-", "-o", str(tmp_path / "out.jsonl")]
    piped = " ".join(runner.invoke(app, command, input=post).stderr.split())
    assert "for 2 phrase(s)" in piped and "night shifts" not in piped
    assert "list the changes" not in piped and "--show-unprotected names here the phrases that stayed" in piped
    shown = runner.invoke(app, [*command, "--show-unprotected"], input=post)
    said = " ".join(shown.stderr.split())
    assert shown.exit_code == 2 and 'no fluent generalization for "night shifts", 1 phrase(s) holding a value' in said
    assert iban not in said and "named only on a terminal" not in said
    row = json.loads((tmp_path / "out.jsonl").read_text())
    assert row == {
        "id": row["id"],
        "protected": False,
        "reason": "no fluent generalization: 2 phrase(s) stayed",
        "unprotected": [{"post": 0, "phrases": 2}],
    }


def test_a_word_naming_a_folder_here_is_still_the_text_and_the_folder_is_said(user_home):
    """main protected the word silently; what is protected does not change."""
    (user_home / "texts").mkdir()
    result = runner.invoke(app, ["protect", "texts", "--rewrite", "none", "--no-tagger"])
    assert result.exit_code == 0 and result.stdout == "texts\n"
    assert "'texts' is a folder here; it was taken as the text itself" in " ".join(result.stderr.split())
    plain = runner.invoke(app, ["protect", "notes", "--rewrite", "none", "--no-tagger"])
    assert plain.stdout == "notes\n" and "folder" not in plain.stderr


def test_an_empty_argument_is_empty_input_not_the_current_folder(user_home):
    """main said "'' is a folder here" (Path("") is the current folder) before the empty-input error."""
    result = runner.invoke(app, ["protect", "", "--rewrite", "none", "--no-tagger"])
    said = " ".join(result.stderr.split())
    assert result.exit_code != 0 and "the input is empty" in said and "folder" not in said


def test_text_and_input_together_are_refused_as_both(user_home):
    """main answered "give the text to protect ... or --input" when both were given."""
    records = user_home / "recs.jsonl"
    records.write_text('{"id": "r1", "text": "hello"}\n')
    result = runner.invoke(app, ["protect", str(records), "-i", str(records), "--rewrite", "none", "--no-tagger"])
    said = " ".join(result.stderr.split())
    assert result.exit_code != 0 and "one, not both" in said
    neither = " ".join(runner.invoke(app, ["protect", "--rewrite", "none", "--no-tagger"]).stderr.split())
    assert "one, not both" not in neither and "--input FILE.jsonl" in neither


def test_verbose_is_offered_only_when_there_is_something_to_list(user_home):
    """main ended "nothing to mask; nothing to rewrite; --verbose lists them" with nothing to list."""
    clean = runner.invoke(app, ["protect", "The bread rose well today.", "--rewrite", "none", "--no-tagger"])
    assert "nothing to mask" in clean.stderr and "--verbose" not in clean.stderr
    masked = runner.invoke(app, ["protect", "Mail me at ann.lee@mailbox.org", "--rewrite", "none", "--no-tagger"])
    assert "masked 1 value(s)" in masked.stderr and "--verbose lists them" in " ".join(masked.stderr.split())


@pytest.mark.parametrize(
    "post",
    [
        "Met Oliver Hughes for lunch near the office here in Leeds, third time this month.",
        "Had coffee with Oliver Hughes, who thinks the rent here in Leeds is fine.",
    ],
)
def test_protect_rewrites_a_post_with_a_name_as_anonymize_does(user_home, post):
    """Issue 47: protect's cue tagger read the placeholder text ("Met <REAL_NAME_1> for lunch"), which it never saw in
    training, and marked other phrases than anonymize's on the same post: "Met" left as a sign of marriage, "Leeds"
    became "my city" instead of "the city". It reads the masked values (`cues.TaggerView`): the change lists agree, and
    the name stays masked in the text sent."""
    protected = runner.invoke(app, ["protect", post, "--session", "cues", "--tagger", "--json"])
    anonymized = runner.invoke(app, ["anonymize", post, "--json"])
    assert protected.exit_code == 0 and anonymized.exit_code == 0, (protected.output, anonymized.output)
    sent, row = json.loads(protected.stdout), json.loads(anonymized.stdout)
    assert "<REAL_NAME_1>" in sent["text"] and "Oliver" not in sent["text"] and "Hughes" not in protected.stdout
    assert row["changes"] and sent["rewrite"]["changes"] == row["changes"], (sent, row)


def test_llm_extractor_help_states_the_default_the_policy_applies():
    """`--llm-extractor/--no-llm` left unset follows `ProtectConfig.uses_llm_extractor`: on only for a model that
    runs on this machine and is not the embedded one; every command's help says both conditions."""
    from stealthflow.placeholders.policy import ProtectConfig

    policy = ProtectConfig()
    assert not policy.uses_llm_extractor("openai/gpt-4o", local=False)
    assert policy.uses_llm_extractor("hf:/models/x", local=True) and not policy.uses_llm_extractor("embedded", True)

    def helps(command):
        for sub in getattr(command, "commands", {}).values():
            yield from helps(sub)
        yield from (p.help for p in command.params if "--llm-extractor" in p.opts and p.default is None)

    texts = [" ".join(h.split()) for h in helps(typer.main.get_command(app))]
    assert texts and all("runs on this machine and is not the embedded one" in t for t in texts)


def test_batch_anonymize_says_how_many_rows_keep_a_clue_and_never_calls_them_protected(user_home, monkeypatch):
    """A new user's `batch anonymize` printed "wrote 5 protected rows" when every row's rewrite had
    `"protected": false`. The job is a FAKE Result: five rows written, none fully rewritten."""
    import stealthflow.batch as batch
    from stealthflow.batch.job import Result

    monkeypatch.setattr(batch, "run_job", lambda *args, **kwargs: Result(user_home / "o", 1, 0, 5, [], 0, 0.1, 5))
    posts = user_home / "cues.jsonl"
    posts.write_text('{"id": "c1", "text": "As a 52-year-old plumber in Rotterdam, I never thought I would code."}\n')
    said = runner.invoke(app, ["batch", "anonymize", str(posts), "--output", str(user_home / "o")])
    flat = " ".join(said.output.split())
    assert said.exit_code == 0, said.output
    assert "protected rows" not in flat and "wrote 5 rows with placeholders" in flat
    assert '5 of them not fully rewritten ("rewrite": {"protected": false})' in flat


def test_anonymize_says_unchanged_only_when_no_credential_was_masked():
    """`anonymize` of a post with no clue but a token and a password masked both and still said "unchanged": true."""
    post = "Rotating my token ghp_9fQx7LmN2pRt5VwY8zA1bC3dE6fG0hJ4kL7m today, password Hunter2024! too."
    result = runner.invoke(app, ["anonymize", post, "--json"])
    row = json.loads(result.stdout)
    assert result.exit_code == 0, result.output
    assert "<API_KEY_" in row["text"] and "ghp_" not in row["text"] and "unchanged" not in row
    assert "nothing to change" not in result.stderr


def test_a_job_left_around_a_place_stand_in_fails_closed_in_anonymize_and_protect(user_home):
    """The shipped cue tagger marks "Twelve years as an ER nurse in Leeds" whole (location, by its last word) and
    "dana@x.org" (occupation). On main the stand-in took "Leeds" alone and the e-mail was cut ("..., email"), and
    both commands called the post protected. Now the job that stayed is reported: `anonymize` writes no text
    (exit 2), `protect` sends its placeholders with `rewrite.protected` false."""
    post = "Twelve years as an ER nurse in Leeds, email dana@x.org"
    anonymized = runner.invoke(app, ["anonymize", post, "--json"])
    row = json.loads(anonymized.stdout)
    assert anonymized.exit_code == 2 and row["protected"] is False and "text" not in row, anonymized.output
    protected = runner.invoke(app, ["protect", post, "--session", "nur", "--json"])
    assert protected.exit_code == 0, protected.output
    sent = json.loads(protected.stdout)
    assert "dana@x.org" not in sent["text"] and sent["text"].endswith("email <EMAIL_1>")
    assert sent["rewrite"]["protected"] is False and any("ER nurse" in p for p in sent["rewrite"]["unprotected"])


def test_anonymize_prints_the_rewrite_unwrapped_and_o_dash_is_stdout(tmp_path, monkeypatch):
    """The text printed into a pipe is the rewrite as it is (main wrapped it at 80 columns); `-o -` writes the rows
    to stdout, for `anonymize` and `attack` (main wrote a file named `-`)."""
    from stealthflow.anonymize import methods
    from stealthflow.anonymize.methods import Anonymized

    long_line = " ".join(["The weather was fine and the cat slept all day long."] * 4)

    class Long:  # FAKE local method: a checked rewrite on one long line
        name = "local"

        def anonymize_many(self, profiles, on_progress=None):
            return [Anonymized(p.id, long_line, checked=True) for p in profiles]

    monkeypatch.setitem(methods._METHODS, "local", lambda settings, pool, options: Long())
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["anonymize", "It rained."])
    assert result.exit_code == 0, result.output
    assert result.stdout == long_line + "\n"
    rows = runner.invoke(app, ["anonymize", "It rained.", "-o", "-"])
    assert rows.exit_code == 0 and json.loads(rows.stdout)["text"] == long_line
    attacked = runner.invoke(app, ["attack", "It rained.", "--model", "fake:x", "--attributes", "age", "-o", "-"])
    assert attacked.exit_code == 0, attacked.output
    assert json.loads(attacked.stdout.splitlines()[-1])["id"] == "text"
    assert not (tmp_path / "-").exists()


def _refused_raw_to_cloud(tmp_path, monkeypatch, model: str, api_base: str, text: str, args: list[str]):
    """`args[0] POST args[1:] --config C` with C a model at `api_base` (off this machine) and no model call allowed:
    (the post, the command, its result), which refused before any call and printed nothing on stdout."""
    from stealthflow.llm.pool import LLMPool

    called = []
    monkeypatch.setattr(LLMPool, "get", lambda *a, **k: called.append(a) or pytest.fail("no model call expected"))
    config = tmp_path / "cloud.yaml"
    config.write_text(f"model:\n  model: {model}\n  api_base: {api_base}\n")
    post = tmp_path / "post.txt"
    post.write_text(text)
    command = [args[0], str(post), *args[1:], "--config", str(config)]
    refused = runner.invoke(app, command)
    assert refused.exit_code == 2 and called == [] and refused.stdout == ""
    return post, command, refused


def test_anonymize_refuses_to_send_raw_posts_to_a_cloud_model_unless_told(tmp_path, monkeypatch):
    """A model litellm serves off this machine would get each post raw, credentials included (rev20 finding 8): the
    command refuses before any call, unless --raw-to-model, which warns."""
    from stealthflow.llm.pool import LLMPool

    post, command, refused = _refused_raw_to_cloud(
        tmp_path,
        monkeypatch,
        "openai/gpt-4o-mini",
        "https://llm.example.com/v1",
        "My password is hunter2-Xy9! and my email is dana.kerr@mailbox.org\n",
        ["anonymize", "--method", "standard"],
    )
    assert "would send each text raw" in refused.stderr and "https://llm.example.com/v1" in refused.stderr
    assert "--raw-to-model" in refused.stderr and "hunter2" not in refused.stderr
    monkeypatch.setattr(LLMPool, "get", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("stop here")))
    allowed = runner.invoke(app, [*command, "--raw-to-model"])
    assert "warning: --raw-to-model: each text goes raw to openai/gpt-4o-mini" in allowed.stderr
    assert isinstance(allowed.exception, RuntimeError)  # it went on to the model
    local = tmp_path / "local.yaml"  # the same model on this machine: no refusal
    local.write_text("model:\n  model: openai/gpt-4o-mini\n  api_base: http://127.0.0.1:9/v1\n")
    on_device = runner.invoke(app, ["anonymize", str(post), "--method", "standard", "--config", str(local)])
    assert "raw" not in on_device.stderr and isinstance(on_device.exception, RuntimeError)
    monkeypatch.setenv("OLLAMA_API_BASE", "http://203.0.113.9:11434")  # no api_base: the host litellm takes is named
    ollama = tmp_path / "ollama.yaml"
    ollama.write_text("model:\n  model: ollama/llama3\n")
    remote = runner.invoke(app, ["anonymize", str(post), "--method", "standard", "--config", str(ollama)])
    assert remote.exit_code == 2 and "to ollama/llama3 at http://203.0.113.9:11434, which" in remote.stderr


def test_attack_refuses_to_send_raw_posts_to_a_cloud_model_unless_told(tmp_path, monkeypatch):
    """The llm attacker reads each post as it is (rev21 finding 6): a model off this machine is refused before any
    call, as `anonymize` does, unless --raw-to-model, which warns; the classifier attacker alone sends nothing."""
    from stealthflow.llm.pool import LLMPool

    post, command, refused = _refused_raw_to_cloud(
        tmp_path,
        monkeypatch,
        "openai/m",
        "http://192.0.2.2:8000/v1",
        "I'm Dana Kerr (dana.kerr@mailbox.org), twelve years as an ER nurse in Leeds.\n",
        ["attack", "--attributes", "age"],
    )
    assert "the llm attacker would send each text raw" in refused.stderr and "192.0.2.2" in refused.stderr
    assert "dana.kerr" not in refused.stderr
    monkeypatch.setattr(LLMPool, "get", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("stop here")))
    allowed = runner.invoke(app, [*command, "--raw-to-model"])
    assert "warning: --raw-to-model: each text goes raw to openai/m" in allowed.stderr
    assert isinstance(allowed.exception, RuntimeError)  # it went on to the model


def test_text_on_the_command_line_is_warned_about_not_refused(tmp_path):
    """A text given as an argument is readable in /proc/PID/cmdline and kept in shell history (rev20 finding 9): one
    warning line on stderr; a file or stdin gets none; a reply to restore (placeholders only) gets none."""
    post = tmp_path / "post.txt"
    post.write_text("I just moved to Zurich with my husband.\n")
    on_argv = runner.invoke(app, ["anonymize", "I just moved to Zurich.", "--method", "standard", "--model", "fake:x"])
    assert on_argv.exit_code == 0 and "/proc/PID/cmdline" in on_argv.stderr and "pipe it to -" in on_argv.stderr
    for source, given in ((str(post), None), ("-", "I just moved to Zurich.")):
        quiet = runner.invoke(app, ["anonymize", source, "--method", "standard", "--model", "fake:x"], input=given)
        assert quiet.exit_code == 0 and "cmdline" not in quiet.stderr


def test_protect_explain_names_a_published_sample_number_it_left(user_home):
    """ux20's report LOW-1: the IBAN registry's own example of Germany is left in clear by design; --explain says so,
    and says nothing of a real IBAN, which is masked. The real detector (no tagger)."""
    post = "Bitte überweise das Geld auf DE89 3704 0044 0532 0130 00 oder DE98 7605 0000 5260 1815 90."
    result = runner.invoke(app, ["protect", post, "--rewrite", "none", "--no-tagger", "--explain"])
    assert result.exit_code == 0, result.output
    assert "DE89 3704 0044 0532 0130 00" in result.stdout and "DE98 7605" not in result.stdout
    stderr = result.stderr.replace("\n", " ")
    assert "left at 29-56: a published sample number (SWIFT IBAN Registry, example of Germany;" in stderr
    assert stderr.count("left at") == 1


def test_protect_records_interrupted_says_how_many_rows_were_written_and_that_a_rerun_resumes(user_home):
    """Ctrl-C (a real SIGINT to the CLI in a subprocess) during `protect -i`: one line on stderr saying how many rows
    the output holds and that the same command resumes, exit 130; the rows written are whole. It printed nothing."""
    import signal
    import time

    total = 10_000  # far more than a fast machine protects (~700 rows/s here) before the signal: the run is cut
    records = user_home / "posts.jsonl"
    records.write_text("".join(f'{{"id": "{i}", "text": "mail jonas{i}@mailbox.org"}}\n' for i in range(total)))
    output = user_home / "out.jsonl"
    command = ["protect", "-i", "posts.jsonl", "-o", "out.jsonl", "--session", "s", "--rewrite", "none"]
    run = subprocess.Popen(
        [sys.executable, "-m", "stealthflow", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as a shell starts it: pytest-xdist's workers ignore SIGINT, and a child inherits an ignored signal
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 300
    while not (output.exists() and output.read_text()) and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.05)
    assert run.poll() is None, "the run ended before it could be interrupted"
    run.send_signal(signal.SIGINT)
    _, stderr = run.communicate(timeout=120)
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    assert run.returncode == 130 and 0 < len(rows) < total, stderr
    said = " ".join(stderr.split())
    assert f"interrupted: out.jsonl holds {len(rows)} of {total} rows (session 's'); rerun the same command" in said


def test_protect_masks_a_sessions_known_name_again_in_lowercase(user_home):
    """ux23 finding 1: `echo "marcus okafor" | stealthflow protect - --session S` said "nothing to mask" after "My name
    is Marcus Okafor." in that session (the CLI, the Python API and the proxy share `Protector`)."""
    first = runner.invoke(app, ["protect", "My name is Marcus Okafor.", "-s", "S", "--rewrite", "none"])
    assert first.exit_code == 0 and first.stdout.strip() == "My name is <REAL_NAME_1>.", first.output
    again = runner.invoke(app, ["protect", "-", "-s", "S", "--rewrite", "none", "--explain"], input="marcus okafor\n")
    assert again.exit_code == 0 and again.stdout.strip() == "<REAL_NAME_1>", again.output
    assert "nothing to mask" not in again.stderr


def test_protect_with_the_default_rewrite_keeps_a_sample_iban_whole(user_home):
    """ux23 finding 2, the real thing: `protect` (local rewrite, the shipped cue tagger) printed "My IBAN is GB82 WEST"
    for the issuer's sample IBAN it had rightly left in clear."""
    post = (
        "I make about $84,000 a year as a paralegal and I owe 23k on my Visa 4539 1488 0343 6467. My IBAN is GB82 WEST "
        "1234 5698 7654 32 and my routing number is 021000021, account 123456789. SSN 123-45-6789. Should I consolidate?"
    )
    result = runner.invoke(app, ["protect", post, "--session", "m"])
    assert result.exit_code == 0, result.output
    assert "GB82 WEST 1234 5698 7654 32" in result.stdout and "4539 1488" not in result.stdout


def test_messages_name_the_place_of_birth_where_json_keeps_pobp(capsys):
    """ux23 finding 6: change lists and cue lines said "(pobp)"; a user reads "place of birth" (the JSON key stays).
    ux28 finding 18: JSON change rows carry that name too, in "name" beside the key, from the real text_changes."""
    from stealthflow.anonymize.changes import describe_change, text_changes
    from stealthflow.anonymize.phrase_report import PhraseReport
    from stealthflow.cli.attack import print_cues
    from stealthflow.data.attributes import attribute_word

    change = {"phrase": "Lagos", "replacement": "a city abroad", "attribute": "pobp", "post": 0}
    assert describe_change(change) == '"Lagos" -> "a city abroad" (place of birth)'
    assert PhraseReport(False).changes([change]) == "1 phrase(s) rewritten (place of birth 1)"
    print_cues({0: [{"phrase": "Lagos", "attribute": "pobp"}]}, "p")
    said = " ".join(capsys.readouterr().out.split())
    assert '"Lagos" (place of birth)' in said and "pobp" not in said
    (row,) = text_changes("I was born in Lagos.", "I was born in a city abroad.", [("Lagos", "pobp")], "generalized")
    assert row["attribute"] == "pobp" and row["name"] == "place of birth" == attribute_word("pobp")
    assert describe_change(row) == '"Lagos." -> "a city abroad." (place of birth)'


def test_protect_changes_no_letter_of_a_text_but_its_placeholders(user_home):
    """ux24 M3 reported "why does this curl fail?" printed as "Why ..." now and then by `protect --rewrite none`: the
    bytes protect writes were lowercase every time (the capital was the first letter of the tester's terminal tool's
    display of a command's output). Kept as the invariant: text mode and --json print the same text, and the input
    comes back exactly when each placeholder is put back at its span (detection as shipped, the PII tagger on)."""
    text = (
        "why does this curl fail?\n"
        'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJlLXZhbHVlLWhlcmU" '
        "https://api.example.io/v1/users\nOPENAI_API_KEY=sk-proj-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc4Vb6\n"
    )
    (user_home / "secrets.txt").write_text(text)
    plain = runner.invoke(app, ["protect", "secrets.txt", "--rewrite", "none", "-s", "t"])
    row = json.loads(runner.invoke(app, ["protect", "secrets.txt", "--rewrite", "none", "-s", "t", "--json"]).stdout)
    assert plain.exit_code == 0 and plain.stdout == row["text"] and plain.stdout.startswith("why does"), plain.output
    back, cursor, at = [], 0, 0
    for span in row["spans"]:
        at = row["text"].index(span["placeholder"], at)
        back += [row["text"][cursor:at], text[span["start"] : span["end"]]]
        cursor = at = at + len(span["placeholder"])
    assert "".join([*back, row["text"][cursor:]]) == text and len(row["spans"]) >= 2


def test_a_secret_is_warned_of_once_and_an_empty_text_is_refused_by_the_python_api_as_by_the_cli(user_home):
    """ux23 finding 5: the secret warning was printed per text and again in the closing paragraph; `protect("")` of the
    Python API returned "" silently where the CLI refuses empty input."""
    from stealthflow.pipeline import protect

    result = runner.invoke(
        app, ["protect", "my key is AKIAIOSFODNN7EXAMPLE, mail ann@mailbox.org", "--rewrite", "none"]
    )
    said = " ".join(result.stderr.split())
    assert result.exit_code == 0 and "<API_KEY_1>" in result.stdout, result.output
    assert said.count("rotate") == 1 and "1 text(s) held a secret (PL4: API_KEY)" in said
    for blank in ("", " \n"):
        with pytest.raises(ValueError, match="the text is empty: there is nothing to protect"):
            protect(blank, session="s")
    for wrong in (None, b"mail ann@mailbox.org"):  # ux24: None raised an AttributeError from inside
        with pytest.raises(TypeError, match="the text must be a str, not (NoneType|bytes)"):
            protect(wrong, session="s")
    assert runner.invoke(app, ["protect", "-"], input="").exit_code == 2


def test_protect_refuses_a_session_name_that_is_not_printable(user_home):
    """rev24 E4: `protect --session` took a name with a tab, a newline or a terminal escape, kept in the vault and
    shown by `vault list`; now exit 2 with the reason, the one check (`sessions.check_name`) the service and the
    proxy's session label make too, and nothing written."""
    from stealthflow.proxy.app import session_for
    from stealthflow.proxy.errors import ProxyError

    refused = runner.invoke(
        app, ["protect", "mail me at ann.berg@mailbox.org", "-s", "a\tb\x1b[2K", "--rewrite", "none"]
    )
    assert refused.exit_code == 2 and "must be printable (no tab, newline" in refused.stderr
    assert "a\tb" not in runner.invoke(app, ["vault", "list"]).stdout and "ann.berg" not in refused.stdout
    with pytest.raises(ProxyError, match="x-stealthflow-session header must be printable [(]no tab, newline") as raised:
        session_for("a-token", "a\tb")
    assert raised.value.status == 400


def test_an_empty_or_unprintable_session_name_is_refused_by_protect_and_restore(user_home, tmp_path, monkeypatch):
    """ux24b: `protect -s ''` and `pipeline.protect(session="")` were accepted (the service refuses "" with 422),
    `restore` with an unprintable name exited 0 ("no session ...") and Python's `restore(session="a\nb")` was
    accepted: every way in is the one check (`sessions.check_name`), exit 2 and nothing written."""
    from placeholder_fixtures import make_protector, protect_config

    from stealthflow.pipeline.api import protect, restore
    from stealthflow.sessions import SessionNameError

    refused = runner.invoke(app, ["protect", "mail me at ann.berg@mailbox.org", "-s", "", "--rewrite", "none"])
    assert refused.exit_code == 2 and "not empty" in refused.stderr and "ann.berg" not in refused.stdout
    for name in ("a\tb", "a\nb", ""):
        refused = runner.invoke(app, ["restore", "hello <EMAIL_1>", "-s", name])
        assert refused.exit_code == 2 and "must be printable" in refused.stderr and refused.stdout == ""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    with pytest.raises(SessionNameError, match="not empty"):
        protect("mail me at ann.berg@mailbox.org", session="", protector=protector)
    with pytest.raises(SessionNameError, match="printable"):
        restore("hello <EMAIL_1>", session="a\nb", protector=protector)
    assert protect("mail me at ann.berg@mailbox.org", session="ok", protector=protector).text == "mail me at <EMAIL_1>"
