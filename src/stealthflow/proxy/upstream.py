"""The upstream call: the configured model whatever the client names, a timeout, bounded retries.

An OpenAI API (`openai/NAME`, at api.openai.com or at `--upstream-base`) gets the request as it
came, model swapped, over one pooled aiohttp session (about 0.4 ms less per request than httpx,
measured side by side against the mock upstream), and its SSE `data:` lines are read as JSON:
litellm's stream wrapper costs about 1 ms per chunk (it builds pydantic models twice per chunk),
which held 64 concurrent streams to 6 % of the upstream's rate. A stream comes as batches: the
chunks of one network read, which the proxy sends on in one write (a fast upstream's tokens
would otherwise cost a write each); the batch read with `[DONE]` is a `FinalBatch`, sent with
the end of the reply. Every other provider goes through
litellm, which translates the request and hands back chunks in OpenAI's shape.

An upstream is not trusted to be well-behaved: a reply above `max_reply_bytes` is an error (a
plain one is refused from its Content-Length or as it passes the limit), a whole call may take
`total_timeout` (a stream that drips on past it ends with a timeout error), a chunk that is not a
JSON object in OpenAI's shape is an error, and a delta text longer than `PIECE_CHARS` is passed on
in pieces of that length, with the event loop free between them: restoring a 10 MB line in one go
would hold up every other client.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import os
import re
from collections.abc import AsyncIterator, Iterator

import aiohttp
import orjson
from yarl import URL

from stealthflow.proxy.config import ProxyConfig
from stealthflow.proxy.errors import ProxyError

RETRYABLE = frozenset({408, 409, 429, 500, 502, 503, 504})
PIECE_CHARS = 4_096  # a longer delta text goes on in pieces: each is restored on the event loop in a few ms
ERROR_BODY_BYTES = 65_536  # what is read of an upstream's error reply (its message is cut to 300 characters)
_RETRY_AFTER = re.compile(r"[\w ,:.+-]{1,64}")  # seconds or an HTTP date: passed on to the client
# Chat Completions fields litellm takes as arguments (and translates for each provider). Any other
# field goes in `extra_body`, verbatim: a request can never set litellm's own arguments
# (`api_base`, `api_key`, ...) and send the upstream key elsewhere.
OPENAI_FIELDS = frozenset(
    "audio frequency_penalty function_call functions logit_bias logprobs max_completion_tokens max_tokens modalities n "
    "parallel_tool_calls prediction presence_penalty prompt_cache_key reasoning_effort response_format safety_identifier "
    "seed service_tier stop store stream stream_options temperature tool_choice tools top_logprobs top_p user verbosity "
    "web_search_options".split()
)


def build_upstream(config: ProxyConfig) -> OpenAIUpstream | LiteLLMUpstream:
    return OpenAIUpstream(config) if config.upstream.partition("/")[0] == "openai" else LiteLLMUpstream(config)


def _timeout() -> ProxyError:
    return ProxyError(504, "the upstream model did not answer in time", "timeout")


def _unreachable(exc: Exception) -> ProxyError:
    return ProxyError(502, f"the upstream model could not be reached ({type(exc).__name__})", "upstream_error")


@contextlib.contextmanager
def _upstream_errors(reading: bool = False):
    """An upstream that cannot be reached, times out, stops or (`reading`) answers with what is
    not JSON: the upstream's fault, said once, in OpenAI's shape."""
    unreadable = (aiohttp.ClientError, ValueError) if reading else aiohttp.ClientError
    try:
        yield
    except TimeoutError:  # aiohttp's connect and read timeouts are TimeoutErrors (and ClientErrors)
        raise _timeout() from None
    except unreadable as exc:
        raise _unreachable(exc) from None


def _failed(status: int, message: str, retry_after: str | None = None) -> ProxyError:
    # The upstream only ever saw protected text, so its message holds no raw value.
    headers = {"Retry-After": retry_after} if retry_after and _RETRY_AFTER.fullmatch(retry_after) else None
    return ProxyError(
        status if 400 <= status < 600 else 502, f"upstream error: {message[:300]}", "upstream_error", headers=headers
    )


def _too_big(limit: int) -> ProxyError:
    return ProxyError(502, f"the upstream reply is larger than {limit} bytes (proxy.max_reply_bytes)", "upstream_error")


def _malformed(what: str) -> ProxyError:
    return ProxyError(
        502, f"the upstream sent {what} that is not a JSON object in the OpenAI chat shape", "upstream_error"
    )


def checked(reply: object, part: str) -> dict:
    """`reply` (a completion, `part` "message", or a stream chunk, `part` "delta") if its choices,
    their `part` and tool calls are objects where the restore reads them; else a 502."""
    choices = (reply.get("choices") or []) if isinstance(reply, dict) else None
    if not isinstance(choices, list):
        raise _malformed(_shape(part))
    for choice in choices:  # per stream chunk: plain checks, no generator unless there are tool calls
        inner = choice.get(part) if isinstance(choice, dict) else False
        if inner is None:
            inner = choice[part] = {}
        elif not isinstance(inner, dict):
            raise _malformed(_shape(part))
        calls = inner.get("tool_calls")
        if calls and not (
            isinstance(calls, list)
            and all(isinstance(c, dict) and isinstance(c.get("function") or {}, dict) for c in calls)
        ):
            raise _malformed(_shape(part))
    return reply


def _shape(part: str) -> str:
    return "a stream chunk" if part == "delta" else "a reply"


def answering(reply: object) -> object:
    """`reply` (a completion) if it holds an answer: `choices`, a non-empty list of objects, each with a `message`
    object; else a 502. A 200 without them crashed the OpenAI client behind the proxy (a TypeError)."""
    choices = reply.get("choices") if isinstance(reply, dict) else None
    if (
        not choices
        or not isinstance(choices, list)
        or not all(isinstance(c, dict) and isinstance(c.get("message"), dict) for c in choices)
    ):
        raise _malformed("a reply")
    return reply


def no_chunks() -> ProxyError:
    """A stream that ended before its first chunk: an empty body, or one that is not an SSE stream, is no answer."""
    return ProxyError(
        502, "the upstream's stream ended before any chunk (not an SSE stream of chunks)", "upstream_error"
    )


def cut_off() -> ProxyError:
    """A stream whose body ended with neither `[DONE]` nor a finish reason: its answer is cut short (ux20 M5)."""
    return ProxyError(
        502, "the upstream's stream was cut off before its end (no finish reason, no [DONE])", "upstream_error"
    )


def ended(chunk: dict) -> bool:
    """Whether a stream's last chunk ends an answer: a choice finished, or a usage chunk (no choices) came after."""
    choices = chunk.get("choices") or []
    return not choices or any(isinstance(c, dict) and c.get("finish_reason") for c in choices)


