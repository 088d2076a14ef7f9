"""Helper processes that share the pattern recognizers of a long text with this process.

Regular expressions hold the GIL, so threads cannot share detection; processes can. A server
(the proxy, `serve`) sees long prompts: RAG context, a whole chat history. For a batch of at
least `min_chars`, the pattern recognizers are dealt out between this process and its helpers,
the costliest first to whoever has the least work so far (costs: the time per character each
recognizer took before), and every share runs at once; spans come back as offsets, type and
score. Shorter batches stay in this process: a round trip would cost more than it saves.

A helper is a plain `python -m` child on a socket pair (multiprocessing's spawn would re-import
the caller's main module, which a script without a `__main__` guard does not survive). One that
is still starting or busy with another request is not used; one that fails or stalls mid-batch
is replaced: the share of one that died runs here, so a batch's spans are always every recognizer's; one that stalls
(`STALL_SECONDS`) refuses the batch (`DetectionStalled`), since its share run here would hold this process's GIL as long.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: a server catches `DetectionStalled` without loading the recognizers
    from stealthflow.placeholders.recognizers import Recognizer
    from stealthflow.placeholders.types import Span

STALL_SECONDS = 30.0  # a helper this late with its share is taken for stuck (1 MB of text takes ~0.5 s)
_COST_MEMORY = 0.8  # weight of the past in each recognizer's cost per character
MAX_RESTARTS = 10


class DetectionStalled(RuntimeError):
    """A helper was still busy with its share of a batch after `STALL_SECONDS`: the texts are refused, nothing was
    masked or sent. Its share is not run again in this process, where a regular expression holds the GIL (and a server
    answers no other client) as long as it runs (rev26 H1: one request of "dr dr dr ..." froze the proxy for 74 s)."""

    def __init__(self) -> None:
        super().__init__(
            f"detecting personal data in this text took longer than {STALL_SECONDS:.0f} s (a text written to stall "
            "it?); refused, nothing was sent"
        )


class DetectionHelpers:
    def __init__(self, recognizer_names: list[str], processes: int = 1, min_chars: int = 8_000):
        """`recognizer_names`: the pattern recognizers the helpers build, by their registered names
        (a recognizer only this process knows runs here)."""
        self._names = recognizer_names
        self._helpers = [_Helper(recognizer_names) for _ in range(processes)]
        self._lock = threading.Lock()  # one batch at a time; another thread's batch runs in its own process
        self._cost: dict[str, float] = {}  # recognizer name -> seconds per character
        self._restarts = 0
        self.min_chars = min_chars

    def wait_ready(self, timeout: float = 60.0) -> bool:
        """Wait until every helper has built its recognizers (a server before it takes requests:
        a helper importing them competes for the CPU with the first requests)."""
        deadline = time.monotonic() + timeout
        while not all(helper.ready() or helper.broken for helper in self._helpers):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return all(not helper.broken for helper in self._helpers)

    def find_many(self, recognizers: list[Recognizer], texts: list[str]) -> list[list[list[Span]]] | None:
        """Per recognizer, per text, its spans; None when the batch is short or no helper is free. A
        `DetectionStalled` when a helper stalls (it is replaced)."""
        chars = sum(map(len, texts))
        if chars < self.min_chars or not self._lock.acquire(blocking=False):
            return None
        try:
            self._replace_lost()
            helpers = [helper for helper in self._helpers if helper.ready()]
            if not helpers:
                return None
            mine, *theirs = self._deal([recognizer.name for recognizer in recognizers], 1 + len(helpers))
            for helper, names in zip(helpers, theirs, strict=True):
                helper.send((names, texts))
            found = {
                recognizer.name: self._run(recognizer, texts, chars)
                for recognizer in recognizers
                if recognizer.name in mine
            }
            by_name = {recognizer.name: recognizer for recognizer in recognizers}
            for helper in helpers:
                for name, spans, seconds in helper.receive(STALL_SECONDS):
                    recognizer = by_name[name]
                    found[name] = [
                        [recognizer.span(start, end, score, span_type) for start, end, span_type, score in text_spans]
                        for text_spans in spans
                    ]
                    self._learn(name, seconds, chars)
            stalled = any(helper.stalled for helper in helpers)
            self._replace_lost()  # a helper that stalled or died: its share (missing here) runs below, if it died
            if stalled:
                raise DetectionStalled()
            return [found[r.name] if r.name in found else self._run(r, texts, chars) for r in recognizers]
        finally:
            self._lock.release()

    def _replace_lost(self) -> None:
        """A fresh process for each one that failed or died, up to MAX_RESTARTS in all (one that
        cannot start, say a broken install, is then left out instead of spawned again per batch)."""
        for helper in [helper for helper in self._helpers if helper.broken or helper.process.poll() is not None]:
            helper.close()
            self._helpers.remove(helper)
            if self._restarts < MAX_RESTARTS:
                self._restarts += 1
                self._helpers.append(_Helper(self._names))

    def _deal(self, names: list[str], hands: int) -> list[set[str]]:
        """Longest first, each to the hand with the least work so far (what is not known yet counts
        as the average of what is)."""
        known = [self._cost[name] for name in names if name in self._cost]
        unknown = sum(known) / len(known) if known else 1.0
        loads, dealt = [0.0] * hands, [set() for _ in range(hands)]
        for name in sorted(names, key=lambda name: -self._cost.get(name, unknown)):
            hand = loads.index(min(loads))
            loads[hand] += self._cost.get(name, unknown)
            dealt[hand].add(name)
        return dealt

    def _run(self, recognizer: Recognizer, texts: list[str], chars: int) -> list[list[Span]]:
        started = time.perf_counter()
        spans = recognizer.find_many(texts)
        self._learn(recognizer.name, time.perf_counter() - started, chars)
        return spans

    def _learn(self, name: str, seconds: float, chars: int) -> None:
        self._cost[name] = _COST_MEMORY * self._cost.get(name, seconds / chars) + (1 - _COST_MEMORY) * seconds / chars

    def close(self) -> None:
        for helper in self._helpers:
            helper.close()
        self._helpers = []


class _Helper:
    """One child process; `ready()` never waits (it starts in the background)."""

    def __init__(self, recognizer_names: list[str]):
        here, there = socket.socketpair()
        command = [sys.executable, "-m", __name__, str(there.fileno()), json.dumps(recognizer_names)]
        self.process = subprocess.Popen(command, pass_fds=[there.fileno()], stdin=subprocess.DEVNULL)
        there.close()
        self.connection = Connection(here.detach())
        self.started = self.broken = self.stalled = False

    def ready(self) -> bool:
        try:
            if not self.started and self.connection.poll():
                self.started = self.connection.recv() == "ready"
        except (EOFError, OSError):
            self.broken = True
        return self.started and not self.broken and self.process.poll() is None

    def send(self, job: tuple[set[str], list[str]]) -> None:
        try:
            self.connection.send(job)
        except (OSError, ValueError):
            self.broken = True

    def receive(self, timeout: float) -> list[tuple[str, list, float]]:
        if self.broken:
            return []
        try:
            if self.connection.poll(timeout):
                return self.connection.recv()
            self.stalled = True  # a dead one's connection polls as readable (its end), then fails to read
        except (EOFError, OSError):
            pass
        self.broken = True
        return []

    def close(self) -> None:
        self.connection.close()  # the child's recv then ends: it exits
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


def serve(connection: Connection, recognizer_names: list[str]) -> None:
    """A helper's life: build the pattern recognizers, then run the share of each batch it is sent
    until the connection closes. A recognizer it does not know or that fails is left out of its
    answer: the caller runs it."""
    from stealthflow.placeholders.recognizers import build_recognizers
    from stealthflow.placeholders.recognizers import recognizer_names as registered_names

    known = [name for name in recognizer_names if name in registered_names()]
    recognizers = {recognizer.name: recognizer for recognizer in build_recognizers(known)}
    connection.send("ready")
    while True:
        try:
            names, texts = connection.recv()
        except (EOFError, OSError):
            return
        done = []
        for name in names:
            if name not in recognizers:
                continue
            started = time.perf_counter()
            try:
                spans = recognizers[name].find_many(texts)
            except Exception:  # noqa: BLE001 (the caller runs it again and raises where it can be seen)
                continue
            done.append(
                (
                    name,
                    [[(s.start, s.end, s.type, s.score) for s in text_spans] for text_spans in spans],
                    time.perf_counter() - started,
                )
            )
        connection.send(done)


if __name__ == "__main__":
    serve(Connection(int(sys.argv[1])), json.loads(sys.argv[2]))
