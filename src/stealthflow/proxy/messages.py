"""The texts of an OpenAI chat request, found and swapped for their protected form in place.

Every string of the request is protected, JSON object keys included, wherever it stands (known
fields, fields of a provider the proxy has never heard of, `metadata`, `documents`, schemas, ids),
except an explicit allow-list of what is known not to be content: `model`, the top-level switches
in `SETTINGS`, and an enum-like word under a `SYNTAX` key (`role`, `type`) outside data. A number is
protected as its decimal text (a card, phone or ID written as a JSON number): it stays the number unless a value is
masked in it, and then becomes the protected text, a string. Booleans and null carry no text. Protect changes nothing in a string without a personal value, so
the request keeps its shape; a value met twice (a property name and `required`, a tool-call id and
`tool_call_id`) gets the same placeholder each time, so references between fields still hold.

Tool-call arguments are JSON: parsed keeping every key in order, duplicates included
(`_Object`), their keys and values protected one by one and written back as JSON only when one
changed, so the upstream model still gets valid JSON (arguments sent as an object are protected in
place); arguments that are not JSON are protected as text. A string under an `IDENTIFIERS` key
outside data (a message's, a function's, a schema's name; a tool-call id) loses the brackets of its
placeholders and marks: providers allow only letters, digits, `_` and `-` there (the PII tagger takes a
tool-call id such as `call_DbR8nGxQ2m...` for a credential), and two identifiers that protect to one text are told
apart by a suffix (`CREDENTIAL`, `CREDENTIAL-2`). A participant's name (a message's `name` on
`PARTICIPANT_ROLES`) is one value whatever detection finds in it (`RequestTexts.whole`).
Anything that cannot be read as text (an image, audio, a file) is refused
unless `pass_media` says to send it as is; so is JSON nested deeper than `MAX_DEPTH`.
The texts a user typed (a user message's string content and text parts) are marked `from_user`:
those alone may also be rewritten against attribute inference (`proxy.rewrites`). A text of an assistant turn that a
reply of this session restored to (`recall`: `proxy.history`) goes back as the upstream wrote it, nothing masked again;
any other string of an assistant turn (its text, refusal, content parts, tool-call ids, names and arguments, keys and
numbers included) is marked `unknown`: the upstream may have written it to see what the proxy masks in it, so it is
protected as new text (`Protector.protect_many`). So are a tool result's `tool_call_id` and `name` (`ECHOES`), which
repeat its call's. Every other string of a tool's result (`MODEL_ROLES`) that is not recalled is marked `from_model`: a
value of the session there was put there by a restore, so every value is masked again in it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from stealthflow.pipeline.records import has_lone_surrogate
from stealthflow.proxy.history import Recalled
from stealthflow.string_cost import TooManyStrings, check_strings, most_strings

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
MODEL_ROLES = frozenset({"assistant", "tool", "function"})  # the model's turns and the results of its (restored) calls
TEXT_PARTS = {"text": "text", "refusal": "refusal"}  # content part type -> the field holding its text
MEDIA_PARTS = frozenset({"image_url", "input_audio", "file"})
# Top-level switches whose strings are enum words or ids of the provider, not content.
SETTINGS = frozenset({"service_tier", "reasoning_effort", "verbosity", "modalities", "tool_choice"})
SYNTAX = frozenset({"role", "type"})  # an enum-like word (or a list of them) under these keys is structure
ENUM_WORD = re.compile(r"[a-z][a-z0-9_.-]{0,63}")  # what passes there: "user", "function", "json_schema", "string"
# Under these keys is data (a tool's arguments, a schema's example values): no string in it is structure.
DATA = frozenset({"arguments", "metadata", "default", "const", "examples", "enum"})
IDENTIFIERS = frozenset({"name", "id", "tool_call_id"})  # a placeholder there is written without brackets
# A message's `name` on these roles names a participant (OpenAI: "to differentiate between participants of the same
# role"), as apps fill it ("rafael_ortiz", ux22's report H3): the whole of it is one value of `PARTICIPANT` whatever
# detection finds in it, sent as its placeholder without brackets (`USERNAME_1`: a valid name). A tool's or a
# function's message names the function there; an assistant turn's is the upstream's (`unknown`, masked as new text).
PARTICIPANT_ROLES = frozenset({"system", "developer", "user"})
PARTICIPANT = "USERNAME"
ECHOES = frozenset({"name", "tool_call_id"})  # a tool result's fields that repeat its call's, which the upstream wrote
# A JSON number written in fewer characters ("0", "1", "42", "-7") holds no value protect finds, so it is not read: a
# session's values are found again from 3 characters (`KnownValues.MIN_CHARS`), the LLM extractor keeps values of 3
# or more, and the shortest the detector finds in digits alone is a card's code (3, and only after a card and its
# cue). The detector with every recognizer and the PII tagger finds nothing in any of them (test_security_requests).
SHORT_NUMBER = 3
# Field names of the OpenAI chat API and of JSON schema: keys that are not worth a detector pass.
KNOWN_KEYS = frozenset(
    {
        *"messages role content name tool_calls tool_call_id function_call refusal reasoning reasoning_content".split(),
        *"audio prefix cache_control id type function arguments text image_url input_audio file url detail".split(),
        *"tools functions description parameters strict response_format json_schema schema prediction".split(),
        *"properties required items additionalProperties enum format pattern default const examples title".split(),
        *"anyOf allOf oneOf not $ref $defs definitions minimum maximum minLength maxLength minItems maxItems".split(),
        *"stop user safety_identifier metadata tool_choice stream stream_options include_usage temperature".split(),
        *"top_p n max_tokens max_completion_tokens presence_penalty frequency_penalty logit_bias logprobs".split(),
        *"top_logprobs seed parallel_tool_calls store modalities service_tier reasoning_effort verbosity".split(),
        *"web_search_options user_location approximate search_context_size prompt_cache_key model".split(),
    }
)
MAX_DEPTH = 64  # nesting of the request (and of tool-call arguments) in JSON objects and lists


class RequestError(ValueError):
    """A request the proxy cannot protect; answered 400 with `param` naming the place."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


