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
import re
import subprocess
import sys
import threading
import time

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.responses import JSONResponse
from test_security_edges import chunk, completion, event, sse
from test_security_scope import TOKEN, proxy_for

from stealthflow.placeholders.restore import StreamRestorer, Withheld, restore_text
from stealthflow.testing.mock_openai import Reply

BLOW_UP = 60  # seconds: far above the linear cost of any input here, far below an exponential one
STALL = 20  # seconds a request may take on a loaded machine; the stall it guards against took 30 s and more


def ask(url: str, text: str, label: str, history: list[dict] | None = None) -> str:
    """One chat turn in session `label` (after `history`, if given); the reply's text."""
    body = {"model": "m", "messages": [*(history or []), {"role": "user", "content": text}]}
    headers = {"Authorization": f"Bearer {TOKEN}", "X-Stealthflow-Session": label}
    response = httpx.post(url, json=body, headers=headers, timeout=STALL)
    assert response.status_code == 200, response.text
    return response.json()["choices"][0]["message"]["content"]


def _run_bounded(probe: str) -> subprocess.CompletedProcess:
    """`probe` in a fresh interpreter, killed at BLOW_UP seconds: a blow-up ends the test, not the test run."""
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=BLOW_UP)
    assert result.returncode == 0, result.stderr
    return result


# -- values that stalled the re-masking of a session ---------------------------------------------
def test_telling_specific_values_is_linear_in_hostile_values():
    """`specific` decides for every value a session is issued; a run of letters before a character
    its word pattern refuses took time doubling per letter (23 letters: 4 s). Run in a fresh
    interpreter so that a blow-up ends at the bound, not with the test run."""
    probe = (
        "from stealthflow.placeholders.common_words import specific\n"
        "values = ['a' * 5000 + '@mailbox.org', 'sk-proj-' + 'abcdefghijklmnopqrstuvwxyz' * 40 + '0123',\n"
        "          'ab ' * 3000 + '1', 'ab-' * 3000 + '1', 'a&' * 3000 + '_', 'Ann ' * 3000 + '-x', 'x.' * 3000 + '9']\n"
        "print([specific(v) for v in values])\n"
    )
    result = _run_bounded(probe)
    assert result.stdout.split() == ["[True,", "True,", "True,", "True,", "True,", "True,", "True]"]


def test_an_email_with_a_long_local_part_does_not_stall_other_sessions(protector):
    """26 letters before the @ took half a minute on the event loop (short texts are protected
    there), and every session waited; now the sender gets its masked reply and the other session
    its own, each well within the bound."""
    email = "abcdefghijklmnopqrstuvwxyz@mailbox.org"
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


# -- a streamed reply of backslashes -------------------------------------------------------------
def values(ref) -> str | Withheld | None:
    """A FAKE resolver: two values, each withheld inside a URL (as a secret is by default)."""
    value = {("EMAIL", 1): "anna@mailbox.org", ("REAL_NAME", 2): "Anna \\ Berg"}.get((ref.type, ref.index))
    return Withheld("secret in a URL") if value and ref.place == "url" else value


@pytest.mark.parametrize("json_string", [False, True], ids=["text", "tool-arguments"])
def test_a_run_of_backslashes_is_not_held_back_while_it_streams(json_string):
    """A run of backslashes may escape a placeholder that follows, so it was held back whole and
    scanned again with every chunk (20 000 backslashes: 11.6 s on the event loop). Now all but the
    backslash an escape removes goes out at once, and the run is scanned once."""
    restorer = StreamRestorer(values, json_string)
    out, fed = [], 0
    for _ in range(2_000):
        out.append(restorer.feed("\\" * 100))
        fed += 100
        assert sum(map(len, out)) >= fed - 2
    out.append(restorer.feed("EMAIL_1>\n\nand <EMAIL_1>"))  # a new paragraph: "\\\\host" is a UNC path's mark
    out.append(restorer.finish())
    escaped_by = restorer.scanner.escape_width
    assert "".join(out) == "\\" * (fed - escaped_by) + "EMAIL_1>\n\nand " + "anna@mailbox.org"
    assert "".join(out) == restore_text("\\" * fed + "EMAIL_1>\n\nand <EMAIL_1>", values, json_string).text


