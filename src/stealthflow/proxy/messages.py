"""The texts of an OpenAI chat request, found and swapped for their protected form in place.

Every message's text goes through protect, whatever its role: the history a client re-sends
holds the restored values of earlier replies, and those must leave as placeholders again.
Tool-call arguments are JSON: their string values are protected one by one and the arguments
written back as JSON, so the upstream model still gets valid JSON (arguments sent as an object
have their values protected in place). A message's `name`, `refusal` and reasoning are texts
too, and so are the request's own texts for the model: tool and response-format schemas (every
string but identifiers and schema syntax, `SCHEMA_SYNTAX`), `prediction`, `stop`, `user`,
`safety_identifier` and `metadata` values. A message field the proxy does not know is refused
when it holds a string; so is anything that cannot be read as text (an image, audio, a file)
unless `pass_media` says to send it as is, and JSON nested deeper than `MAX_DEPTH`.
The texts a user typed (a user message's string content and text parts) are marked `from_user`:
those alone may also be rewritten against attribute inference (`proxy.rewrites`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from stealthflow.pipeline.records import has_lone_surrogate

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
TEXT_PARTS = {"text": "text", "refusal": "refusal"}  # content part type -> the field holding its text
MEDIA_PARTS = frozenset({"image_url", "input_audio", "file"})
MESSAGE_TEXTS = ("refusal", "reasoning_content", "reasoning")  # a message's texts besides its content and name
MESSAGE_IDS = frozenset(
    {"role", "tool_call_id", "audio", "prefix", "cache_control"}
)  # ids and switches: sent as they are
REQUEST_TEXTS = ("user", "safety_identifier")  # the request's own strings that leave with it
SCHEMAS = ("tools", "functions", "response_format", "prediction")  # every string in them, but SCHEMA_SYNTAX's
# Identifiers and JSON-schema syntax: a string (or a list of strings) under these keys is not text for the
# model, and protecting it would break the schema (`required` names properties, `name` a function).
SCHEMA_SYNTAX = frozenset(
    {"type", "name", "required", "format", "pattern", "$ref", "$schema", "$id", "$anchor", "strict"}
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
    changed: bool = False


class RequestTexts:
    """`texts` to protect, then `put(protected)` writes them back into the request body."""

    def __init__(self, body: dict, pass_media: bool = False):
        self.pass_media = pass_media
        self._slots: list[_Slot] = []
        self._after: list[Callable[[], None]] = []  # re-serialise tool-call arguments once their values are in
        if too_deep(body):
            raise RequestError(f"the request is nested deeper than {MAX_DEPTH} levels of JSON objects and lists")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise RequestError("`messages` must be a non-empty list", "messages")
        for i, message in enumerate(messages):
            self._message(message, f"messages[{i}]")
        self._request(body)

    @property
    def texts(self) -> list[str]:
        return [slot.text for slot in self._slots]

    @property
    def from_user(self) -> list[bool]:
        return [slot.from_user for slot in self._slots]

    def put(self, protected: list[str]) -> None:
        for slot, text in zip(self._slots, protected, strict=True):
            slot.changed = text != slot.text
            slot.put(text)
        for rewrite in self._after:
            rewrite()

    # -- walking the request -----------------------------------------------------------
    def _message(self, message: object, where: str) -> None:
        if not isinstance(message, dict):
            raise RequestError(f"{where} must be an object", where)
        role = message.get("role")
        if role not in ROLES:
            raise RequestError(
                f"{where}: unknown role {role!r} (expected one of {', '.join(sorted(ROLES))})", f"{where}.role"
            )
        content, from_user = message.get("content"), role == "user"
        if isinstance(content, str):
            self._text(message, "content", from_user)
        elif isinstance(content, list):
            for j, part in enumerate(content):
                self._part(part, f"{where}.content[{j}]", from_user)
        elif content is not None:
            raise RequestError(f"{where}.content must be a string, a list of parts or null", f"{where}.content")
        calls = message.get("tool_calls")
        if calls is not None and not isinstance(calls, list):
            raise RequestError(f"{where}.tool_calls must be a list", f"{where}.tool_calls")
        for j, call in enumerate(calls or []):
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict):
                raise RequestError(f"{where}.tool_calls[{j}] needs a `function` object", f"{where}.tool_calls[{j}]")
            self._arguments(function, f"{where}.tool_calls[{j}].function.arguments")
        if isinstance(message.get("function_call"), dict):  # the deprecated single function call
            self._arguments(message["function_call"], f"{where}.function_call.arguments")
        if message.get("name") is not None:  # a participant's name: a placeholder in it loses its brackets
            self._text(
                message,
                "name",
                put=lambda text: message.__setitem__("name", _bare_placeholders(text)),
                where=f"{where}.name",
            )
        for key in MESSAGE_TEXTS:
            if message.get(key) is not None:
                self._text(message, key, where=f"{where}.{key}")
        for key in message.keys() - {"content", "tool_calls", "function_call", "name", *MESSAGE_TEXTS, *MESSAGE_IDS}:
            if _holds_text(message[key]):
                raise RequestError(
                    f"{where}.{key}: the proxy does not know this field and cannot protect the text in it",
                    f"{where}.{key}",
                )

    def _request(self, body: dict) -> None:
        """The request's own texts: schemas, `prediction`, `stop`, `user`, `metadata` values."""
        for key in REQUEST_TEXTS:
            if body.get(key) is not None:
                self._text(body, key, where=key)
        stop = body.get("stop")
        if isinstance(stop, str):
            self._text(body, "stop", where="stop")
        elif isinstance(stop, list):
            self._strings(stop, "stop")
        for key in SCHEMAS:
            self._strings(body.get(key), key, SCHEMA_SYNTAX)
        if isinstance(body.get("metadata"), dict):
            self._strings(body["metadata"], "metadata")

    def _part(self, part: object, where: str, from_user: bool) -> None:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in TEXT_PARTS:
            self._text(part, TEXT_PARTS[kind], from_user)
        elif kind in MEDIA_PARTS and not self.pass_media:
            raise RequestError(
                f"{where}: a {kind} part cannot be redacted; set proxy.pass_media: true to send such parts as they are",
                f"{where}.type",
            )
        elif kind not in MEDIA_PARTS:
            raise RequestError(f"{where}: unknown content part type {kind!r}", f"{where}.type")

    def _text(
        self,
        holder: dict | list,
        key: str | int,
        from_user: bool = False,
        put: Callable | None = None,
        where: str | None = None,
    ) -> None:
        text = holder[key]
        if not isinstance(text, str):
            raise RequestError(f"`{key}` must be a string", where or str(key))
        if has_lone_surrogate(text):
            raise RequestError("a text holds a lone surrogate (invalid Unicode)", where or str(key))
        if text:
            self._slots.append(_Slot(text, put or _setter(holder, key), from_user))

    def _arguments(self, function: dict, where: str) -> None:
        arguments = function.get("arguments")
        if isinstance(arguments, dict | list):  # sent as an object: its values are protected in place
            self._strings(arguments, where)
            return
        if not isinstance(arguments, str):
            return
        try:
            parsed = json.loads(arguments)
            deep = too_deep(parsed)
        except ValueError:  # not JSON (a model's slip): protect it as text
            parsed = deep = None
        except RecursionError:  # deeper than the JSON parser goes
            deep = True
        if deep:
            raise RequestError(
                f"{where}: the arguments are nested deeper than {MAX_DEPTH} levels of JSON objects and lists", where
            )
        if not isinstance(parsed, dict | list):  # not JSON, or a lone JSON string: protected as text
            self._text(function, "arguments", where=where)
            return
        first = len(self._slots)
        self._strings(parsed, where)
        if len(self._slots) > first:
            leaves = self._slots[first:]

            def write_back() -> None:  # only when a value changed: untouched arguments keep their exact bytes
                if any(leaf.changed for leaf in leaves):
                    function["arguments"] = json.dumps(parsed, ensure_ascii=False)

            self._after.append(write_back)

    def _strings(self, node: object, where: str, syntax: frozenset[str] = frozenset()) -> None:
        """Every string inside a JSON value, but one (or a list of them) under a `syntax` key.
        Recursive: the request's depth was checked first (`too_deep`)."""
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if key in syntax and (
                isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
            ):
                continue
            if isinstance(value, str):
                self._text(node, key, where=where)
            else:
                self._strings(value, where, syntax)


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


def _holds_text(node: object) -> bool:
    if isinstance(node, str):
        return bool(node)
    children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    return any(_holds_text(child) for child in children)


def _bare_placeholders(text: str) -> str:
    """`<REAL_NAME_1>` -> `REAL_NAME_1`: a message name may not hold `<` or `>` (OpenAI refuses it),
    and a reply that repeats the name still restores (an underscore marks a placeholder)."""
    return _INDEXED.sub(r"\1", text)


_INDEXED = re.compile(r"<([A-Z][A-Z_]*_\d+)>")