@dataclass
class _Slot:
    text: str
    put: Callable[[str], None]
    from_user: bool = False
    from_model: bool = False
    unknown: bool = False
    changed: bool = False
    where: str = ""  # the text's place in the request ("messages[3].content"), for a user's text
    whole: str | None = None  # the type the whole text is one value of, by its place (a participant's name)


class _Object(list):
    """A JSON object of tool-call arguments as its [key, value] pairs, in order, duplicate keys kept."""


class RequestTexts:
    """`texts` to protect, then `put(protected)` writes them back into the request body."""

    def __init__(
        self,
        body: dict,
        pass_media: bool = False,
        recall: Callable[[str], Recalled | None] | None = None,
        size: int | None = None,
    ):
        """`recall`: the upstream's form of a text a reply of the session restored to (`RestoredReplies.recall`).
        `TooManyStrings` (`string_cost`) for more texts than their characters pay for; `size`: the body's length, which
        their characters cannot pass: raised as soon as the texts found outnumber what it pays for (a request of a
        million strings is not walked to its end first)."""
        self.pass_media = pass_media
        self._most = None if size is None else most_strings(size)
        self._recall = recall
        self.recalled: set[tuple] = set()  # the keys of the placeholders restored in the recalled texts
        self._recalls = 0  # texts put back in their upstream form (`_recalled`)
        self._slots: list[_Slot] = []
        self._from_model = False  # set while the texts of a `MODEL_ROLES` message are walked
        self._upstream = False  # ... of what the upstream wrote: an assistant message, a tool result's `ECHOES`
        self._identifiers: dict[str, str] = {}  # an identifier as protected -> as sent (`_identifier`)
        self._renames: list[tuple[dict, dict]] = []  # (object, {key: protected key}) applied once values are in
        self._after: list[Callable[[], None]] = []  # re-serialise tool-call arguments once their texts are in
        if too_deep(body):
            raise RequestError(f"the request is nested deeper than {MAX_DEPTH} levels of JSON objects and lists")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise RequestError("`messages` must be a non-empty list", "messages")
        for i, message in enumerate(messages):
            self._from_model = isinstance(message, dict) and message.get("role") in MODEL_ROLES
            self._upstream = isinstance(message, dict) and message.get("role") == "assistant"
            self._message(message, f"messages[{i}]")
        self._from_model = self._upstream = False
        for key in body.keys() - {"messages", "model"}:  # the model is replaced by the upstream's
            if not (key in SETTINGS and _enum_like(body[key])):
                self._walk(body[key], key, key in DATA, (body, key))
        self._keys(body)
        check_strings(self.texts)

    @property
    def texts(self) -> list[str]:
        return [slot.text for slot in self._slots]

    @property
    def from_user(self) -> list[bool]:
        return [slot.from_user for slot in self._slots]

    @property
    def from_model(self) -> list[bool]:
        return [slot.from_model for slot in self._slots]

    @property
    def unknown(self) -> list[bool]:
        return [slot.unknown for slot in self._slots]

    @property
    def whole(self) -> list[str | None]:
        """Per text, the type it is one value of by its place (`PARTICIPANT` for a message's name), or None."""
        return [slot.whole for slot in self._slots]

    @property
    def places(self) -> list[str]:
        """Where each text stands in the request (`messages[3].content`; "" for a key)."""
        return [slot.where for slot in self._slots]

    def put(self, protected: list[str]) -> None:
        for slot, text in zip(self._slots, protected, strict=True):
            slot.changed = text != slot.text
            slot.put(text)
        for node, renames in self._renames:
            _rename(node, renames)
        for rewrite in self._after:
            rewrite()

    # -- walking the request -----------------------------------------------------------
    def _message(self, message: object, where: str) -> None:
        if not isinstance(message, dict):
            raise RequestError(f"{where} must be an object", where)
        role = message.get("role")
        if role not in ROLES:
            said = "has no `role`" if role is None else "has an unknown role"  # never quoted: an error quotes no text
            raise RequestError(f"{where} {said}: give one of {', '.join(sorted(ROLES))}", f"{where}.role")
        content, from_user = message.get("content"), role == "user"
        if isinstance(content, str):
            self._text(message, "content", from_user, where=f"{where}.content")
        elif isinstance(content, list):
            for j, part in enumerate(content):
                self._part(part, f"{where}.content[{j}]", from_user)
        elif content is not None:
            raise RequestError(f"{where}.content must be a string, a list of parts or null", f"{where}.content")
        calls = message.get("tool_calls")
        if calls is not None and not isinstance(calls, list):
            raise RequestError(f"{where}.tool_calls must be a list", f"{where}.tool_calls")
        for j, call in enumerate(calls or []):
            if not isinstance(call, dict) or not isinstance(call.get("function"), dict):
                raise RequestError(f"{where}.tool_calls[{j}] needs a `function` object", f"{where}.tool_calls[{j}]")
            self._walk(call, f"{where}.tool_calls[{j}]", False, (calls, j))
        if message.get("name") is not None and not isinstance(message["name"], str):
            raise RequestError(f"{where}.name must be a string", f"{where}.name")
        participant = role in PARTICIPANT_ROLES and isinstance(message.get("name"), str)
        if participant:
            sent = message["name"]
            put = lambda text: message.__setitem__("name", self._identifier(sent, text))  # noqa: E731
            self._text(message, "name", put=put, where=f"{where}.name", whole=PARTICIPANT)
        upstream = self._upstream
        for key in message.keys() - {"role", "content", "tool_calls", *(["name"] if participant else [])}:
            self._upstream = upstream or (self._from_model and key in ECHOES)
            self._walk(message[key], f"{where}.{key}", False, (message, key))
        self._upstream = upstream
        self._keys(message)

    def _part(self, part: object, where: str, from_user: bool) -> None:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in TEXT_PARTS:
            self._text(part, TEXT_PARTS[kind], from_user, where=f"{where}.{TEXT_PARTS[kind]}")
            for key in part.keys() - {"type", TEXT_PARTS[kind]}:
                self._walk(part[key], f"{where}.{key}", False, (part, key))
            self._keys(part)
        elif kind in MEDIA_PARTS and not self.pass_media:
            raise RequestError(
                f"{where}: this {kind} part cannot be redacted: send text instead, or set proxy.pass_media: true to "
                "send such parts as they are",
                f"{where}.type",
            )
        elif kind not in MEDIA_PARTS:
            raise RequestError(
                f"{where}: unknown content part type: give text, refusal, or a media part "
                f"({', '.join(sorted(MEDIA_PARTS))})",
                f"{where}.type",
            )

    def _walk(self, node: object, where: str, data: bool, holder: tuple) -> None:
        """Every string inside a JSON value, keys included; `holder` is (container, key) of `node`.
        Outside `data`, an enum-like word under a `SYNTAX` key stays, and an identifier loses its brackets.
        Recursive: the request's depth was checked first (`too_deep`)."""
        if isinstance(node, str):
            self._leaf(holder[0], holder[1], where, data)
        elif _number(node):
            self._number(*holder)
        elif isinstance(node, dict):
            for key in node:
                if key == "arguments" and not data:
                    self._arguments(node, f"{where}.arguments")
                else:
                    self._walk(node[key], f"{where}.{key}", data or key in DATA, (node, key))
            self._keys(node)
        elif isinstance(node, list) and not (not data and holder[1] in SYNTAX and _enum_like(node)):
            for i in range(len(node)):
                self._walk(node[i], f"{where}[{i}]", data, (node, i))

    def _leaf(self, container: dict | list, key: str | int, where: str, data: bool) -> None:
        name = key if isinstance(key, str) else where.rpartition(".")[2].partition("[")[0]
        if not data and name in SYNTAX and _enum_like(container[key]):
            return
        if not data and name in IDENTIFIERS:
            sent = container[key]
            put = lambda text: container.__setitem__(key, self._identifier(sent, text))  # noqa: E731
            self._text(container, key, where=where, put=put)
        else:
            self._text(container, key, where=where)

    def _keys(self, node: dict) -> None:
        """The keys of an object, each as a text; a protected key takes its old one's place in `put`."""
        renames: dict = {}
        keys = [key for key in node if key not in KNOWN_KEYS and key]
        for key in keys:
            self._check(key, "a key")
            self._slot(key, lambda text, key=key: renames.__setitem__(key, text))
        if keys:
            self._renames.append((node, renames))

    def _text(
        self,
        holder: dict | list,
        key: str | int,
        from_user: bool = False,
        put: Callable | None = None,
        where: str | None = None,
        whole: str | None = None,
    ) -> None:
        """`whole`: the type the whole text is one value of, by its place (`PARTICIPANT`)."""
        text = holder[key]
        if not isinstance(text, str):
            raise RequestError(f"`{key}` must be a string", where or str(key))
        self._check(text, where or str(key))
        if text and not self._recalled(holder, key):
            self._slot(text, put or _setter(holder, key), from_user, where or "", whole)

    def _slot(
        self, text: str, put: Callable[[str], None], from_user: bool = False, where: str = "", whole: str | None = None
    ) -> None:
        """A text to protect: `unknown` when the upstream wrote it, else `from_model` in a `MODEL_ROLES` message."""
        if self._most is not None and len(self._slots) >= self._most:
            raise TooManyStrings(self._most)
        self._slots.append(
            _Slot(
                text, put, from_user, self._from_model and not self._upstream, self._upstream, where=where, whole=whole
            )
        )

    def _identifier(self, sent: str, protected: str) -> str:
        """`protected` without brackets, and apart from any other identifier of the request protected to the same text
        (two tool-call ids masked as `<CREDENTIAL>`): `-2`, `-3`, ... by order of first appearance. The same identifier
        (a call's id, its result's `tool_call_id`) gets the same text each time."""
        bare = candidate = _bare(protected)
        count = 1
        while self._identifiers.setdefault(candidate, sent) != sent:
            count += 1
            candidate = f"{bare}-{count}"
        return candidate

    def _recalled(self, holder: dict | list, key: str | int) -> bool:
        """Put the upstream's form of a model-side text that a reply restored to in its place (`recall`)."""
        if not self._from_model or self._recall is None or (found := self._recall(holder[key])) is None:
            return False
        holder[key] = found[0]
        self.recalled |= found[1]
        self._recalls += 1
        return True

    def _number(self, holder: dict | list, key: str | int) -> None:
        """A JSON number as its decimal text, written back only when protect changed it; one `SHORT_NUMBER` is not
        read."""
        text = json.dumps(holder[key])
        if len(text) < SHORT_NUMBER:
            return

        def put(protected: str) -> None:
            if protected != text:
                holder[key] = protected

        self._slot(text, put)

    @staticmethod
    def _check(text: str, where: str) -> None:
        if has_lone_surrogate(text):
            raise RequestError("a text holds a lone surrogate (invalid Unicode)", where)

    def _arguments(self, function: dict, where: str) -> None:
        """Tool-call arguments: an object is protected in place, a JSON string key by key and value by value."""
        arguments = function["arguments"]
        if isinstance(arguments, str) and self._recalled(function, "arguments"):
            return
        if not isinstance(arguments, str):
            self._walk(arguments, where, True, (function, "arguments"))
            return
        try:
            deep = too_deep(json.loads(arguments))
            parsed = json.loads(arguments, object_pairs_hook=lambda pairs: _Object(map(list, pairs)))
        except ValueError:  # not JSON (a model's slip): protect it as text
            parsed = deep = None
        except RecursionError:  # deeper than the JSON parser goes
            deep = True
        if deep:
            raise RequestError(
                f"{where}: the arguments are nested deeper than {MAX_DEPTH} levels of JSON objects and lists", where
            )
        if not isinstance(parsed, list):  # not JSON, or a lone JSON value: protected as text
            self._text(function, "arguments", where=where)
            return
        first, recalls = len(self._slots), self._recalls
        self._pairs([parsed], 0, where)
        leaves, recalled = self._slots[first:], self._recalls > recalls

        def write_back() -> None:  # only when a text changed: untouched arguments keep their exact bytes
            if recalled or any(leaf.changed for leaf in leaves):
                function["arguments"] = _dumps(parsed)

        self._after.append(write_back)

    def _pairs(self, holder: list, key: int, where: str) -> None:
        """Every string of parsed arguments (`_Object`s and lists) at `holder[key]`, keys included."""
        node = holder[key]
        if isinstance(node, str):
            self._text(holder, key, where=where)
        elif _number(node):
            self._number(holder, key)
        elif isinstance(node, _Object):
            for pair in node:
                self._text(pair, 0, where=where)
                self._pairs(pair, 1, where)
        elif isinstance(node, list):
            for i in range(len(node)):
                self._pairs(node, i, where)


