import atexit
import base64
import os
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

import platformdirs
import pytest
import typer.testing
from hypothesis import settings

# Property tests draw the same examples on every run and machine: CI never depends on what one run happens to draw
# (a per-test @settings keeps this default unless it names derandomize itself).
settings.register_profile("stealthflow", derandomize=True)
settings.load_profile("stealthflow")

# Tests share 2 cores: one torch thread each avoids oversubscription.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).parent))
# Tests never touch the user's own vault or key: their data and config dirs live in a temp dir.
_USER_DIRS = tempfile.mkdtemp(prefix="stealthflow-tests-")
atexit.register(shutil.rmtree, _USER_DIRS, ignore_errors=True)  # a vault and key per run: none left behind
os.environ["XDG_DATA_HOME"] = os.path.join(_USER_DIRS, "data")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_USER_DIRS, "config")
os.environ.setdefault("STEALTHFLOW_VAULT_KEY", base64.urlsafe_b64encode(secrets.token_bytes(32)).decode())
# The PII tagger (a MiniLM forward pass per text) is on for users; tests that need it turn it on.
os.environ.setdefault("STEALTHFLOW_TAGGER", "0")
# One model cache for the run, in and out of process: a command run under a test's own HOME or XDG_CACHE_HOME reuses
# the embedded model converted once (~20 s of CPU and 0.5 GB a conversion); test_real_model converts into an empty one.
os.environ.setdefault("STEALTHFLOW_CACHE_DIR", platformdirs.user_cache_dir("stealthflow"))

REPO = Path(__file__).resolve().parent.parent

from placeholder_fixtures import make_protector, protect_config  # noqa: E402 (needs the path above)

from stealthflow.testing.mock_openai import MockOpenAI  # noqa: E402

# typer rebuilds the whole click command tree (every command's signature and type hints) on each CliRunner.invoke: 0.15 s
# a call in every test that runs a command. Built once per app and shape here (an app given a command later is rebuilt).
_typer_command = typer.testing._get_command
_built_commands: dict = {}


def _command_once(app):
    key = (id(app), len(app.registered_commands), len(app.registered_groups))
    if key not in _built_commands:
        _built_commands[key] = (app, _typer_command(app))  # the app too: its id stays its own while the entry lives
    return _built_commands[key][1]


typer.testing._get_command = _command_once


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture
def protector(tmp_path, monkeypatch):
    """A Protector over a fresh vault in tmp_path, deterministic recognizers only."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    yield protector
    protector.close()


@pytest.fixture(scope="module")
def module_protector(tmp_path_factory):
    """One such Protector for a whole module (the fuzz tests: many examples, one vault)."""
    monkeypatch = pytest.MonkeyPatch()
    yield make_protector(protect_config(tmp_path_factory.mktemp("vault"), monkeypatch))
    monkeypatch.undo()


@pytest.fixture
def vault_settings(tmp_path, monkeypatch):
    """For the CLI: `vault_settings(issue)` fills a fresh vault in tmp_path with `issue(protector)`, closes it and
    returns a settings file that points the CLI at it (deterministic recognizers only)."""

    def settings_after(issue) -> Path:
        config = protect_config(tmp_path, monkeypatch)
        protector = make_protector(config)
        try:
            issue(protector)
        finally:
            protector.close()
        settings = tmp_path / "c.yaml"
        settings.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
        return settings

    return settings_after


@pytest.fixture
def upstream():
    """A mock OpenAI-compatible upstream on 127.0.0.1 (fake: canned replies, records requests)."""
    with MockOpenAI() as mock:
        yield mock


@pytest.fixture(scope="session")
def embedded_llm():
    """The real embedded SmolLM2-135M model, loaded once per test session."""
    import torch

    from stealthflow.llm import ModelConfig, build_llm

    torch.set_num_threads(1)
    llm = build_llm(ModelConfig(max_new_tokens=96, batch_size=8))
    yield llm
    llm.close()


# The files that take longest (seconds on 2 cores, --durations) start first: pytest-xdist hands out whole files in
# collection order (`--no-loadscope-reorder` in the Makefile), and one of them started last would leave the other
# process idle for a minute. The rest keep pytest's order.
SLOWEST_FILES = (
    "test_batch_ray.py",
    "test_front_door.py",
    "test_workflow.py",
    "test_page_browser.py",
    "test_readme.py",
    "test_cli.py",
    "test_evaluation_real.py",
    "test_local_anonymizer.py",
    "test_real_model.py",
    "test_training.py",
    "test_memory.py",
    "test_proxy.py",
    "test_restore_links.py",
    "test_workflow_api.py",
)


def pytest_collection_modifyitems(items):
    first = {name: rank for rank, name in enumerate(SLOWEST_FILES)}
    items.sort(key=lambda item: first.get(item.path.name, len(SLOWEST_FILES)))
