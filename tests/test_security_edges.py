"""The proxy's edges against a hostile upstream, and `memory append -i` run again after a crash.

A reply too large or dripping on forever, a 10 MB SSE line beside another client's small chat,
chunks that are not OpenAI's, request fields that hold text, placeholder look-alikes with
case-folding letters, JSON nested too deep, a 429's Retry-After. Each test drives the proxy under
uvicorn on 127.0.0.1 with a real HTTP client; the upstream is `MockOpenAI` on another loopback
port, made hostile with `raw=` (any response, sent as it is). Detection is the deterministic
recognizers only (the `--no-llm --no-tagger` configuration)."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time

import httpx
import openai
import pytest
from placeholder_fixtures import make_protector, protect_config
from starlette.responses import JSONResponse, StreamingResponse
from test_proxy import TOKEN, running_proxy

from stealthflow.testing.mock_openai import last_user_text

AUTH = {"Authorization": f"Bearer {TOKEN}"}
EMAIL = "anna.berg@mailbox.org"
BOTH_ROUTES = pytest.mark.parametrize(
    "upstream_model", ["openai/mock-model", "deepseek/mock-model"], ids=["direct", "litellm"]
)


def chunk(delta: dict, finish: str | None = None) -> dict:
    return {
        "id": "chatcmpl-h",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def event(data: object) -> bytes:
    return b"data: " + (data if isinstance(data, bytes) else json.dumps(data).encode()) + b"\n\n"


def completion(content: str) -> dict:
    return {
        "id": "chatcmpl-h",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    }


def sse(pieces, pause: float = 0.0) -> StreamingResponse:
    """A streamed upstream reply: `pieces` (bytes) written one by one, `pause` seconds apart."""

    async def body():
        for piece in pieces:
            yield piece
            if pause:
                await asyncio.sleep(pause)

    return StreamingResponse(body(), media_type="text/event-stream")


def post(url: str, body: dict, **kwargs) -> httpx.Response:
    return httpx.post(f"{url}/v1/chat/completions", json=body, headers=AUTH, timeout=120, **kwargs)


def stream_events(url: str, body: dict) -> list:
    """The data of every SSE event the proxy sends (JSON, or the string "[DONE]")."""
    with httpx.stream(
        "POST", f"{url}/v1/chat/completions", json={**body, "stream": True}, headers=AUTH, timeout=120
    ) as response:
        assert response.status_code == 200, response.read()
        lines = [line[6:] for line in response.iter_lines() if line.startswith("data: ")]
    return [line if line == "[DONE]" else json.loads(line) for line in lines]


def stream_error(url: str, body: dict, status: int) -> tuple[dict, list]:
    """The error of a stream that fails: its last event, or the answer's own status when the
    failure came before the first chunk went out (which one depends on how the reads fell)."""
    with httpx.stream(
        "POST", f"{url}/v1/chat/completions", json={**body, "stream": True}, headers=AUTH, timeout=120
    ) as response:
        if response.status_code != 200:
            response.read()
            return error_of(response, status), []
        lines = [line[6:] for line in response.iter_lines() if line.startswith("data: ")]
    assert "[DONE]" not in lines
    events = [json.loads(line) for line in lines]
    assert "error" in events[-1] and not [e for e in events[:-1] if "error" in e], events[-3:]
    return events[-1]["error"], events[:-1]


def error_of(response: httpx.Response, status: int) -> dict:
    assert response.status_code == status, response.text
    return response.json()["error"]


USER = {"messages": [{"role": "user", "content": "hi"}]}


# -- 5. huge upstream replies -------------------------------------------------------------------
def test_a_reply_above_max_reply_bytes_is_a_clear_502_plain_chunked_and_streamed(protector, upstream):
    def hostile(body: dict):
        size = 30_000 if "small" in last_user_text(body) else 300_000
        if body.get("stream"):
            return sse([event(chunk({"content": "x" * 10_000})) for _ in range(size // 10_000)] + [b"data: [DONE]\n\n"])
        if "chunked" in last_user_text(body):  # no Content-Length: counted as it arrives
            data = json.dumps(completion("x" * size)).encode()
            return StreamingResponse(
                iter([data[i : i + 8192] for i in range(0, len(data), 8192)]), media_type="application/json"
            )
        return JSONResponse(completion("x" * size))

    upstream.raw = hostile
    with running_proxy(protector, upstream, max_reply_bytes=100_000) as url:
        for text in ("whole", "chunked"):
            error = error_of(post(url, {"messages": [{"role": "user", "content": text}]}), 502)
            assert "max_reply_bytes" in error["message"] and error["type"] == "upstream_error"
        error, events = stream_error(url, USER, 502)
        assert "max_reply_bytes" in error["message"]
        assert sum(len(e["choices"][0]["delta"].get("content", "")) for e in events) <= 100_000
        # Under the cap all passes, plain and streamed.
        small = {"messages": [{"role": "user", "content": "small"}]}
        assert post(url, small).json()["choices"][0]["message"]["content"] == "x" * 30_000
        assert (
            "".join(e["choices"][0]["delta"].get("content", "") for e in stream_events(url, small)[:-1]) == "x" * 30_000
        )


def test_a_10_mb_sse_line_does_not_hold_up_another_clients_chat(protector, upstream):
    """Client A's reply is one 10 MB SSE line, dripped in 64 KB reads; client B sends small chats
    all the while. B's slowest must take a small part of A's time (relative, not a tight bound):
    before, restoring the line held the event loop for seconds and B waited for it."""
    line = event(chunk({"content": "x" * 10_000_000}))

    def hostile(body: dict):
        if not body.get("stream"):  # client B
            return JSONResponse(completion("fine"))
        pieces = [line[i : i + 65_536] for i in range(0, len(line), 65_536)]
        return sse(
            [
                event(chunk({"role": "assistant", "content": ""})),
                *pieces,
                event(chunk({}, "stop")),
                b"data: [DONE]\n\n",
            ],
            pause=0.005,
        )

    upstream.raw = hostile
    with running_proxy(protector, upstream) as url:
        a: dict = {}

        def client_a() -> None:
            started = time.perf_counter()
            events = stream_events(url, USER)
            a["seconds"] = time.perf_counter() - started
            a["content"] = "".join(
                e["choices"][0]["delta"].get("content") or "" for e in events if e != "[DONE]" and e.get("choices")
            )
            a["done"] = events[-1] == "[DONE]"

        thread = threading.Thread(target=client_a)
        thread.start()
        while not upstream.received:  # A is under way
            time.sleep(0.005)
        waits = []
        with httpx.Client(headers=AUTH, timeout=120) as client_b:
            while thread.is_alive() and len(waits) < 2_000:
                started = time.perf_counter()
                reply = client_b.post(
                    f"{url}/v1/chat/completions", json={"messages": [{"role": "user", "content": "small"}]}
                )
                waits.append(time.perf_counter() - started)
                assert reply.json()["choices"][0]["message"]["content"] == "fine"
        thread.join(timeout=300)
    assert a["done"] and a["content"] == "x" * 10_000_000
    assert len(waits) >= 3 and max(waits) < a["seconds"] / 4, (max(waits), a["seconds"], len(waits))


# -- 6. every text the model reads -------------------------------------------------------------
def test_every_text_the_model_reads_is_protected_or_the_request_refused(protector, upstream):
    body = {
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "hello", "name": EMAIL},
            {
                "role": "assistant",
                "content": None,
                "reasoning_content": f"The user is {EMAIL}.",
                "refusal": f"I will not write to {EMAIL}.",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "save_note", "arguments": {"text": f"mail {EMAIL}", "cc": [EMAIL]}},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "ok"},
            {"role": "user", "content": "thanks"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "save_note",
                    "description": f"Saves a note for {EMAIL}",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "text": {"type": "string", "description": f"to {EMAIL}", "enum": [EMAIL, "other"]}
                        },
                        "required": ["text"],
                    },
                },
            }
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {
                "name": "note",
                "schema": {
                    "type": "object",
                    "description": f"a note to {EMAIL}",
                    "properties": {"to": {"type": "string", "default": EMAIL}},
                },
            },
        },
        "prediction": {"type": "content", "content": f"Dear {EMAIL},"},
        "stop": [f"Bye {EMAIL}"],
        "user": EMAIL,
        "metadata": {"owner": EMAIL},
    }
    with running_proxy(protector, upstream) as url:
        assert post(url, body).status_code == 200
        sent = upstream.received[-1]
        assert EMAIL not in json.dumps(sent), json.dumps(sent)
        messages = sent["messages"]
        assert messages[1]["name"] == "USERNAME_1"  # a participant: one value, and a name may hold no `<` or `>`
        # an assistant turn no reply restored to is masked as new text, under bare marks (rev22 F1)
        assert (
            messages[2]["reasoning_content"] == "The user is <EMAIL>."
            and messages[2]["refusal"] == "I will not write to <EMAIL>."
        )
        assert messages[2]["tool_calls"][0]["function"]["arguments"] == {
            "text": "mail <EMAIL>",
            "cc": ["<EMAIL>"],
        }  # still an object
        function = sent["tools"][0]["function"]
        assert function["name"] == "save_note" and function["parameters"]["required"] == [
            "text"
        ]  # identifiers as they were
        # the participant's value, known to the session as USERNAME_1, keeps its one placeholder wherever it recurs
        assert function["parameters"]["properties"]["text"]["enum"] == ["<USERNAME_1>", "other"]
        assert (
            sent["response_format"]["json_schema"]["name"] == "note"
            and sent["response_format"]["type"] == "json_schema"
        )
        assert sent["prediction"] == {"type": "content", "content": "Dear <USERNAME_1>,"} and sent["stop"] == [
            "Bye <USERNAME_1>"
        ]
        assert sent["user"] == "<USERNAME_1>" and sent["metadata"] == {"owner": "<USERNAME_1>"}

        # A message field the proxy does not know, holding text: protected like any other.
        unknown = {"messages": [{"role": "user", "content": "hi", "notes": f"for {EMAIL}"}]}
        assert post(url, unknown).status_code == 200
        assert upstream.received[-1]["messages"][0]["notes"] == "for <USERNAME_1>"
        assert (
            error_of(post(url, {"messages": [{"role": "user", "content": "hi", "name": 7}]}), 400)["param"]
            == "messages[0].name"
        )
        assert len(upstream.received) == 2


# -- 8. odd input ----------------------------------------------------------------------------------
def test_case_folding_look_alikes_of_a_placeholder_stay_text_in_every_turn(protector, upstream):
    """The Kelvin sign, the dotless i and the long s match K, I and S case-insensitively; a placeholder is ASCII, so
    they are text, neither escaped nor restored."""
    typed = "my key is <API_\u212aEY_1>, not <\u0131BAN_2> nor <PA\u017fSWORD_3> or api_\u212aey_4"
    with running_proxy(protector, upstream) as url:
        client = openai.OpenAI(base_url=f"{url}/v1", api_key=TOKEN, max_retries=0)
        first = client.chat.completions.create(model="m", messages=[{"role": "user", "content": typed}])
        assert first.choices[0].message.content == typed
        stream = client.chat.completions.create(model="m", messages=[{"role": "user", "content": typed}], stream=True)
        assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == typed
        history = [
            {"role": "user", "content": typed},
            {"role": "assistant", "content": typed},
            {"role": "user", "content": f"again: {typed}"},
        ]
        assert (
            client.chat.completions.create(model="m", messages=history).choices[0].message.content == f"again: {typed}"
        )


def test_chunks_that_are_not_openai_objects_end_the_stream_with_an_error_event(protector, upstream, caplog):
    caplog.set_level(logging.INFO)
    kinds = {
        "list": b"[1,2,3]",
        "not json": b"{oops",
        "choice not an object": b'{"choices": [7]}',
        "delta a string": b'{"choices": [{"index": 0, "delta": "x"}]}',
    }

    def hostile(body: dict):
        bad = kinds[last_user_text(body)]
        if not body.get("stream"):  # the same, as a whole reply
            return StreamingResponse(iter([bad.replace(b'"delta"', b'"message"')]), media_type="application/json")
        return sse(
            [
                event(chunk({"role": "assistant", "content": "Hel"})),
                event(bad),
                event(chunk({"content": "lo"})),
                b"data: [DONE]\n\n",
            ]
        )

    upstream.raw = hostile
    with running_proxy(protector, upstream) as url:
        for kind in kinds:
            request = {"messages": [{"role": "user", "content": kind}]}
            error, events = stream_error(url, request, 502)
            assert (
                "not a JSON object in the OpenAI chat shape" in error["message"] and error["type"] == "upstream_error"
            ), kind
            assert not events or events[0]["choices"][0]["delta"]["content"] == "Hel", (kind, events)
            error = error_of(post(url, request), 502)
            assert (
                error["type"] == "upstream_error" and "not a JSON object in the OpenAI chat shape" in error["message"]
            ), (kind, error)
        assert (
            post(url, USER | {"messages": [{"role": "user", "content": "list"}]}).status_code == 502
        )  # and it keeps serving
    assert "Traceback" not in caplog.text


def test_a_200_without_an_answer_is_a_502_plain_and_streamed_and_echoes_nothing(protector, upstream):
    """ux19 M2: a 200 whose JSON holds no `choices` (or none with a message) was passed on as a 200 (the OpenAI client
    crashed on it), and a streamed request answered with garbage, or with no chunk, became an empty 200 stream. Both
    are a 502 naming no part of the upstream's body, in which nothing is restored."""
    email = "anna.berg@mailbox.org"
    plain = {
        "no choices": b'{"foo": "<EMAIL_1>"}',
        "empty choices": b'{"choices": []}',
        "no message": b'{"choices": [{"index": 0, "finish_reason": "stop"}]}',
    }
    streamed = {
        "json, not sse": b'{"foo": "<EMAIL_1>"}',
        "garbage": b"\x00\xffthis is not json <html> <EMAIL_1>",
        "no chunk": b"data: [DONE]\n\n",
        "chunk without choices": b'data: {"foo": "<EMAIL_1>"}\n\ndata: [DONE]\n\n',
    }

    def hostile(body: dict):
        kind = last_user_text(body).partition(":")[0]
        if body.get("stream"):
            return StreamingResponse(iter([streamed[kind]]), media_type="text/event-stream")
        return StreamingResponse(iter([plain[kind]]), media_type="application/json")

    upstream.raw = hostile
    with running_proxy(protector, upstream) as url:
        client = openai.OpenAI(base_url=f"{url}/v1", api_key=TOKEN, max_retries=0)
        for kind in [*plain, *streamed]:
            request = {"messages": [{"role": "user", "content": f"{kind}: write to {email}"}]}
            if kind in plain:
                response = post(url, request)
                with pytest.raises(openai.APIStatusError) as raised:  # was a TypeError inside the client
                    client.chat.completions.create(model="m", **request)
                assert raised.value.status_code == 502, kind
            else:
                with httpx.stream(
                    "POST", f"{url}/v1/chat/completions", json={**request, "stream": True}, headers=AUTH, timeout=120
                ) as response:
                    response.read()
            error = error_of(response, 502)
            assert error["type"] == "upstream_error", (kind, error)
            assert "foo" not in response.text and "html" not in response.text and email not in response.text, kind


