"""training/written_names.py: hand-written public names added to the written gazetteer lists with their exclusions."""

from __future__ import annotations

import sys

from training_scripts import training_script


def _script():
    return training_script("written_names")


def test_a_new_line_is_kept_only_when_no_exclusion_holds():
    script = _script()
    held = script.annotated_names(set())
    assert {"poldi", "ti-jean"} <= held  # annotated private people's names ("Onkel Poldi", "Ti-Jean")
    reasons = {
        line: script.excluded(line, set(), held)
        for line in (
            "Zinedine Zidane",  # the gazetteers have him
            "Max und Moritz",
            "Channel 4",
            "Lucia",  # a given name
            "Sommer",  # a frequent German word
            "Matteo Salvini",  # every word an ordinary name
            "Tante Hilde",
            "Poldi",
            "Xylqorbatz",
            "Quorvath Zindleby",
        )
    }
    assert reasons == {
        "Zinedine Zidane": "known",
        "Max und Moritz": "a pair",
        "Channel 4": "empty or a digit",
        "Lucia": "an ordinary name or a common word",
        "Sommer": "an ordinary name or a common word",
        "Matteo Salvini": "every word an ordinary name",
        "Tante Hilde": "a relative's word",
        "Poldi": "an annotated private person's",
        "Xylqorbatz": None,
        "Quorvath Zindleby": None,
    }


def test_the_list_is_written_back_with_its_comments_and_sorted_blocks(tmp_path, monkeypatch):
    target, new = tmp_path / "people.txt", tmp_path / "new.txt"
    target.write_text("# a comment\nZygmunt Zebra\nZzyzxq\n", encoding="utf-8")
    new.write_text("Xylqorbatz\nQuorvath Zindleby\nLucia\n\n", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["written_names.py", str(target), str(new)])
    _script().main()
    assert target.read_text(encoding="utf-8").splitlines() == [
        "# a comment",
        "Quorvath Zindleby",
        "Zygmunt Zebra",
        "Xylqorbatz",
        "Zzyzxq",
    ]
