"""P1c: the proxy's error paths with every logger at DEBUG (stealthflow, uvicorn, httpx, aiohttp, litellm, asyncio):
an upstream 4xx/5xx that echoes its request, a timeout, a malformed JSON reply, a stream cut mid-placeholder, a
client that hangs up mid-stream, a request that is not JSON or has a bad role, both routes (direct and litellm).
Correct: no raw value in any answer or log line (the upstream only ever sees placeholders; error bodies and logs hold
no request text). Exit 1 when a raw value shows."""

import asyncio
import io
import json
import logging
import sys

import httpx
from harness import TOKEN, make
from starlette.responses import JSONResponse, Response, StreamingResponse

from stealthflow.proxy.app import create_proxy_app
from stealthflow.proxy.config import ProxyConfig
from stealthflow.testing.loopback import serve
from stealthflow.testing.mock_openai import MockOpenAI

RAW = "quillon.varrick@examplemail.org"
log = io.StringIO()
handler = logging.StreamHandler(log)
logging.basicConfig(level=logging.DEBUG, handlers=[handler])
for name in ("stealthflow", "uvicorn", "httpx", "httpcore", "aiohttp", "LiteLLM", "litellm", "asyncio"):
    logging.getLogger(name).setLevel(logging.DEBUG)

mode = {"now": "echo500"}


def hostile(body):
    text = json.dumps(body)
    if mode["now"] == "echo500":
        return JSONResponse({"error": {"message": f"bad request: {text}"}}, status_code=500)
    if mode["now"] == "echo400":
        return JSONResponse({"error": {"message": f"invalid: {text}"}}, status_code=400)
    if mode["now"] == "malformed":
        return Response(b"{not json " + text.encode(), media_type="application/json")
    if mode["now"] == "slow":

        async def drip():
            await asyncio.sleep(5)
            yield b"data: {}\n\n"

        return StreamingResponse(drip(), media_type="text/event-stream")

    async def cut():  # a stream cut inside a placeholder
        yield b'data: {"id":"x","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"content":"mail <EMA"}}]}\n\n'
        raise RuntimeError("cut")

    return StreamingResponse(cut(), media_type="text/event-stream")


p = make()
outputs = []
with MockOpenAI(raw=hostile) as up:
    for route in ("openai/mock-model", "deepseek/mock-model"):
        cfg = ProxyConfig(
            upstream=route, upstream_base=up.base_url, upstream_key_env="MOCK_KEY", timeout=2, total_timeout=3
        )
        with serve(create_proxy_app(p, cfg, TOKEN)) as port:
            u, h = f"http://127.0.0.1:{port}/v1/chat/completions", {"Authorization": f"Bearer {TOKEN}"}
            msg = {"model": "m", "messages": [{"role": "user", "content": f"write to {RAW}"}]}
            for now in ("echo500", "echo400", "malformed", "slow", "cut"):
                mode["now"] = now
                for stream in (False, True):
                    try:
                        r = httpx.post(u, headers=h, json={**msg, "stream": stream}, timeout=20)
                        outputs.append((route, now, stream, r.status_code, r.text))
                    except httpx.HTTPError as exc:
                        outputs.append((route, now, stream, type(exc).__name__, ""))
            bad_json = f'{{"model": "m", "messages": [{{"role": "user", "content": "{RAW}"'.encode()
            r = httpx.post(u, headers={**h, "content-type": "application/json"}, content=bad_json)
            outputs.append((route, "not json", False, r.status_code, r.text))
            r = httpx.post(u, headers=h, json={"model": "m", "messages": [{"role": RAW, "content": RAW}]})
            outputs.append((route, "bad role", False, r.status_code, r.text))
            with httpx.stream("POST", u, headers=h, json={**msg, "stream": True}, timeout=20) as r:  # hang up at once
                pass
leaks = []
for route, now, stream, status, text in outputs:
    print(f"{route:22s} {now:10s} stream={stream!s:5s} -> {status} {text[:90]!r}")
    if "quillon" in text:
        leaks.append((route, now, stream))
if "quillon" in log.getvalue():
    leaks.append("log")
    print([line for line in log.getvalue().splitlines() if "quillon" in line][:3])
print("log lines:", log.getvalue().count("\n"), "| raw values in answers or logs:", leaks or "none")
sys.exit(1 if leaks else 0)