def _number(node: object) -> bool:
    return isinstance(node, int | float) and not isinstance(node, bool)


def _enum_like(node: object) -> bool:
    """An enum word, or a non-empty list of them."""
    words = node if isinstance(node, list) and node else [node]
    return all(isinstance(word, str) and ENUM_WORD.fullmatch(word) is not None for word in words)


def _rename(node: dict, renames: dict) -> None:
    """Put protected keys in place of their originals, keeping the order."""
    if not any(new != old for old, new in renames.items()):
        return
    items = [(renames.get(key, key), value) for key, value in node.items()]
    if len({key for key, _ in items}) < len(items):
        raise RequestError("two keys of one JSON object protect to the same text")
    node.clear()
    node.update(items)


def _dumps(node: object) -> str:
    """JSON of parsed arguments, an `_Object` written as an object with each of its keys (recursive;
    the depth was checked)."""
    if isinstance(node, _Object):
        return "{" + ", ".join(f"{_dumps(key)}: {_dumps(value)}" for key, value in node) + "}"
    if isinstance(node, list):
        return "[" + ", ".join(map(_dumps, node)) + "]"
    return json.dumps(node, ensure_ascii=False)


def _setter(container: dict | list, key: object) -> Callable[[str], None]:
    def put(text: str) -> None:
        container[key] = text

    return put


def too_deep(node: object, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON objects and lists nest more than `limit` deep (without recursion)."""
    stack = [(node, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def _bare(text: str) -> str:
    """`<REAL_NAME_1>` -> `REAL_NAME_1`, `<EMAIL>` -> `EMAIL`: a message name may not hold `<` or `>` (OpenAI refuses
    it), and a reply that repeats the name still restores (an underscore marks a placeholder)."""
    return _MARK.sub(r"\1", text)


_MARK = re.compile(r"<([A-Z][A-Z_]*(?:_\d+)?)>")
