"""Torch work called from worker threads runs on one core.

Torch's CPU kernels use OpenMP (libgomp): each thread that runs a parallel op gets a team of
worker threads of its own, and once a process holds more OpenMP threads than CPUs, libgomp
stops the workers of every team spinning between ops. A server runs detection in worker threads
(the proxy through `anyio.to_thread.run_sync`): after a burst of concurrent requests had given
two of them teams, each later request paid about twice the tagger's cost per KB on 2 cores, for
as long as those threads lived (benchmarks/tagger_threads.py). So a thread other than the main
one runs the models single-threaded: it starts no team, and concurrent requests still share the
cores. The main thread (a command, a training run) keeps the thread count it was given.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def single_threaded_in_workers(fn: Callable[P, R]) -> Callable[P, R]:
    """`fn`, run on one torch thread when called from any thread but the main one."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if threading.current_thread() is not threading.main_thread():
            import torch

            if torch.get_num_threads() != 1:
                torch.set_num_threads(1)  # OpenMP's count is per thread: the main thread keeps its own
        return fn(*args, **kwargs)

    return run
