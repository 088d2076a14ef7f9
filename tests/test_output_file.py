"""An output file: never the input, never inside the output folder, written whole or not at all."""

import os

import pytest

from stealthflow.data import DataError
from stealthflow.data.output_file import not_inside, not_the_input, replaced


def test_the_input_under_any_name_is_refused_and_another_file_is_not(tmp_path):
    posts = tmp_path / "posts.jsonl"
    posts.write_text("x\n")
    os.link(posts, tmp_path / "hard.jsonl")
    for name in ("posts.jsonl", "hard.jsonl", "sub/../posts.jsonl"):
        with pytest.raises(DataError, match="is the input file"):
            not_the_input(tmp_path / name, None, "-", posts)
    not_the_input(tmp_path / "new.jsonl", posts)
    not_the_input("-", "-")


def test_an_output_folder_holding_an_input_file_is_refused(tmp_path):
    with pytest.raises(DataError, match="holds the input file"):
        not_inside(tmp_path, [tmp_path / "data" / "a.jsonl"])
    not_inside(tmp_path / "out", [tmp_path / "data" / "a.jsonl"])


def test_a_failure_midway_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "out.jsonl"
    path.write_text("the user's rows\n")
    with pytest.raises(RuntimeError), replaced(path) as handle:
        handle.write("half")
        raise RuntimeError("killed")
    assert path.read_text() == "the user's rows\n" and os.listdir(tmp_path) == ["out.jsonl"]
    with replaced(path) as handle:
        handle.write("new rows\n")
    assert path.read_text() == "new rows\n" and os.listdir(tmp_path) == ["out.jsonl"]
