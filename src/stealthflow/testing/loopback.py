"""Run an ASGI app with uvicorn on a free loopback port in a daemon thread (tests, benchmarks).

with serve(app) as port:
    httpx.get(f"http://127.0.0.1:{port}/health")
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import uvicorn


@contextlib.contextmanager
def serve(app, timeout: float = 10.0) -> Iterator[int]:
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", access_log=False, lifespan="off")
    )
    thread = threading.Thread(target=server.run, name="loopback-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=timeout)
