"""benchmarks/proxy_time_split.py: the proxy's threads' CPU counted apart from the client's (real threads, real
clocks), and the CPU a stage spends outside its nested stages (`report`, on hand-made rows: a fake run)."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from proxy_time_split import (  # noqa: E402
    ALL,
    CPU,
    EVENT_LOOP,
    LOOP,
    OTHERS,
    SPENT,
    add_thread_cpu,
    report,
    thread_seconds,
)


def _spin(seconds: float) -> None:
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def test_thread_cpu_is_the_proxy_threads_by_kind_not_the_clients():
    before = thread_seconds()
    done, release = threading.Barrier(3), threading.Event()

    def busy(seconds: float, loop: bool) -> None:
        if loop:  # as the chat handler's wrapper marks the thread it runs in
            EVENT_LOOP.add(threading.get_ident())
        _spin(seconds)
        done.wait()
        release.wait()  # alive while counted: an ended thread's clock is gone

    threads = [
        threading.Thread(target=busy, args=(0.06, True)),
        threading.Thread(target=busy, args=(0.03, False)),
    ]
    for thread in threads:
        thread.start()
    _spin(0.2)  # the client's (this test's main thread) CPU: not the proxy's
    done.wait()
    SPENT.clear()
    try:
        add_thread_cpu(before)
    finally:
        release.set()
        for thread in threads:
            thread.join()
        EVENT_LOOP.clear()
    assert 0.06 <= SPENT[CPU + LOOP] < 0.15
    assert 0.03 <= SPENT[CPU + OTHERS] < 0.12
    assert abs(SPENT[CPU + ALL] - SPENT[CPU + LOOP] - SPENT[CPU + OTHERS]) < 1e-9


def test_a_stage_rest_counts_only_the_cpu_of_its_own_thread():
    stages = {"handler (chat)": 15.0, "protect_many": 12.0, "restore the reply": 1.0}
    cpu = {"handler (chat)": 3.0, "protect_many": 12.0, "restore the reply": 1.0, ALL: 15.0, LOOP: 3.0, OTHERS: 12.0}
    row = {**stages, **{CPU + stage: ms for stage, ms in cpu.items()}, "direct": 1.0, "proxied": 16.0}
    lines = report({"requests": 1, "stream": False, "load_average": 0.0, "rows": [row]}).splitlines()
    handler = next(i for i, line in enumerate(lines) if "handler (chat)" in line)
    rest = lines[handler + 1]
    # the handler's own thread (the event loop) spent 3 ms, 1 of them restoring: 2 ms elsewhere; protect_many's 12 ms
    # were a worker thread's, not the loop's
    assert "rest" in rest and "| 2.00 | 13 % |" in rest
    assert "| **15.00** | 100 % |" in next(line for line in lines if ALL in line)
