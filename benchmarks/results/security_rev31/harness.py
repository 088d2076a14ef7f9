"""Shared set-up of the rev31 repros: a vault in a temp dir (key from the environment), the deterministic recognizers
only (no tagger), a Protector; a real proxy under uvicorn in front of the mock OpenAI upstream. Run each repro from the
worktree root: `PYTHONPATH=src /work/main/.venv/bin/python benchmarks/results/security_rev31/NAME.py`.
All values are invented."""

import contextlib
import os
import tempfile
from pathlib import Path

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.policy import ProtectConfig

TOKEN = "rev31-proxy-token-0123456789abcdef"


def make(tmp=None, **kw):
    tmp = Path(tmp or tempfile.mkdtemp(prefix="rev31-"))
    os.environ["HOME"] = str(tmp)
    os.environ["STEALTHFLOW_VAULT_KEY"] = new_secret()
    os.environ["MOCK_KEY"] = "k"
    cfg = ProtectConfig(vault_path=tmp / "vault.sqlite", key_source="env", llm_extractor=False, **kw)
    return Protector(cfg, open_vault(cfg), Detector())


@contextlib.contextmanager
def proxy(protector, upstream, **config):
    from stealthflow.proxy.app import create_proxy_app
    from stealthflow.proxy.config import ProxyConfig
    from stealthflow.testing.loopback import serve

    cfg = ProxyConfig(
        upstream="openai/mock-model", upstream_base=upstream.base_url, upstream_key_env="MOCK_KEY", **config
    )
    with serve(create_proxy_app(protector, cfg, TOKEN)) as port:
        yield f"http://127.0.0.1:{port}"
