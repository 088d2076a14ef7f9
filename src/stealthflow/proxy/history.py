"""The replies the proxy restored, per session, so that a chat's re-sent history goes back as the upstream wrote it.

A client re-sends the assistant turns of its history with every request. Protecting such a turn again would hand the
upstream an oracle: it writes guesses (surnames, e-mail addresses) into its reply, and the next request shows which
ones the proxy masks as the session's values (rev22 F1). So every text of a restored reply (its content, reasoning,
tool-call arguments, ids and names) is kept as a keyed digest of the text the client got -> the text the upstream
sent and the placeholders restored in that text. A text of the history that matches goes back as the upstream wrote it,
with nothing masked again, and the next reply may restore its placeholders; an assistant turn that matches nothing is
protected as new text (`Protector.protect_many`'s `unknown`). A text vouches only for the values it holds: a tool call's
id or name, or arguments such as `{}`, restore nothing, so a client re-sending them (in another conversation of the
session, in a tool result) brings no value of the reply they came with into the next one's scope (rev24 E7). They are
kept in the session's vault (`Vault.keep_replies`): the digest is an HMAC under the vault key, the upstream's text and
keys are encrypted, so nothing there holds a value the client got, and a restarted proxy still recalls the history of
its sessions (ux22b H1). Forgetting the session forgets them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from stealthflow.placeholders.restore import PLACEHOLDER, reference
from stealthflow.placeholders.vault import Vault

Recalled = tuple[str, frozenset]  # the text as the upstream wrote it, the keys of the placeholders its reply restored


class RestoredReplies:
    """`keep` the texts of a restored reply; `recall` one of them as the client sends it back. At most `max_texts`
    (forms of) texts, of `max_chars` characters in all, are kept per session, the ones kept longest ago going first."""

    def __init__(self, vault: Vault, user: str, max_texts: int = 50_000, max_chars: int = 32_000_000):
        self.vault, self.user = vault, user
        self.max_texts = max_texts
        self.max_chars = max_chars

    def keep(self, session: str, texts: Iterable[tuple[str, str, frozenset]]) -> None:
        """`texts`: (the text as restored, as received, the keys of the placeholders restored in it) of each text of one
        reply."""
        texts = [
            (form, upstream, [list(key) for key in sorted(keys, key=repr)])
            for restored, received, keys in texts
            for form, upstream in _forms(restored, received)
        ]
        if texts:
            self.vault.keep_replies(self.user, session, texts, self.max_texts, self.max_chars)

    def recall(self, session: str, text: str) -> Recalled | None:
        """The upstream's form of `text` if a reply of `session` restored to it (exactly, trimmed of outer white space,
        or as the same JSON re-serialised), with the keys restored in it, else None. Only keys of placeholders in the
        upstream's form count: a text kept by an earlier version was kept with every key of its reply."""
        for form, _ in _forms(text, text):
            found = self.vault.recall_reply(self.user, session, form)
            if found is None:
                continue
            upstream, keys = found
            if form != text and form == text.strip():  # the client trimmed it: keep its white space around
                start = len(text) - len(text.lstrip())
                upstream = text[:start] + upstream + text[start + len(form) :]
            return upstream, frozenset(tuple(key) for key in keys) & _keys_in(upstream)
        return None


def _forms(restored: str, received: str) -> list[tuple[str, str]]:
    """The forms a client may send `restored` back in, each with the upstream's text to send for it: as it is, trimmed
    (a client that strips a reply), and JSON re-serialised (an agent that parses tool-call arguments and dumps them)."""
    forms = [(restored, received)]
    if restored.strip() != restored:
        forms.append((restored.strip(), received.strip()))
    if (canonical := _canonical_json(restored)) is not None and canonical != restored:
        forms.append((canonical, received))
    return forms


def _keys_in(text: str) -> frozenset:
    """The keys of the placeholders written in `text`."""
    return frozenset(ref.key for match in PLACEHOLDER.finditer(text) if (ref := reference(match)) is not None)


def _canonical_json(text: str) -> str | None:
    """A JSON object's text with sorted keys and no spaces, or None for any other text."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        return json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        return None
