"""Loopback servers for tests and benchmarks: an ASGI app run with uvicorn on a free port in a
daemon thread; for servers started as a subprocess (`cli_command`), a free port and the wait
until they answer.

with serve(app) as port:
    httpx.get(f"http://127.0.0.1:{port}/health")
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator

import httpx
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


def wait_until_healthy(process: subprocess.Popen, port: int, timeout: float, why: Callable[[], str]) -> None:
    """Poll http://127.0.0.1:`port`/health until it answers 200; RuntimeError(why()) when `process`
    exits first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(why())
        time.sleep(0.2)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cli_command(*args: str) -> list[str]:
    """The `stealthflow` command line as a user runs it, from this interpreter (no installed script needed)."""
    return [sys.executable, "-c", "from stealthflow.cli import main; main()", *args]
