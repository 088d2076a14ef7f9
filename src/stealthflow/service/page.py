"""The page at `/`: a person pastes a post, sees what gives them away, takes the rewrite change by
change, copies the text to send and restores the cloud's reply. Plain HTML/JS/CSS shipped in the
package (`service/page/`), calling the service's own endpoints (`/analyze`, `/restore`, `/sessions`).

Signing in works as in notebook servers: the server prints (and `stealthflow ui` opens) a link
`/?token=ONE-TIME`; that token is good once and only for `LINK_SECONDS`, and is exchanged for an
HttpOnly, SameSite=Strict cookie, then the browser is sent to `/` (the token leaves the address
bar). A request with the cookie is admitted like one with the bearer token, except that a request
other than GET must also carry `X-Stealthflow-Page: 1`: a page of another local server (another
port is the same "site" for cookies) cannot set that header without a CORS pre-flight, which
this service never grants. The bearer token keeps working for API callers.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import Scope

COOKIE = "stealthflow_page"
HEADER = "x-stealthflow-page"
LINK_SECONDS = 600
PAGE_DIR = Path(__file__).parent / "page"
ASSETS = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
# No inline script or style, nothing from elsewhere, never framed, no address (with a token) in a Referer.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "cache-control": "no-store",
}
REFUSED = """<!doctype html><html lang="en"><meta charset="utf-8"><title>stealthflow</title>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem">
<h1>Not signed in</h1><p>This page opens only from the one-time link that <code>stealthflow ui</code>
(or <code>stealthflow serve</code>) prints. That link works once: run <code>stealthflow ui</code> again for a new one.</p>
</body></html>"""


class PageLogins:
    """One-time sign-in links and the cookies they were exchanged for (in memory: a restart signs out)."""

    def __init__(self, link_seconds: float = LINK_SECONDS):
        self.link_seconds = link_seconds
        self._links: dict[str, float] = {}  # token -> expiry (monotonic)
        self._cookies: set[str] = set()
        self._lock = threading.Lock()

    def new_link(self) -> str:
        """A fresh one-time token for `/?token=`."""
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._links[token] = time.monotonic() + self.link_seconds
        return token

    def exchange(self, token: str) -> str | None:
        """The cookie value for a valid, unused, unexpired token (which is then used up), else None."""
        with self._lock:
            now = time.monotonic()
            self._links = {t: expiry for t, expiry in self._links.items() if expiry > now}
            found = next((t for t in self._links if hmac.compare_digest(t.encode(), token.encode())), None)
            if found is None:
                return None
            del self._links[found]
            cookie = secrets.token_urlsafe(32)
            self._cookies.add(cookie)
            return cookie

    def signed_in(self, cookie: str | None) -> bool:
        with self._lock:
            return bool(cookie) and any(hmac.compare_digest(c.encode(), cookie.encode()) for c in self._cookies)

    def admits(self, scope: Scope, headers: Headers) -> bool:
        """For `LocalCallersOnly`: the page's cookie (and, beyond GET, its header)."""
        if not self.signed_in(cookie_parser(headers.get("cookie", "")).get(COOKIE)):
            return False
        return scope.get("method") in ("GET", "HEAD") or headers.get(HEADER) == "1"


def page_router(logins: PageLogins) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/")
    def page(request: Request, token: str | None = None) -> Response:
        if token is not None:
            cookie = logins.exchange(token)
            if cookie is None:
                return HTMLResponse(REFUSED, status_code=401, headers=SECURITY_HEADERS)
            response = RedirectResponse("/", status_code=303, headers=SECURITY_HEADERS)
            response.set_cookie(COOKIE, cookie, httponly=True, samesite="strict", path="/")
            return response
        if not logins.signed_in(request.cookies.get(COOKIE)):
            return HTMLResponse(REFUSED, status_code=401, headers=SECURITY_HEADERS)
        return HTMLResponse((PAGE_DIR / "index.html").read_text(encoding="utf-8"), headers=SECURITY_HEADERS)

    @router.get("/ui/{name}")
    def asset(name: str) -> Response:
        if name not in ASSETS:
            return Response(status_code=404)
        return Response((PAGE_DIR / name).read_bytes(), media_type=ASSETS[name], headers=SECURITY_HEADERS)

    return router
