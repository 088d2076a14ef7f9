"""F-purpose: `MemoryStore.pack(user, query, purpose=...)` (and `POST /memory/pack`'s "purpose") redacts the query
but prefixes the purpose as it is, and embeds the two: an embedder that is not in process (the `embed=` of the Python
API: a hosted embeddings endpoint) gets the purpose's values raw, while docs/memory.md says the query is protected
before it is embedded. A recording embedder stands in for a hosted one (FAKE, labelled: hashed bag of words).
Correct: every text the embedder gets is redacted. Exit 1 when a raw value reaches the embedder."""

import sys
import tempfile
from pathlib import Path

from harness import make

from stealthflow.memory import MemoryStore
from stealthflow.testing.vectors import hash_vectors

seen: list[str] = []


def recording_embed(texts):  # FAKE embedder standing in for a hosted one: records what it is sent
    seen.extend(texts)
    return hash_vectors(texts)


store = MemoryStore(Path(tempfile.mkdtemp(prefix="rev31-mem-")) / "memory.sqlite", make(), embed=recording_embed)
store.append("u1", "My billing e-mail is quillon.varrick@examplemail.org.")
store.pack("u1", "what is my billing e-mail?", purpose="refund for quillon.varrick@examplemail.org")
leaked = [text for text in seen if "quillon" in text]
print("texts embedded:", seen)
print("raw values reaching the embedder:", leaked or "none")
sys.exit(1 if leaked else 0)