def test_a_stream_the_upstream_cuts_off_ends_with_an_error_and_no_held_back_text(protector, upstream):
    """ux20 M5: the upstream sends a few chunks, the last ending in the start of a placeholder ("<"), and closes the
    body with no finish reason and no [DONE]. The client gets the text before it, then an error event, no [DONE] and
    no stray "<"; the OpenAI client raises. A stream that finished without [DONE] still ends as a normal one."""
    email_hint = "Mail an anna.berg@mailbox.org bitte"

    def hostile(body: dict):  # FAKE upstream
        pieces = [event(chunk({"role": "assistant", "content": "Schreib an "})), event(chunk({"content": "<"}))]
        if "finished" in last_user_text(body):
            pieces.append(event(chunk({"content": "EMAIL_1>."}, finish="stop")))
        return sse(pieces)

    upstream.raw = hostile
    request = {"messages": [{"role": "user", "content": email_hint}]}
    with running_proxy(protector, upstream) as url:
        error, events = stream_error(url, request, 502)
        assert error["type"] == "upstream_error" and "cut off before its end" in error["message"], error
        assert "".join(e["choices"][0]["delta"].get("content") or "" for e in events) == "Schreib an "
        client = openai.OpenAI(base_url=f"{url}/v1", api_key=TOKEN, max_retries=0)
        with pytest.raises(openai.APIError, match="cut off before its end"):
            for _ in client.chat.completions.create(model="m", stream=True, **request):
                pass
        finished = stream_events(url, {"messages": [{"role": "user", "content": f"finished: {email_hint}"}]})
        assert finished[-1] == "[DONE]"
        assert "".join(e["choices"][0]["delta"].get("content") or "" for e in finished[:-1]) == f"Schreib an {EMAIL}."


