"""User messages rewritten against attribute inference, once per conversation (`proxy --rewrite`).

A chat client re-sends the whole history every turn. Rewriting it afresh would cost a rewrite per
message per turn and, with a sampling model, show the upstream a different history each turn; so
the first outcome for a (session, protected text) is remembered and reused. A rejected rewrite
(placeholders lost, an unreadable answer) is remembered too: that message keeps its placeholder
text in every turn. So is an outcome that left the text not protected (`RewriteOutcome.protected`: rejected, a marked
phrase that stayed, a text the method could not read): `proxy.rewrite_fail` refuses such a request (`refusal`), sends
it as it is, or (`send-unread`) sends it only when its one fault is that the method could not read it; counted. The cache is in memory (a restart rewrites earlier turns afresh), bounded
(least recently used first out), keyed by an HMAC under a per-process key, and holds protected
text only: the rewriter never sees a raw value.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace

from stealthflow.anonymize.methods import Method
from stealthflow.data.attributes import attribute_word
from stealthflow.pipeline.protector import Protected
from stealthflow.pipeline.rewrite import RewriteOutcome, rewrite_protected
from stealthflow.proxy.errors import ProxyError


@dataclass(frozen=True)
class _Outcome:
    text: str  # what goes upstream: the rewrite, or the protected text when it was rejected
    rewritten: bool  # accepted and different from the protected text
    rejected: bool
    protected: bool  # `RewriteOutcome.protected`: accepted, read, and no marked phrase stayed
    stayed: int  # marked phrases that stayed in `text`
    unread: bool  # the method could not read (some of) the text
    why: str  # why it is not protected, quoting none of it ("" when it is: `why_not_protected`)


@dataclass
class RewriteCounts:
    rewritten: int = 0  # user texts rewritten (cached ones included)
    rejected: int = 0  # user texts whose rewrite was rejected (sent, with `rewrite_fail: send`, as protected)
    fresh: int = 0  # texts the rewriter ran on in this request (the others came from the cache)
    unprotected: int = 0  # user texts the rewrite left not protected (rejected, a phrase stayed, not read)
    stayed: int = 0  # marked phrases that stayed in them
    unread: int = 0  # user texts the rewrite could not read
    refused: list[tuple[int, str]] = field(default_factory=list)  # (text's index, why) of the unprotected ones
    # the indexes of those whose one fault is that the rewrite could not read them (their placeholders are in)
    unread_only: frozenset[int] = frozenset()

    def headers(self) -> dict[str, str]:
        return {
            "x-stealthflow-rewritten": str(self.rewritten),
            "x-stealthflow-rewrite-rejected": str(self.rejected),
            "x-stealthflow-rewrite-stayed": str(self.stayed),
            "x-stealthflow-rewrite-unread": str(self.unread),
        }

    def refused_under(self, fail: str) -> RewriteCounts | None:
        """What a 422 reports under `proxy.rewrite_fail` `fail` (None: the request goes): `refuse` every user text the
        rewrite left not protected, `send-unread` those but the ones it only could not read, `send` none."""
        counts = self
        if fail == "send":
            return None
        if fail == "send-unread":
            gone = len(self.unread_only)
            counts = replace(
                self,
                unprotected=self.unprotected - gone,
                unread=self.unread - gone,
                refused=[(i, why) for i, why in self.refused if i not in self.unread_only],
                unread_only=frozenset(),
            )
        return counts if counts.unprotected else None

    def refusal(self, headers: dict[str, str], places: list[str], rewrite: str) -> ProxyError:
        """The 422 for a request with user texts the rewrite left not protected: counts, then each such text's place
        in the request (`places`, by text index) and why, never a phrase (`ProxyError`: an error body is what client
        libraries log and agents may pass on, upstream too), and the command that names the phrases to the user
        (`rewrite`: the proxy's --rewrite; protect masks before it rewrites, as the proxy does)."""
        why = ", ".join(
            f"{n} {what}"
            for n, what in (
                (self.stayed, STAYED),
                (self.unread, "text(s) could not be read"),
                (self.rejected, "rewrite(s) rejected"),
            )
            if n
        )
        named = "; ".join(f"{places[i] or f'text {i}'}: {reason}" for i, reason in self.refused[:REFUSALS_NAMED])
        if len(self.refused) > REFUSALS_NAMED:
            named += f"; {len(self.refused) - REFUSALS_NAMED} more"
        send = "start the proxy with --rewrite-fail send to send such messages as they are"
        unread = (
            "start the proxy with --rewrite-fail send-unread to send a message the rewrite cannot read with its "
            "placeholders (personal data masked, not rewritten), or write it in English"
        )
        see = (
            f"(`stealthflow protect - --rewrite {rewrite} --verbose`, the message on stdin, names the phrases that "
            "stayed on a terminal; this answer quotes none)"
        )
        if not self.unread:
            advice = f"Reword them {see}, or {send}"
        elif self.unread == self.unprotected:
            advice = f"Rewording will not help a text the rewrite cannot read: {unread}"
        else:
            advice = (
                f"Reword those whose phrases stayed {see}, or {send}; rewording will not help a text the rewrite cannot "
                f"read: {unread}"
            )
        return ProxyError(
            422,
            f"the rewrite could not protect {self.unprotected} user message(s) ({why}); nothing was sent upstream. "
            f"{named}. {advice}",
            param="messages",
            headers={**self.headers(), **headers},
        )


REFUSALS_NAMED = 5  # user texts a 422 names, the first of them (a long history may hold many)
STAYED = (
    "phrase(s) that give away the writer stayed"  # marked by the cue tagger, counted by attribute (`attribute_word`)
)


def why_not_protected(outcome: RewriteOutcome) -> str:
    """Why a rewrite left a text not protected, quoting no word of it: the rejection's reason (it names placeholders
    only), or how many marked phrases stayed per attribute, and what it could not read (languages only)."""
    if outcome.protected:
        return ""
    if not outcome.accepted:
        return f"its rewrite was rejected ({outcome.reason})"
    reasons = []
    if outcome.unprotected:
        attributes = Counter(
            attribute_word(attribute) if attribute else "no attribute" for attribute in outcome.attributes
        )
        counts = ", ".join(f"{attribute}: {n}" for attribute, n in sorted(attributes.items()))
        reasons.append(f"{len(outcome.unprotected)} {STAYED} ({counts})")
    if outcome.unread:
        reasons.append(outcome.unread_why or "not checked: the rewrite could not read it")
    return "; ".join(reasons)


class MessageRewrites:
    def __init__(self, method: Method, max_entries: int = 10_000):
        self.method = method
        self.max_entries = max_entries
        self._key = secrets.token_bytes(32)
        self._cache: OrderedDict[bytes, _Outcome] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._method_lock = threading.Lock()  # one rewrite batch at a time: a local model is not re-entrant

    def rewrite(
        self, session: str, protected: list[Protected], from_user: list[bool]
    ) -> tuple[list[str], RewriteCounts]:
        """The texts to send: user texts rewritten (from the cache when seen before), the rest as protected.
        Blocking (it may run a model): call it from a worker thread."""
        keys = {
            i: self._digest(session, p.text)
            for i, (p, mine) in enumerate(zip(protected, from_user, strict=True))
            if mine
        }
        outcomes = {i: hit for i, key in keys.items() if (hit := self._get(key)) is not None}
        todo = {keys[i]: i for i in keys if i not in outcomes}  # one rewrite per distinct text
        fresh = 0
        if todo:
            with self._method_lock:
                # Taken from the cache after all if a concurrent request rewrote it meanwhile: one outcome per text.
                done = {key: hit for key in todo if (hit := self._get(key)) is not None}
                fresh_ids = [i for key, i in todo.items() if key not in done]
                items = [(str(i), protected[i].text, protected[i].placeholders) for i in fresh_ids]
                values = [protected[i].values for i in fresh_ids]
                results = rewrite_protected(self.method, items, values=values) if items else []
                for (item_id, text, _), result in zip(items, results, strict=True):
                    key = keys[int(item_id)]
                    outcome = _Outcome(
                        result.text,
                        result.accepted and result.text != text,
                        not result.accepted,
                        result.protected,
                        len(result.unprotected),
                        result.unread,
                        why_not_protected(result),
                    )
                    done[key] = self._put(key, outcome)
            fresh = len(items)
            outcomes.update((i, done[key]) for i, key in keys.items() if i not in outcomes)
        mine = outcomes.values()
        counts = RewriteCounts(
            rewritten=sum(o.rewritten for o in mine),
            rejected=sum(o.rejected for o in mine),
            fresh=fresh,
            unprotected=sum(not o.protected for o in mine),
            stayed=sum(o.stayed for o in mine),
            unread=sum(o.unread for o in mine),
            refused=[(i, outcomes[i].why) for i in sorted(outcomes) if not outcomes[i].protected],
            unread_only=frozenset(
                i for i, o in outcomes.items() if o.unread and not o.protected and not o.rejected and not o.stayed
            ),
        )
        return [outcomes[i].text if i in outcomes else p.text for i, p in enumerate(protected)], counts

    def _digest(self, session: str, text: str) -> bytes:
        return hmac.new(self._key, f"{session}\0{text}".encode(), hashlib.sha256).digest()

    def _get(self, key: bytes) -> _Outcome | None:
        with self._cache_lock:
            outcome = self._cache.get(key)
            if outcome is not None:
                self._cache.move_to_end(key)
            return outcome

    def _put(self, key: bytes, outcome: _Outcome) -> _Outcome:
        with self._cache_lock:
            self._cache[key] = outcome
            while len(self._cache) > self.max_entries:
                self._cache.popitem(last=False)
            return outcome
