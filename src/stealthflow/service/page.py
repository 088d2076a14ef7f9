"""The page at `/`: a person pastes a post, sees what gives them away, takes the rewrite change by
change, copies the text to send and restores the cloud's reply. Plain HTML/JS/CSS shipped in the
package (`service/page/`), calling the service's own endpoints (`/analyze`, `/restore`, `/sessions`).

Signing in: the server prints (and `stealthflow ui` opens) a link `/#token=ONE-TIME`; that token is
good once and only for `LINK_SECONDS`. It sits in the fragment, which the browser never sends to any
server (no request line, log or Referer holds it). The page posts it to `/ui/signin` and gets back a
credential of its own, which it keeps in `sessionStorage` and sends as `X-Stealthflow-Page` on every call.
No cookie: a browser sends cookies to every port of 127.0.0.1, so any local server the user opens
would receive one, while `sessionStorage` belongs to one origin (scheme, host and port) and one tab, and
a header is sent only where the page's own script sends it. The credential is not the bearer token, and
it dies with the server. The page's files (`/`, `/ui/*`) are open, as they hold no data: the
package's own HTML, script and style; nothing else is answered without the credential or the bearer token.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel
from starlette.datastructures import Headers
from starlette.types import Scope

from stealthflow.service.security import error_response

HEADER = "x-stealthflow-page"
SIGNIN = "/ui/signin"
LINK_SECONDS = 600
PAGE_DIR = Path(__file__).parent / "page"
ASSETS = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
# No inline script or style, nothing from elsewhere, never framed, no address in a Referer
# (`Cache-Control: no-store` is on every answer: `service.security`).
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
}


class SignIn(BaseModel):
    token: str


class PageLogins:
    """One-time sign-in links and the page credentials they were exchanged for (in memory: a restart signs out)."""

    open_paths = frozenset({"/", SIGNIN, *(f"/ui/{name}" for name in ASSETS)})  # no data: the page's own files

    def __init__(self, link_seconds: float = LINK_SECONDS):
        self.link_seconds = link_seconds
        self._links: dict[str, float] = {}  # token -> expiry (monotonic)
        self._credentials: set[str] = set()
        self._lock = threading.Lock()

    def new_link(self) -> str:
        """A fresh one-time token for the link `/#token=`."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._links[token] = time.monotonic() + self.link_seconds
        return token

    def exchange(self, token: str) -> str | None:
        """A page credential for a valid, unused, unexpired token (which is then used up), else None."""
        with self._lock:
            now = time.monotonic()
            self._links = {t: expiry for t, expiry in self._links.items() if expiry > now}
            found = next((t for t in self._links if hmac.compare_digest(t.encode(), token.encode())), None)
            if found is None:
                return None
            del self._links[found]
            credential = secrets.token_urlsafe(32)
            self._credentials.add(credential)
            return credential

    def pending(self, token: str) -> bool:
        """Whether `token` is still a link to exchange (unused and unexpired)."""
        with self._lock:
            return self._links.get(token, 0.0) > time.monotonic()

    def signed_in(self, credential: str | None) -> bool:
        with self._lock:
            return bool(credential) and any(
                hmac.compare_digest(c.encode(), credential.encode()) for c in self._credentials
            )

    def admits(self, scope: Scope, headers: Headers) -> bool:
        """For `LocalCallersOnly`: the page's credential in its header."""
        return self.signed_in(headers.get(HEADER))


def page_router(logins: PageLogins) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    def page() -> Response:
        return HTMLResponse((PAGE_DIR / "index.html").read_text(encoding="utf-8"), headers=SECURITY_HEADERS)

    @router.post(SIGNIN)
    def sign_in(request: SignIn) -> Response:
        credential = logins.exchange(request.token)
        if credential is None:
            return error_response(
                401, "this sign-in link is used, expired or wrong: restart stealthflow ui for a new one"
            )
        return JSONResponse({"credential": credential}, headers=SECURITY_HEADERS)

    @router.get("/ui/{name}")
    def asset(name: str) -> Response:
        if name not in ASSETS:
            return Response(status_code=404)
        return Response((PAGE_DIR / name).read_bytes(), media_type=ASSETS[name], headers=SECURITY_HEADERS)

    return router
