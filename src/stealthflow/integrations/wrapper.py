"""What the memory wrappers (`ProtectedStore`, `ProtectedMemory`) share: their protector, the vault session of a
call's owner, and whether what they read hands out the values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from stealthflow.memory.store import vault_session
from stealthflow.pipeline.protector import Protector


class RedactingWrapper:
    """`protector` (None: the configured one, `default_protector()`), `owner` naming who a call (a namespace, a
    scope) belongs to, whose vault session holds its values; `hydrate`: reads hand out the values instead of the
    placeholders."""

    def __init__(self, protector: Protector | None, owner: Callable[[Any], str], hydrate: bool):
        if protector is None:
            from stealthflow.pipeline.api import default_protector

            protector = default_protector()
        self.protector = protector
        self.owner = owner
        self.hydrate = hydrate

    def _session(self, call: Any) -> str:
        """The vault session of `call`'s owner; a `PersonalName` (a ValueError) when the owner's id holds a personal
        value (`Protector.refuse_values`): ids go to the wrapped store as they are, and it may be a hosted database."""
        owner = self.owner(call)
        session = vault_session(owner)
        self.protector.refuse_values([owner], "the memory owner (a namespace, a user_id, agent_id or run_id)", session)
        return session
