"""Vault session names that stealthflow makes from a caller's id: a proxy caller's and a memory user's."""

from __future__ import annotations

import hashlib
import re

PROXY_SESSIONS = "proxy-"  # a proxy caller's: a digest of its token, then "/" and its label if it sends one
MEMORY_SESSIONS = "memory:"  # a memory user's: then the user id
DIGEST_CHARS = 32  # hex characters of the proxy's digest of a caller's token (`proxy_session`)
TOKEN_DIGEST = re.compile(rf"[0-9a-f]{{{DIGEST_CHARS}}}")


def proxy_session(token: str, label: str) -> str:
    """The vault session of a proxy caller: a digest of its token, plus its own label if it sends one."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:DIGEST_CHARS]
    return f"{PROXY_SESSIONS}{digest}" + (f"/{label}" if label else "")


def chosen_part(session: str) -> str:
    """The part of a session name its caller chose: a proxy session's label (its token's digest is no one's data, and
    random-looking), a memory user's id, any other name whole (a name that only starts like a proxy session, such as
    `protect --session proxy-jane.doe@gmail.com`, is read whole)."""
    digest, _, label = session.removeprefix(PROXY_SESSIONS).partition("/")
    if session.startswith(PROXY_SESSIONS) and TOKEN_DIGEST.fullmatch(digest):
        return label
    return session.removeprefix(MEMORY_SESSIONS)
