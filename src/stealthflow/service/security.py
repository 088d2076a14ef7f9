"""Who may call a local server (the service, the proxy): a bearer token, a loopback Host, a bounded body.

The token comes from an environment variable (`$STEALTHFLOW_SERVICE_TOKEN` for the service),
else from a 0600 file under the user config dir, created (and announced once) on first start. It fails
closed: a token shorter than `MIN_TOKEN_CHARS` (an empty file, a truncated write), a file that cannot be
read or that group or others have any access to is an error at start, never an open door; the file appears whole
or not at all (written aside, then hard-linked in place), so a second process starting at the same
moment reads the same token. Any local process or web page can reach a port on 127.0.0.1: without
the token it gets 401 before any work. Every answer says `Cache-Control: no-store` (and `Pragma:
no-cache`): a browser keeps no value, restore result or page in its disk cache. A Host header that is not a loopback name is refused (DNS rebinding: a web page
whose domain resolves to 127.0.0.1), and a request body above the limit gets 413 — at once when
its Content-Length says so, else as soon as the streamed (chunked) body passes the limit.
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
import stat
from collections.abc import Callable, Iterable
from http import HTTPStatus
from pathlib import Path

import platformdirs
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TOKEN_ENV = "STEALTHFLOW_SERVICE_TOKEN"
MIN_TOKEN_CHARS = 16  # a created token has 43 (32 random bytes); fewer means a truncated file or a weak choice
NO_STORE = [(b"cache-control", b"no-store"), (b"pragma", b"no-cache")]
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
OPEN_PATHS = frozenset({"/health"})  # no data: a liveness probe needs no token
_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    413: "invalid_request_error",
    422: "invalid_request_error",
    500: "server_error",
    503: "server_error",
}
log = logging.getLogger("stealthflow.service")


def default_token_file(name: str = "service.token") -> Path:
    return Path(platformdirs.user_config_dir("stealthflow")) / name


class TokenError(ValueError):
    """The token cannot be used (too short, unreadable, or its file open to others): the server does not start."""


def service_token(
    token_file: Path | None = None, on_new: Callable[[Path], None] | None = None, env: str = TOKEN_ENV
) -> str:
    """The token clients must send: `$env`, else the file's (created 0600 when missing)."""
    if token := os.environ.get(env, "").strip():
        return _long_enough(token, f"${env}", f"set ${env} to a longer one")
    path = token_file or default_token_file()
    try:
        created = _create_token_file(path)
        if created and on_new:
            on_new(path)
        return created or _read_token_file(path)
    except OSError as exc:
        raise TokenError(f"cannot use the token file {path}: {exc.strerror or exc}") from None


