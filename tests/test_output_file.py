"""An output file: never the input, never inside the output folder, written whole or not at all."""

import os
import stat

import pytest

from stealthflow.data import DataError
from stealthflow.data.output_file import not_inside, not_the_input, replaced, write_output


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


def test_the_file_stdin_reads_is_the_input(tmp_path):
    """`protect - -o f < f`: the input `-` is the file stdin reads (fd 0), refused as an output like `-i f`; on main it
    was replaced by its protected text."""
    import subprocess
    import sys

    posts = tmp_path / "posts.txt"
    posts.write_text("I am Jonas Weber\n")
    check = "from stealthflow.data.output_file import not_the_input; import sys; not_the_input(sys.argv[1], '-')"
    for output, refused in ((posts, True), (tmp_path / "other.txt", False)):
        with posts.open() as stdin:
            run = subprocess.run(
                [sys.executable, "-c", check, str(output)], stdin=stdin, capture_output=True, text=True
            )
        assert (run.returncode != 0 and "is the input file read on stdin" in run.stderr) == refused, run.stderr


def test_an_output_that_is_a_symbolic_link_is_written_through_to_its_target(tmp_path):
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    os.chmod(target, 0o600)
    (tmp_path / "link.jsonl").symlink_to(target)
    with replaced(tmp_path / "link.jsonl") as handle:
        handle.write("new\n")
    assert (tmp_path / "link.jsonl").is_symlink() and target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o600 and sorted(os.listdir(tmp_path)) == ["link.jsonl", "real.jsonl"]


def test_an_output_that_is_a_named_pipe_is_written_into_and_stays_a_pipe(tmp_path):
    """rev25b L4: main renamed its temporary file over the output, so a pipe (or /dev/null) became a regular file."""
    pipe = tmp_path / "out.fifo"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # a reader waits, so opening it to write does not block
    try:
        write_output(pipe, "protected text\n")
        assert stat.S_ISFIFO(os.stat(pipe).st_mode) and os.read(reader, 100) == b"protected text\n"
    finally:
        os.close(reader)
    assert os.listdir(tmp_path) == ["out.fifo"]  # no temporary file left beside it


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_an_output_that_is_a_device_is_written_into_and_stays_a_device(tmp_path):
    """A stand-in for /dev/null made in the test's folder (char device 1,3; the real one is never touched)."""
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    write_output(device, "protected text\n")
    assert stat.S_ISCHR(os.stat(device).st_mode) and os.listdir(tmp_path) == ["null"]


def test_an_output_that_is_a_folder_is_refused_and_left_as_it_was(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "kept.txt").write_text("x")
    with pytest.raises(DataError, match="no regular file"):
        write_output(tmp_path / "out", "protected text\n")
    assert os.listdir(tmp_path / "out") == ["kept.txt"] and os.listdir(tmp_path) == ["out"]
