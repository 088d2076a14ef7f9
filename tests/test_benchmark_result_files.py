"""Benchmarks write their results where `--out` says, and never over an existing file unless `--force`
(benchmarks/result_files.py): the helpers on a temporary directory, then the real tagger_threads.py on two 1 KB
texts and proxy_overhead.py's refusal, each in a subprocess as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from result_files import RESULTS, refuse_overwrite, result_stem, write_results  # noqa: E402


def test_the_stem_is_out_without_its_suffix_else_the_default_under_results(tmp_path):
    assert result_stem(None, "tagger_threads") == RESULTS / "tagger_threads"
    assert result_stem(tmp_path / "run.md", "x") == result_stem(tmp_path / "run.json", "x") == tmp_path / "run"
    assert result_stem(tmp_path / "run.v2", "x") == tmp_path / "run.v2"


def test_an_existing_result_is_refused_unless_forced(tmp_path):
    stem = tmp_path / "run"
    refuse_overwrite(stem, force=False)  # nothing there yet
    assert write_results(stem, {".json": "{}\n", ".md": "first\n"}, force=False) == stem
    with pytest.raises(SystemExit, match=r"not overwritten: .*run\.json, .*run\.md; give --out PATH"):
        refuse_overwrite(stem, force=False)
    refuse_overwrite(stem, force=True)
    assert write_results(stem, {".json": "{}\n", ".md": "second\n"}, force=True) == stem
    assert (tmp_path / "run.md").read_text() == "second\n"


def test_a_result_that_appeared_during_the_run_is_kept_and_the_new_one_goes_beside_it(tmp_path, capsys):
    stem = tmp_path / "run"
    (tmp_path / "run.md").write_text("another run's\n")
    written = write_results(stem, {".json": "{}\n", ".md": "this run's\n"}, force=False)
    assert (
        written == tmp_path / f"run.{os.getpid()}"
        and (tmp_path / f"run.{os.getpid()}.md").read_text() == "this run's\n"
    )
    assert (tmp_path / "run.md").read_text() == "another run's\n" and not (tmp_path / "run.json").exists()
    assert f"run.{os.getpid()}.*" in capsys.readouterr().err


def _benchmark(script: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "OMP_NUM_THREADS": "1"}
    command = [sys.executable, str(REPO / "benchmarks" / script), *args]
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


def test_tagger_threads_writes_to_out_and_refuses_to_run_over_it(tmp_path):
    """The real benchmark, as small as it runs (two 1 KB texts, one pass, one process per runtime: ~10 s)."""
    tiny = ("--texts", "2", "--passes", "1", "--rounds", "1", "--out", str(tmp_path / "tagger"))
    first = _benchmark("tagger_threads.py", *tiny)
    assert first.returncode == 0, first.stderr
    table = (tmp_path / "tagger.md").read_text()
    assert table.startswith("# PII tagger: torch against the numpy runtime") and (tmp_path / "tagger.json").exists()
    again = _benchmark("tagger_threads.py", *tiny)
    assert again.returncode != 0 and "not overwritten" in again.stderr and "--force" in again.stderr
    assert again.stdout == ""  # refused before measuring
    assert (tmp_path / "tagger.md").read_text() == table


def test_proxy_overhead_refuses_an_existing_out_before_starting_anything(tmp_path):
    (tmp_path / "proxy.md").write_text("kept\n")
    refused = _benchmark("proxy_overhead.py", "--out", str(tmp_path / "proxy"), "--requests", "1", "0", "0")
    assert refused.returncode != 0 and f"not overwritten: {tmp_path / 'proxy.md'}" in refused.stderr
    assert (tmp_path / "proxy.md").read_text() == "kept\n" and not (tmp_path / "proxy.json").exists()
    only_hostile = ("--requests", "0", "0", "0", "--streams", "0", "--hostile-chars", "10")
    hostile = _benchmark("proxy_overhead.py", *only_hostile, "--hostile-out", str(tmp_path / "proxy"))
    assert hostile.returncode != 0 and f"not overwritten: {tmp_path / 'proxy.md'}" in hostile.stderr
