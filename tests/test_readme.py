"""Every shell or Python block of the README marked `<!-- runnable -->` runs as written, from a
fresh directory, with the installed `stealthflow` command (a user's copy-paste, checked); every
other Python block is complete (each name it uses is defined or imported in it)."""

from __future__ import annotations

import ast
import builtins
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stealthflow.placeholders.keys import new_secret
from stealthflow.testing.loopback import free_port

README = Path(__file__).resolve().parent.parent / "README.md"
RUNNABLE = re.compile(r"<!-- runnable -->\s*```(bash|python)\n(.*?)```", re.S)
PYTHON = re.compile(r"```python\n(.*?)```", re.S)
SERVICE_PORT = "8765"  # the README's; a test run serves on a free port instead (another server may hold 8765)


def runnable_blocks() -> list[tuple[str, str]]:
    return RUNNABLE.findall(README.read_text(encoding="utf-8"))


def test_the_readme_is_a_front_door():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) < 15_000
    assert len(runnable_blocks()) >= 2
    assert not re.search(r"runs/demo-cpu\d|runs/sft-", text)  # no local run folders nobody else has
    assert "~/.config/stealthflow/service.token" not in text  # the token path comes from the server's own config
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (README.parent / link).exists(), link


def undefined_names(source: str) -> set[str]:
    """Names a snippet reads but never binds (assigns, imports, defines) and Python does not provide."""
    tree = ast.parse(source)
    bound = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)} - bound


@pytest.mark.parametrize("index", range(len(PYTHON.findall(README.read_text(encoding="utf-8")))))
def test_every_python_block_is_complete(index):
    source = PYTHON.findall(README.read_text(encoding="utf-8"))[index]
    assert not undefined_names(source), source


def test_an_incomplete_snippet_is_caught():
    assert undefined_names("restore(cloud_reply, session='s')") == {"restore", "cloud_reply"}
    assert undefined_names("from x import restore\nreply = 'a'\nrestore(reply)") == set()


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
    env.pop("STEALTHFLOW_SERVICE_TOKEN", None)  # the serve block reads the token file the server writes
    return env, home


@pytest.mark.parametrize("index", range(len(runnable_blocks())))
def test_readme_block_runs_as_written(index, user_env):
    env, home = user_env
    language, block = runnable_blocks()[index]
    if language == "python":
        command = [sys.executable, "-c", block]
    else:
        command = ["bash", "-c", "set -euo pipefail\n" + block.replace(SERVICE_PORT, str(free_port()))]
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=home, timeout=600)
    assert result.returncode == 0, f"{result.stdout}\n{result.stderr}"
    if "serve" in block:  # the service answered the request, with the token it created
        assert '"text":"mail<EMAIL_1>"' in result.stdout.replace(" ", ""), result.stdout + result.stderr
    if language == "python":
        assert "anna.berg@mailbox.org" in result.stdout.splitlines()[-1] and "<EMAIL_" in result.stdout.splitlines()[0]


LOCAL_DOC = README.parent / "docs" / "local-anonymizer.md"
TABLE_ROW = re.compile(r'^\| "(.+?)" \| (.+) \|$', re.M)
QUOTED = re.compile(r'"(.+?)"')


def _table_claims() -> list[tuple[str, str]]:
    """(post, what the table says it becomes) of the example table of docs/local-anonymizer.md."""
    return TABLE_ROW.findall(LOCAL_DOC.read_text(encoding="utf-8").split("## Usage")[0])


def _readme_claim() -> tuple[str, str, str]:
    """The README's anonymize example: its post and the change it says `local` makes ("phrase" -> "replacement")."""
    text = README.read_text(encoding="utf-8")
    post = re.search(r'echo "(.+?)" > post.txt\nstealthflow anonymize post.txt', text).group(1)
    phrase, replacement = re.search(r'generalizes the phrases.*?\("(.+?)" -> "(.+?)"\)', text, re.S).groups()
    return post, phrase, replacement


@pytest.mark.real_model
def test_the_documented_rewrites_are_what_the_shipped_local_method_does():
    """What README.md and docs/local-anonymizer.md's table say `local` prints, it prints: a post's new text, or
    "not printed" with the phrases it names as reported among those that stayed and those it says leave gone."""
    from stealthflow.anonymize.methods import build_method
    from stealthflow.config import load_settings
    from stealthflow.data import Profile
    from stealthflow.data.schema import Comment
    from stealthflow.llm.pool import LLMPool

    claims = _table_claims()
    post, phrase, replacement = _readme_claim()
    assert len(claims) >= 8
    pool = LLMPool()
    try:
        method = build_method("local", load_settings(), pool)
        posts = [claimed for claimed, _ in claims] + [post]
        results = method.anonymize_many([Profile(id=str(i), comments=[Comment(text=p)]) for i, p in enumerate(posts)])
    finally:
        pool.close()
    for (original, becomes), result in zip(claims, results, strict=False):
        stayed = [p for phrases in result.stayed_by_post().values() for p in phrases]
        if becomes.startswith("not printed"):
            assert result.failure(original), (original, result.text)
            for part in becomes.split(";"):
                named = QUOTED.findall(re.sub(r"\(.*?\)", "", part))  # a parenthesis explains, names nothing
                if "reported as not protected" in part:
                    assert set(named) <= set(stayed), (original, named, stayed)
                elif "leaves" in part:
                    assert not any(n in result.text for n in named), (original, result.text)
        else:
            assert result.failure(original) is None and result.text == QUOTED.match(becomes).group(1), (
                original,
                result,
            )
    changes = [(c["phrase"], c["replacement"]) for c in results[-1].details.get("changes", [])]
    assert (phrase, replacement) in changes, changes


def test_the_demo_calls_a_restore_of_its_own_posts_no_clouds_reply():
    """ux23 finding 4: `make demo` ended with "the cloud's reply, restored locally: stealthflow restore ... -i
    runs/demo/protected.jsonl", which restores the demo's own protected posts. It names a reply file as a reply, and the
    protected posts as themselves."""
    demo = re.search(r"^demo:.*?(?=^\S)", (README.parent / "Makefile").read_text(encoding="utf-8"), re.S | re.M)[0]
    for line in (line for line in demo.splitlines() if "stealthflow restore" in line):
        assert "REPLY" in line and not re.search(r"reply[^.]*-i runs/demo/protected\.jsonl", line), line
