"""Vault session names that stealthflow makes from a caller's id: a proxy caller's and a memory user's."""

from __future__ import annotations

import hashlib
import re

PROXY_SESSIONS = "proxy-"  # a proxy caller's: a digest of its token, then "/" and its label if it sends one
MEMORY_SESSIONS = "memory:"  # a memory owner's: then the kind of owner and ":" (none for a memory store's user), its id
# The kinds of memory owner other than a memory store's user: mem0's user "alice", its agent "alice" and a LangGraph
# namespace ("alice",) are three owners with three sessions (`memory:mem0.user_id:alice`, ...), none of them the
# memory store's user "alice" (`memory:alice`), whose id may not start with a kind and ":" (rev24 E6).
MEMORY_KINDS = ("mem0.user_id", "mem0.agent_id", "mem0.run_id", "langgraph")
DIGEST_CHARS = 32  # hex characters of the proxy's digest of a caller's token (`proxy_session`)
NAME_CHARS = 200  # a session name's (or a proxy label's) characters at most
TOKEN_DIGEST = re.compile(rf"[0-9a-f]{{{DIGEST_CHARS}}}")


class SessionNameError(ValueError):
    """A session name (a proxy label, a service or CLI session, a memory owner) that is empty, not printable or too
    long."""


def check_name(name: str, what: str = "a session name") -> str:
    """`name`, if it is not empty, printable and at most `NAME_CHARS` characters, else a `SessionNameError`: a name is
    kept in the vault and shown by `vault list` and the service, where a tab, a newline or a terminal escape would forge
    rows or rewrite the terminal (rev24 E4), and an empty one is no one's session (ux24b)."""
    if not name or len(name) > NAME_CHARS or not name.isprintable():
        raise SessionNameError(
            f"{what} must be printable (no tab, newline or other control character), not empty and at most "
            f"{NAME_CHARS} characters"
        )
    return name


def proxy_session(token: str, label: str) -> str:
    """The vault session of a proxy caller: a digest of its token, plus its own label if it sends one."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:DIGEST_CHARS]
    return f"{PROXY_SESSIONS}{digest}" + (f"/{label}" if label else "")


def chosen_part(session: str) -> str:
    """The part of a session name its caller chose: a proxy session's label (its token's digest is no one's data, and
    random-looking), a memory owner's id, any other name whole (a name that only starts like a proxy session, such as
    `protect --session proxy-jane.doe@gmail.com`, is read whole)."""
    digest, _, label = session.removeprefix(PROXY_SESSIONS).partition("/")
    if session.startswith(PROXY_SESSIONS) and TOKEN_DIGEST.fullmatch(digest):
        return label
    if not session.startswith(MEMORY_SESSIONS):
        return session
    owner = session.removeprefix(MEMORY_SESSIONS)
    return owner.partition(":")[2] if memory_kind(owner) else owner


def memory_kind(owner: str) -> str:
    """The kind of memory owner (`MEMORY_KINDS`) `owner` starts with and ":", else ""."""
    kind, colon, _ = owner.partition(":")
    return kind if colon and kind in MEMORY_KINDS else ""
