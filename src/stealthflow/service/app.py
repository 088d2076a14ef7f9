"""`stealthflow serve`: protect / restore over HTTP for local apps (browser extensions,
agents). It listens on the loopback interface only, and only callers with its bearer token,
a loopback Host header and a bounded body get an answer (`service.security`).

POST /protect {text, session, rewrite?}          -> {text, spans, warnings, vault, request[, rewrite]}  (rewrite: none, or the server's --rewrite)
POST /restore {text, session, vault?, request?, secrets_in_urls?, values_in_links?}  -> {text, restored, unresolved, withheld, notice}   (409: another vault's text)
POST /restore/stream?session=ID[&request=ID]     chunked reply in -> chunked restored reply out (`service.streaming`)
POST /analyze, GET|DELETE /sessions/ID           what the page shows (`service.analysis`); the page at `/`: `service.page`

With `request` (the id /protect answered), a restore fills in only the placeholders that request
issued or used. With or without it, no value is filled in inside a URL that loads by itself (an image, markup),
none inside a link unless `values_in_links` is true (but an e-mail address as a `mailto:` address), and a guarded
value (a secret, card, IBAN or ID) not inside a link, markup or JSON unless `secrets_in_urls` is true; the others
stay, are listed in `withheld` and
said in `notice` (`placeholders.scope`). A session the vault never knew, while placeholders stay, and an unknown
request id are a 404. Errors are JSON (`{"error": {message, type, param, code}}`), never a bare 500
and never with the caller's text or any value it sent (a session name, a request id).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from stealthflow.pipeline.protector import PersonalName, Protector
from stealthflow.pipeline.rewrite import with_rewrites
from stealthflow.placeholders.helpers import DetectionStalled
from stealthflow.placeholders.keys import VaultKeyError
from stealthflow.placeholders.language import UncoveredText
from stealthflow.placeholders.scope import RestoreScope, json_switch, result_json, withheld_notice
from stealthflow.placeholders.vault import VaultMismatch, VaultTampered
from stealthflow.service.analysis import Analyzer, analysis_router
from stealthflow.service.requests import UNKNOWN_REQUEST, ProtectRequest, RestoreRequest
from stealthflow.service.security import (
    OPEN_PATHS,
    JsonBody,
    JsonErrors,
    LocalCallersOnly,
    error_response,
    http_error,
    not_json,
)
from stealthflow.service.streaming import RestoreStream
from stealthflow.sessions import SessionNameError

if TYPE_CHECKING:
    from stealthflow.memory.store import MemoryStore
    from stealthflow.pipeline.rewrite import NamedRewriter
    from stealthflow.service.page import PageLogins


def create_app(
    protector: Protector,
    token: str,
    max_body_bytes: int = 1_000_000,
    memory: MemoryStore | None = None,
    rewriter: NamedRewriter | None = None,
    page: PageLogins | None = None,
) -> FastAPI:
    """The service; callers must send `Authorization: Bearer {token}` (see `service.security`), or
    the page's cookie when `page` is given. `rewriter`: what `/protect` and `/analyze` rewrite with."""
    app = FastAPI(
        title="stealthflow", description="Protect text before it leaves your device.", default_response_class=JsonBody
    )
    app.add_middleware(JsonErrors)
    app.add_exception_handler(HTTPException, http_error)
    page_access = {"open_paths": OPEN_PATHS | page.open_paths, "also_admits": page.admits} if page else {}
    app.add_middleware(LocalCallersOnly, token=token, max_body_bytes=max_body_bytes, **page_access)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's default echoes the input back: never send a user's text in an error (and a
        # lone surrogate in it could not even be encoded). The service's one error shape, naming each field.
        if broken := [e for e in exc.errors() if e["type"] == "json_invalid"]:
            return error_response(422, not_json(await request.body(), broken[0]["loc"][-1]))
        problems = "; ".join(f"{'.'.join(map(str, e['loc'][1:])) or 'body'}: {e['msg']}" for e in exc.errors())
        return error_response(422, f"invalid request: {problems}")

    @app.exception_handler(UncoveredText)
    @app.exception_handler(DetectionStalled)
    @app.exception_handler(PersonalName)
    @app.exception_handler(SessionNameError)
    async def refused(request: Request, exc: Exception) -> JSONResponse:
        return error_response(422, str(exc))

    @app.exception_handler(VaultKeyError)
    @app.exception_handler(VaultTampered)
    async def vault_unusable(request: Request, exc: Exception) -> JSONResponse:
        return error_response(503, f"the vault cannot be used: {exc}")

    @app.get("/health")
    def health() -> dict:
        return {"status": "ok", "style": protector.config.style}

    @app.post("/protect")
    def protect(request: ProtectRequest) -> dict:
        if request.rewrite != "none" and (rewriter is None or request.rewrite != rewriter.name):
            offered = ", ".join(["none", *([rewriter.name] if rewriter else [])])
            return error_response(
                422, f"the rewrite asked for is not offered here: ask for {offered} (the server's --rewrite)"
            )
        result = protector.protect_many([request.text], request.session, [request.from_model])[0]
        if request.rewrite != "none":
            result = with_rewrites([result], rewriter.method())[0]
        request_id = protector.record_request(request.session, result)
        body = {
            "text": result.text,
            "spans": [s.to_json() for s in result.spans],
            "warnings": result.warnings,
            "vault": protector.vault.id,
            "request": request_id,
        }
        return body | ({"rewrite": result.rewrite.to_json(rewriter.name)} if result.rewrite else {})

    @app.post("/restore")
    def restore(request: RestoreRequest) -> dict:
        scope: RestoreScope | None = None
        if (
            request.request is not None
            and (
                scope := protector.request_scope(
                    request.session, request.request, request.secrets_in_urls, request.values_in_links
                )
            )
            is None
        ):
            return error_response(404, UNKNOWN_REQUEST)
        try:
            result = protector.restore(
                request.text, request.session, request.vault, scope, request.secrets_in_urls, request.values_in_links
            )
        except VaultMismatch as exc:
            return error_response(409, str(exc))
        if error := protector.no_such_session(request.session, result.unresolved):
            return error_response(404, error)  # a mistyped session: the caller still holds the reply as sent
        notice = (
            withheld_notice(result.withheld, json_switch)
            if result.withheld
            else protector.unknown_session(request.session, result.unresolved)  # nothing issued: nothing withheld
        )
        return {**result_json(result), "notice": notice}

    app.add_route("/restore/stream", RestoreStream(protector), methods=["POST"], include_in_schema=False)

    if memory is not None:
        from stealthflow.memory.http import memory_router

        app.include_router(memory_router(memory))
    app.state.analyzer = Analyzer(protector, rewriter)
    app.include_router(analysis_router(app.state.analyzer))
    if page is not None:
        from stealthflow.service.page import page_router

        app.include_router(page_router(page))
    return app