def test_json_nested_too_deep_is_a_400_in_the_body_and_in_tool_arguments(protector, upstream):
    def nested(depth: int) -> str:
        return "[" * depth + "]" * depth

    call = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": nested(1_000)}}
    bodies = {
        "body": json.dumps({**USER, "extra": json.loads(nested(300))}).encode(),
        "arguments as a string": json.dumps(
            {
                "messages": [
                    {"role": "assistant", "tool_calls": [call]},
                    {"role": "tool", "tool_call_id": "c1", "content": "ok"},
                ]
            }
        ).encode(),
        "arguments far past the parser": json.dumps(
            {
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [{**call, "function": {"name": "f", "arguments": nested(100_000)}}],
                    }
                ]
            }
        ).encode(),
        "arguments as an object": json.dumps(
            {
                "messages": [
                    {
                        "role": "assistant",
                        "tool_calls": [{**call, "function": {"name": "f", "arguments": json.loads(nested(200))}}],
                    }
                ]
            }
        ).encode(),
    }
    with running_proxy(protector, upstream) as url:
        for name, content in bodies.items():
            response = httpx.post(
                f"{url}/v1/chat/completions",
                content=content,
                headers={**AUTH, "Content-Type": "application/json"},
                timeout=60,
            )
            assert "nested deeper than" in error_of(response, 400)["message"], name
        assert upstream.received == []
        assert post(url, {**USER, "extra": json.loads(nested(20))}).status_code == 200  # reasonable nesting passes


