"""The Python API: `protect`, `restore`, `restore_stream`.

Without a `protector`, one is built once from the default settings (`stealthflow.config`)
and reused: the user's vault, the default policy, and the LLM extractor on the default model.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from stealthflow.config import load_settings
from stealthflow.pipeline.protector import Protected, Protector
from stealthflow.placeholders.restore import RestoreResult


@cache
def default_protector() -> Protector:
    return Protector.from_settings(load_settings())


def protect(text: str, *, session: str, protector: Protector | None = None) -> Protected:
    """Replace explicit PII in `text` by placeholders issued to `session`."""
    return (protector or default_protector()).protect(text, session)


def restore(text: str, *, session: str, protector: Protector | None = None) -> RestoreResult:
    """Put the values back into a reply; placeholders not issued to `session` stay and are reported."""
    return (protector or default_protector()).restore(text, session)


def restore_stream(chunks: Iterable[str], *, session: str, protector: Protector | None = None) -> Iterator[str]:
    """Restore a streamed reply chunk by chunk, never emitting half a placeholder."""
    return (protector or default_protector()).restore_stream(chunks, session)
