"""Vault session names that stealthflow makes from a caller's id: a proxy caller's and a memory user's."""

from __future__ import annotations

PROXY_SESSIONS = "proxy-"  # a proxy caller's: a digest of its token, then "/" and its label if it sends one
MEMORY_SESSIONS = "memory:"  # a memory user's: then the user id


def chosen_part(session: str) -> str:
    """The part of a session name its caller chose: a proxy session's label (its token's digest is no one's data, and
    random-looking: the PII tagger may read it as a credential), a memory user's id, any other name whole."""
    if session.startswith(PROXY_SESSIONS):
        return session.partition("/")[2]
    return session.removeprefix(MEMORY_SESSIONS)
