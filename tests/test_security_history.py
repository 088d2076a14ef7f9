"""The re-sent history tells the upstream nothing about the session's values (rev22 F1).

A hostile upstream writes guesses into its reply; the client sends the reply back with its next request. Whatever the
proxy does to that turn must not depend on whether a guess is one of the session's values. The proxy runs under uvicorn
in front of `MockOpenAI`, whose answers are a FAKE hostile model's; detection is the deterministic recognizers."""

from __future__ import annotations

import json

import httpx
import pytest
from placeholder_fixtures import make_protector, protect_config
from test_security_scope import TOKEN, proxy_for

from stealthflow.proxy.app import session_for
from stealthflow.testing.mock_openai import Reply, ToolCall

INTRO = "Please write to le Dr Alain Morel at alain.morel@orange.fr about the invoice."
SURNAMES = ["Smith", "Dupont", "Morel", "Martin"]
EMAILS = ["alain.morel@gmail.com", "alain.morel@orange.fr", "amorel@free.fr"]
PROBE = "Noted.<!-- " + ", ".join(SURNAMES) + "; " + ", ".join(EMAILS) + " -->"


def _post(url: str, messages: list[dict], stream: bool = False) -> dict:
    answer = httpx.post(
        url,
        json={"model": "m", "messages": messages, "stream": stream},
        headers={"Authorization": f"Bearer {TOKEN}"},
        timeout=60,
    )
    assert answer.status_code == 200, answer.text
    if not stream:
        return answer.json()["choices"][0]["message"]
    chunks = [json.loads(line[6:]) for line in answer.text.splitlines() if line.startswith("data: {")]
    return {"role": "assistant", "content": "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)}


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_guesses_in_a_reply_come_back_to_the_upstream_as_it_wrote_them(protector, stream):
    """The reviewer's reproducer: the guessed surname and e-mail that are the session's values went back as
    `<REAL_NAME_2>` and `<EMAIL_1>` on 41d744e; now the turn goes back exactly as the upstream wrote it."""
    replies = iter([PROBE, "ok"])
    with proxy_for(protector, lambda body: Reply(content=next(replies))) as (url, upstream):
        history = [{"role": "user", "content": INTRO}]
        answer = _post(url, history, stream)
        assert answer["content"] == PROBE
        _post(url, [*history, {"role": "assistant", "content": answer["content"]}, {"role": "user", "content": "ok"}])
        assert upstream.received[-1]["messages"][1]["content"] == PROBE


def test_a_restored_turn_goes_back_as_its_placeholders_even_trimmed_or_reserialised(protector):
    """A reply that restored values (text and a named tool's arguments) goes back in the upstream's own placeholder
    form, also when the client trims the text or parses and dumps the arguments; the next reply may restore those
    placeholders though the user's turn that made them was dropped from the history."""
    replies = iter(
        [
            Reply(
                content="  Writing to <REAL_NAME_1> at <EMAIL_1>.\n",
                tool_calls=[ToolCall("send_email", json.dumps({"to": "<EMAIL_1>", "body": "Dear <REAL_NAME_1>"}))],
            ),
            Reply(content="Sent to <EMAIL_1>."),
        ]
    )
    with proxy_for(protector, lambda body: next(replies), restore_tool_arguments=["send_email"]) as (url, upstream):
        answer = _post(url, [{"role": "user", "content": INTRO}])
        assert answer["content"] == "  Writing to Alain Morel at alain.morel@orange.fr.\n"
        call = answer["tool_calls"][0]
        assert json.loads(call["function"]["arguments"])["to"] == "alain.morel@orange.fr"
        call["function"]["arguments"] = json.dumps(json.loads(call["function"]["arguments"]), indent=1)
        turn = {"role": "assistant", "content": answer["content"].strip(), "tool_calls": [call]}
        result = {"role": "tool", "tool_call_id": call["id"], "content": "queued"}
        second = _post(url, [turn, result, {"role": "user", "content": "Done?"}])
        sent = upstream.received[-1]["messages"]
        assert sent[0]["content"] == "Writing to <REAL_NAME_1> at <EMAIL_1>."
        assert json.loads(sent[0]["tool_calls"][0]["function"]["arguments"]) == {
            "to": "<EMAIL_1>",
            "body": "Dear <REAL_NAME_1>",
        }
        assert sent[1]["tool_call_id"] == sent[0]["tool_calls"][0]["id"] == call["id"]
        assert second["content"] == "Sent to alain.morel@orange.fr."


@pytest.mark.parametrize("stream", [False, True], ids=["plain", "streamed"])
def test_a_reused_id_name_or_empty_arguments_bring_no_value_of_an_old_reply(protector, stream):
    """rev24 E7: a conversation of the session that never held the e-mail re-sends the id, the name and the `{}`
    arguments of an old reply's tool call (and `{}` as a tool result). On deef3aa each brought that reply's `<EMAIL_1>`
    into the scope and the next reply restored the address into prose and an allowed tool's arguments; a recalled text
    now vouches only for the placeholders restored in it, so the value is withheld as if never recalled."""
    evil = Reply(content="On file: <EMAIL_1>.", tool_calls=[ToolCall("send_email", json.dumps({"to": "<EMAIL_1>"}))])
    first = Reply(content="Looking up <EMAIL_1>.", tool_calls=[ToolCall("lookup_order", "{}")])
    replies = iter([first, evil])
    with proxy_for(protector, lambda body: next(replies), restore_tool_arguments=["send_email"]) as (url, upstream):
        own = _post(url, [{"role": "user", "content": "My email is dana.kerr@mailbox.org, look up my order."}], stream)
        assert own["content"] == "Looking up dana.kerr@mailbox.org."
        call = {"id": "call_0", "type": "function", "function": {"name": "lookup_order", "arguments": "{}"}}
        other = [
            {"role": "user", "content": "What is the weather in Leeds tomorrow?"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_0", "name": "lookup_order", "content": "{}"},
        ]
        answer = _post(url, other)
        assert upstream.received[-1]["messages"][1]["tool_calls"][0] == call  # recalled: sent back as it was
    assert answer["content"] == "On file: <EMAIL_1>."
    assert json.loads(answer["tool_calls"][0]["function"]["arguments"]) == {"to": "<EMAIL_1>"}


def test_a_text_kept_with_its_whole_replys_keys_recalls_only_its_own(protector):
    """A text kept by an earlier version carries every key its reply restored; recalled, it brings only the keys of
    the placeholders in its upstream form (rev24 E7)."""
    from stealthflow.proxy.history import RestoredReplies

    kept = RestoredReplies(protector.vault, "u")
    keys = frozenset({("REAL_NAME", 1), ("EMAIL", 1)})
    kept.keep("a", [("Hi Dana", "Hi <REAL_NAME_1>", keys), ("{}", "{}", keys), ("call_0", "call_0", keys)])
    assert kept.recall("a", "Hi Dana") == ("Hi <REAL_NAME_1>", frozenset({("REAL_NAME", 1)}))
    assert kept.recall("a", "{}") == ("{}", frozenset())
    assert kept.recall("a", "call_0") == ("call_0", frozenset())


def test_an_unrecognised_assistant_turn_is_masked_without_the_sessions_numbers(protector):
    """An assistant turn no reply restored to (edited by the client, or written by the upstream into a history it
    hands the client) is masked as new text: every e-mail detection finds gets the same bare `<EMAIL>` mark, the
    session's own address too (41d744e: `<EMAIL_1>` for it, fresh numbers for the wrong guesses), a surname alone is
    not looked for, and nothing is written to the vault."""
    with proxy_for(protector, lambda body: Reply(content="ok")) as (url, upstream):
        _post(url, [{"role": "user", "content": INTRO}])
        issued = protector.vault.issued_mark(session_for(TOKEN, ""))
        forged = {"role": "assistant", "content": PROBE + " (edited)"}
        _post(url, [{"role": "user", "content": "Hello"}, forged, {"role": "user", "content": "ok"}])
        seen = upstream.received[-1]["messages"][1]["content"]
        assert seen == PROBE.replace(", ".join(EMAILS), "<EMAIL>, <EMAIL>, <EMAIL>") + " (edited)"
        assert protector.vault.issued_mark(session_for(TOKEN, "")) == issued


def test_an_unrecognised_turns_ids_names_and_keys_hint_at_no_guess(protector):
    """Every string of an assistant turn no reply restored to is masked as new text, not only its content: a guess in a
    tool call's id, function name, argument key and value, the turn's `name` and a refusal part, and in the tool result's
    `tool_call_id` and `name` that repeat them, comes back the same for the session's own address as for the wrong ones,
    with no number, and nothing is written to the vault (0be2a3f: `EMAIL_1` in the id and name for the session's address,
    fresh numbers for the others). Two ids that mask alike stay apart, and each stays paired with its result."""

    def history(guess: str) -> list[dict]:
        calls = [
            {"id": f"call {guess}", "type": "function", "function": {"name": f"f {guess}", "arguments": "{}"}},
            {"id": f"call 2 {guess}", "type": "function", "function": {"name": "g", "arguments": {guess: guess}}},
        ]
        turn = {"role": "assistant", "name": f"a {guess}", "content": [{"type": "refusal", "refusal": guess}]}
        result = {"role": "tool", "tool_call_id": f"call {guess}", "name": f"f {guess}", "content": "queued"}
        other = {"role": "tool", "tool_call_id": f"call 2 {guess}", "content": "queued"}
        return [{"role": "user", "content": "Hello"}, {**turn, "tool_calls": calls}, result, other]

    with proxy_for(protector, lambda body: Reply(content="ok")) as (url, upstream):
        _post(url, [{"role": "user", "content": INTRO}])
        issued = protector.vault.issued_mark(session_for(TOKEN, ""))
        seen = []
        for guess in EMAILS:
            _post(url, history(guess))
            seen.append(upstream.received[-1]["messages"])
        assert seen[0] == seen[1] == seen[2]
        assert protector.vault.issued_mark(session_for(TOKEN, "")) == issued
        turn, result, other = seen[0][1:]
        first, second = turn["tool_calls"]
        assert (first["id"], first["function"]["name"], turn["name"]) == ("call EMAIL", "f EMAIL", "a EMAIL")
        assert (result["tool_call_id"], result["name"], other["tool_call_id"]) == (
            "call EMAIL",
            "f EMAIL",
            second["id"],
        )
        assert second["id"] == "call 2 EMAIL" and second["function"]["arguments"] == {"<EMAIL>": "<EMAIL>"}
        assert turn["content"] == [{"type": "refusal", "refusal": "<EMAIL>"}]


def test_identifiers_that_mask_alike_stay_apart():
    """Two tool-call ids the detector masks whole (the PII tagger takes `call_DbR8...` for a credential) become
    `CREDENTIAL` and `CREDENTIAL-2`, and each result's `tool_call_id` follows its call. FAKE protection: every text
    starting `call_` is masked as `<CREDENTIAL>`."""
    from stealthflow.proxy.messages import RequestTexts

    calls = [{"id": i, "type": "function", "function": {"name": "f", "arguments": "{}"}} for i in ("call_a", "call_b")]
    results = [{"role": "tool", "tool_call_id": i, "content": "ok"} for i in ("call_b", "call_a")]
    body = {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": calls}, *results]}
    texts = RequestTexts(body)
    texts.put(["<CREDENTIAL>" if text.startswith("call_") else text for text in texts.texts])
    assert [call["id"] for call in calls] == ["CREDENTIAL", "CREDENTIAL-2"]
    assert [result["tool_call_id"] for result in results] == ["CREDENTIAL-2", "CREDENTIAL"]


def test_kept_texts_are_per_session_bounded_and_forgotten_with_it(protector):
    """`RestoredReplies` recalls a text only in the session whose reply restored it, forgets a session's oldest first
    (each session has its own bound), and forgets them with the session or a rotated key."""
    from stealthflow.placeholders.keys import VaultKeys
    from stealthflow.proxy.history import RestoredReplies

    kept = RestoredReplies(protector.vault, "u", max_texts=2)
    kept.keep("a", [("Hi Dana", "Hi <REAL_NAME_1>", frozenset({("REAL_NAME", 1)}))])
    assert kept.recall("a", "Hi Dana") == ("Hi <REAL_NAME_1>", frozenset({("REAL_NAME", 1)}))
    assert kept.recall("b", "Hi Dana") is None
    kept.keep("b", [("one", "one", frozenset()), ("two", "two", frozenset())])
    assert kept.recall("a", "Hi Dana") is not None  # another session's texts do not push this one's out
    kept.keep("a", [("one", "one", frozenset()), ("two", "two", frozenset())])
    assert kept.recall("a", "Hi Dana") is None and kept.recall("a", "two") == ("two", frozenset())
    small = RestoredReplies(protector.vault, "u", max_chars=10)
    small.keep("c", [("Hi Dana", "Hi <REAL_NAME_1>", frozenset())])
    assert small.recall("c", "Hi Dana") is None  # 16 characters of the upstream's text: more than it keeps
    protector.vault.forget_session("u", "a")
    assert kept.recall("a", "two") is None and kept.recall("b", "two") is not None
    protector.vault.rotate(VaultKeys.from_secret(b"another vault key, 32 bytes long"))
    assert kept.recall("b", "two") is None  # its digest was keyed by the old key


def test_a_sessions_kept_totals_stay_what_its_rows_add_up_to(protector):
    """The bound is checked against each session's running totals (`reply_totals`), not a count of its rows per reply:
    after texts kept again, texts pushed out, a vault without the totals' row, a forgotten session and a rotated key,
    the totals are the rows' count and characters, and the oldest texts still go first."""
    from stealthflow.placeholders.keys import VaultKeys
    from stealthflow.proxy.history import RestoredReplies

    vault = protector.vault

    def totals(session: str) -> tuple[list, list]:
        row = vault._db.execute("SELECT texts, chars FROM reply_totals WHERE user = 'u' AND session = ?", (session,))
        counted = vault._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(chars), 0) FROM replies WHERE user = 'u' AND session = ?", (session,)
        )
        return list(row.fetchone() or (0, 0)), list(counted.fetchone())

    kept = RestoredReplies(vault, "u", max_texts=3, max_chars=40)
    kept.keep("a", [("one", "1234567890", frozenset()), ("two", "12345", frozenset())])
    kept.keep("a", [("one", "123", frozenset())])  # kept again, shorter: replaces its row
    assert totals("a") == ([2, 8], [2, 8])
    kept.keep(
        "a", [("three", "1" * 20, frozenset()), ("four", "1" * 15, frozenset())]
    )  # 4 texts, 43 characters: "two" goes
    assert totals("a") == ([3, 38], [3, 38])
    assert kept.recall("a", "two") is None and kept.recall("a", "one") == ("123", frozenset())
    with vault._lock:
        vault._db.execute("DELETE FROM reply_totals")  # as a vault written before the table
        vault._db.commit()
    kept.keep("a", [("five", "12", frozenset())])  # 4 texts: "one", kept again after "two", goes now
    assert totals("a") == ([3, 37], [3, 37]) and kept.recall("a", "one") is None
    kept.keep("b", [("one", "1", frozenset())])
    vault.forget_session("u", "a")
    assert totals("a") == ([0, 0], [0, 0]) and totals("b") == ([1, 1], [1, 1])
    vault.rotate(VaultKeys.from_secret(b"another vault key, 32 bytes long"))
    assert totals("b") == ([0, 0], [0, 0])


def test_the_vault_holds_digests_and_sealed_texts_only(protector):
    """What the vault file keeps of a restored reply: no text the client got, not even the upstream's text in clear."""
    from stealthflow.proxy.history import RestoredReplies

    RestoredReplies(protector.vault, "u").keep("a", [("Hi Dana Whitlock", "Hi <REAL_NAME_1>", frozenset())])
    protector.vault.close()
    raw = b"".join(path.read_bytes() for path in protector.vault.path.parent.glob("vault.sqlite*"))
    assert b"Whitlock" not in raw and b"REAL_NAME_1" not in raw


def test_a_restarted_proxy_sends_a_restored_reply_back_as_the_upstream_wrote_it(tmp_path, monkeypatch):
    """ux22b H1 / M5: the recall of a restored reply lives in the vault's SQLite file, so a new Protector and proxy
    on the same vault (a restart) still send the re-sent turn back as the upstream wrote it. Before, the turn was
    masked as new text after a restart, and the password "hunter2", which detection does not find on its own there,
    went upstream in clear. A real SQLite vault; the upstream is a FAKE model."""
    config = protect_config(tmp_path, monkeypatch)
    first = "My wifi password: hunter2, mail me at dana.whitlock@posteo.de"
    written = "Noted (seen: <PASSWORD_1>, <EMAIL_1>)."
    before = make_protector(config)
    try:
        with proxy_for(before, lambda body: Reply(content=written)) as (url, upstream):
            answer = _post(url, [{"role": "user", "content": first}])
            assert "<PASSWORD_1>" in upstream.received[-1]["messages"][0]["content"]
    finally:
        before.close()
    assert "hunter2" in answer["content"] and "dana.whitlock@posteo.de" in answer["content"]
    after = make_protector(config)
    try:
        with proxy_for(after, lambda body: Reply(content="ok")) as (url, upstream):
            _post(url, [{"role": "user", "content": first}, answer, {"role": "user", "content": "anything else?"}])
            sent = upstream.received[-1]["messages"]
    finally:
        after.close()
    assert sent[1]["content"] == written
    assert "hunter2" not in json.dumps(sent) and "posteo" not in json.dumps(sent)


def test_a_recalled_string_inside_arguments_is_written_back():
    """A string of an assistant turn's tool-call arguments that a reply restored to is put back in its upstream form
    and the arguments re-serialised, though no other string in them changed. FAKE recall."""
    from stealthflow.proxy.messages import RequestTexts

    call = {"id": "c1", "type": "function", "function": {"name": "note", "arguments": '{"text": "Hi Dana"}'}}
    body = {
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": None, "tool_calls": [call]}]
    }
    texts = RequestTexts(body, recall=lambda text: ("Hi <REAL_NAME_1>", frozenset()) if text == "Hi Dana" else None)
    texts.put(texts.texts)
    assert json.loads(call["function"]["arguments"]) == {"text": "Hi <REAL_NAME_1>"}
