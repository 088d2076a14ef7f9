"""Restore of hostile replies: a reply full of placeholder look-alikes costs time linear in its length
(a few seconds per 10 MB, not minutes), and a placeholder's place (in a URL or in text) is told as before."""

from __future__ import annotations

import time

import pytest
from placeholder_fixtures import make_protector, protect_config

from stealthflow.placeholders.context import in_url
from stealthflow.placeholders.restore import Reference, restore_text
from stealthflow.testing.hostile import hostile_text


def _fake_resolve(ref: Reference) -> str | None:  # a fake vault: the session holds <EMAIL_7> only
    return "dana@mailbox.org" if (ref.type, ref.index) == ("EMAIL", 7) else None


def _cpu(run) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


@pytest.mark.timeout(120)
def test_restoring_placeholder_look_alikes_is_linear():
    small, large = (hostile_text("placeholder look-alikes", size) for size in (250_000, 1_000_000))
    restore_text(small[:10_000], _fake_resolve)  # warm
    small_cpu = min(_cpu(lambda: restore_text(small, _fake_resolve)) for _ in range(2))
    large_cpu = _cpu(lambda: restore_text(large, _fake_resolve))
    assert large_cpu < 8 * max(small_cpu, 0.05), (small_cpu, large_cpu)  # 4x the text; quadratic would be 16x


@pytest.mark.timeout(300)
def test_a_reply_of_look_alikes_restores_end_to_end(tmp_path, monkeypatch):
    """A real vault file: the placeholder the session issued comes back wherever it stands, the
    look-alikes it did not issue stay as they are."""
    protector = make_protector(protect_config(tmp_path, monkeypatch))
    issued = protector.protect("mail dana@mailbox.org", "s").text.split()[-1]
    reply = hostile_text("placeholder look-alikes", 2_000_000) + f" {issued}"
    assert protector.restore(reply, "s").text == reply.replace(issued, "dana@mailbox.org")


@pytest.mark.parametrize(
    ("before", "url"),
    [
        ("see ", False),
        ("see https://x.example/c?k=", True),
        ("see https://x.example/" + "a" * 1_000 + "?k=", True),  # no space within the first look back
        ("see " + "a" * 3_000, True),  # a run longer than a URL may be: treated as one
        ("https://x.example/ then " + "a" * 200 + "=", False),
        ("[link](//x.example/", True),
    ],
)
def test_a_placeholder_in_a_url_is_told_from_one_in_text(before, url):
    assert in_url(before) is url
