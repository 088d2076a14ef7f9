"""Wrappers that keep memory frameworks' stores redacted (LangGraph stores, mem0)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
    """`value` with `fn` applied to every string inside it (dict values, list/tuple items)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {k: map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(map_strings(v, fn) for v in value)
    return value


def protect_strings(protector: Protector, value: Any, session: str) -> Any:
    """`value` with every string inside it protected in `session` (one batch), as memory text is: its placeholders
    are the session's, and `hydrate_strings` puts its values back."""
    strings: list[str] = []
    map_strings(value, strings.append)
    protected = iter([p.text for p in protector.protect_many(strings, session)] if strings else [])
    return map_strings(value, lambda _: next(protected))


def hydrate_strings(protector: Protector, value: Any, session: str) -> Any:
    """`value` with every string inside it hydrated (`hydrate`) from `session`."""
    return map_strings(value, lambda s: hydrate(protector, s, session))
