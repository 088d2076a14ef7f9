"""The replies the proxy restored, per session, so that a chat's re-sent history goes back as the upstream wrote it.

A client re-sends the assistant turns of its history with every request. Protecting such a turn again would hand the
upstream an oracle: it writes guesses (surnames, e-mail addresses) into its reply, and the next request shows which
ones the proxy masks as the session's values (rev22 F1). So every text of a restored reply (its content, reasoning,
tool-call arguments, ids and names) is kept as a keyed digest of the text the client got -> the text the upstream
sent and the placeholders restored in the reply. A text of the history that matches goes back as the upstream wrote it,
with nothing masked again; an assistant turn that matches nothing is protected as new text
(`Protector.protect_many`'s `unknown`). Digests are HMACs under a key of this process, so nothing here holds a value
(the kept form is the upstream's own text), and nothing outlives the process.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable

Recalled = tuple[str, frozenset]  # the text as the upstream wrote it, the keys of the placeholders its reply restored


class RestoredReplies:
    """`keep` the texts of a restored reply; `recall` one of them as the client sends it back. At most `max_texts`
    (forms of) texts, of `max_chars` characters in all, are kept, the least recently used going first."""

    def __init__(self, max_texts: int = 50_000, max_chars: int = 32_000_000):
        self.max_texts = max_texts
        self.max_chars = max_chars
        self._key = secrets.token_bytes(32)
        self._texts: OrderedDict[bytes, Recalled] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def keep(self, session: str, pairs: Iterable[tuple[str, str]], keys: frozenset) -> None:
        """`pairs`: (the text as restored, as received) of each text of one reply; `keys`: what the reply restored."""
        with self._lock:
            for restored, received in pairs:
                for form, upstream in _forms(restored, received):
                    digest = self._digest(session, form)
                    if (old := self._texts.pop(digest, None)) is not None:
                        self._chars -= len(old[0])
                    self._texts[digest] = (upstream, keys)
                    self._chars += len(upstream)
            while self._texts and (len(self._texts) > self.max_texts or self._chars > self.max_chars):
                self._chars -= len(self._texts.popitem(last=False)[1][0])

    def recall(self, session: str, text: str) -> Recalled | None:
        """The upstream's form of `text` if a reply of `session` restored to it (exactly, trimmed of outer white space,
        or as the same JSON re-serialised), else None."""
        with self._lock:
            for form, _ in _forms(text, text):
                found = self._texts.get(self._digest(session, form))
                if found is None:
                    continue
                self._texts.move_to_end(self._digest(session, form))
                upstream, keys = found
                if form != text and form == text.strip():  # the client trimmed it: keep its white space around
                    start = len(text) - len(text.lstrip())
                    upstream = text[:start] + upstream + text[start + len(form) :]
                return upstream, keys
        return None

    def _digest(self, session: str, text: str) -> bytes:
        message = session.encode() + b"\x00" + text.encode("utf-8", "surrogatepass")
        return hmac.new(self._key, message, hashlib.sha256).digest()


def _forms(restored: str, received: str) -> list[tuple[str, str]]:
    """The forms a client may send `restored` back in, each with the upstream's text to send for it: as it is, trimmed
    (a client that strips a reply), and JSON re-serialised (an agent that parses tool-call arguments and dumps them)."""
    forms = [(restored, received)]
    if restored.strip() != restored:
        forms.append((restored.strip(), received.strip()))
    if (canonical := _canonical_json(restored)) is not None and canonical != restored:
        forms.append((canonical, received))
    return forms


def _canonical_json(text: str) -> str | None:
    """A JSON object's text with sorted keys and no spaces, or None for any other text."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        return json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        return None
