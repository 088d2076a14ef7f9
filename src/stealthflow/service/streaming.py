"""POST /restore/stream?session=ID: a reply restored as it arrives, chunked body in, chunked body out.

A plain ASGI endpoint rather than a StreamingResponse: it reads the request body and writes the
response in one loop, so nothing else competes for `receive` (Starlette's disconnect listener
would swallow body chunks). Half a placeholder at the end of a chunk is held back until the next
chunk decides (`StreamRestorer`); the count of placeholders not issued to the session cannot be a
header of a response already under way, so `/restore` is the call that reports them.
"""

from __future__ import annotations

import codecs
from urllib.parse import parse_qs

from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from stealthflow.pipeline.protector import Protector
from stealthflow.placeholders.restore import StreamRestorer


class RestoreStream:
    def __init__(self, protector: Protector):
        self.protector = protector

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("session") or [""])[0]
        if not session:
            error = {"error": {"message": "give the session as a query parameter: /restore/stream?session=ID", "type": "invalid_request_error", "code": 422}}
            await JSONResponse(error, status_code=422)(scope, receive, send)
            return
        restorer = StreamRestorer(self.protector.resolver(session))
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # a chunk may split a character
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            more = message.get("more_body", False)
            text = restorer.feed(decoder.decode(message.get("body", b""), final=not more))
            if not more:
                text += restorer.finish()
            if text or not more:
                await send({"type": "http.response.body", "body": text.encode(), "more_body": more})
            if not more:
                return
