"""The upstream call: the configured model whatever the client names, a timeout, bounded retries.

An OpenAI API (`openai/NAME`, at api.openai.com or at `--upstream-base`) gets the request as it
came, model swapped, over one pooled aiohttp session (about 0.4 ms less per request than httpx,
measured side by side against the mock upstream), and its SSE `data:` lines are read as JSON:
litellm's stream wrapper costs about 1 ms per chunk (it builds pydantic models twice per chunk),
which held 64 concurrent streams to 6 % of the upstream's rate. A stream comes as batches: the
chunks of one network read, which the proxy sends on in one write (a fast upstream's tokens
would otherwise cost a write each). Every other provider goes through
litellm, which translates the request and hands back chunks in OpenAI's shape.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import os
import re
from collections.abc import AsyncIterator

import aiohttp
import orjson
from yarl import URL

from stealthflow.proxy.config import ProxyConfig
from stealthflow.proxy.errors import ProxyError

RETRYABLE = frozenset({408, 409, 429, 500, 502, 503, 504})
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


def _failed(status: int, message: str) -> ProxyError:
    # The upstream only ever saw protected text, so its message holds no raw value.
    return ProxyError(status if 400 <= status < 600 else 502, f"upstream error: {message[:300]}", "upstream_error")


class OpenAIUpstream:
    def __init__(self, config: ProxyConfig):
        self.config = config
        self.url = URL((config.upstream_base or "https://api.openai.com/v1").rstrip("/") + "/chat/completions")  # parsed once, not per request
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
                detail = await response.read()
            response.release()
            if response.status not in RETRYABLE or attempt == self.config.max_retries:
                raise _failed(response.status, _error_message(detail))
            await asyncio.sleep(min(0.5 * 2**attempt, 8.0))
        raise AssertionError("unreachable")

    async def complete(self, body: dict) -> dict:
        response = await self._send(body)
        try:
            with _upstream_errors(reading=True):
                return orjson.loads(await response.read())
        finally:
            response.release()

    async def stream(self, body: dict) -> AsyncIterator[list[dict]]:
        response = await self._send(body)
        try:
            with _upstream_errors(reading=True):
                pending = ""  # an incomplete last line, completed by the next read
                decoder = codecs.getincrementaldecoder("utf-8")("replace")  # a read may end inside a character
                async for received in response.content.iter_any():
                    *lines, pending = _LINE_BREAK.split(pending + decoder.decode(received))
                    batch = []
                    for line in lines:
                        if not line.startswith("data:"):
                            continue  # SSE comments, event names, keep-alives
                        data = line[5:].strip()
                        if data == "[DONE]":
                            if batch:
                                yield batch
                            return
                        chunk = orjson.loads(data)
                        if "error" in chunk:
                            raise _failed(502, _error_message(data.encode()))
                        batch.append(chunk)
                    if batch:
                        yield batch
        finally:
            response.release()

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()


_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # SSE's line ends (str.splitlines would also split at U+2028 inside JSON)


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
        kwargs.update(model=config.upstream, messages=body["messages"], timeout=config.timeout, num_retries=config.max_retries)
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
        if isinstance(exc, self._litellm.Timeout):
            return _timeout()
        if isinstance(exc, self._litellm.APIConnectionError):
            return _unreachable(exc)
        status = getattr(exc, "status_code", None)
        return _failed(status if isinstance(status, int) else 502, str(exc))

    async def complete(self, body: dict) -> dict:
        return (await self._call(body)).model_dump(exclude_none=True)

    async def stream(self, body: dict) -> AsyncIterator[list[dict]]:
        response = await self._call(body)
        try:
            async for chunk in response:
                yield [chunk.model_dump(exclude_none=True)]
        except Exception as exc:  # noqa: BLE001
            raise self._error(exc) from None
        finally:
            with contextlib.suppress(Exception):
                await response.aclose()

    async def close(self) -> None:
        pass
