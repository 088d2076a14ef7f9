"""The security suite of hostile text (issue 49's adversarial review): values and replies written to
stall the proxy or to slip a session's values past re-masking.

A value whose letters a nested pattern could split in exponentially many ways; a streamed reply of
backslashes, held back and scanned again per chunk. Each end-to-end test drives the proxy under
uvicorn on 127.0.0.1 with a real HTTP client; the upstream is MockOpenAI (a FAKE model, hostile by
`raw=` or `respond=`) on another loopback port. Detection is the deterministic recognizers only.
Time bounds are generous: they catch a blow-up (seconds to hours), not a slow machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import httpx
import pytest
from placeholder_fixtures import make_protector, protect_config
from test_security_scope import TOKEN, proxy_for

from stealthflow.testing.mock_openai import Reply

BLOW_UP = 60  # seconds: far above the linear cost of any input here, far below an exponential one
STALL = 20  # seconds a request may take on a loaded machine; the stall it guards against took 30 s and more


@pytest.fixture
def protector(tmp_path, monkeypatch):
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    yield protector
    protector.close()


def ask(url: str, text: str, label: str, history: list[dict] | None = None) -> str:
    """One chat turn in session `label` (after `history`, if given); the reply's text."""
    body = {"model": "m", "messages": [*(history or []), {"role": "user", "content": text}]}
    headers = {"Authorization": f"Bearer {TOKEN}", "X-Stealthflow-Session": label}
    response = httpx.post(url, json=body, headers=headers, timeout=STALL)
    assert response.status_code == 200, response.text
    return response.json()["choices"][0]["message"]["content"]


# -- values that stalled the re-masking of a session ---------------------------------------------
def test_telling_specific_values_is_linear_in_hostile_values():
    """`specific` decides for every value a session is issued; a run of letters before a character
    its word pattern refuses took time doubling per letter (23 letters: 4 s). Run in a fresh
    interpreter so that a blow-up ends at the bound, not with the test run."""
    probe = (
        "from stealthflow.placeholders.common_words import specific\n"
        "values = ['a' * 5000 + '@example.org', 'sk-proj-' + 'abcdefghijklmnopqrstuvwxyz' * 40 + '0123',\n"
        "          'ab ' * 3000 + '1', 'ab-' * 3000 + '1', 'a&' * 3000 + '_', 'Ann ' * 3000 + '-x', 'x.' * 3000 + '9']\n"
        "print([specific(v) for v in values])\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=BLOW_UP)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["[True,", "True,", "True,", "True,", "True,", "True,", "True]"]


def test_an_email_with_a_long_local_part_does_not_stall_other_sessions(protector):
    """26 letters before the @ took half a minute on the event loop (short texts are protected
    there), and every session waited; now the sender gets its masked reply and the other session
    its own, each well within the bound."""
    email = "abcdefghijklmnopqrstuvwxyz@example.org"
    with proxy_for(protector, lambda body: Reply(content="noted")) as (url, upstream):
        ask(url, "warm up", "victim")
        other: dict = {}

        def victim() -> None:
            time.sleep(0.3)
            other["reply"] = ask(url, "hello", "victim")

        thread = threading.Thread(target=victim)
        thread.start()
        reply = ask(url, f"contact {email}", "sender")
        thread.join(timeout=STALL)
    assert reply == "noted" and other["reply"] == "noted"
    assert email not in json.dumps(upstream.received)
