"""training/split_marked_batch.py: a writer's batch of marked messages -> training files and a validation split."""

from __future__ import annotations

from training_scripts import training_script

from stealthflow.pii_tagger.lexicons import words
from stealthflow.pii_tagger.training.data import read_marked


def _script():
    return training_script("split_marked_batch")


def test_titles_and_kinship_words_leave_the_name_mark_and_a_lone_title_stays():
    titles_outside = _script().titles_outside
    assert titles_outside("von [Herr Dr. Obermaier](REAL_NAME) und [Sig.ra Rosaria Esposito](REAL_NAME)") == (
        "von Herr Dr. [Obermaier](REAL_NAME) und Sig.ra [Rosaria Esposito](REAL_NAME)"
    )
    assert titles_outside("[Oma](REAL_NAME) kommt, [Jürgen](REAL_NAME) bei [Dr. Oetker](EMPLOYER)") == (
        "[Oma](REAL_NAME) kommt, [Jürgen](REAL_NAME) bei [Dr. Oetker](EMPLOYER)"
    )


def test_every_title_of_the_runtime_leaves_the_name_mark_as_the_kinship_words_do():
    """The titles come from `person_titles` of data/pii-tagger/lexicons.yaml, the list the recognizers read, extended by
    the kinship words of training/name-titles.txt ("señora", "signor" were missing from a copy of it)."""
    titles_outside = _script().titles_outside
    for title in [*words("person_titles"), "Onkel", "tía"]:
        assert titles_outside(f"[{title} Garrido](REAL_NAME)") == f"{title} [Garrido](REAL_NAME)"


def test_a_batch_splits_per_line_by_a_hash_into_training_and_validation_that_added_lines_do_not_move(tmp_path):
    batch, out = tmp_path / "batch", tmp_path / "out"
    batch.mkdir()
    (out / "languages").mkdir(parents=True)
    personal = [f"[Herr Karl Weber{i}](REAL_NAME) hat [Gicht](HEALTH), PIN [4471](PASSWORD)." for i in range(50)]
    negatives = [f"Der Zug {i} fällt heute aus." for i in range(100)]
    (batch / "personal-de.txt").write_text("\n".join(personal) + "\n\n", encoding="utf-8")
    (batch / "negatives-de.txt").write_text("\n".join(negatives) + "\n", encoding="utf-8")
    (batch / "README.md").write_text("not a batch file", encoding="utf-8")
    _script().main(batch, "c", out)
    held = (out / "validation-c" / "de.txt").read_text(encoding="utf-8").splitlines()
    trained = (out / "languages" / "personal-de-c.txt").read_text(encoding="utf-8").splitlines()
    held_personal = [line for line in held if line in personal]
    assert 5 <= len(held_personal) <= 15 and 10 <= len(held) - len(held_personal) <= 30  # about 20 % of each file
    assert held == held_personal + [line for line in held if line in negatives]  # as written, personal lines first
    assert len(trained) == 50 - len(held_personal) and all("Herr [Karl Weber" in line for line in trained)
    assert all("[4471](CREDENTIAL)" in line for line in trained)  # a password is the tagger's CREDENTIAL
    as_written = {line.replace("Herr [", "[Herr ").replace("(CREDENTIAL)", "(PASSWORD)") for line in trained}
    assert as_written | set(held_personal) == set(personal)
    assert len(read_marked(out / "languages" / "personal-de-c.txt")) == len(trained)
    more = [f"[Anna Roth{i}](REAL_NAME) ist krank." for i in range(30)]
    (batch / "personal-de.txt").write_text("\n".join(personal + more) + "\n", encoding="utf-8")
    _script().main(batch, "c", out)  # the writer added lines: the earlier ones keep their side
    again = (out / "validation-c" / "de.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in again if line in personal] == held_personal
    assert any(line in more for line in again)


def test_a_batch_written_for_training_goes_whole_to_training_with_no_validation_folder(tmp_path):
    batch, out = tmp_path / "batch", tmp_path / "out"
    batch.mkdir()
    (out / "languages").mkdir(parents=True)
    personal = [f"[Frau Anna Roth{i}](REAL_NAME) hat [Gicht](HEALTH)." for i in range(40)]
    (batch / "personal-de.txt").write_text("\n".join(personal) + "\n", encoding="utf-8")
    _script().main(batch, "t", out, hold_out=False)
    trained = (out / "languages" / "personal-de-t.txt").read_text(encoding="utf-8").splitlines()
    assert trained == [line.replace("[Frau ", "Frau [") for line in personal]  # every line, as taught, in order
    assert not (out / "validation-t").exists()
