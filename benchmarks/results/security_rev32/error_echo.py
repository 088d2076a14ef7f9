"""Errors of `serve` (and its /memory routes) and of the proxy that quote a value the caller sent: a session name, a
request, pack or memory id, a vault id, a rewrite name, a path. Real servers under uvicorn, a real HTTP client; a
temp vault (key from the environment). Run from the worktree root:
`PYTHONPATH=src /work/main/.venv/bin/python benchmarks/results/security_rev32/error_echo.py` (main: PYTHONPATH=
/work/snap32/src). Correct (exit 0): no answer holds the value. Every value is invented."""

import os
import sys
import tempfile
from pathlib import Path

import httpx

from stealthflow.memory.store import MemoryStore
from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.keys import new_secret
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.proxy.app import create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.service import create_app
from stealthflow.testing.loopback import serve

TOKEN = "rev32-error-echo-token-0123456789abcdef"
BEARER = {"Authorization": f"Bearer {TOKEN}"}
VALUE, NUMBER = "quillon-varrick-7781", 778123456

tmp = Path(tempfile.mkdtemp(prefix="rev32-"))
os.environ["HOME"] = str(tmp)
os.environ["STEALTHFLOW_VAULT_KEY"] = new_secret()
config = ProtectConfig(vault_path=tmp / "vault.sqlite", key_source="env", llm_extractor=False)
memory = MemoryStore(tmp / "memory.sqlite", Protector(config, open_vault(config), Detector()))
echoed = 0
with serve(create_app(memory.protector, TOKEN, memory=memory)) as port:
    base = f"http://127.0.0.1:{port}"
    protect = {"text": "mail ann.lee@mailbox.org", "session": "web-1"}
    text = httpx.post(base + "/protect", headers=BEARER, json=protect).json()["text"]
    asks = [
        ("POST", "/restore", {"json": {"text": text, "session": VALUE}}),
        ("POST", "/restore", {"json": {"text": text, "session": "web-1", "request": VALUE}}),
        ("POST", f"/restore/stream?session=web-1&request={VALUE}", {"content": text}),
        ("POST", "/restore", {"json": {"text": text, "session": "web-1", "vault": VALUE}}),
        ("POST", "/protect", {"json": {**protect, "rewrite": VALUE}}),
        ("GET", f"/sessions/web-1/{VALUE}", {}),
        ("PUT", f"/sessions/{VALUE}", {}),
        ("POST", "/memory/hydrate", {"json": {"user": "ann", "text": text, "request": VALUE}}),
        ("POST", "/memory/forget", {"json": {"user": "ann", "id": NUMBER}}),
    ]
    for method, path, body in asks:
        answer = httpx.request(method, base + path, headers=BEARER, **body)
        shown = VALUE in answer.text or str(NUMBER) in answer.text
        echoed += shown
        print(
            f"serve {method} {path.split('?')[0].replace(VALUE, 'VALUE'):32} {answer.status_code} "
            f"{'ECHOES' if shown else 'clean '} {answer.json()['error']['message'][:90]!r}"
        )
proxy = ProxyConfig(upstream="openai/x", upstream_base="http://127.0.0.1:9/v1", upstream_key_env="NO_KEY")
with serve(create_proxy_app(memory.protector, proxy, TOKEN)) as port:
    for path, headers in (
        (f"/v1/{VALUE}", BEARER),
        ("/v1/chat/completions", {**BEARER, "x-stealthflow-session": VALUE * 12}),
    ):
        answer = httpx.post(f"http://127.0.0.1:{port}{path}", headers=headers, json={"model": "x", "messages": []})
        shown = VALUE in answer.text
        echoed += shown
        print(
            f"proxy POST {path.replace(VALUE, 'VALUE'):32} {answer.status_code} {'ECHOES' if shown else 'clean '} "
            f"{answer.json()['error']['message'][:90]!r}"
        )
memory.close()
print(f"answers quoting a caller's value: {echoed} of {len(asks) + 2}")
sys.exit(1 if echoed else 0)
