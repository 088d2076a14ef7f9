"""`load_once`: `functools.cache` for a loader that several threads may call at once (a server's first requests).

`functools.cache` lets each thread that misses the cache call the loader: two requests that both need the multilingual
student unpacked its 65 MB table twice, at once. Here the first caller of a key loads it while the others wait for its
result; callers of another key (the English student while the multilingual one loads) do not wait, and a key already
loaded costs a dict look-up, no lock. A loader that raises caches nothing: the next call tries again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

T = TypeVar("T")


def load_once(loader: Callable[..., T]) -> Callable[..., T]:
    """`loader` (positional, hashable arguments) called once per arguments, whatever the threads; `cache_clear()`
    forgets what it loaded, `__wrapped__` is the loader itself."""
    loaded: dict[tuple, T] = {}
    locks: dict[tuple, threading.Lock] = {}
    guard = threading.Lock()  # guards `locks`

    @wraps(loader)
    def once(*args):
        try:
            return loaded[args]
        except KeyError:
            pass
        with guard:
            lock = locks.setdefault(args, threading.Lock())
        with lock:
            if args not in loaded:
                loaded[args] = loader(*args)
            return loaded[args]

    def cache_clear() -> None:
        with guard:
            loaded.clear()

    once.cache_clear = cache_clear
    return once