# -- 9. operations --------------------------------------------------------------------------------
@BOTH_ROUTES
def test_an_upstream_429_passes_its_retry_after_on(protector, upstream, upstream_model):
    with running_proxy(protector, upstream, upstream_model=upstream_model) as url:
        for stream in (False, True):
            upstream.fail_next(429, headers={"Retry-After": "7"})
            response = post(url, {**USER, "stream": stream})
            assert response.status_code == 429 and response.headers.get("retry-after") == "7", (
                stream,
                response.headers,
            )
        upstream.fail_next(429, headers={"Retry-After": "7\r\nX-Evil: 1"})  # not a Retry-After value: dropped
        assert "retry-after" not in post(url, USER).headers


def test_a_slow_drip_cannot_run_past_the_total_timeout(protector, upstream):
    """Every chunk comes well within `timeout`, but the drip would go on for 20 s."""
    drip = 0.1

    def hostile(body: dict):
        if body.get("stream"):
            return sse([event(chunk({"content": "."})) for _ in range(200)], pause=drip)
        data = json.dumps(completion("." * 200)).encode()
        return sse([data[i : i + 1] for i in range(len(data))], pause=drip)

    upstream.raw = hostile
    with running_proxy(protector, upstream, timeout=1.0, total_timeout=1.5) as url:
        started = time.perf_counter()
        error, events = stream_error(url, USER, 504)
        streamed = time.perf_counter() - started
        assert error["type"] == "timeout" and len(events) > 3
        started = time.perf_counter()
        assert error_of(post(url, USER), 504)["type"] == "timeout"
        plain = time.perf_counter() - started
    assert streamed < 200 * drip / 4 and plain < 200 * drip / 4, (streamed, plain)


