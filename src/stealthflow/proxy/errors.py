"""The proxy's one error type, answered as OpenAI answers errors."""

from __future__ import annotations

from starlette.responses import JSONResponse

from stealthflow.service.security import error_body


class ProxyError(Exception):
    """Status + {"error": {message, type, param, code}}; messages never hold request text."""

    def __init__(
        self,
        status: int,
        message: str,
        kind: str = "invalid_request_error",
        param: str | None = None,
        headers: dict | None = None,
    ):
        super().__init__(message)
        self.status, self.kind, self.param = status, kind, param
        self.headers = headers or {}  # e.g. an upstream 429's Retry-After

    def body(self) -> dict:
        return {"error": error_body(self.status, str(self), self.kind, self.param)}

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)