def test_restoring_placeholders_after_long_runs_without_spaces_is_linear():
    """Where a placeholder stands is read from the text since the placeholder before it, once; trying a scheme at
    every start of the run before it took time quadratic in it: a reply of 4 000 placeholders each after a
    2 000-character dotted run took two minutes."""
    probe = (
        "from stealthflow.placeholders.restore import restore_text\n"
        "text = (' ' + 'ab.' * 666 + '<EMAIL_1>') * 4000\n"
        "result = restore_text(text, lambda ref: 'anna@mailbox.org')\n"
        "print(result.restored, result.text.count('anna@mailbox.org'))\n"
    )
    result = _run_bounded(probe)
    assert result.stdout.split() == ["4000", "4000"]


SPLIT_PIECES = st.sampled_from(
    ["\\", "\\\\", "\\" * 7, "<EMAIL_1>", "EMAIL_1", "<REAL_NAME_2>", "EMAIL", "_1", "<", ">", " ", "x", "\n", '\\"']
    + ["https://", "www.", "](", "/", "."]
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    pieces=st.lists(SPLIT_PIECES, max_size=16),
    long_run=st.sampled_from([0, 3, 2_100]),
    cuts=st.lists(st.integers(0, 3_000), max_size=8),
    json_string=st.booleans(),
)
def test_streaming_with_backslash_runs_equals_the_whole_reply_for_any_split(pieces, long_run, cuts, json_string):
    """The same text, counts and withheld placeholders as restoring the reply at once, wherever the
    chunks are cut: escapes, runs released early, and placeholders in URLs (a run of 2 100
    characters without a space counts as one) included."""
    text = "\\" * long_run + "".join(pieces)
    points = sorted({c % (len(text) + 1) for c in cuts})
    restorer = StreamRestorer(values, json_string)
    chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    streamed = "".join(restorer.feed(chunk) for chunk in chunks) + restorer.finish()
    whole = restore_text(text, values, json_string)
    assert streamed == whole.text
    assert (restorer.scanner.restored, restorer.unresolved, restorer.withheld) == (
        whole.restored,
        whole.unresolved,
        whole.withheld,
    )