def test_memory_append_input_run_again_after_a_crash_appends_each_line_once(tmp_path, monkeypatch):
    """The real command on a real SQLite store; the embedder is a FAKE (hashed bag of words)."""
    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.memory import store as memory_store
    from stealthflow.testing.vectors import hash_vectors

    monkeypatch.setattr(memory_store, "minilm_embedder", lambda: hash_vectors)
    config = protect_config(tmp_path, monkeypatch)
    yaml = tmp_path / "c.yaml"
    yaml.write_text(f"protect:\n  vault_path: {config.vault_path}\n  key_source: env\n")
    common = ["--store", str(tmp_path / "m.sqlite"), "--config", str(yaml), "--no-tagger"]
    rows = tmp_path / "in.jsonl"
    texts = [f"memory {n}: write to ann{n}@mailbox.org" for n in range(5)]
    rows.write_text(
        "".join(json.dumps({"user": "ann", "text": t}) + "\n" for t in texts)
        + json.dumps({"user": "bo", "text": texts[0]})
        + "\n"
    )

    real_append, calls = memory_store.MemoryStore.append, []

    def crash_on_the_fourth(self, *args, **kwargs):  # the process dies while appending line 4
        calls.append(args)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real_append(self, *args, **kwargs)

    run = CliRunner().invoke
    monkeypatch.setattr(memory_store.MemoryStore, "append", crash_on_the_fourth)
    assert run(app, ["memory", "append", "-i", str(rows), *common]).exit_code != 0
    monkeypatch.setattr(memory_store.MemoryStore, "append", real_append)
    again = run(app, ["memory", "append", "-i", str(rows), *common])
    assert again.exit_code == 0 and "3 line(s)" in again.stderr and len(again.stdout.splitlines()) == 3, (
        again.stdout,
        again.stderr,
    )
    stored = memory_store.MemoryStore(tmp_path / "m.sqlite", make_protector(config), embed=hash_vectors)
    assert [m.text.split(":")[0] for m in stored.list("ann")] == [f"memory {n}" for n in range(5)] and len(
        stored.list("bo")
    ) == 1
    stored.close()
    third = run(app, ["memory", "append", "-i", str(rows), *common])
    assert third.exit_code == 0 and third.stdout == "" and "6 line(s)" in third.stderr
    rows.write_text(
        rows.read_text() + json.dumps({"user": "ann", "text": "memory 5"}) + "\n"
    )  # grown at its end: the new line alone
    assert run(app, ["memory", "append", "-i", str(rows), *common]).stdout.endswith("\tmemory 5\n")
    rows.write_text(
        rows.read_text().replace("memory 0:", "memory zero:")
    )  # changed before: each line from there on is new
    assert len(run(app, ["memory", "append", "-i", str(rows), *common]).stdout.splitlines()) == 7
