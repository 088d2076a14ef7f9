"""A LangGraph `BaseStore` wrapper: the inner store only ever holds redacted text.

`put` protects every text inside the value (strings, dict keys and numbers: `protect_strings`) under the vault
session of its namespace (the whole namespace by default, so LangMem's `("memories", user)` gives each user their
own), and `search` redacts its query and its filter's values the same way (writing nothing to the vault: a filter by
a value finds the items holding its placeholder). A namespace or item key that holds a personal value (a user id that
is an e-mail or a phone number) is refused with a ValueError, as is a namespace that is not printable or over 200
characters (`wrapper.owner_session`): the inner store keeps them as they are. `get`/`search` hand out what the inner
store holds, placeholders, since code on a store (LangMem's search tool, its enrichers) sends what it reads to an LLM; `hydrate=True` hands out the values, for code that only shows them
on this device. A delete (a put of None) or a put over an item also forgets the values the old item named that no
item left under any namespace of that session names (`RedactingWrapper.forget_replaced`: those items are read back).
Anything that only uses the `BaseStore` API (LangGraph's `store=`, LangMem's memory tools and managers)
runs on top of it unchanged; LangMem itself is not tested here.

    store = ProtectedStore(InMemoryStore())  # the default protector; vault session "memory:langgraph:memories/ann"
    store.put(("memories", "ann"), "m1", {"content": "My email is ann.lee@mailbox.org"})  # ... this namespace
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext
from functools import partial

from langgraph.store.base import BaseStore, GetOp, Item, Op, PutOp, Result, SearchOp

from stealthflow.integrations import hydrate_strings, protect_strings, redact_strings
from stealthflow.integrations.wrapper import LISTED_AT_MOST, RedactingWrapper
from stealthflow.pipeline.protector import Protector


def whole_namespace(namespace: tuple[str, ...]) -> str:
    """The memory owner of a namespace, by default: all of it, its parts joined by `/` (a `/` inside a part escaped),
    so namespaces that share a first part (LangMem's `("memories", user)`) never share values or numbering."""
    return "/".join(part.replace("%", "%25").replace("/", "%2F") for part in namespace)


class ProtectedStore(RedactingWrapper, BaseStore):
    """`hydrate`: `get`/`search` return the values instead of the placeholders; only for code that never sends what it
    reads to a model (LangMem's tools and enrichers do)."""

    def __init__(
        self,
        inner: BaseStore,
        protector: Protector | None = None,
        session_from_namespace: Callable[[tuple[str, ...]], str] = whole_namespace,
        hydrate: bool = False,
    ):
        super().__init__(protector, session_from_namespace, lambda namespace: "langgraph", hydrate)
        self.inner = inner

    def _redact(self, op: Op) -> Op:
        """The op as the inner store gets it: a put's value protected, a search's query and filter redacted (a filter's
        values then match the stored placeholders), and a ValueError for
        a namespace or item key that holds a personal value (the inner store keeps them as they are)."""
        if isinstance(op, PutOp | GetOp):
            session = self._session(op.namespace)
            self.protector.refuse_values([op.key], "an item key", session)
        if isinstance(op, PutOp) and op.value is not None:
            return op._replace(value=protect_strings(self.protector, dict(op.value), session))
        if isinstance(op, SearchOp):
            session = self._session(op.namespace_prefix)  # checked even when nothing is redacted (ux24b)
        if isinstance(op, SearchOp) and (op.query or op.filter):
            query = op.query and self.protector.redact(op.query, session)
            return op._replace(query=query, filter=op.filter and redact_strings(self.protector, op.filter, session))
        return op

    def _hydrate(self, item: Item) -> Item:
        session = self._session(tuple(item.namespace))
        hydrated = copy.copy(item)  # in-memory stores hand out their own Item: never write values into it
        hydrated.value = hydrate_strings(self.protector, item.value, session)
        return hydrated

    def _hydrate_result(self, op: Op, result: Result) -> Result:
        if not self.hydrate:
            return result
        if isinstance(op, GetOp) and result is not None:
            return self._hydrate(result)
        if isinstance(op, SearchOp):
            return [self._hydrate(item) for item in result]
        return result

    def _writing(self, ops: list[Op]) -> AbstractContextManager[None]:
        return self.writing() if any(isinstance(op, PutOp) for op in ops) else nullcontext()

    def _stored_before(self, ops: list[Op]) -> list[Item | None]:
        """The stored item each put of `ops` replaces or deletes (None: there is none), read before the ops run."""
        gets = [GetOp(op.namespace, op.key) for op in ops if isinstance(op, PutOp)]
        return self.inner.batch(gets) if gets else []

    def _replaced(self, ops: list[Op], before: list[Item | None]) -> list[tuple[str, dict, dict | None]]:
        """(the owner's session, the old value, the new one as stored or None) of each item the puts of `ops` (as the
        inner store got them) replaced or deleted."""
        puts = [op for op in ops if isinstance(op, PutOp)]
        return [
            (self._session_of(tuple(item.namespace)), item.value, op.value)
            for op, item in zip(puts, before, strict=True)
            if item is not None
        ]

    def _stored(self, session: str, call: tuple[str, ...]) -> list[dict] | None:
        """The values of the items under every namespace whose session is `session`."""
        namespaces = _paged(self.inner.list_namespaces)
        if namespaces is None:
            return None
        kept: list[dict] = []
        for namespace in (tuple(ns) for ns in namespaces if self._in_session(tuple(ns), session)):
            items = _paged(partial(self.inner.search, namespace))
            if items is None:
                return None
            kept += [item.value for item in items if tuple(item.namespace) == namespace]
        return kept

    def _in_session(self, namespace: tuple[str, ...], session: str) -> bool:
        try:
            return self._session_of(namespace) == session
        except Exception:  # a namespace the owner function cannot map (another layout) is none of this session's
            return False

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        with self._writing(ops):
            before = self._stored_before(ops)
            redacted = [self._redact(op) for op in ops]
            results = self.inner.batch(redacted)
        self.forget_replaced(self._replaced(redacted, before))
        return [self._hydrate_result(op, r) for op, r in zip(ops, results, strict=True)]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        async with _held(self._writing(ops)):
            before = await asyncio.to_thread(self._stored_before, ops)  # the store's sync API, off the event loop
            redacted = [self._redact(op) for op in ops]
            results = await self.inner.abatch(redacted)
        await asyncio.to_thread(self.forget_replaced, self._replaced(redacted, before))
        return [self._hydrate_result(op, r) for op, r in zip(ops, results, strict=True)]


@asynccontextmanager
async def _held(lock: AbstractContextManager[None]) -> AsyncIterator[None]:
    """`lock` taken off the event loop's thread (a file lock blocks) and let go on the way out; when the wait is
    cancelled, let go as soon as it is taken."""
    taking = asyncio.ensure_future(asyncio.to_thread(lock.__enter__))
    try:
        await asyncio.shield(taking)
    except asyncio.CancelledError:
        taking.add_done_callback(lambda task: task.cancelled() or task.exception() or lock.__exit__(None, None, None))
        raise
    try:
        yield
    finally:
        lock.__exit__(None, None, None)


def _paged(fetch: Callable[..., list], page: int = 1000) -> list | None:
    """Everything `fetch(limit=, offset=)` lists, a page at a time; None past `LISTED_AT_MOST`."""
    found: list = []
    while len(found) < LISTED_AT_MOST:
        batch = fetch(limit=page, offset=len(found))
        found += batch
        if len(batch) < page:
            return found
    return None