def reply_texts(reply: dict, part: str) -> Iterator[tuple[dict, str]]:
    """(holder, key) of each text of a checked reply the restore reads: content, reasoning, tool-call arguments."""
    for choice in reply.get("choices") or []:
        inner = choice.get(part) or {}
        for key in ("content", "reasoning_content"):
            if isinstance(inner.get(key), str):
                yield inner, key
        for call in inner.get("tool_calls") or []:
            function = call.get("function") or {}
            if isinstance(function.get("arguments"), str):
                yield function, "arguments"


def reply_chars(reply: dict, part: str) -> int:
    return sum(len(holder[key]) for holder, key in reply_texts(reply, part))


def in_pieces(chunk: dict, size: int = PIECE_CHARS) -> list[dict]:
    """A checked stream chunk whose delta texts run longer than `size` characters, as chunks
    holding `size` characters of each (clients join deltas): the first carries the other
    fields (role, tool-call ids and names), the last the finish reason and usage."""
    longest = max((len(holder[key]) for holder, key in reply_texts(chunk, "delta")), default=0)
    if longest <= size:
        return [chunk]
    return [
        _piece(chunk, start, size, first=start == 0, last=start + size >= longest) for start in range(0, longest, size)
    ]


def _piece(chunk: dict, start: int, size: int, first: bool, last: bool) -> dict:
    choices = []
    for choice in chunk["choices"]:
        delta = choice.get("delta") or {}
        piece = dict(delta) if first else {}
        for key in ("content", "reasoning_content"):
            if isinstance(delta.get(key), str):
                piece[key] = delta[key][start : start + size]
        if delta.get("tool_calls"):
            piece["tool_calls"] = []
            for call in delta["tool_calls"]:
                function = call.get("function") or {}
                part = (
                    {**call, "function": dict(function)} if first else {"index": call.get("index", 0), "function": {}}
                )
                if isinstance(function.get("arguments"), str):
                    part["function"]["arguments"] = function["arguments"][start : start + size]
                piece["tool_calls"].append(part)
        kept = dict(choice) if first else {"index": choice.get("index", 0)}
        choices.append({**kept, "delta": piece, "finish_reason": choice.get("finish_reason") if last else None})
    head = {
        k: v
        for k, v in chunk.items()
        if k in ("id", "object", "created", "model") or (k == "usage" and last) or (k != "usage" and first)
    }
    return {**head, "choices": choices}


