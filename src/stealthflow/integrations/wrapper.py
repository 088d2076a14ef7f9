"""What the memory wrappers (`ProtectedStore`, `ProtectedMemory`) share: their protector, the vault session of a
call's owner (its kind and id: `memory:mem0.agent_id:alice`), and whether what they read hands out the values.

Before an owner's kind was in its session's name, every kind of owner with one id shared `memory:<id>` (rev24 E6).
The first call for an owner copies what that name holds into the owner's session, once (`Vault.adopt`): memories
written then still hydrate, their placeholders numbered as they were. What each kind writes from then on is its own;
the values copied stay shared by every kind of owner with that id (the vault cannot tell whose they were)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stealthflow.memory.store import vault_session
from stealthflow.pipeline.protector import Protector
from stealthflow.sessions import memory_kind


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
        self._adopted: set[str] = set()  # the sessions this wrapper saw adopt their older name (`Vault.adopt`)

    def _session(self, call: Any) -> str:
        """The vault session of `call`'s owner; a `PersonalName` (a ValueError) when the owner's id holds a personal
        value (`Protector.refuse_values`): ids go to the wrapped store as they are, and it may be a hosted database."""
        owner = self.owner(call)
        session = vault_session(owner, self.kind(call))
        self.protector.refuse_values([owner], "the memory owner (a namespace, a user_id, agent_id or run_id)", session)
        if session not in self._adopted:
            if not memory_kind(owner):  # else its older name is another kind's session now
                self.protector.vault.adopt(self.protector.config.user, vault_session(owner), session)
            self._adopted.add(session)
        return session
