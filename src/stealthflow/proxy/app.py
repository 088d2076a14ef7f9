"""`stealthflow proxy`: an OpenAI-compatible server that protects every request and restores every reply.

GET  /v1/models             -> the one upstream model
POST /v1/chat/completions   -> plain or streamed (SSE); tools, tool calls and every other field passed on

Each request's texts are protected in the caller's session, the request goes upstream (an OpenAI
API directly, any other provider through litellm: `proxy.upstream`), and the reply comes back
restored. An assistant turn of the re-sent history that a reply restored goes back as the upstream wrote it, any
other one is protected as new text (`proxy.history`, kept in the vault across restarts), so the upstream cannot probe the session's values. With a rewriter, user messages are also rewritten against attribute inference after
protect, each once per session (`proxy.rewrites`). The session is the caller's
token digest plus its optional `X-Stealthflow-Session` label, so one token never restores another
token's values; the vault gives a value the same placeholder in every turn of a session, and
numbers each session's values on their own. A reply restores only the placeholders of the request
it answers, and secrets nowhere they could leave by (`placeholders.scope`): what it withholds is
counted in `x-stealthflow-withheld` and named in `x-stealthflow-withheld-placeholders` (for a
stream: its closing SSE comment). What protection could not do for a text (`Protected.warnings`: a secret to rotate,
a language the recognizers do not cover, the multilingual PII tagger unavailable and the English one standing in) is said in
`x-stealthflow-warnings`, each warning once. Callers need the proxy's bearer token, a loopback Host and a
bounded body (`service.security`). Logs hold request metadata only (status, timings, counts),
never text.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator

import anyio
import orjson
from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response, StreamingResponse
from starlette.types import Send

from stealthflow.anonymize.methods import Method
from stealthflow.pipeline.protector import PersonalName, Protector
from stealthflow.placeholders.helpers import DetectionStalled
from stealthflow.placeholders.keys import VaultKeyError
from stealthflow.placeholders.language import UncoveredText
from stealthflow.placeholders.scope import RestoreScope
from stealthflow.placeholders.vault import VaultTampered
from stealthflow.proxy.config import ProxyConfig
from stealthflow.proxy.errors import ProxyError
from stealthflow.proxy.history import RestoredReplies
from stealthflow.proxy.messages import RequestError, RequestTexts
from stealthflow.proxy.replies import ReplyRestorer
from stealthflow.proxy.rewrites import MessageRewrites
from stealthflow.proxy.upstream import FinalBatch, build_upstream, no_chunks, reply_chars
from stealthflow.service.security import LocalCallersOnly, bearer_token, http_error, not_json
from stealthflow.sessions import SessionNameError, check_name, proxy_session
from stealthflow.string_cost import TooManyStrings

TOKEN_ENV = "STEALTHFLOW_PROXY_TOKEN"
TOKEN_FILE = "proxy.token"
SESSION_HEADER = "x-stealthflow-session"
INLINE_CHARS = 4_000  # ~2 ms of pattern detection: protected on the event loop itself
WITHHELD_NAMED = 20  # placeholders named in the withheld header at most (the count has them all)
log = logging.getLogger("stealthflow.proxy")


def session_for(token: str, label: str) -> str:
    """The vault session of a caller: a digest of its token, plus its own label if it sends one."""
    try:
        return proxy_session(token, label and check_name(label, f"the {SESSION_HEADER} header"))
    except SessionNameError as exc:
        raise ProxyError(400, str(exc), param=SESSION_HEADER) from None


def create_proxy_app(protector: Protector, config: ProxyConfig, token: str, rewriter: Method | None = None) -> FastAPI:
    """`rewriter`: the method named by `config.rewrite` (`pipeline.rewrite.build_rewriter`), or None."""
    upstream = build_upstream(config)
    inline = protector.detector is not None and not protector.detector.uses_models
    rewrites = MessageRewrites(rewriter, config.rewrite_cache_entries) if rewriter is not None else None
    history = RestoredReplies(protector.vault, protector.config.user)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        await upstream.close()

    app = FastAPI(
        title="stealthflow proxy",
        description="An OpenAI-compatible proxy that protects requests and restores replies.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.add_exception_handler(HTTPException, http_error)  # an unknown path (a Responses client) in the error shape
    app.add_middleware(
        LocalCallersOnly,
        token=token,
        max_body_bytes=config.max_body_bytes,
        allowed_hosts=config.allowed_hosts,
        hosts_setting="proxy.allowed_hosts in the config (--config FILE)",
        body_setting="proxy.max_body_bytes in the config (--config FILE)",
    )
    if config.cors_origins:  # outermost, so a browser's preflight (which carries no token) is answered
        app.add_middleware(
            CORSMiddleware,
            allow_origins=config.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["authorization", "content-type", SESSION_HEADER],
        )

    @app.get("/health")
    async def health() -> dict:
        return {"status": "ok"}

    @app.get("/v1/models")
    async def models() -> dict:
        return {
            "object": "list",
            "data": [{"id": config.upstream, "object": "model", "created": 0, "owned_by": "stealthflow-proxy"}],
        }

    @app.post("/v1/chat/completions")
    @app.post("/chat/completions")
    async def chat(request: Request) -> Response:
        started = time.perf_counter()
        stats = {"stream": False, "messages": 0, "masked": 0}
        try:
            return await _chat(request, stats)
        except TooManyStrings as exc:  # more strings than detection should spend its time on: nothing was sent
            _log(413, started, stats)
            return ProxyError(413, str(exc)).response()
        except RequestError as exc:  # found walking the request, or writing it back: nothing was sent
            _log(400, started, stats)
            return ProxyError(400, str(exc), param=exc.param).response()
        except ProxyError as exc:
            _log(exc.status, started, stats)
            return exc.response()
        except (UncoveredText, DetectionStalled) as exc:  # protect.refuse_uncovered, or a stall: nothing was sent
            _log(422, started, stats)
            return ProxyError(422, str(exc)).response()
        except PersonalName as exc:  # a session label holding a personal value: nothing was sent or stored
            _log(400, started, stats)
            return ProxyError(400, str(exc), param=SESSION_HEADER).response()
        except (VaultKeyError, VaultTampered) as exc:  # the vault cannot serve (its key changed, its file is damaged)
            log.error("chat failed: %s", type(exc).__name__)
            _log(503, started, stats)
            return ProxyError(503, f"the vault cannot be used: {exc}", "server_error").response()
        except Exception as exc:  # never a traceback with request data in it
            log.error("chat failed: %s", type(exc).__name__)
            return ProxyError(500, f"the proxy failed ({type(exc).__name__})", "server_error").response()

    async def _chat(request: Request, stats: dict) -> Response:
        started = time.perf_counter()
        try:
            raw = await request.body()
            body = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise ProxyError(400, not_json(raw, exc.pos)) from None
        if not isinstance(body, dict):
            raise ProxyError(400, "the request body must be a JSON object")
        session = session_for(bearer_token(request.headers), request.headers.get(SESSION_HEADER, ""))
        texts = RequestTexts(body, config.pass_media, lambda text: history.recall(session, text), len(raw))
        # Detection (and a rewrite) is CPU work: off the event loop, so streams in flight keep
        # flowing; short texts without a model are done sooner than a worker thread starts on them.
        args = (texts.texts, session, texts.from_model, texts.unknown, texts.whole)
        if inline and sum(map(len, texts.texts)) <= INLINE_CHARS:
            protected = protector.protect_many(*args)
        else:
            protected = await anyio.to_thread.run_sync(protector.protect_many, *args)
        stats.update(
            stream=bool(body.get("stream")), messages=len(body["messages"]), masked=sum(len(p.spans) for p in protected)
        )
        headers = {"x-stealthflow-masked": str(stats["masked"])}
        if warnings := _warnings(protected):
            headers["x-stealthflow-warnings"] = warnings
        if rewrites is None:
            texts.put([p.text for p in protected])
        else:
            try:
                sent, counts = await anyio.to_thread.run_sync(rewrites.rewrite, session, protected, texts.from_user)
            except Exception as exc:  # fail closed: the user asked for a rewrite, so nothing goes without one
                log.error("rewrite failed: %s", type(exc).__name__)
                raise ProxyError(
                    503, f"the rewrite failed ({type(exc).__name__}); nothing was sent upstream", "server_error"
                ) from None
            stats["rewrites"] = counts
            if refused := counts.refused_under(config.rewrite_fail):  # nothing unprotected goes (ux19 M1)
                raise refused.refusal({**headers, **counts.headers()}, texts.places, config.rewrite)
            texts.put(sent)
            headers.update(counts.headers())
        scope = RestoreScope(
            frozenset(texts.recalled).union(*(p.keys for p in protected)),
            protector.config.guarded_types(),
            config.restore_secrets_in_urls_and_tools,
            config.restore_values_in_links,
        )
        restorer = ReplyRestorer(protector.resolver(session, scope), frozenset(config.restore_tool_arguments))
        if stats["stream"]:
            batches = upstream.stream(body)
            try:  # the first chunks before answering: an upstream that fails at once gets its own status
                first = await anext(batches)
            except StopAsyncIteration:  # not one chunk: garbage or an empty body, no answer to pass on as a 200
                raise no_chunks() from None
            return EventStream(
                _events(batches, first, restorer, started, stats, session),
                media_type="text/event-stream",
                headers=headers,
            )
        reply = await upstream.complete(body)
        if reply_chars(reply, "message") <= INLINE_CHARS:
            restorer.whole(reply)
        else:  # a long reply is restored in a worker thread: the event loop serves other clients meanwhile
            await anyio.to_thread.run_sync(restorer.whole, reply)
        history.keep(session, restorer.texts())
        headers.update(
            {"x-stealthflow-restored": str(restorer.restored), "x-stealthflow-unresolved": str(restorer.unresolved)}
        )
        headers.update(
            {
                "x-stealthflow-withheld": str(len(restorer.withheld)),
                "x-stealthflow-withheld-placeholders": _named(restorer.withheld),
            }
        )
        _log(200, started, stats, restorer)
        return Response(orjson.dumps(reply), media_type="application/json", headers=headers)

    async def _events(
        batches: AsyncIterator[list[dict]],
        first: list[dict],
        restorer: ReplyRestorer,
        started: float,
        stats: dict,
        session: str,
    ) -> AsyncIterator[tuple[bytes, bool]]:
        """(bytes, whether they end the reply) of each write."""
        status, last = 200, {}

        def events(batch: list[dict]) -> bytes:  # the chunks of one upstream read, sent in one write
            nonlocal last
            if batch:
                last = restorer.chunks(batch)[-1]
            return b"".join(map(_event, batch))

        try:
            final = b""  # the chunks read with the upstream's [DONE]: sent with the end
            async for batch in _joined(first, batches):
                if isinstance(batch, FinalBatch):
                    final = events(batch)
                else:
                    yield events(batch), False
            tail = restorer.tail(last)
            history.keep(session, restorer.texts())
            # Headers went out with the first byte: the counts travel as an SSE comment (clients skip it). The end
            # goes in one write, with the end of the body (each write wakes the client).
            withheld = (
                f" withheld={len(restorer.withheld)} withheld_placeholders={_named(restorer.withheld).replace(' ', '')}"
            )
            counts = f": stealthflow restored={restorer.restored} unresolved={restorer.unresolved}{withheld}\n\n"
            yield final + (_event(tail) if tail else b"") + counts.encode() + b"data: [DONE]\n\n", True
        except ProxyError as error:  # the upstream failed mid-stream: the client gets an error event
            status = error.status
            yield f"data: {json.dumps(error.body())}\n\n".encode(), True
        except Exception as exc:  # never a stream cut without a word, nor a traceback with request data in it
            log.error("stream failed: %s", type(exc).__name__)
            status = 500
            failed = ProxyError(500, f"the proxy failed ({type(exc).__name__})", "server_error")
            yield f"data: {json.dumps(failed.body())}\n\n".encode(), True
        finally:  # also when the client went away (this task is cancelled): close the upstream stream
            with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                await batches.aclose()
            _log(status, started, stats, restorer)

    return app


class EventStream(StreamingResponse):
    """A streamed reply whose last write (`_events`: marked True) carries the end of the body too: one write fewer per
    reply than `StreamingResponse`, which ends the body with a write of its own."""

    async def stream_response(self, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        ended = False
        async for body, last in self.body_iterator:  # to its end: `_events` closes the upstream and logs after it
            if not ended:
                await send({"type": "http.response.body", "body": body, "more_body": not last})
                ended = last
        if not ended:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _joined(first: list[dict], batches: AsyncIterator[list[dict]]) -> AsyncIterator[list[dict]]:
    """`first` (read before the reply's headers; a stream has one, `no_chunks`), then the other batches."""
    yield first
    async for batch in batches:
        yield batch


def _event(chunk: dict) -> bytes:
    return b"data: " + orjson.dumps(chunk) + b"\n\n"


def _warnings(protected: list) -> str:
    """The distinct warnings of a request's protected texts, for a header (ASCII; never a text's values)."""
    distinct = dict.fromkeys(warning for p in protected for warning in p.warnings)
    return " | ".join(distinct).encode("ascii", "replace").decode()


def _named(withheld: list[tuple[str, str]]) -> str:
    """The distinct placeholders withheld, for a header: names only, never values."""
    return ", ".join(list(dict.fromkeys(placeholder for placeholder, _ in withheld))[:WITHHELD_NAMED])


def _log(status: int, started: float, stats: dict, restorer: ReplyRestorer | None = None) -> None:
    counts = f" restored={restorer.restored} unresolved={restorer.unresolved}" if restorer else ""
    if restorer and restorer.withheld:
        reasons = Counter(why for _, why in restorer.withheld)
        counts += f" withheld={len(restorer.withheld)} ({' '.join(f'{why}={n}' for why, n in sorted(reasons.items()))})"
    if (rewrites := stats.get("rewrites")) is not None:
        counts += (
            f" rewritten={rewrites.rewritten} rewrite_rejected={rewrites.rejected} rewrite_stayed={rewrites.stayed}"
            f" rewrite_unread={rewrites.unread} rewrites_run={rewrites.fresh}"
        )
    log.info(
        "chat status=%d stream=%s messages=%d masked=%d%s ms=%.1f",
        status,
        stats["stream"],
        stats["messages"],
        stats["masked"],
        counts,
        (time.perf_counter() - started) * 1000,
    )
