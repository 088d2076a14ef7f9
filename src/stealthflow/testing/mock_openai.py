"""A mock OpenAI-compatible server on a free loopback port, for tests and benchmarks.

It speaks enough of the API for real clients (the `openai` package, litellm, LangChain, mem0):
`GET /v1/models`, `POST /v1/chat/completions`, plain and streamed (SSE), with tool calls and
`usage`, and `POST /v1/embeddings` (deterministic hashed bag-of-words vectors). It records every
chat request body it receives (`received`) and every embedding request (`embedded`), so a test
can check what left the device, and it can be told to fail (`fail_next`) or to take its time
(`delay`: seconds, or a function drawing them per request such as `lognormal_delay()`).
`GET /mock/stats` reports its counters, for when it runs in another process
(`testing.mock_process`).

Like a real provider it can be limited to `max_concurrent` requests at once (one more gets a 429
with `Retry-After`, or waits its turn with `queue_when_busy`) and can throw random 429s
(`random_429`, seeded). `request_seconds` / wall-clock time is the mean number of requests it
served at once; `peak_in_flight` the most; `spans` the (start, end) wall-clock times (`time.time()`)
of every request served, for a timeline of what was in flight when (`in_flight_over`).

What it answers is up to `respond(body) -> Reply`; the default echoes the last user message,
which sends placeholders straight back for a restore layer to handle. Streamed replies are cut
into pieces of `chunk_chars` characters so that placeholders get split across chunks. A hostile
upstream is `raw(body) -> Response`: any Starlette response, sent as it is (a body too large, a
stream that drips forever, chunks that are not OpenAI's), after the request is recorded.

    with MockOpenAI() as upstream:
        client = openai.OpenAI(base_url=upstream.base_url, api_key="unused")
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from stealthflow.testing.loopback import serve
from stealthflow.testing.vectors import hash_vectors


@dataclass
class ToolCall:
    name: str
    arguments: str  # a JSON string, as OpenAI sends it


@dataclass
class Reply:
    content: str | None = None
    tool_calls: list[ToolCall] = field(default_factory=list)


def last_user_text(body: dict) -> str:
    """The text of the last user (or tool) message, list-of-parts content joined."""
    for message in reversed(body.get("messages", [])):
        if message.get("role") in ("user", "tool"):
            content = message.get("content") or ""
            if isinstance(content, list):
                return "".join(part.get("text", "") for part in content if isinstance(part, dict))
            return content
    return ""


def echo(body: dict) -> Reply:
    """Echo the last user message; with `tools` offered, call the first one with {"text": ...}."""
    text = last_user_text(body)
    tools = body.get("tools") or []
    last_role = (body.get("messages") or [{}])[-1].get("role")
    if tools and last_role == "user":
        name = tools[0].get("function", {}).get("name", "tool")
        return Reply(tool_calls=[ToolCall(name, json.dumps({"text": text}))])
    return Reply(content=text)


def lognormal_delay(median: float = 1.0, p99: float = 6.0, seed: int = 0) -> Callable[[], float]:
    """Seconds per request from a seeded lognormal: heavy-tailed like API latency (mean ≈ 1.35 × median for p99 = 6 × median)."""
    rng = random.Random(seed)
    sigma = math.log(p99 / median) / 2.3263  # the 99th percentile of a standard normal
    return lambda: rng.lognormvariate(math.log(median), sigma)


def in_flight_over(spans: list[tuple[float, float]], start: float, end: float) -> float:
    """Mean number of requests in flight between `start` and `end` (the spans' time clipped to it ÷ its length)."""
    served = sum(max(0.0, min(e, end) - max(s, start)) for s, e in spans)
    return served / (end - start) if end > start else 0.0


def _tokens(text: str) -> int:
    return max(1, len(text) // 4)


async def _json_body(request: Request) -> dict | None:
    """The request's JSON object; None if the body is not one (answered with `_malformed`)."""
    try:
        body = json.loads(await request.body())
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _malformed() -> JSONResponse:
    return JSONResponse({"error": {"message": "malformed JSON", "type": "invalid_request_error"}}, status_code=400)


class MockOpenAI:
    """The server; start with `with MockOpenAI(...) as upstream:` or `start()`/`stop()`."""

    def __init__(
        self,
        respond: Callable[[dict], Reply] = echo,
        chunk_chars: int = 3,
        delay: float | Callable[[], float] = 0.0,
        model_ids: tuple[str, ...] = ("mock-model",),
        embedding_dims: int = 64,
        max_concurrent: int | None = None,
        queue_when_busy: bool = False,
        random_429: float = 0.0,
        retry_after: str = "0.2",
        seed: int = 0,
        raw: Callable[[dict], Response] | None = None,
    ):
        self.respond = respond
        self.raw = raw  # a hostile upstream: this response instead of one made from `respond`
        self.chunk_chars = chunk_chars
        self.delay = delay
        self.max_concurrent = max_concurrent  # None: no limit
        self.queue_when_busy = queue_when_busy  # over the limit: wait for a slot instead of a 429
        self.random_429 = random_429  # share of chat requests answered 429 at random
        self.retry_after = retry_after  # the Retry-After of every 429 it decides on itself
        self._rng = random.Random(seed)
        self._slots: asyncio.Semaphore | None = None  # made on the server's loop
        self.in_flight = 0
        self.peak_in_flight = 0
        self.request_seconds = 0.0  # summed over chat requests, from admission to the reply being ready
        self.spans: list[tuple[float, float]] = []  # (start, end) of each of them, time.time()
        self.model_ids = model_ids
        self.embedding_dims = embedding_dims  # unless the request asks for `dimensions`
        self.received: list[dict] = []
        self.embedded: list[dict] = []
        self._failures: list[tuple[int, dict]] = []
        self._lock = threading.Lock()
        self._serving: contextlib.ExitStack | None = None  # the running server (`testing.loopback.serve`)
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def fail_next(self, status: int, times: int = 1, headers: dict | None = None) -> None:
        """The next `times` chat requests get `status` with an OpenAI-style error body."""
        with self._lock:
            self._failures.extend([(status, headers or {})] * times)

    def stats(self) -> dict:
        """Chat requests received (429s included), their summed serving time and the peak in flight."""
        with self._lock:
            return {
                "requests": len(self.received),
                "request_seconds": self.request_seconds,
                "peak_in_flight": self.peak_in_flight,
                "spans": list(self.spans),
            }

    # -- the app ---------------------------------------------------------------------------
    async def _stats(self, request: Request) -> JSONResponse:
        return JSONResponse(self.stats())

    async def _models(self, request: Request) -> JSONResponse:
        return JSONResponse(
            {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "mock"} for m in self.model_ids]}
        )

    async def _chat(self, request: Request):
        if (body := await _json_body(request)) is None:
            return _malformed()
        with self._lock:
            self.received.append(body)
            failure = self._failures.pop(0) if self._failures else None
            busy = (
                self.max_concurrent is not None and not self.queue_when_busy and self.in_flight >= self.max_concurrent
            )
            if failure is None and (busy or (self.random_429 and self._rng.random() < self.random_429)):
                failure = (429, {"Retry-After": self.retry_after})
        if failure:
            status, headers = failure
            return JSONResponse(
                {"error": {"message": f"mock failure {status}", "type": "mock_error", "code": status}},
                status_code=status,
                headers=headers,
            )
        if self.raw is not None:
            return self.raw(body)
        if self.max_concurrent is not None and self.queue_when_busy:
            self._slots = self._slots or asyncio.Semaphore(self.max_concurrent)
            async with self._slots:
                reply = await self._serve(body)
        else:
            reply = await self._serve(body)
        model = body.get("model", self.model_ids[0])
        prompt_tokens = sum(_tokens(json.dumps(m.get("content") or "")) for m in body.get("messages", []))
        completion_tokens = _tokens(reply.content or "") + sum(_tokens(c.arguments) for c in reply.tool_calls)
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        ident = f"chatcmpl-{uuid.uuid4().hex[:12]}"
        if body.get("stream"):
            return StreamingResponse(self._stream(reply, model, ident, usage, body), media_type="text/event-stream")
        message: dict = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": f"call_{i}", "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for i, c in enumerate(reply.tool_calls)
            ]
        finish = "tool_calls" if reply.tool_calls else "stop"
        return JSONResponse(
            {
                "id": ident,
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage,
            }
        )

    async def _embeddings(self, request: Request) -> JSONResponse:
        if (body := await _json_body(request)) is None:
            return _malformed()
        with self._lock:
            self.embedded.append(body)
        texts = [body["input"]] if isinstance(body.get("input"), str) else list(body.get("input") or [])
        vectors = hash_vectors(texts, int(body.get("dimensions") or self.embedding_dims))
        tokens = sum(_tokens(t) for t in texts)
        return JSONResponse(
            {
                "object": "list",
                "data": [{"object": "embedding", "index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)],
                "model": body.get("model", self.model_ids[0]),
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            }
        )

    async def _serve(self, body: dict) -> Reply:
        """Take the delay and answer, counted as one request in flight."""
        with self._lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            delay = self.delay() if callable(self.delay) else self.delay
        started, wall = time.monotonic(), time.time()
        try:
            if delay:
                await asyncio.sleep(delay)
            return self.respond(body)
        finally:
            with self._lock:
                self.in_flight -= 1
                self.request_seconds += time.monotonic() - started
                self.spans.append((wall, wall + time.monotonic() - started))

    async def _stream(self, reply: Reply, model: str, ident: str, usage: dict, body: dict):
        def event(delta: dict, finish: str | None = None) -> str:
            chunk = {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            return f"data: {json.dumps(chunk)}\n\n"

        yield event({"role": "assistant", "content": ""})
        step = self.chunk_chars
        text = reply.content or ""
        for start in range(0, len(text), step):
            yield event({"content": text[start : start + step]})
        for i, call in enumerate(reply.tool_calls):
            yield event(
                {
                    "tool_calls": [
                        {
                            "index": i,
                            "id": f"call_{i}",
                            "type": "function",
                            "function": {"name": call.name, "arguments": ""},
                        }
                    ]
                }
            )
            for start in range(0, len(call.arguments), step):
                yield event(
                    {"tool_calls": [{"index": i, "function": {"arguments": call.arguments[start : start + step]}}]}
                )
        yield event({}, "tool_calls" if reply.tool_calls else "stop")
        if (body.get("stream_options") or {}).get("include_usage"):
            yield f"data: {json.dumps({'id': ident, 'object': 'chat.completion.chunk', 'model': model, 'choices': [], 'usage': usage})}\n\n"
        yield "data: [DONE]\n\n"

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> MockOpenAI:
        app = Starlette(
            routes=[
                Route("/v1/models", self._models, methods=["GET"]),
                Route("/v1/chat/completions", self._chat, methods=["POST"]),
                Route("/chat/completions", self._chat, methods=["POST"]),
                Route("/v1/embeddings", self._embeddings, methods=["POST"]),
                Route("/mock/stats", self._stats, methods=["GET"]),
            ]
        )
        self._serving = contextlib.ExitStack()
        self.port = self._serving.enter_context(serve(app))
        return self

    def stop(self) -> None:
        if self._serving is not None:
            self._serving.close()
            self._serving = None

    def __enter__(self) -> MockOpenAI:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
