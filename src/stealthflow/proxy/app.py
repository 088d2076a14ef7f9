"""`stealthflow proxy`: an OpenAI-compatible server that protects every request and restores every reply.

GET  /v1/models             -> the one upstream model
POST /v1/chat/completions   -> plain or streamed (SSE); tools, tool calls and every other field passed on

Each request's texts are protected in the caller's session, the request goes upstream through
litellm (any provider it knows), and the reply comes back restored. The session is the caller's
token digest plus its optional `X-Stealthflow-Session` label, so one token never restores another
token's values; the vault gives a value the same placeholder in every turn. Callers need the
proxy's bearer token, a loopback Host and a bounded body (`service.security`). Logs hold request
metadata only (status, timings, counts), never text.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator

import anyio
from fastapi import FastAPI, Request
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import JSONResponse, Response, StreamingResponse

from stealthflow.pipeline.protector import Protector
from stealthflow.proxy.config import ProxyConfig
from stealthflow.proxy.messages import RequestError, RequestTexts
from stealthflow.proxy.replies import ReplyRestorer
from stealthflow.service.security import LocalCallersOnly, bearer_token

TOKEN_ENV = "STEALTHFLOW_PROXY_TOKEN"
TOKEN_FILE = "proxy.token"
SESSION_HEADER = "x-stealthflow-session"
# Chat Completions fields litellm takes as arguments (and translates for each provider). Any other
# field goes in `extra_body`, verbatim: a request can never set litellm's own arguments
# (`api_base`, `api_key`, ...) and send the upstream key elsewhere.
OPENAI_FIELDS = frozenset(
    "frequency_penalty function_call functions logit_bias logprobs max_completion_tokens max_tokens modalities n "
    "parallel_tool_calls prediction presence_penalty prompt_cache_key reasoning_effort response_format safety_identifier "
    "seed service_tier stop store stream stream_options temperature tool_choice tools top_logprobs top_p user verbosity "
    "web_search_options audio".split()
)
log = logging.getLogger("stealthflow.proxy")


class ProxyError(Exception):
    """Answered as an OpenAI-style error: status + {"error": {message, type, param, code}}."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error", param: str | None = None):
        super().__init__(message)
        self.status, self.kind, self.param = status, kind, param

    def body(self) -> dict:
        return {"error": {"message": str(self), "type": self.kind, "param": self.param, "code": self.status}}

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status)


def session_for(token: str, label: str) -> str:
    """The vault session of a caller: a digest of its token, plus its own label if it sends one."""
    if len(label) > 200 or not label.isprintable():
        raise ProxyError(400, f"the {SESSION_HEADER} header must be printable and at most 200 characters", param=SESSION_HEADER)
    digest = hashlib.sha256(token.encode()).hexdigest()[:32]
    return f"proxy-{digest}" + (f"/{label}" if label else "")


def upstream_error(exc: Exception) -> ProxyError:
    """An upstream failure with its status passed on (504 for a timeout, 502 when unreachable)."""
    import litellm

    if isinstance(exc, litellm.Timeout):
        return ProxyError(504, "the upstream model did not answer in time", "timeout")
    if isinstance(exc, litellm.APIConnectionError):
        return ProxyError(502, f"the upstream model could not be reached ({type(exc).__name__})", "upstream_error")
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) and 400 <= status < 600 else 502
    # The upstream only ever saw protected text, so its message holds no raw value.
    return ProxyError(status, f"upstream error: {str(exc)[:300]}", "upstream_error")


class Upstream:
    """The litellm call: the configured model whatever the client names, bounded retries and timeout."""

    def __init__(self, config: ProxyConfig):
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no download at import
        import litellm

        litellm.suppress_debug_info = True
        self.config = config
        self._acompletion = litellm.acompletion

    def arguments(self, body: dict) -> dict:
        config = self.config
        extra = {k: v for k, v in body.items() if k not in OPENAI_FIELDS and k not in ("model", "messages")}
        kwargs = {k: v for k, v in body.items() if k in OPENAI_FIELDS}
        kwargs.update(model=config.upstream, messages=body["messages"], timeout=config.timeout, num_retries=config.max_retries)
        kwargs["api_key"] = os.environ.get(config.upstream_key_env) or ("not-needed" if config.upstream_base else None)
        if config.upstream_base:
            kwargs["api_base"] = config.upstream_base
        if extra:
            kwargs["extra_body"] = extra
        # litellm otherwise imports its proxy's MCP bridge (an extra package) for any call with tools.
        kwargs["_skip_mcp_handler"] = True
        return kwargs

    async def call(self, body: dict):
        try:
            return await self._acompletion(**self.arguments(body))
        except Exception as exc:
            raise upstream_error(exc) from None


