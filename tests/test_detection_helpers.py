"""Detection shared with helper processes (placeholders/helpers.py): real child processes, the
same spans as detecting in one process, and nothing lost when a helper dies mid-batch."""

from __future__ import annotations

import os
import random
import signal

import httpx
import pytest
from test_security_scope import TOKEN, proxy_for

import stealthflow.placeholders.helpers as helpers_module
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.helpers import MAX_RESTARTS, DetectionStalled
from stealthflow.placeholders.recognizers import Recognizer, build_recognizers
from stealthflow.placeholders.types import Span
from stealthflow.testing.mock_openai import Reply


def long_text(seed: int, size: int = 20_000) -> str:
    rng = random.Random(seed)
    sentences = [
        "My name is Anna Berg and my email is anna.berg@mailbox.org.",
        "Call me at (415) 555-{n} after six.",
        "The card is 4716 2830 5914 4476, the server 10.0.0.{d}.",
        "my password is Tr0ub{n}!x and the iban DE44370400440532913000",
        "We moved the meeting to the small room on the third floor.",
        "visit mailbox.org/path?id={n} or ring +44 20 7946 0{n3}",
    ]
    parts = []
    while sum(map(len, parts)) < size:
        parts.append(
            rng.choice(sentences).format(n=rng.randint(1000, 9999), d=rng.randint(1, 254), n3=rng.randint(100, 999))
        )
    return " ".join(parts)


class OnlyHere(Recognizer):
    """Registered in no registry: a helper process cannot build it, so it must run here."""

    name, type = "only_here", "REAL_NAME"

    def find(self, text: str) -> list[Span]:
        at = text.find("Anna Berg")
        return [self.span(at, at + 9)] if at >= 0 else []


@pytest.fixture(scope="module")
def shared():
    detector = Detector([*build_recognizers(), OnlyHere()])
    detector.start_helpers(1)
    assert detector.helpers.wait_ready(120), "the helper process did not start"
    yield detector
    detector.close()


def test_helpers_find_exactly_the_spans_one_process_finds(shared):
    alone = Detector([*build_recognizers(), OnlyHere()])
    texts = [long_text(seed) for seed in range(3)]
    for _ in range(2):  # the second batch is dealt by the costs the first one measured
        assert shared.deterministic_many(texts) == alone.deterministic_many(texts)
    assert shared.helpers._cost.keys() >= {r.name for r in alone.recognizers}  # every recognizer ran, here or there
    assert any(span.source == "only_here" for span in shared.deterministic(texts[0]))
    short = "mail anna.berg@mailbox.org"  # below min_chars: stays in this process
    assert shared.deterministic(short) == alone.deterministic(short)


def test_a_helper_that_dies_loses_nothing_and_is_replaced(shared):
    alone = Detector([*build_recognizers(), OnlyHere()])
    text = long_text(7)
    helper = shared.helpers._helpers[0]
    send = helper.send

    def die_then_send(job):  # it dies after it was found ready: mid-batch, its share must run here
        helper.process.kill()
        helper.process.wait()
        send(job)

    helper.send = die_then_send
    assert shared.deterministic_many([text]) == alone.deterministic_many([text])
    assert helper.broken and shared.helpers._helpers[0] is not helper  # a fresh helper replaced it
    assert shared.helpers.wait_ready(120)
    shared.helpers._helpers[0].process.kill()  # one that died between batches is replaced before the next
    shared.helpers._helpers[0].process.wait()
    assert shared.deterministic_many([long_text(8)]) == alone.deterministic_many([long_text(8)])
    assert shared.helpers.wait_ready(120)
    assert shared.deterministic_many([long_text(9)]) == alone.deterministic_many([long_text(9)])
    shared.helpers._restarts = MAX_RESTARTS  # one that keeps dying is left out, not spawned again per batch
    shared.helpers._helpers[0].process.kill()
    shared.helpers._helpers[0].process.wait()
    assert shared.deterministic_many([long_text(10)]) == alone.deterministic_many([long_text(10)])
    assert shared.helpers._helpers == []


@pytest.fixture
def stopped_helper(monkeypatch):
    """A detector whose one real helper process is stopped (SIGSTOP: it takes its share and never answers), with a
    1 s stall limit and no lower bound on the batch's length."""
    monkeypatch.setattr(helpers_module, "STALL_SECONDS", 1.0)
    detector = Detector()
    detector.start_helpers(1)
    assert detector.helpers.wait_ready(120), "the helper process did not start"
    detector.helpers.min_chars = 0
    stopped = detector.helpers._helpers[0]
    os.kill(stopped.process.pid, signal.SIGSTOP)
    yield detector, stopped
    detector.close()


def test_a_stalled_helpers_share_is_refused_not_run_again_here(stopped_helper, monkeypatch):
    """rev26 H1's backstop: the share of a helper that stalls was run again in this process, holding its GIL as long
    (a server's other clients waited 74 s). Now the batch is refused (`DetectionStalled`) and the helper replaced (the
    stopped process killed); the next batch is detected in full."""
    detector, stopped = stopped_helper
    with pytest.raises(DetectionStalled, match="refused, nothing was sent"):
        detector.deterministic_many([long_text(11, 2_000)])
    assert stopped.process.poll() is not None and detector.helpers._helpers[0] is not stopped
    assert detector.helpers.wait_ready(120)
    monkeypatch.setattr(helpers_module, "STALL_SECONDS", 120.0)  # a loaded machine's 20 KB may take over 1 s
    assert detector.deterministic_many([long_text(12)]) == Detector().deterministic_many([long_text(12)])


def test_the_proxy_refuses_a_request_whose_detection_stalls_and_sends_nothing(stopped_helper, protector):
    """The proxy end to end (FAKE upstream): a 422 that says why, and the upstream got no request."""
    protector.detector = stopped_helper[0]
    with proxy_for(protector, lambda body: Reply(content="unused")) as (url, upstream):
        body = {"model": "m", "messages": [{"role": "user", "content": long_text(13, 2_000)}]}
        response = httpx.post(url, json=body, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)
        assert response.status_code == 422 and "refused, nothing was sent" in response.text
        assert upstream.received == []
