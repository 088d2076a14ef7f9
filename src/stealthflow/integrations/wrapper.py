"""What the memory wrappers (`ProtectedStore`, `ProtectedMemory`) share: their protector, the vault session of a
call's owner (its kind and id: `memory:mem0.agent_id:alice`), and whether what they read hands out the values.

Each owner's session is its own: nothing is copied or read from another owner's session. Before an owner's kind was
in its session's name, every kind of owner with one id shared `memory:<id>` (rev24 E6), which is the memory store's
user `<id>` now; `adopt` copies such a session's values into one owner's, when its user asks.

A deletion or a replacement through a wrapper (mem0's `delete`, `delete_all` and `update`, a LangGraph delete or put
over an item) forgets the values the old items named that no item the owner keeps names
(`RedactingWrapper.forget_deleted`), as `memory forget` does for the memory store. Writes hold the vault's "memory"
lock shared from protecting a text to storing it, and forgetting holds it alone from reading the items kept to the
forget (`Vault.locked`): a value a write just protected is never forgotten before the item naming it is stored (in any
thread or process)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from typing import Any

from stealthflow.integrations import strings_in
from stealthflow.memory.store import placeholders_in, vault_session
from stealthflow.pipeline.protector import Protector
from stealthflow.sessions import MEMORY_KINDS, MEMORY_SESSIONS, check_name, memory_kind

OWNER = "the memory owner (a namespace, a user_id, agent_id or run_id)"
LISTED_AT_MOST = 100_000  # items of one owner read to know which values the items it keeps still hold
MEMORY_LOCK = "memory"  # the vault lock (`Vault.locked`) writes hold shared and forgetting alone
log = logging.getLogger(__name__)


def owner_session(protector: Protector, owner: str, kind: str) -> str:
    """The vault session of the memory `owner` of `kind` (`MEMORY_KINDS`), checked before the vault is touched: a
    `SessionNameError` when the owner's id is not printable or too long (`check_name`), a `PersonalName` (a ValueError)
    when it holds a personal value (`Protector.refuse_values`): ids go to the wrapped store as they are, and it may be
    a hosted database."""
    check_name(owner, OWNER)
    session = vault_session(owner, kind)
    protector.refuse_values([owner], OWNER, session)
    return session


def adopt(
    protector: Protector, older: str, kind: str, owner: str, texts: Iterable[str] | None = None
) -> tuple[str, int]:
    """Copy the values of `older`, a session named as before owners' kinds were (`memory:<id>`), into the session of
    the memory `owner` of `kind`, with their placeholders' numbers, so memories written then hydrate there
    (`Vault.adopt`). Several owners may have written into `older` (the memory store's user of that id too): with
    `texts` (the owner's memories as its store holds them, placeholders and all) only the values their placeholders
    name are copied, so the owner gets no other owner's value; None copies every value (`memory adopt --all-values`).
    Nothing runs this but its user (`stealthflow memory adopt`, `RedactingWrapper.adopt`). A ValueError, nothing
    written, when `kind` is no owner's kind, `older` is no such session or holds no value to copy, or the owner's
    session holds or held values of its own, but for a rerun: every value to copy already there, 0 copied. Returns
    (the owner's session, values copied)."""
    if kind not in MEMORY_KINDS:
        raise ValueError(f"the kind of owner must be one of {', '.join(MEMORY_KINDS)}")
    old_id = older.removeprefix(MEMORY_SESSIONS)
    if old_id == older or memory_kind(old_id) or not old_id.strip():
        raise ValueError(f"the session to copy from must be a memory user's, {MEMORY_SESSIONS}<id>")
    check_name(old_id, "the session to copy from")
    session = owner_session(protector, owner, kind)
    keys = None if texts is None else placeholders_in("\n".join(texts))
    return session, protector.vault.adopt(protector.config.user, older, session, keys)


class RedactingWrapper:
    """`protector` (None: the configured one, `default_protector()`), `owner` naming who a call (a namespace, a
    scope) belongs to and `kind` what kind of owner (`MEMORY_KINDS`), whose vault session holds its values; `hydrate`:
    reads hand out the values instead of the placeholders."""

    def __init__(
        self, protector: Protector | None, owner: Callable[[Any], str], kind: Callable[[Any], str], hydrate: bool
    ):
        if protector is None:
            from stealthflow.pipeline.api import default_protector

            protector = default_protector()
        self.protector = protector
        self.owner = owner
        self.kind = kind
        self.hydrate = hydrate

    def _session(self, call: Any) -> str:
        """The vault session of `call`'s owner (`owner_session`)."""
        return owner_session(self.protector, self.owner(call), self.kind(call))

    def _session_of(self, call: Any) -> str:
        """The vault session of `call`'s owner, unchecked: to compare with another (`forget_deleted`)."""
        return vault_session(self.owner(call), self.kind(call))

    def _stored(self, session: str, call: Any) -> list[Any] | None:
        """Every item (as plain data) the wrapped store holds in `session`, the session of `call`'s owner (a call or an
        item of it); None when they cannot all be read (more than `LISTED_AT_MOST`, say)."""
        raise NotImplementedError

    def adopt(self, older: str, call: Any) -> int:
        """`adopt` into the session of `call`'s owner (mem0: its scope, `{"user_id": "alice"}`; LangGraph: a namespace)
        the values of `older` that the owner's stored items hold, read from the wrapped store; returns values copied."""
        stored = self._stored(self._session_of(call), call)
        if stored is None:
            raise ValueError("the owner's memories could not all be read: pass their texts to `wrapper.adopt`")
        return adopt(self.protector, older, self.kind(call), self.owner(call), strings_in(stored))[1]

    def writing(self) -> AbstractContextManager[None]:
        """Held by a write from protecting its texts to the wrapped store's write (`MEMORY_LOCK`, shared)."""
        return self.protector.vault.locked(MEMORY_LOCK, shared=True)

    def forget_replaced(self, replaced: list[tuple[str, Any, Any]]) -> None:
        """After items were replaced or deleted ((the owner's session, the old item, the new one or None) each, as plain
        data): `forget_deleted` for the old items, but for one whose new version names every value it named."""
        self.forget_deleted(
            [
                (session, old)
                for session, old, new in replaced
                if new is None or _placeholders_of([old]) - _placeholders_of([new])
            ]
        )

    def forget_deleted(self, deleted: list[tuple[str, Any]]) -> None:
        """After items were deleted or replaced in the wrapped store ((their owner's session, the old item as plain
        data) each): forget the values of each session that its old items named and no item it keeps (`_stored`) does,
        with the vault's secure delete; a session that keeps no item is forgotten whole (values no item held,
        requests). A value no old item named stays. Values of other sessions stay (each holds its own rows), the same
        values of other owners included. A session whose kept items cannot all be read keeps its values (a warning
        says so). It holds `MEMORY_LOCK` alone: no write is between protecting and storing meanwhile."""
        by_session: dict[str, list[Any]] = {}
        for session, item in deleted:
            by_session.setdefault(session, []).append(item)
        if not by_session:
            return
        vault, user = self.protector.vault, self.protector.config.user
        with vault.locked(MEMORY_LOCK):
            for session, items in by_session.items():
                kept = self._stored(session, items[0])
                if kept is None:
                    log.warning("the memories an owner keeps could not all be read: the values of those deleted stay")
                elif not kept:
                    vault.forget_session(user, session)
                elif only_deleted := _placeholders_of(items) - _placeholders_of(kept):
                    vault.forget_placeholders(user, session, only_deleted)


def _placeholders_of(items: list[Any]) -> set[tuple[str, int | str]]:
    """The placeholders (`Reference.key`) in every text inside `items`."""
    return placeholders_in("\n".join(strings_in(items)))
