"""Every shell block of the README marked `<!-- runnable -->` runs as written, from a fresh
directory, with the installed `stealthflow` command (a user's copy-paste, checked)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stealthflow.placeholders.keys import new_secret

README = Path(__file__).resolve().parent.parent / "README.md"
RUNNABLE = re.compile(r"<!-- runnable -->\s*```bash\n(.*?)```", re.S)


def runnable_blocks() -> list[str]:
    return RUNNABLE.findall(README.read_text(encoding="utf-8"))


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) < 15_000
    assert len(runnable_blocks()) >= 2
    assert not re.search(r"runs/demo-cpu\d|runs/sft-", text)  # no local run folders nobody else has
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (README.parent / link).exists(), link


@pytest.fixture(scope="module")
def user_env(tmp_path_factory) -> tuple[dict, Path]:
    """One user's environment shared by the blocks, which build on each other (protect, then restore)."""
    home = tmp_path_factory.mktemp("readme-user")
    env = {
        **os.environ,
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "STEALTHFLOW_VAULT_KEY": new_secret(),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    return env, home


@pytest.mark.parametrize("index", range(len(runnable_blocks())))
def test_readme_block_runs_as_written(index, user_env):
    env, home = user_env
    script = "set -euo pipefail\n" + runnable_blocks()[index]
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, cwd=home, timeout=600)
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
