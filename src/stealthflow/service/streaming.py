"""POST /restore/stream?session=ID[&request=ID]: a reply restored as it arrives, chunked body in,
chunked body out (with `request`: only that request's placeholders, as `/restore`).

A plain ASGI endpoint rather than a StreamingResponse: it reads the request body and writes the
response in one loop, so nothing else competes for `receive` (Starlette's disconnect listener
would swallow body chunks). Half a placeholder at the end of a chunk is held back until the next
chunk decides (`StreamRestorer`); the count of placeholders not issued to the session cannot be a
header of a response already under way, so `/restore` is the call that reports them.
"""

from __future__ import annotations

import codecs
from urllib.parse import parse_qs

from starlette.types import Receive, Scope, Send

from stealthflow.pipeline.protector import Protector
from stealthflow.placeholders.restore import StreamRestorer
from stealthflow.service.requests import UNKNOWN_REQUEST, session_refused
from stealthflow.service.security import error_response


class RestoreStream:
    def __init__(self, protector: Protector):
        self.protector = protector

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        session, request = (query.get("session") or [""])[0], (query.get("request") or [None])[0]
        if not session:
            await error_response(422, "give the session as a query parameter: /restore/stream?session=ID")(
                scope, receive, send
            )
            return
        if refused := session_refused(session):
            await error_response(403, refused)(scope, receive, send)
            return
        restore_scope = self.protector.request_scope(session, request) if request is not None else None
        if request is not None and restore_scope is None:
            await error_response(404, UNKNOWN_REQUEST)(scope, receive, send)
            return
        restorer = StreamRestorer(self.protector.resolver(session, restore_scope))
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # a chunk may split a character
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain; charset=utf-8")]}
        )
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