class FinalBatch(list):
    """The last chunks of a stream, read with the upstream's `[DONE]`: nothing follows them."""


class _SSELines:
    """Lines of an SSE body read in pieces. Each piece is scanned once, so a 10 MB line costs
    its length (not its length times the reads it took); a read may end inside a character
    or between the CR and LF of a line end."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._pending: list[str] = []  # the start of a line that has not ended yet
        self._after_cr = False

    def feed(self, received: bytes) -> list[str]:
        text = self._decoder.decode(received)
        if not text:
            return []
        if self._after_cr and text[0] == "\n":
            text = text[1:]
        self._after_cr = text.endswith("\r")
        *lines, rest = _LINE_BREAK.split(text)
        if lines:
            lines[0] = "".join([*self._pending, lines[0]])
            self._pending = []
        if rest:
            self._pending.append(rest)
        return lines


class OpenAIUpstream:
    def __init__(self, config: ProxyConfig):
        self.config = config
        self.url = URL(
            (config.upstream_base or "https://api.openai.com/v1").rstrip("/") + "/chat/completions"
        )  # parsed once, not per request
        self.model = config.upstream.partition("/")[2]
        key = os.environ.get(config.upstream_key_env)
        self.headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        self._client: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        if self._client is None:  # made on the server's event loop
            # Like httpx's timeout: for connecting and for each read (a stream: until its next chunk).
            timeout = aiohttp.ClientTimeout(total=None, connect=self.config.timeout, sock_read=self.config.timeout)
            self._client = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=512), timeout=timeout)
        return self._client

    async def _send(self, body: dict) -> aiohttp.ClientResponse:
        payload = orjson.dumps({**body, "model": self.model})
        for attempt in range(self.config.max_retries + 1):
            with _upstream_errors():
                response = await self._http().post(self.url, data=payload, headers=self.headers)
            if response.status < 400:
                return response
            with _upstream_errors(reading=True):
                detail = await _read(response, ERROR_BODY_BYTES, cut=True)
            response.release()
            if response.status not in RETRYABLE or attempt == self.config.max_retries:
                raise _failed(response.status, _error_message(detail), response.headers.get("Retry-After"))
            await asyncio.sleep(min(0.5 * 2**attempt, 8.0))
        raise AssertionError("unreachable")

    async def complete(self, body: dict) -> dict:
        try:
            async with asyncio.timeout(self.config.total_timeout):
                response = await self._send(body)
                try:
                    with _upstream_errors(reading=True):
                        reply = _json(await _read(response, self.config.max_reply_bytes), "a reply")
                        return checked(answering(reply), "message")
                finally:
                    response.release()
        except TimeoutError:
            raise _timeout() from None

    async def stream(self, body: dict) -> AsyncIterator[list[dict]]:
        deadline = asyncio.get_running_loop().time() + self.config.total_timeout
        try:
            async with asyncio.timeout_at(deadline):
                response = await self._send(body)
        except TimeoutError:
            raise _timeout() from None
        try:
            with _upstream_errors(reading=True):
                lines, size, last = _SSELines(), 0, None
                while True:
                    async with asyncio.timeout_at(deadline):  # around each read, never across a yield
                        received = await response.content.readany()
                    if not received:
                        if last is not None and not ended(last):
                            raise cut_off()
                        return
                    size += len(received)
                    if size > self.config.max_reply_bytes:
                        raise _too_big(self.config.max_reply_bytes)
                    batch = []
                    for line in lines.feed(received):
                        if not line.startswith("data:"):
                            continue  # SSE comments, event names, keep-alives
                        data = line[5:].strip()
                        if data == "[DONE]":
                            if batch:
                                yield FinalBatch(batch)
                            return
                        chunk = last = _chunk(data)
                        if len(data) <= PIECE_CHARS:
                            batch.append(chunk)
                            continue
                        if batch:
                            yield batch
                            batch = []
                        for piece in in_pieces(chunk):
                            yield [piece]
                            await asyncio.sleep(0)  # other clients' work between two pieces
                    if batch:
                        yield batch
        finally:
            response.release()

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()


_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # SSE's line ends (str.splitlines would also split at U+2028 inside JSON)


async def _read(response: aiohttp.ClientResponse, limit: int, cut: bool = False) -> bytes:
    """The body, at most `limit` bytes: past it a 502 (`cut`: what was read so far)."""
    if not cut and (response.content_length or 0) > limit:
        raise _too_big(limit)
    parts, size = [], 0
    while received := await response.content.readany():
        parts.append(received)
        size += len(received)
        if size > limit:
            if cut:
                break
            raise _too_big(limit)
    return b"".join(parts)[:limit]


def _json(data: bytes | str, what: str) -> object:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        raise _malformed(what) from None


def _chunk(data: str) -> dict:
    chunk = _json(data, "a stream chunk")
    if isinstance(chunk, dict) and "error" in chunk:
        raise _failed(502, _error_message(data.encode()))
    if isinstance(chunk, dict) and not isinstance(chunk.get("choices"), list):  # `[]` is a usage chunk's
        raise _malformed("a stream chunk")
    return checked(chunk, "delta")


def _error_message(detail: bytes) -> str:
    with contextlib.suppress(ValueError, AttributeError, TypeError):
        return str(json.loads(detail)["error"]["message"])
    return detail.decode("utf-8", "replace")


class LiteLLMUpstream:
    def __init__(self, config: ProxyConfig):
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no download at import
        import litellm

        litellm.suppress_debug_info = True
        self.config = config
        self._litellm = litellm

    def arguments(self, body: dict) -> dict:
        config = self.config
        kwargs = {k: v for k, v in body.items() if k in OPENAI_FIELDS}
        kwargs.update(
            model=config.upstream, messages=body["messages"], timeout=config.timeout, num_retries=config.max_retries
        )
        kwargs["api_key"] = os.environ.get(config.upstream_key_env) or ("not-needed" if config.upstream_base else None)
        if config.upstream_base:
            kwargs["api_base"] = config.upstream_base
        if extra := {k: v for k, v in body.items() if k not in OPENAI_FIELDS and k not in ("model", "messages")}:
            kwargs["extra_body"] = extra
        # litellm otherwise imports its proxy's MCP bridge (an extra package) for any call with tools.
        kwargs["_skip_mcp_handler"] = True
        return kwargs

    async def _call(self, body: dict):
        try:
            return await self._litellm.acompletion(**self.arguments(body))
        except Exception as exc:  # noqa: BLE001  (litellm maps every provider's failure to its own types)
            raise self._error(exc) from None

    def _error(self, exc: Exception) -> ProxyError:
        if isinstance(exc, ProxyError):
            return exc
        if isinstance(exc, self._litellm.Timeout | TimeoutError):
            return _timeout()
        if isinstance(exc, self._litellm.APIConnectionError):
            return _unreachable(exc)
        status = getattr(exc, "status_code", None)
        return _failed(status if isinstance(status, int) else 502, str(exc), _retry_after(exc))

    async def complete(self, body: dict) -> dict:
        """The cap is checked on the reply's texts once litellm has read it (litellm reads the body itself)."""
        try:
            async with asyncio.timeout(self.config.total_timeout):
                reply = (await self._call(body)).model_dump(exclude_none=True)
        except TimeoutError:
            raise _timeout() from None
        if reply_chars(checked(answering(reply), "message"), "message") > self.config.max_reply_bytes:
            raise _too_big(self.config.max_reply_bytes)
        return reply

    async def stream(self, body: dict) -> AsyncIterator[list[dict]]:
        deadline = asyncio.get_running_loop().time() + self.config.total_timeout
        try:
            async with asyncio.timeout_at(deadline):
                response = await self._call(body)
        except TimeoutError:
            raise _timeout() from None
        size = 0
        try:
            while True:
                async with asyncio.timeout_at(deadline):  # around each read, never across a yield
                    chunk = checked((await anext(response)).model_dump(exclude_none=True), "delta")
                size += reply_chars(chunk, "delta")
                if size > self.config.max_reply_bytes:
                    raise _too_big(self.config.max_reply_bytes)
                for piece in in_pieces(chunk):
                    yield [piece]
        except StopAsyncIteration:
            return
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        finally:
            with contextlib.suppress(Exception):
                await response.aclose()

    async def close(self) -> None:
        pass


def _retry_after(exc: Exception) -> str | None:
    """The Retry-After of the upstream's answer behind a litellm error, when it had one."""
    headers = (
        getattr(getattr(exc, "response", None), "headers", None) or getattr(exc, "litellm_response_headers", None) or {}
    )
    with contextlib.suppress(AttributeError, TypeError):
        return headers.get("retry-after") or headers.get("Retry-After")
    return None
