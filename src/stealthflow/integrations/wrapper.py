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
        """The vault session of `call`'s owner; a ValueError when the owner's id holds a personal value
        (`refuse_values`)."""
        owner = self.owner(call)
        session = vault_session(owner)
        self.refuse_values([owner], "the memory owner (a namespace, a user_id, agent_id or run_id)", session)
        return session

    def refuse_values(self, names: list[str], what: str, session: str) -> None:
        """A ValueError naming `what` (never the value) when one of `names` holds a personal value: ids (owners,
        namespaces, item keys) go to the wrapped store as they are, and it may be a hosted database."""
        for name in names:
            if self.protector.redact(name, session) != name:
                raise ValueError(
                    f"{what} holds a personal value (an e-mail, a phone number, a name...), which the wrapped store "
                    "would keep in clear; nothing was stored or read: use an id that is none (a random or internal id)"
                )
