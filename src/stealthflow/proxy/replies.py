"""Put the values back into an OpenAI chat reply, whole or streamed.

Message text and tool-call arguments are restored; arguments are JSON, so their values go in
JSON-escaped (`json_string`) and the arguments stay valid JSON. A streamed reply gets one
`StreamRestorer` per choice and field (and per tool call): a placeholder cut across chunks is
held back and emitted whole with a later chunk, at the latest with the choice's finish chunk.
Whether a placeholder stands in a URL is judged on its own choice and field, and also on the text
of the whole reply so far in the order it was sent: a client that joins every chunk's first choice
must not find a URL opened in choice 0 carrying a value restored in choice 1. A tool call's arguments are judged on
their own JSON (`placeholders.json_urls`): an agent runs them, no one reads them in the reply's text. Streams are keyed
by index, which must be a plain non-negative int, the one index every client reads alike (`slot`), and what a tool
call's arguments left open is read on after its choice's finish chunk: arguments sent after it are the same call's to
a client that keeps joining.
Placeholders the resolver withholds (`placeholders.scope`) stay as they are and are counted. Every text of the reply is
also kept as restored and as received, with the placeholders restored in that text alone (`texts`), for
`proxy.history`: a text the client sends back vouches only for the values it holds (rev24 E7).
"""

from __future__ import annotations

from stealthflow.placeholders.context import Surroundings
from stealthflow.placeholders.json_urls import JsonUrls
from stealthflow.placeholders.restore import Reference, Resolver, StreamRestorer, Withheld, restore_text
from stealthflow.placeholders.scope import IN_TOOL_CALL
from stealthflow.proxy.errors import ProxyError

TEXT_FIELDS = ("reasoning_content", "content")  # in the order a client shows them


def slot(index: object) -> int:
    """The choice or tool call a streamed delta with this `index` belongs to. Clients disagree on any index but a plain
    non-negative int (Python takes `True` as 1 and `-1` as the last of a list, openai-node `true` as a name of its
    own, `None` as a key of its own or an error), so a value restored where the proxy keys such a delta could join
    another call's URL in the client: the stream is refused (a 502 error event) instead."""
    if type(index) is int and index >= 0:
        return index
    raise ProxyError(
        502,
        "the upstream sent a stream chunk whose choice or tool call index is not a non-negative integer",
        "upstream_error",
    )


