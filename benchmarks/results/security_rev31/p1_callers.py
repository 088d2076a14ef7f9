"""P1b: who reaches the proxy and `serve` (real servers under uvicorn, a real HTTP client): requests without the token
(every method, path variants, a preflight from a web page, a simple cross-origin POST as a form or text/plain), a
DNS-rebinding Host, a token in another header or the query string, and the service page's sign-in with a guessed
link. Correct: only /health (and the page's own files) answer without the token; no value in any answer. Exit 1 when
anything else answers 2xx."""

import sys

import httpx
from harness import TOKEN, make, proxy

from stealthflow.service import create_app
from stealthflow.service.page import PageLogins, page_router
from stealthflow.testing.loopback import serve
from stealthflow.testing.mock_openai import MockOpenAI

p = make()
p.protect("mail quillon.varrick@examplemail.org", "s1")
body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
attempts = [
    ("GET", "/v1/models", {}, None),
    ("POST", "/v1/chat/completions", {}, body),
    ("POST", "/chat/completions", {"Content-Type": "text/plain", "Origin": "https://evil.example"}, body),
    ("POST", "//v1/chat/completions", {}, body),
    ("POST", "/v1/chat/completions/", {}, body),
    ("POST", "/health/../v1/chat/completions", {}, body),
    (
        "OPTIONS",
        "/v1/chat/completions",
        {"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
        None,
    ),
    ("HEAD", "/v1/models", {}, None),
    ("POST", "/v1/chat/completions", {"Authorization": f"Bearer {TOKEN}", "Host": "evil.example"}, body),
    ("POST", "/v1/chat/completions", {"Authorization": f"Bearer {TOKEN}", "Host": "localhost.evil.example"}, body),
    ("POST", "/v1/chat/completions", {"Authorization": f"bearer {TOKEN}x"}, body),
    ("POST", f"/v1/chat/completions?api_key={TOKEN}", {}, body),
    ("POST", "/v1/chat/completions", {"X-Api-Key": TOKEN}, body),
    ("POST", "/v1/chat/completions", {"Authorization": "Bearer"}, body),
]
service_attempts = [
    ("POST", "/restore", {}, {"text": "<EMAIL_1>", "session": "s1"}),
    (
        "POST",
        "/restore",
        {"Content-Type": "text/plain", "Origin": "https://evil.example"},
        {"text": "<EMAIL_1>", "session": "s1"},
    ),
    ("GET", "/sessions/s1", {}, None),
    ("POST", "/memory/pack", {}, {"user": "u", "query": "x"}),
    ("POST", "/ui/signin", {}, {"token": "A" * 32}),
    ("POST", "/restore", {"X-Stealthflow-Page": "A" * 43}, {"text": "<EMAIL_1>", "session": "s1"}),
    ("GET", "/openapi.json", {}, None),
    ("GET", "/docs", {}, None),
    (
        "POST",
        "/restore",
        {"Authorization": f"Bearer {TOKEN}", "Host": "rebind.evil.example:8000"},
        {"text": "<EMAIL_1>", "session": "s1"},
    ),
]
bad = []


def run(base, tries, opened=("/health",)):
    for method, path, headers, payload in tries:
        r = httpx.request(method, base + path, headers=headers, json=payload, timeout=30)
        ok = 200 <= r.status_code < 300
        print(f"{method:7s} {path:40s} {str(headers)[:60]:60s} -> {r.status_code}")
        if ok or "quillon" in r.text:
            bad.append((method, path, headers))


with MockOpenAI() as up, proxy(p, up, cors_origins=["http://127.0.0.1:3000"]) as url:
    run(url, attempts)
logins = PageLogins()
app = create_app(p, TOKEN, page=logins)
app.include_router(page_router(logins))
with serve(app) as port:
    run(f"http://127.0.0.1:{port}", service_attempts)
print("answered without the token:", bad or "none")
sys.exit(1 if bad else 0)