def create_proxy_app(protector: Protector, config: ProxyConfig, token: str) -> FastAPI:
    upstream = Upstream(config)
    app = FastAPI(title="stealthflow proxy", description="An OpenAI-compatible proxy that protects requests and restores replies.", docs_url=None, redoc_url=None)
    app.add_middleware(LocalCallersOnly, token=token, max_body_bytes=config.max_body_bytes, allowed_hosts=config.allowed_hosts)
    if config.cors_origins:  # outermost, so a browser's preflight (which carries no token) is answered
        app.add_middleware(CORSMiddleware, allow_origins=config.cors_origins, allow_methods=["GET", "POST"], allow_headers=["authorization", "content-type", SESSION_HEADER])

    @app.get("/health")
    async def health() -> dict:
        return {"status": "ok"}

    @app.get("/v1/models")
    async def models() -> dict:
        return {"object": "list", "data": [{"id": config.upstream, "object": "model", "created": 0, "owned_by": "stealthflow-proxy"}]}

    @app.post("/v1/chat/completions")
    @app.post("/chat/completions")
    async def chat(request: Request) -> Response:
        started = time.perf_counter()
        stats = {"stream": False, "messages": 0, "masked": 0}
        try:
            return await _chat(request, stats)
        except ProxyError as exc:
            _log(exc.status, started, stats)
            return exc.response()
        except Exception as exc:  # never a traceback with request data in it
            log.error("chat failed: %s", type(exc).__name__)
            return ProxyError(500, f"the proxy failed ({type(exc).__name__})", "server_error").response()

    async def _chat(request: Request, stats: dict) -> Response:
        started = time.perf_counter()
        try:
            body = json.loads(await request.body())
        except ValueError:
            raise ProxyError(400, "the request body is not valid JSON") from None
        if not isinstance(body, dict):
            raise ProxyError(400, "the request body must be a JSON object")
        session = session_for(bearer_token(request.headers), request.headers.get(SESSION_HEADER, ""))
        try:
            texts = RequestTexts(body, config.pass_media)
        except RequestError as exc:
            raise ProxyError(400, str(exc), param=exc.param) from None
        # Detection is CPU work: off the event loop, so streams in flight keep flowing.
        protected = await anyio.to_thread.run_sync(protector.protect_many, texts.texts, session)
        texts.put([p.text for p in protected])
        stats.update(stream=bool(body.get("stream")), messages=len(body["messages"]), masked=sum(len(p.spans) for p in protected))
        restorer = ReplyRestorer(protector.resolver(session))
        headers = {"x-stealthflow-masked": str(stats["masked"])}
        if stats["stream"]:
            return await _stream(body, restorer, headers, started, stats)
        reply = restorer.whole((await upstream.call(body)).model_dump(exclude_none=True))
        headers.update({"x-stealthflow-restored": str(restorer.restored), "x-stealthflow-unresolved": str(restorer.unresolved)})
        _log(200, started, stats, restorer)
        return JSONResponse(reply, headers=headers)

    async def _stream(body: dict, restorer: ReplyRestorer, headers: dict, started: float, stats: dict) -> Response:
        stream = await upstream.call(body)
        try:  # the first chunk before answering: an upstream that fails at once gets its own status
            first = await anext(stream)
        except StopAsyncIteration:
            first = None
        except Exception as exc:
            raise upstream_error(exc) from None
        return StreamingResponse(_events(stream, first, restorer, started, stats), media_type="text/event-stream", headers=headers)

    async def _events(stream, first, restorer: ReplyRestorer, started: float, stats: dict) -> AsyncIterator[str]:
        status, last = 200, {}
        try:
            async for chunk in _chain(first, stream):
                last = restorer.chunk(chunk.model_dump(exclude_none=True))
                yield f"data: {json.dumps(last, ensure_ascii=False)}\n\n"
            if tail := restorer.tail(last):
                yield f"data: {json.dumps(tail, ensure_ascii=False)}\n\n"
            # Headers went out with the first byte: the counts travel as an SSE comment (clients skip it).
            yield f": stealthflow restored={restorer.restored} unresolved={restorer.unresolved}\n\n"
            yield "data: [DONE]\n\n"
        except Exception as exc:  # the upstream failed mid-stream: the client gets an error event
            error = upstream_error(exc)
            status = error.status
            yield f"data: {json.dumps(error.body())}\n\n"
        finally:  # also when the client went away (the task is cancelled): close the upstream stream
            with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                await stream.aclose()
            _log(status, started, stats, restorer)

    return app


async def _chain(first, stream) -> AsyncIterator:
    if first is None:
        return
    yield first
    async for chunk in stream:
        yield chunk


def _log(status: int, started: float, stats: dict, restorer: ReplyRestorer | None = None) -> None:
    counts = f" restored={restorer.restored} unresolved={restorer.unresolved}" if restorer else ""
    log.info(
        "chat status=%d stream=%s messages=%d masked=%d%s ms=%.1f",
        status, stats["stream"], stats["messages"], stats["masked"], counts, (time.perf_counter() - started) * 1000,
    )
