"""Wrappers that keep memory frameworks' stores redacted (LangGraph stores, mem0)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """`value` with `fn` applied to every string inside it (dict values, list/tuple items)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {k: map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(map_strings(v, fn) for v in value)
    return value
