"""Who may call the local service: a bearer token, a loopback Host, a bounded body.

The token comes from `$STEALTHFLOW_SERVICE_TOKEN`, else from a 0600 file under the user config
dir, created (and announced once) on first start. Any local process or web page can reach a port
on 127.0.0.1: without the token it gets 401 before any work. A Host header that is not a loopback
name is refused (DNS rebinding: a web page whose domain resolves to 127.0.0.1), and a request body
above the limit gets 413 before it is read.
"""

from __future__ import annotations

import hmac
import os
import secrets
from collections.abc import Callable
from pathlib import Path

import platformdirs
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

TOKEN_ENV = "STEALTHFLOW_SERVICE_TOKEN"
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
OPEN_PATHS = {"/health"}  # no data: a liveness probe needs no token


def default_token_file() -> Path:
    return Path(platformdirs.user_config_dir("stealthflow")) / "service.token"


def service_token(token_file: Path | None = None, on_new: Callable[[Path], None] | None = None) -> str:
    """The token clients must send; created in a 0600 file when neither env nor file has one."""
    if token := os.environ.get(TOKEN_ENV):
        return token
    path = token_file or default_token_file()
    if path.exists():
        return path.read_text(encoding="utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")
    if on_new:
        on_new(path)
    return token


class LocalCallersOnly(BaseHTTPMiddleware):
    """Host check, body limit and bearer token, app-wide (routes mounted later are covered too)."""

    def __init__(self, app, token: str, max_body_bytes: int = 1_000_000):
        super().__init__(app)
        self.token = token
        self.max_body_bytes = max_body_bytes

    async def dispatch(self, request: Request, call_next) -> Response:
        host = request.headers.get("host", "")
        name = host[: host.find("]") + 1] if host.startswith("[") else host.split(":")[0]  # without the port
        if name not in LOOPBACK_HOSTS:
            return _error(403, "the Host header must be a loopback name (127.0.0.1, localhost, [::1])")
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            return _error(413, f"request body above {self.max_body_bytes} bytes")
        if request.url.path not in OPEN_PATHS:
            given = request.headers.get("authorization", "")
            if not (given.startswith("Bearer ") and hmac.compare_digest(given[7:].strip().encode(), self.token.encode())):
                return _error(401, "missing or wrong bearer token (Authorization: Bearer TOKEN)")
        return await call_next(request)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"error": {"message": message, "code": status}})
