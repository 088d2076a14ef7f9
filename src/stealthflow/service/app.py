"""`stealthflow serve`: protect / restore over HTTP for local apps (browser extensions,
agents). It listens on the loopback interface only, and only callers with its bearer token,
a loopback Host header and a bounded body get an answer (`service.security`).

POST /protect {text, session}                    -> {text, spans, warnings, vault, request}
POST /restore {text, session, vault?, request?}  -> {text, restored, unresolved, withheld}   (409: another vault's text)
POST /restore/stream?session=ID[&request=ID]     chunked reply in -> chunked restored reply out (`service.streaming`)

With `request` (the id /protect answered), a restore fills in only the placeholders that request
issued or used, and a secret (PL4) not inside a URL unless `secrets_in_urls` is true; the others
stay and are listed in `withheld` (`placeholders.scope`). An unknown request id is a 404. Errors are
JSON (`{"error": {message, type, code}}`), never a bare 500 and never with the caller's text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, field_validator

from stealthflow.pipeline.protector import Protector
from stealthflow.pipeline.records import has_lone_surrogate
from stealthflow.placeholders.keys import VaultKeyError
from stealthflow.placeholders.scope import RestoreScope
from stealthflow.placeholders.vault import VaultMismatch, VaultTampered
from stealthflow.service.security import JsonErrors, LocalCallersOnly, error_response
from stealthflow.service.streaming import RestoreStream

if TYPE_CHECKING:
    from stealthflow.memory.store import MemoryStore


class TextRequest(BaseModel):
    text: str
    session: str = Field(min_length=1)
    vault: str | None = None  # restore: the id /protect answered, checked against this vault
    request: str | None = None  # restore: the request id /protect answered: only its placeholders restore
    secrets_in_urls: bool = False  # restore with a request: secrets inside URLs too

    @field_validator("text")
    @classmethod
    def _valid_unicode(cls, text: str) -> str:
        if has_lone_surrogate(text):
            raise ValueError("the text holds a lone surrogate (invalid Unicode)")
        return text


def create_app(protector: Protector, token: str, max_body_bytes: int = 1_000_000, memory: MemoryStore | None = None) -> FastAPI:
    """The service; callers must send `Authorization: Bearer {token}` (see `service.security`)."""
    app = FastAPI(title="stealthflow", description="Protect text before it leaves your device.")
    app.add_middleware(JsonErrors)
    app.add_middleware(LocalCallersOnly, token=token, max_body_bytes=max_body_bytes)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's default echoes the input back: never send a user's text in an error (and a
        # lone surrogate in it could not even be encoded).
        return JSONResponse(status_code=422, content={"detail": [{"loc": list(e["loc"]), "msg": e["msg"]} for e in exc.errors()]})

    @app.exception_handler(VaultKeyError)
    @app.exception_handler(VaultTampered)
    async def vault_unusable(request: Request, exc: Exception) -> JSONResponse:
        return error_response(503, f"the vault cannot be used: {exc}")

    @app.get("/health")
    def health() -> dict:
        return {"status": "ok", "style": protector.config.style}

    @app.post("/protect")
    def protect(request: TextRequest) -> dict:
        result = protector.protect(request.text, request.session)
        request_id = protector.record_request(request.session, result)
        return {"text": result.text, "spans": [s.to_json() for s in result.spans], "warnings": result.warnings, "vault": protector.vault.id, "request": request_id}

    @app.post("/restore")
    def restore(request: TextRequest) -> dict:
        scope: RestoreScope | None = None
        if request.request is not None and (scope := protector.request_scope(request.session, request.request, request.secrets_in_urls)) is None:
            return error_response(404, f"no request {request.request!r} in session {request.session!r} (unknown, expired or forgotten)")
        try:
            result = protector.restore(request.text, request.session, request.vault, scope)
        except VaultMismatch as exc:
            return error_response(409, str(exc))
        withheld = [{"placeholder": placeholder, "reason": why} for placeholder, why in result.withheld]
        return {"text": result.text, "restored": result.restored, "unresolved": result.unresolved, "withheld": withheld}

    app.add_route("/restore/stream", RestoreStream(protector), methods=["POST"], include_in_schema=False)

    if memory is not None:
        from stealthflow.memory.http import memory_router

        app.include_router(memory_router(memory))
    return app

