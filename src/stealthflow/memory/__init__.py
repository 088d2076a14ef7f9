"""Agent memories kept redacted: APPEND (protect, embed, store), PACK (a token-budgeted redacted
context chosen by similarity), HYDRATE (restore that user's placeholders locally), FORGET."""

from stealthflow.memory.store import (
    MemoryItem,
    MemoryStore,
    Packed,
    PackedItem,
    vault_session,
)

__all__ = ["MemoryItem", "MemoryStore", "Packed", "PackedItem", "vault_session"]