class ReplyRestorer:
    """Restores one reply for one session, counting placeholders restored and left as they were."""

    def __init__(self, resolve: Resolver, tools: frozenset[str] = frozenset()):
        """`tools`: the names of the tools whose calls' arguments get values (`"*"`: every tool); any other tool call's
        placeholders are withheld (`in_tool_call`: `proxy.restore_tool_arguments`)."""
        self.resolve = resolve
        self.tools = tools
        self._texts: list[tuple[str, str, frozenset]] = []  # (restored, received, keys restored) of each whole text
        self._received: dict[tuple, list[str]] = {}  # what each stream got, and what it emitted
        self._emitted: dict[tuple, list[str]] = {}
        self._keys: dict[tuple, set[tuple]] = {}  # the (type, index or token) of each placeholder a stream restored
        self._ids: list[str] = []  # the ids and names of the reply's tool calls, as sent
        self.restored = 0
        self.unresolved = 0
        self.withheld: list[tuple[str, str]] = []  # (placeholder, why) of those the resolver withheld
        self._streams: dict[tuple, StreamRestorer] = {}  # (choice, field) or (choice, "tool", index), by `slot`
        self._finished: dict[tuple, JsonUrls] = {}  # what a tool call's arguments read, once its choice finished
        self._names: dict[tuple, object] = {}  # each streamed tool call's name, as first sent (None: none before it)
        self._tool_choice: int | None = None  # the one choice of a stream that may send tool calls (`_one_choice`)
        # The streamed text sent so far, every choice's text fields in order, as read (`_share`): while one text field
        # alone has sent text (most replies), its stream's own.
        self._first: Surroundings | None = None
        self._sent: Surroundings | None = None

    def texts(self) -> list[tuple[str, str, frozenset]]:
        """(as restored, as received, the keys of the placeholders restored in it) of every text of the reply: its text
        fields and tool-call arguments, and the ids and names of its tool calls (which the client sends back in its
        history and in tool results; nothing is restored in them)."""
        streamed = [
            ("".join(self._emitted[key]), "".join(got), frozenset(self._keys.get(key, ())))
            for key, got in self._received.items()
        ]
        return self._texts + streamed + [(name, name, frozenset()) for name in self._ids]

    # -- a whole reply -----------------------------------------------------------------
    def whole(self, reply: dict) -> dict:
        for choice in reply.get("choices") or []:
            message = choice.get("message") or {}
            fields = [field for field in TEXT_FIELDS if isinstance(message.get(field), str)]
            # one text to a client that shows them in a row, as a stream's (`_share`): a URL the reasoning opens
            # goes on in the content (rev24 E1)
            sent = Surroundings() if len(fields) > 1 else None
            for field in fields:
                message[field] = self._restore(message[field], shared=sent)
                if sent is not None:
                    sent.feed(message[field])
            for call in message.get("tool_calls") or []:
                self._note_ids(call)
                function = call.get("function") or {}
                if isinstance(function.get("arguments"), str):
                    resolve = self._tool_resolver(function.get("name"))
                    function["arguments"] = self._restore(function["arguments"], resolve, json_string=True)
        return reply

    def _tool_resolver(self, name: object) -> Resolver:
        """The resolver of a tool call's arguments: a value goes in only for a tool the user allows (`tools`). What a
        tool does with it the proxy cannot see: a shell's `echo <EMAIL_1> | base64` gives the value back to the
        upstream in the next request, in a form no re-masking reads (rev21 finding 1)."""
        if isinstance(name, str) and ("*" in self.tools or name in self.tools):  # no name yet: no value
            return self.resolve

        def withhold(ref: Reference) -> str | Withheld | None:
            value = self.resolve(ref)
            return IN_TOOL_CALL if isinstance(value, str) else value

        return withhold

    def _restore(
        self, text: str, resolve: Resolver | None = None, json_string: bool = False, shared: Surroundings | None = None
    ) -> str:
        keys: set[tuple] = set()
        result = restore_text(text, _noting(resolve or self.resolve, keys), json_string, shared)
        self._texts.append((result.text, text, frozenset(keys)))
        self.restored += result.restored
        self.unresolved += len(result.unresolved)
        self.withheld += result.withheld
        return result.text

    # -- a streamed reply ----------------------------------------------------------------
    def chunk(self, chunk: dict) -> dict:
        """The chunk with what is safe to emit now; a finish chunk carries what was held back."""
        return self.chunks([chunk])[0]

    def chunks(self, batch: list[dict]) -> list[dict]:
        """`chunk` for each chunk of one upstream read (sent on in one write). A run of pieces one stream gets in a
        row is restored as one text, carried by the run's last piece (the others are emptied): one scan per run, not
        per piece, and a client that joins the deltas gets the same text."""
        run: list[tuple[tuple, dict, str]] = []  # (stream, holder, field) of the pieces in a row of one stream
        for chunk in batch:
            for choice in chunk.get("choices") or []:
                for piece in self._pieces(choice):
                    if run and piece[0] != run[0][0]:
                        self._restore_run(run)
                        run = []
                    run.append(piece)
                if choice.get("finish_reason"):
                    if run:
                        self._restore_run(run)
                        run = []
                    self._flush(choice["index"], choice["delta"])
        if run:
            self._restore_run(run)
        return batch

    def _pieces(self, choice: dict) -> list[tuple[tuple, dict, str]]:
        """(stream, holder, field) of each text a choice's delta adds to a stream, in the order they are read."""
        index = slot(choice.get("index"))
        delta = choice.setdefault("delta", {})
        pieces = []
        for field in TEXT_FIELDS:
            if isinstance(delta.get(field), str):
                pieces.append(((index, field), delta, field))
        for call in delta.get("tool_calls") or ():
            self._one_choice(index)
            number = slot(call.get("index"))
            self._note_ids(call)
            function = call.get("function") or {}
            self._name((index, "tool", number), function.get("name"))
            if isinstance(function.get("arguments"), str):
                pieces.append(((index, "tool", number), function, "arguments"))
        return pieces

    def _restore_run(self, run: list[tuple[tuple, dict, str]]) -> None:
        """Restore a run of one stream's pieces as one text."""
        key, holder, field = run[-1]
        text = holder[field] if len(run) == 1 else "".join(piece[name] for _, piece, name in run)
        for _, piece, name in run[:-1]:
            piece[name] = ""
        holder[field] = self._feed(key, text)

    def tail(self, last: dict) -> dict | None:
        """A closing chunk (shaped like `last`) for text still held back when the upstream
        stream ended without a finish chunk; None when nothing is."""
        held = list(dict.fromkeys(key[0] for key in self._streams))
        if not held:
            return None
        choices = [{"index": index, "delta": {}} for index in held]
        for choice in choices:
            self._flush(choice["index"], choice["delta"])
        return {**{k: last[k] for k in ("id", "object", "created", "model") if k in last}, "choices": choices}

    def _note_ids(self, call: object) -> None:
        if not isinstance(call, dict):
            return
        function = call.get("function")
        name = function.get("name") if isinstance(function, dict) else None
        self._ids += [text for text in (call.get("id"), name) if isinstance(text, str) and text]

    def _feed(self, key: tuple, text: str) -> str:
        stream = self._stream(key)
        self._received.setdefault(key, []).append(text)
        if key[1] == "tool":  # what a client shows is text: tool-call arguments are a program's
            emitted = stream.feed(text)
        else:
            self._share(stream.scanner.context)
            stream.scanner.shared = self._sent
            emitted = stream.feed(text)
            if self._sent is not None:
                self._sent.feed(emitted)
        self._emitted.setdefault(key, []).append(emitted)
        return emitted

    def _share(self, own: Surroundings | JsonUrls) -> None:
        """Keep the whole reply's text (`_sent`) once a second text stream sends some: until then it is the first
        stream's own text, which that stream's surroundings (`own`) read already."""
        if self._sent is not None or not isinstance(own, Surroundings):
            return
        if self._first is None:
            self._first = own
        elif own is not self._first:
            self._sent = self._first.joined("")

    def _one_choice(self, index: int) -> None:
        """Tool calls streamed in two choices are refused: a client that joins every chunk's first choice (the usual
        agent loop) joins one choice's arguments, restored for its allowed tool, to the call another choice named at
        the same tool-call index (`run_shell`), whose name it saw first (rev22 F4)."""
        if self._tool_choice is None:
            self._tool_choice = index
        elif index != self._tool_choice:
            raise ProxyError(502, "the upstream sent tool calls in more than one choice of a stream", "upstream_error")

    def _name(self, key: tuple, name: object) -> None:
        """Keep a streamed tool call's name; a name other than its first (or one after its arguments began) would make
        the client run another tool with arguments restored for this one: the stream is refused."""
        if name is None or self._names.setdefault(key, name) == name:
            return
        raise ProxyError(502, "the upstream renamed a tool call in the middle of its stream", "upstream_error")

    def _stream(self, key: tuple) -> StreamRestorer:
        if key not in self._streams:
            if key[1] == "tool":
                resolve = self._tool_resolver(self._names.setdefault(key, None))
            else:
                resolve = self.resolve
            self._streams[key] = StreamRestorer(_noting(resolve, self._keys.setdefault(key, set())), key[1] == "tool")
            if key in self._finished:  # arguments after the finish chunk: read on from where they stopped
                self._streams[key].scanner.context = self._finished[key]
        return self._streams[key]

    def _flush(self, index: int, delta: dict) -> None:
        for key in [k for k in self._streams if k[0] == index]:
            stream = self._streams.pop(key)
            held = stream.finish()
            if key[1] == "tool":
                self._finished[key] = stream.scanner.context
            self.restored += stream.scanner.restored
            self.unresolved += len(stream.unresolved)
            self.withheld += stream.withheld
            if not held:
                continue
            self._emitted.setdefault(key, []).append(held)
            if key[1] != "tool":
                delta[key[1]] = (delta.get(key[1]) or "") + held
                continue
            calls = delta.setdefault("tool_calls", [])
            call = next((c for c in calls if c.get("index") == key[2]), None)
            if call is None:
                calls.append({"index": key[2], "function": {"arguments": held}})
            else:
                function = call.setdefault("function", {})
                function["arguments"] = (function.get("arguments") or "") + held


def _noting(resolve: Resolver, keys: set[tuple]) -> Resolver:
    """`resolve`, adding the key of each placeholder it fills in to `keys`."""

    def noted(ref: Reference) -> str | Withheld | None:
        value = resolve(ref)
        if isinstance(value, str):
            keys.add(ref.key)
        return value

    return noted