def test_a_stream_of_backslashes_does_not_stall_other_clients(protector):
    """The hostile upstream streams 50 000 backslashes in 100-character deltas (about a minute of
    event loop before); another client's chat meanwhile is answered, and the stream arrives whole."""
    total, step = 50_000, 100

    def hostile(body: dict):
        if not body.get("stream"):
            return JSONResponse(completion("fine"))
        deltas = [event(chunk({"content": "\\" * step})) for _ in range(total // step)]
        return sse([*deltas, event(chunk({}, "stop")), b"data: [DONE]\n\n"])

    with proxy_for(protector, lambda body: Reply(content="unused")) as (url, upstream):
        upstream.raw = hostile
        other: dict = {}

        def client() -> None:
            while not upstream.received:  # the stream is under way
                time.sleep(0.01)
            other["reply"] = ask(url, "hello", "other")

        thread = threading.Thread(target=client)
        thread.start()
        body = {"model": "m", "messages": [{"role": "user", "content": "tell me a story"}], "stream": True}
        with httpx.stream("POST", url, json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=STALL) as r:
            lines = [line[6:] for line in r.iter_lines() if line.startswith("data: {")]
        thread.join(timeout=STALL)
    content = "".join(
        (c["delta"].get("content") or "") for line in lines for c in json.loads(line).get("choices") or []
    )
    assert content == "\\" * total and other["reply"] == "fine"


# -- values glued into words by a reply ----------------------------------------------------------
def test_a_name_a_reply_glues_into_a_word_is_masked_again_when_the_history_comes_back(protector):
    """The hostile upstream writes each placeholder glued between letters (`id<REAL_NAME_1>x`, and
    between Chinese characters, where no space ever separates a name); restore fills them in. When
    the client sends that reply back as history, the names went upstream in clear: a session's
    value was found again only as a whole word."""

    def gluing(body: dict) -> Reply:  # a FAKE model
        if len(body["messages"]) > 1:
            return Reply(content="done")
        placeholders = sorted(set(re.findall(r"<[A-Z_]+_\d+>", body["messages"][0]["content"])))
        return Reply(content=" ".join(f"id{p}x 是{p}的" for p in placeholders))

    text = "Hi, my name is Anna Berg and my colleague Chidi Okafor agrees."
    with proxy_for(protector, gluing) as (url, upstream):
        reply = ask(url, text, "s")
        history = [{"role": "user", "content": text}, {"role": "assistant", "content": reply}]
        ask(url, "thanks", "s", history)
    assert "idAnna Bergx" in reply and "是Chidi Okafor的" in reply  # restored where the upstream put them
    resent = upstream.received[1]["messages"]
    assert resent[1]["content"] == gluing(upstream.received[0]).content  # back as the upstream wrote it
    assert not {"Anna", "Berg", "Chidi", "Okafor"} & set(re.findall(r"[A-Za-z]+", json.dumps(resent)))


def test_a_value_masked_inside_a_word_restores_to_the_same_text(protector):
    """Found inside a longer word, a session's name is masked there too; restore gives back the text."""
    assert "<REAL_NAME_1>" in protector.protect("Hi, my name is Chidi Okafor.", "s").text
    text = "Chidi Okaforsen wrote, 给Chidi Okafor的信"
    protected = protector.protect(text, "s")
    assert protected.text == "<REAL_NAME_1>sen wrote, 给<REAL_NAME_1>的信"
    assert protector.restore(protected.text, "s").text == text


# -- values written in an encoding ---------------------------------------------------------------
ENCODED_EMAILS = [
    '<a href="mailto:zed.quux&#64;mailbox.org">mail</a>',  # HTML
    '{"email": "zed.quux\\u0040mailbox.org"}',  # JSON or code text
    "mail me at zed.quux(at)mailbox.org",
    "mail me at zed.quux [at] mailbox [dot] org",
    "mail me at zed.quux @ mailbox.org",
    "write to ZED.QUUX&#x40;MAILBOX.ORG",
]


def test_emails_with_an_encoded_or_spelled_at_are_masked_whole(protector):
    """`&#64;`, `\\u0040`, `(at)`, a spaced ` @ ` hid the email from detection (wholly, or all but its
    domain); each is now masked as written, and restore gives the text back."""
    for text in ENCODED_EMAILS:
        protected = protector.protect(text, "s")
        assert "quux" not in protected.text.casefold() and "<EMAIL_" in protected.text, protected.text
        restored = protector.restore(protected.text, "s")  # JSON in a reply's text is code (rev22 F7): withheld
        assert restored.text == text or {why for _, why in restored.withheld} == {"in_code"}
        assert protector.restore(protected.text, "s", values_in_links=True).text == text
    assert protector.protect("lunch @ noon, a @ b", "s").text == "lunch @ noon, a @ b"  # no email: left as it is


def test_an_iban_in_lowercase_is_masked_when_its_checksum_holds(protector):
    for text in ("iban de44370400440532913000", "iban gb17 west 1234 5698 7654 38, thanks"):
        session = f"s{len(text)}"  # a session each: the vault keeps one spelling of an IBAN
        protected = protector.protect(text, session)
        assert "<IBAN_1>" in protected.text and protector.restore(protected.text, session).text == text
    assert protector.protect("ref de89370400440532013001", "s").text == "ref de89370400440532013001"  # checksum fails


def test_encoded_emails_do_not_reach_the_upstream(protector):
    with proxy_for(protector, lambda body: Reply(content="noted")) as (url, upstream):
        ask(url, "\n".join(ENCODED_EMAILS), "s")
    assert "quux" not in json.dumps(upstream.received[0]).casefold()
