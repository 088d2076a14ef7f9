"""Written stand-ins (anonymize/written.py): the writers' answers checked and turned into the table, and the table
offered by `generalize.candidates` under the same kind rules (FAKE tables written here; the last test runs the shipped
table with the real cue tagger and fluency scorer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stealthflow.anonymize import generalize, written
from stealthflow.data import DataError

WORKLIST = (
    "id\tattribute\tcount\tphrase\thead\tsentence\n"
    "w0001\toccupation\t3\tan ER nurse\tnurse\tI work as an ER nurse.\n"
    "w0002\tlocation\t2\there in Leeds\t-\tThe rent here in Leeds keeps going up.\n"
    "w0003\tgender\t1\tcicadas\tcicadas\tThe cicadas were loud.\n"
    "w0004\toccupation\t1\tmy 12 hour shift\tshift\tAfter my 12 hour shift I sleep.\n"
    "w0005\toccupation\t1\tthe ward nurse\tnurse\tThe ward nurse called.\n"
)


def table(tmp_path: Path, answers: str) -> written.Answers:
    (tmp_path / "worklist-1.tsv").write_text(WORKLIST, encoding="utf-8")
    (tmp_path / "out-1.tsv").write_text("\t".join(written.ANSWER_COLUMNS) + "\n" + answers, encoding="utf-8")
    return written.read_answers([tmp_path / "worklist-1.tsv"], [tmp_path / "out-1.tsv"])


def test_the_writers_answers_become_the_table_and_what_breaks_a_rule_is_refused(tmp_path: Path):
    found = table(
        tmp_path,
        "w0001\tan ER nurse\ta healthcare worker \\| an ER nurse | someone in my job\tnurse\thealthcare worker\n"
        "w0002\there in Leeds\there in my city|here in Leeds town\t-\t-\n"
        "w0003\tcicadas\tKEEP\tcicadas\tinsects\n"
        "w0004\tmy 12 hour shift\tmy long shift | my 12 hours\tshift\tKEEP\n"
        "w0005\tthe ward nurse\tthe staff\tnurse\thealthcare worker\n"
        "w0009\tsomething\tsomething else\t-\t-\n",
    )
    assert ("phrase", "occupation", "an er nurse", "a healthcare worker") in found.rows
    assert ("phrase", "occupation", "an er nurse", "someone in my job") in found.rows
    assert ("phrase", "location", "here in leeds", "here in my city") in found.rows
    assert found.kept == 1 and found.lines == 6
    assert ("phrase", "occupation", "my 12 hour shift", "my long shift") in found.rows
    # the phrase itself, a stand-in keeping its name or its number; the id no worklist asked is refused whole
    assert [line.split(": ", 1)[1] for line in found.refused] == [
        "'an ER nurse' for 'an ER nurse': the phrase itself",
        "'here in Leeds town' for 'here in Leeds': keeps 'leeds'",
        "'my 12 hours' for 'my 12 hour shift': keeps '12'",
        "id 'w0009' not asked or answered twice",
    ]
    # a head answered alike on two lines is kept; one answered once ("cicadas") is an answer for its sentence
    assert [row for row in found.rows if row[0] == "head"] == [("head", "occupation", "nurse", "healthcare worker")]
    out = tmp_path / "written.tsv"
    assert written.write(found.rows, out, "provenance: data/README.md") == len(found.rows)
    read = written.read(out)
    assert read.for_phrase("An  ER nurse", "occupation") == ("a healthcare worker", "someone in my job")
    assert (
        read.for_phrase("an ER nurse", "location") == () and read.for_head("Nurse", "occupation") == "healthcare worker"
    )


def test_a_malformed_answer_or_table_is_a_clear_error(tmp_path: Path):
    with pytest.raises(DataError, match="out-1.tsv:2: 3 fields, expected 5"):
        table(tmp_path, "w0001\tan ER nurse\ta healthcare worker\n")
    (tmp_path / "out-2.tsv").write_text("id\tphrase\n", encoding="utf-8")
    with pytest.raises(DataError, match="header"):
        written.read_answers([tmp_path / "worklist-1.tsv"], [tmp_path / "out-2.tsv"])
    (tmp_path / "bad.tsv").write_text("# a comment\nphrase\toccupation\tan er nurse\n", encoding="utf-8")
    with pytest.raises(DataError, match="bad.tsv:2"):
        written.read(tmp_path / "bad.tsv")


def test_the_cli_writes_the_table(tmp_path: Path):
    from typer.testing import CliRunner

    from stealthflow.cli import app

    table(tmp_path, "w0002\there in Leeds\there in my city\t-\t-\n")
    out = tmp_path / "written.tsv"
    result = CliRunner().invoke(
        app,
        ["tagger", "written-stand-ins", "--worklist", str(tmp_path / "worklist-1.tsv")]
        + ["--answers", str(tmp_path / "out-1.tsv"), "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and written.read(out).for_phrase("here in Leeds", "location") == (
        "here in my city",
    )


@pytest.fixture
def fake_table(monkeypatch):
    """A FAKE written table in place of the shipped one."""
    fake = written.Written(
        phrases={
            ("here in leeds", "location"): ("here in my city",),
            ("the cicadas", "gender"): ("someone",),  # a stand-in generic.yaml rejected for no phrase: never offered
            ("my husband", "married"): ("my mom",),  # another generation's kin word: never offered
        },
        heads={("nurse", "occupation"): "healthcare worker", ("nurses", "occupation"): "healthcare workers"},
    )
    monkeypatch.setattr(written, "shipped", lambda: fake)
    return fake


def candidates_for(sentence: str, phrase: str, attribute: str) -> list[str]:
    start = sentence.index(phrase)
    return generalize.candidates(sentence, start, start + len(phrase), attribute)


def test_the_table_gives_candidates_the_kind_rules_still_judge(fake_table, monkeypatch):
    assert "here in my city" in candidates_for("The rent here in Leeds keeps going up.", "here in Leeds", "location")
    assert "here in my city" not in candidates_for("The rent here in Leeds keeps going up.", "here in Leeds", "age")
    # the head's stand-in in the phrase's slot, its article agreeing, its modifiers gone, in its own number
    assert "a healthcare worker" in candidates_for("I work as an ER nurse.", "an ER nurse", "occupation")
    assert "as a healthcare worker" in candidates_for("I work as a nurse.", "as a nurse", "occupation")
    assert "the healthcare workers" in candidates_for("I trained the nurses today.", "the nurses", "occupation")
    assert "healthcare worker" not in " ".join(candidates_for("I work as a nurse.", "as a nurse", "age"))
    # a possessor or a compound's last part takes no head stand-in, as no kind does
    assert not any("healthcare" in c for c in candidates_for("My mum's nurse called.", "My mum's nurse", "occupation"))
    monkeypatch.setattr(generalize, "rejected_stand_ins", lambda: frozenset({"someone"}))
    assert "someone" not in candidates_for("The cicadas were loud.", "The cicadas", "gender")
    assert "my mom" not in candidates_for("My husband made pancakes.", "My husband", "married")


def test_without_a_table_nothing_is_offered(monkeypatch):
    monkeypatch.setattr(written, "shipped", lambda: written.Written())
    assert not any("healthcare" in c for c in candidates_for("I work as an ER nurse.", "an ER nurse", "occupation"))


@pytest.mark.real_model
def test_a_shipped_written_stand_in_replaces_its_phrase_with_the_real_tagger_and_scorer():
    """The shipped table, the real cue tagger and fluency scorer and the shipped gate: "my diploma", left four times on
    blind sets h-m before the table (benchmarks/stays_worklist.py), is now replaced by a written stand-in."""
    import torch

    from stealthflow.anonymize.cues import load_cue_tagger
    from stealthflow.anonymize.generalize import Generalizer
    from stealthflow.anonymize.local import LocalAnonymizer
    from stealthflow.utility.fluency import shared_scorer

    torch.set_num_threads(1)
    post = "My E-2 renewal needed my diploma apostilled again, why."
    (result,) = LocalAnonymizer(None, load_cue_tagger(), Generalizer(shared_scorer)).rewrite_posts([post])
    stand_ins = written.shipped().for_phrase("my diploma", "education")
    assert "my diploma" not in result.unprotected and any(f"needed {s} apostilled" in result.text for s in stand_ins)
