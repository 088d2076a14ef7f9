"""The texts of an OpenAI chat request, found and swapped for their protected form in place.

Every message's text goes through protect, whatever its role: the history a client re-sends
holds the restored values of earlier replies, and those must leave as placeholders again.
Tool-call arguments are JSON: their string values are protected one by one and the arguments
written back as JSON, so the upstream model still gets valid JSON. Anything that cannot be
read as text (an image, audio, a file) is refused unless `pass_media` says to send it as is.
The texts a user typed (a user message's string content and text parts) are marked `from_user`:
those alone may also be rewritten against attribute inference (`proxy.rewrites`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from stealthflow.pipeline.records import has_lone_surrogate

ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})
TEXT_PARTS = {"text": "text", "refusal": "refusal"}  # content part type -> the field holding its text
MEDIA_PARTS = frozenset({"image_url", "input_audio", "file"})


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
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise RequestError("`messages` must be a non-empty list", "messages")
        for i, message in enumerate(messages):
            self._message(message, f"messages[{i}]")

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
            raise RequestError(f"{where}: unknown role {role!r} (expected one of {', '.join(sorted(ROLES))})", f"{where}.role")
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
            self._arguments(function)
        if isinstance(message.get("function_call"), dict):  # the deprecated single function call
            self._arguments(message["function_call"])

    def _part(self, part: object, where: str, from_user: bool) -> None:
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in TEXT_PARTS:
            self._text(part, TEXT_PARTS[kind], from_user)
        elif kind in MEDIA_PARTS and not self.pass_media:
            raise RequestError(f"{where}: a {kind} part cannot be redacted; set proxy.pass_media: true to send such parts as they are", f"{where}.type")
        elif kind not in MEDIA_PARTS:
            raise RequestError(f"{where}: unknown content part type {kind!r}", f"{where}.type")

    def _text(self, holder: dict, key: str, from_user: bool = False) -> None:
        text = holder.get(key)
        if not isinstance(text, str):
            raise RequestError(f"`{key}` must be a string", key)
        if has_lone_surrogate(text):
            raise RequestError("a text holds a lone surrogate (invalid Unicode)", key)
        if text:
            self._slots.append(_Slot(text, lambda protected: holder.__setitem__(key, protected), from_user))

    def _arguments(self, function: dict) -> None:
        arguments = function.get("arguments")
        if not isinstance(arguments, str):
            return
        try:
            parsed = json.loads(arguments)
        except ValueError:  # not JSON (a model's slip): protect it as text
            self._text(function, "arguments")
            return
        first = len(self._slots)
        self._json_values(parsed)
        if len(self._slots) > first:
            leaves = self._slots[first:]

            def write_back() -> None:  # only when a value changed: untouched arguments keep their exact bytes
                if any(leaf.changed for leaf in leaves):
                    function["arguments"] = json.dumps(parsed, ensure_ascii=False)

            self._after.append(write_back)

    def _json_values(self, node: object) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if isinstance(value, str) and value:
                self._slots.append(_Slot(value, _setter(node, key)))
            else:
                self._json_values(value)


def _setter(container: dict | list, key: object) -> Callable[[str], None]:
    def put(text: str) -> None:
        container[key] = text

    return put