def _create_token_file(path: Path) -> str | None:
    """A new token in `path`, written whole (aside, then hard-linked in), or None when `path` already exists."""
    if path.exists():
        return None
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    token = secrets.token_urlsafe(32)
    aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(token + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.link(aside, path)  # never replaces: of two processes starting together, one token wins
    except FileExistsError:
        return None
    finally:
        aside.unlink(missing_ok=True)
    return token


def _read_token_file(path: Path) -> str:
    mode = stat.S_IMODE(path.stat().st_mode)
    if os.name == "posix" and mode & 0o077:
        raise TokenError(f"the token file {path} is open to group or others (mode {mode:o}): run chmod 600 {path}")
    return _long_enough(
        path.read_text(encoding="utf-8").strip(), f"the token file {path}", f"delete it for a new one: rm {path}"
    )


def _long_enough(token: str, where: str, fix: str) -> str:
    if len(token) < MIN_TOKEN_CHARS:
        raise TokenError(
            f"{where} holds a token of {len(token)} characters, fewer than {MIN_TOKEN_CHARS}: "
            f"{'no request would need one' if not token else 'too easy to guess'}; {fix}"
        )
    return token


def bearer_token(headers: Headers) -> str:
    given = headers.get("authorization", "")
    return given[7:].strip() if given.startswith("Bearer ") else ""


class LocalCallersOnly:
    """Host check, body limit and bearer token, app-wide (routes mounted later are covered too).

    A pure ASGI middleware: it never reads the body itself, so an endpoint may stream the request
    body while streaming its response (Starlette's BaseHTTPMiddleware deadlocked there)."""

    def __init__(
        self,
        app: ASGIApp,
        token: str,
        max_body_bytes: int = 1_000_000,
        allowed_hosts: Iterable[str] = (),
        open_paths: Iterable[str] = OPEN_PATHS,
        also_admits: Callable[[Scope, Headers], bool] | None = None,
        hosts_setting: str | None = None,
        body_setting: str | None = None,
    ):
        """`hosts_setting`, `body_setting`: where the server's user adds a Host name or raises the body limit (the
        proxy's config keys), named in the 403 and 413 answers; None: the server has no such setting (`serve`)."""
        if not token:
            raise ValueError("an empty token would admit requests without one: give a token")
        self.app = app
        self.token = token.encode()
        self.max_body_bytes = max_body_bytes
        self.allowed_hosts = LOOPBACK_HOSTS | set(allowed_hosts)  # more only when the user binds another interface
        self.open_paths = frozenset(open_paths)
        self.also_admits = also_admits  # another credential (the page's cookie), beside the bearer token
        self.wrong_host = wrong_host(hosts_setting)
        self.too_large = too_large(max_body_bytes, body_setting)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        name = host[: host.find("]") + 1] if host.startswith("[") else host.split(":")[0]  # without the port
        length = headers.get("content-length")
        if name not in self.allowed_hosts:
            refusal = error_response(403, self.wrong_host)
        elif length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            refusal = error_response(413, self.too_large)
        elif scope["path"] not in self.open_paths and not self._admitted(scope, headers):
            refusal = error_response(401, WRONG_TOKEN)
        else:
            await _BodyLimit(self.max_body_bytes, self.too_large, scope, receive, _no_store(send)).run(self.app)
            return
        await refusal(scope, receive, _no_store(send))

    def _admitted(self, scope: Scope, headers: Headers) -> bool:
        given = bearer_token(headers)
        if given and hmac.compare_digest(given.encode(), self.token):
            return True
        return self.also_admits is not None and self.also_admits(scope, headers)


def _no_store(send: Send) -> Send:
    """`send` with `Cache-Control: no-store` and `Pragma: no-cache` on the answer, whatever the app set."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in (b"cache-control", b"pragma")]
            message = {**message, "headers": kept + NO_STORE}
        await send(message)

    return sending


class _BodyLimit:
    """Counts a body sent without Content-Length (chunked); past the limit it answers 413 (or, if
    the response already started, ends it) and tells the app the client went away."""

    def __init__(self, limit: int, refusal: str, scope: Scope, receive: Receive, send: Send):
        self.limit, self.refusal, self.scope, self._receive, self._send = limit, refusal, scope, receive, send
        self.received = 0
        self.started = self.refused = False

    async def run(self, app: ASGIApp) -> None:
        await app(self.scope, self.receive, self.send)

    async def receive(self) -> Message:
        if self.refused:
            return {"type": "http.disconnect"}
        message = await self._receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.limit:
                if not self.started:
                    await error_response(413, self.refusal)(self.scope, self._receive, self._send)
                self.refused = True
                return {"type": "http.disconnect"}
        return message

    async def send(self, message: Message) -> None:
        if self.refused:
            return  # the answer was 413 (or the response was cut): the app's own answer is dropped
        self.started = self.started or message["type"] == "http.response.start"
        await self._send(message)


class JsonErrors:
    """A failure no handler answered becomes a JSON 500 naming only its type: no traceback (which
    could quote the caller's text) reaches the log or the client."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # noqa: BLE001
            log.error("%s %s failed: %s", scope.get("method", ""), scope.get("path", ""), type(exc).__name__)
            if not started:
                await error_response(500, f"the service failed ({type(exc).__name__})")(scope, receive, send)


class JsonBody(JSONResponse):
    """A JSON answer ending in a newline, so that a shell prompt after `curl` starts on its own line."""

    def render(self, content: object) -> bytes:
        return super().render(content) + b"\n"


WRONG_TOKEN = (
    "missing or wrong bearer token: send the server's token (printed when it started, kept in its token file) as "
    "`Authorization: Bearer TOKEN` (an OpenAI client sends its api_key so)"
)


def wrong_host(setting: str | None) -> str:
    """The 403 answer to a Host that is not admitted, naming `setting` (where more names are added) when there is one."""
    more = f", or add the name it is called by to {setting}" if setting else " (this server takes no other)"
    return (
        f"the Host header must be a loopback name (127.0.0.1, localhost, [::1]): call the server by one of them{more}"
    )


def too_large(limit: int, setting: str | None) -> str:
    """The 413 answer to a body above `limit` bytes, naming `setting` (where the limit is raised) when there is one."""
    more = f", or raise {setting}" if setting else f" ({limit} bytes is this server's fixed limit)"
    return f"request body above {limit} bytes: send less per request{more}"


def error_response(status: int, message: str, headers: dict | None = None, param: str | None = None) -> JSONResponse:
    """An OpenAI-style error body (message, type, param, code), so the proxy's clients read it like their
    provider's."""
    return JsonBody(
        status_code=status,
        content={"error": error_body(status, message, _ERROR_TYPES.get(status, "error"), param)},
        headers=headers,
    )


def error_body(status: int, message: str, kind: str, param: str | None = None) -> dict:
    """The one error shape: `{"message", "type", "param", "code"}`, `code` the HTTP status."""
    return {"message": message, "type": kind, "param": param, "code": status}


async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    """Starlette's own answers (an unknown path, a method a path does not take, an `HTTPException`) in the one
    error shape, not FastAPI's `{"detail": ...}`; the default phrase ("Not Found") says what the server does serve
    (`served`) and, for a method a path does not take, the one it does. The path asked for is not quoted: a caller's
    (`/sessions/ID`, a mistyped route) may hold a value."""
    message = str(exc.detail)
    if message == HTTPStatus(exc.status_code).phrase:
        if exc.status_code == 405 and (allowed := Headers(headers=exc.headers or {}).get("allow")):
            message = f"this method is not served on this path ({message}): it takes {allowed} only"
        else:
            message = f"this path is not served here ({message}); this server answers {served(request.app)}"
    return error_response(exc.status_code, message, exc.headers)


def served(app) -> str:
    """The documented routes of `app` (its OpenAPI paths: an API's, not its page's files) as `METHOD /path`."""
    return ", ".join(
        f"{method.upper()} {path}" for path, methods in app.openapi()["paths"].items() for method in methods
    )


def not_json(body: bytes, position: int) -> str:
    """The message the service (422) and the proxy (400) answer a body that is not JSON with: where it stops
    being JSON, as a person counts (line and column from 1); never its text."""
    before = body.decode("utf-8", errors="replace")[:position]
    return (
        f"the request body is not valid JSON (line {before.count(chr(10)) + 1}, "
        f"column {position - before.rfind(chr(10))})"
    )
