"""Wrappers that keep memory frameworks' stores redacted (LangGraph stores, mem0)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from stealthflow.proxy.messages import SHORT_NUMBER

if TYPE_CHECKING:
    from stealthflow.pipeline.protector import Protector

logger = logging.getLogger(__name__)


def hydrate(protector: Protector, text: str, session: str) -> str:
    """`text` restored for the local caller, as `restore` does; placeholders withheld (any value in a URL, a guarded
    value in a link, markup or JSON) stay as they are and a warning names them (never their values)."""
    from stealthflow.placeholders.scope import python_switch, withheld_notice

    result = protector.restore(text, session)
    if result.withheld:
        logger.warning("%s", withheld_notice(result.withheld, python_switch))
    return result.text


def map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """`value` with `fn` applied to every text inside it: strings (dict values, list/tuple items), dict keys, and
    numbers as their decimal text (a phone, card or ID kept as a number). A number stays the number unless `fn` changes
    its text, and then becomes the text `fn` gives (`<PHONE_1>`); one shorter than `SHORT_NUMBER` holds no value and is
    not read. Two keys of one dict that map to the same text are a ValueError (neither would be kept)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = json.dumps(value)
        if len(text) < SHORT_NUMBER:
            return value
        mapped = fn(text)
        return value if mapped == text else mapped
    if isinstance(value, dict):
        items = [(map_strings(k, fn), map_strings(v, fn)) for k, v in value.items()]
        if len({k for k, _ in items}) < len(items):
            raise ValueError("two keys of one object protect to the same text")
        return dict(items)
    if isinstance(value, list | tuple):
        return type(value)(map_strings(v, fn) for v in value)
    return value


def strings_in(value: Any) -> list[str]:
    """Every text inside `value` (`map_strings`: strings, keys, numbers), in order."""
    strings: list[str] = []
    map_strings(value, lambda text: strings.append(text) or text)
    return strings


def protect_strings(protector: Protector, value: Any, session: str) -> Any:
    """`value` with every text inside it (`map_strings`: strings, keys, numbers) protected in `session` (one batch),
    as memory text is: its placeholders are the session's, and `hydrate_strings` puts its values back (a number that
    held one comes back as its text, a string)."""
    strings = strings_in(value)
    protected = iter([p.text for p in protector.protect_many(strings, session)] if strings else [])
    return map_strings(value, lambda _: next(protected))


def redact_strings(protector: Protector, value: Any, session: str) -> Any:
    """`value` with every text inside it (`map_strings`) redacted in `session` (`Protector.redact`, writing nothing):
    a search's filter, whose values then match the placeholders `protect_strings` stored, and reach the wrapped store
    masked."""
    return map_strings(value, lambda text: protector.redact(text, session))


def hydrate_strings(protector: Protector, value: Any, session: str) -> Any:
    """`value` with every text inside it (`map_strings`) hydrated (`hydrate`) from `session`."""
    return map_strings(value, lambda s: hydrate(protector, s, session))
