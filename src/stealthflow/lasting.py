"""Building what lives as long as the process (a command's imports, a loaded model) without the cyclic
garbage collector running over it again and again while it is built.

A cold call builds a few hundred thousand objects that are never garbage; each young-generation
collection walks the new ones and each full one all of them: ~10 % of a cold `protect`'s CPU. Inside
`lasting_objects()` the collector waits; after it, every object alive is frozen (`gc.freeze`: left out
of later collections, and out of `gc.get_referrers`' search; a cycle alive then is never collected)
and collection resumes as it was. A server (`run_server`) freezes its start-up heap the same way; the
rewrite's spaCy pipeline, loaded at its first cue, may then freeze the objects of requests in flight:
they are still freed by reference counting, only cycles among them would stay. Measured
(`benchmarks/startup.py`, CPU): without the freeze, the default rewrite's cold `protect` cost ~1 s more, the
later full collections walking spaCy's and detection's objects.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def lasting_objects() -> Iterator[None]:
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
