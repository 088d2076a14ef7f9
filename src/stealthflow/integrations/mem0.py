"""A mem0 wrapper: mem0 (its LLM fact extraction, vector store and history DB) only sees placeholders.

`add` protects the messages (and the metadata's strings, keys and numbers) before mem0 reads them; `search` redacts its
query, and `search` and `get_all` their filters' values but the owner's ids, the same way (writing nothing to the
vault), so a query or a filter naming a value finds the memory holding its placeholder. What `add`, `search`,
`get_all` and `get` return holds placeholders, as mem0 stores them: such results usually go into a prompt. `hydrate=True` makes them return the values, for code that only shows them on this device.
The values live in the stealthflow vault under the session `memory:mem0.<kind>:<id>`, the id being the first of
`user_id`, `agent_id`, `run_id` that the call (or the stored memory) carries and the kind which of them it is (user
"alice" and agent "alice" are two owners); one that holds a personal value (an e-mail as `user_id`), is not printable
or is over 200 characters is refused with a ValueError (`wrapper.owner_session`), since mem0 keeps and sends it as
given. `delete`, `delete_all` and `update` also forget the values the deleted or old versions named that no memory
the owner keeps names (`RedactingWrapper.forget_deleted`: the owner's memories left are read back to know which). Other
methods pass through to mem0 unchanged (what they return stays redacted).

    from mem0 import Memory
    memory = ProtectedMemory(Memory.from_config(config))
    memory.add("My email is ann.lee@mailbox.org", user_id="ann")
    memory.search("what is ann.lee@mailbox.org?", filters={"user_id": "ann"})  # '... <EMAIL_1>'
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from stealthflow.integrations import hydrate_strings, protect_strings, redact_strings
from stealthflow.integrations.wrapper import LISTED_AT_MOST, RedactingWrapper
from stealthflow.pipeline.protector import Protector

log = logging.getLogger(__name__)

SCOPE_KEYS = ("user_id", "agent_id", "run_id")
TEXT_KEYS = ("memory", "previous_memory", "metadata")  # the fields of a mem0 result that carry text


def first_scope_id(scope: dict) -> str:
    """The owner of a mem0 call or memory: its user_id, else agent_id, else run_id."""
    return str(scope[first_scope_key(scope)])


def first_scope_key(scope: dict) -> str:
    """Which of user_id, agent_id and run_id names the owner of a mem0 call or memory: the first it carries."""
    for key in SCOPE_KEYS:
        if scope.get(key):
            return key
    raise ValueError("give mem0 a user_id, agent_id or run_id (filters={...} for search and get_all)")


def scope_kind(scope: dict) -> str:
    """The kind of owner (`MEMORY_KINDS`) of a mem0 call or memory: `mem0.user_id`, `mem0.agent_id` or `mem0.run_id`."""
    return f"mem0.{first_scope_key(scope)}"


class ProtectedMemory(RedactingWrapper):
    """`hydrate`: results carry the values instead of the placeholders; only for code that never sends them to a
    model."""

    def __init__(
        self,
        memory: Any,
        protector: Protector | None = None,
        session_from_scope: Callable[[dict], str] = first_scope_id,
        hydrate: bool = False,
    ):
        super().__init__(protector, session_from_scope, scope_kind, hydrate)
        self.memory = memory

    def _protect(self, value: Any, session: str) -> Any:
        return protect_strings(self.protector, value, session)

    def _hydrate(self, item: dict, scope: dict) -> dict:
        """One result, its text restored under the memory's own owner (else the call's) when `hydrate`."""
        if not self.hydrate:
            return item
        session = self._session(item if any(item.get(k) for k in SCOPE_KEYS) else scope)
        return {k: hydrate_strings(self.protector, v, session) if k in TEXT_KEYS else v for k, v in item.items()}

    def _hydrate_results(self, response: dict, scope: dict) -> dict:
        return {**response, "results": [self._hydrate(item, scope) for item in response.get("results", [])]}

    def _protect_messages(self, messages: Any, session: str) -> Any:
        """mem0's message forms: a string, one {role, content} dict or a list of them; a content
        may be a list of parts, of which the text parts are protected."""
        if isinstance(messages, str):
            return self._protect(messages, session)
        if isinstance(messages, dict):
            return self._protect_messages([messages], session)[0]
        protected = []
        for message in messages:
            content = message.get("content") if isinstance(message, dict) else None
            if isinstance(content, str):
                message = {**message, "content": self._protect(content, session)}
            elif isinstance(content, list):
                parts = [
                    {**p, "text": self._protect(p["text"], session)}
                    if isinstance(p, dict) and isinstance(p.get("text"), str)
                    else p
                    for p in content
                ]
                message = {**message, "content": parts}
            protected.append(message)
        return protected

    # -- mem0's own signatures ---------------------------------------------------------------
    def add(
        self,
        messages: Any,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        run_id: str | None = None,
        metadata: dict | None = None,
        **kwargs: Any,
    ) -> dict:
        scope = {"user_id": user_id, "agent_id": agent_id, "run_id": run_id}
        session = self._session(scope)
        with self.writing():
            response = self.memory.add(
                self._protect_messages(messages, session),
                user_id=user_id,
                agent_id=agent_id,
                run_id=run_id,
                metadata=self._protect(metadata, session),
                **kwargs,
            )
        return self._hydrate_results(response, scope)

    def _filters(self, filters: dict | None, session: str) -> dict | None:
        """A search's filters as mem0 gets them: the owner's ids as they are, the other fields' values (and names)
        redacted in the owner's session, so they match the placeholders `add` stored (`redact_strings`)."""
        if not filters:
            return filters
        rest = redact_strings(self.protector, {k: v for k, v in filters.items() if k not in SCOPE_KEYS}, session)
        return {**{k: v for k, v in filters.items() if k in SCOPE_KEYS}, **rest}

    def search(self, query: str, *, filters: dict | None = None, **kwargs: Any) -> dict:
        scope = filters or {}
        session = self._session(scope)
        response = self.memory.search(
            self.protector.redact(query, session), filters=self._filters(filters, session), **kwargs
        )
        return self._hydrate_results(response, scope)

    def get_all(self, *, filters: dict | None = None, **kwargs: Any) -> dict:
        scope = filters or {}
        session = self._session(scope)  # the same clear error as search when no owner is given
        return self._hydrate_results(self.memory.get_all(filters=self._filters(filters, session), **kwargs), scope)

    def get(self, memory_id: str) -> dict | None:
        item = self.memory.get(memory_id)
        return None if item is None else self._hydrate(item, item)

    def update(self, memory_id: str, text: str | None = None, metadata: dict | None = None, **kwargs: Any) -> Any:
        """Protects the new text and metadata under the memory's owner before mem0 sees them; then the values the old
        version named that no memory the owner keeps names are forgotten (`forget_replaced`)."""
        existing = self.memory.get(memory_id)
        if existing is None:
            raise KeyError(f"no mem0 memory {memory_id}")
        session = self._session(existing)
        with self.writing():
            if "data" in kwargs:  # mem0's older name for `text`
                kwargs["data"] = self._protect(kwargs["data"], session)
            response = self.memory.update(
                memory_id, text=self._protect(text, session), metadata=self._protect(metadata, session), **kwargs
            )
        self.forget_replaced([(self._session_of(existing), existing, self.memory.get(memory_id))])
        return response

    def delete(self, memory_id: str) -> Any:
        """mem0's delete, then the values that memory named that no memory the owner keeps names are forgotten."""
        existing = self.memory.get(memory_id)
        response = self.memory.delete(memory_id)
        if existing is not None:
            self.forget_deleted([(self._session_of(existing), existing)])
        return response

    def delete_all(self, user_id: str | None = None, agent_id: str | None = None, run_id: str | None = None) -> Any:
        """mem0's delete_all, then each owner's values the deleted memories named that no memory it keeps names are
        forgotten (all of an owner's values when it keeps no memory)."""
        scope = {k: v for k, v in {"user_id": user_id, "agent_id": agent_id, "run_id": run_id}.items() if v}
        deleted = self._listed(scope) if scope else []
        response = self.memory.delete_all(user_id=user_id, agent_id=agent_id, run_id=run_id)
        if deleted is None:
            log.warning("over %d memories deleted: their values stay in the vault", LISTED_AT_MOST)
        else:
            self.forget_deleted([(self._session_of(item), item) for item in deleted])
        return response

    def _listed(self, filters: dict) -> list[dict] | None:
        """Every memory mem0 holds under `filters`, expired ones too; None when there are more than `LISTED_AT_MOST`."""
        found = self.memory.get_all(filters=filters, top_k=LISTED_AT_MOST, show_expired=True)["results"]
        return None if len(found) >= LISTED_AT_MOST else found

    def _stored(self, session: str, call: dict) -> list[dict] | None:
        """The memories in `session`: those sharing the first id of `call` (a call's scope or a memory), whose owner's
        session it is; None with a `session_from_scope` of the caller's (it may give memories of other ids this
        session)."""
        if self.owner is not first_scope_id:
            return None
        key = first_scope_key(call)
        found = self._listed({key: call[key]})
        return None if found is None else [item for item in found if self._session_of(item) == session]

    def __getattr__(self, name: str) -> Any:
        if name == "memory":  # not set yet (copy, unpickling): no recursion
            raise AttributeError(name)
        return getattr(self.memory, name)
