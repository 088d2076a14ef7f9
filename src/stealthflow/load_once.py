"""`load_once`: `functools.cache` for a loader that several threads may call at once (a server's first requests).

`functools.cache` lets each thread that misses the cache call the loader: two requests that both need the multilingual
student unpacked its 65 MB table twice, at once. Here the first caller of a key loads it while the others wait for its
result; callers of another key (the English student while the multilingual one loads) do not wait, and a key already
loaded costs a dict look-up, no lock. A loader that raises caches nothing (the next call tries again), unless the error
is of a type given as `kept`: that failure is the key's answer from then on, raised again without loading (a package
that cannot be read is not re-read by every thread that waited for it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial, wraps
from typing import TypeVar

T = TypeVar("T")


def load_once(loader: Callable[..., T] | None = None, *, kept: tuple[type[Exception], ...] = ()) -> Callable[..., T]:
    """`loader` (positional, hashable arguments) called once per arguments, whatever the threads (a failure of a type
    in `kept` counts as its answer); `cache_clear()` forgets what it loaded or failed, `__wrapped__` is the loader
    itself. `@load_once(kept=(SomeError,))` decorates too."""
    if loader is None:
        return partial(load_once, kept=kept)
    loaded: dict[tuple, T] = {}
    failed: dict[tuple, Exception] = {}
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
            if args in failed:
                raise failed[args]
            if args not in loaded:
                try:
                    loaded[args] = loader(*args)
                except kept as failure:
                    failed[args] = failure
                    raise
            return loaded[args]

    def cache_clear() -> None:
        with guard:
            loaded.clear()
            failed.clear()

    once.cache_clear = cache_clear
    return once
