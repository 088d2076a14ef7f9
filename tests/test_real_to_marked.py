"""training/real_to_marked.py: an annotated file of real passages -> marked lines outside the repository, and the t29
and t30 recipes that read them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from training_scripts import TRAINING

from stealthflow.pii_tagger.training.data import read_marked
from stealthflow.pii_tagger.training.runs import load_finetune_recipe

ROWS = [
    {"lang": "en", "text": "Ask Derek.\nHe had a stroke.", "pii": [{"value": "Derek", "type": "REAL_NAME"}]},
    {"lang": "fr", "text": "Le diabète touche beaucoup de monde.", "pii": []},
    {"lang": "en", "text": "log [x] token", "pii": [{"value": "[x] token", "type": "CREDENTIAL"}]},
]


def test_the_script_run_as_written_marks_every_passage_in_two_files_and_leaves_out_what_would_not_read_back(tmp_path):
    annotated, out = tmp_path / "real.jsonl", tmp_path / "runs" / "real"
    annotated.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(TRAINING / "real_to_marked.py"), str(annotated), str(out)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "{'personal': 1, 'negatives': 1, 'left out': 1}" in done.stdout
    assert read_marked(out / "personal.txt") == [("Ask Derek. He had a stroke.", [(4, 9, "REAL_NAME")])]
    assert (out / "negatives.txt").read_text(encoding="utf-8") == "Le diabète touche beaucoup de monde.\n"


def test_without_its_two_arguments_it_says_how_to_run_it():
    done = subprocess.run([sys.executable, str(TRAINING / "real_to_marked.py")], capture_output=True, text=True)
    assert done.returncode != 0 and "usage:" in done.stderr


def test_the_t29_recipes_read_the_real_passages_from_runs_only():
    for name in (
        "candidates/pii-tagger-student-finetune-t29.yaml",
        "candidates/pii-tagger-student-multilingual-finetune-t29.yaml",
    ):
        recipe = load_finetune_recipe(TRAINING / name)
        real = [path for path in recipe.negatives + recipe.annotated if "real32" in str(path)]
        assert real and all(path.parts[0] == "runs" for path in real)
        assert {Path("runs/real32/negatives.txt"), Path("runs/real32/personal.txt")} == set(real)


def test_the_t30_recipes_read_the_three_real_sets_from_runs_only_each_file_as_often():
    """The dose of the recipes' headers: every real file (with personal data or without) listed the same number of
    times, so the clean passages weigh as the marked ones."""
    sets = ("realtrain1", "real32", "real31")
    for name in (
        "candidates/pii-tagger-student-finetune-t30.yaml",
        "candidates/pii-tagger-student-multilingual-finetune-t30.yaml",
    ):
        recipe = load_finetune_recipe(TRAINING / name)
        clean = [path for path in recipe.negatives if path.parts[:2] in {("runs", s) for s in sets}]
        marked = [path for path in recipe.annotated if path.parts[:2] in {("runs", s) for s in sets}]
        assert set(clean) == {Path("runs", s, "negatives.txt") for s in sets}
        assert set(marked) == {Path("runs", s, "personal.txt") for s in sets}
        assert {(clean + marked).count(path) for path in clean + marked} == {6}
