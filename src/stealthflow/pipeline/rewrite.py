"""After placeholders, rewrite the text against implicit-attribute inference with a method
from the anonymization registry (`standard`, `stealth`, ...), then check that every
placeholder survived: drifted ones are put back in their exact form; a rewrite that lost,
invented or repeated a placeholder is rejected with the reason, and the placeholder text is kept.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from stealthflow.anonymize.methods import Method, ProgressCallback, build_method, method_names
from stealthflow.anonymize.stays import check_what_stays
from stealthflow.config import Settings
from stealthflow.data.schema import Comment, Profile
from stealthflow.llm.config import ModelConfig
from stealthflow.llm.pool import LLMPool
from stealthflow.placeholders.restore import restore_text

if TYPE_CHECKING:
    from stealthflow.pipeline.protector import Protected


@dataclass(frozen=True)
class RewriteOutcome:
    """`accepted`: the rewrite is the text to send (it kept every placeholder and its answer could be read;
    a rewrite that changed nothing is accepted too). `unprotected`: the phrases the method marked but could not
    generalize; they are in the text to send. `unread`: the method could not read the text, or a sentence of it (a
    language it does not cover; `reason` says which, and `unread_why` without the phrases; `read_in_part`: only
    sentences of it, the rest was read and checked). `protected`: accepted, read and
    no phrase stayed (as `anonymize` says). `attributes`: the attribute of each phrase of `unprotected` ("" when the
    method does not say): what stayed, counted without quoting it."""

    text: str  # the accepted rewrite, or the protected text when rejected
    accepted: bool
    reason: str = ""
    changes: tuple[dict, ...] = ()  # what the method changed and why (the `local` method says)
    unprotected: tuple[str, ...] = ()  # marked phrases the method could not generalize: they stayed
    unread: bool = False  # the method could not read (some of) the text: it was not checked
    unread_why: str = ""  # why, naming languages only ("... reads English only (language: de)")
    read_in_part: bool = False  # what was not read is a sentence (or more) of a text read otherwise
    attributes: tuple[str, ...] = ()

    @property
    def protected(self) -> bool:
        return self.accepted and not self.unprotected and not self.unread

    def to_json(self, method: str) -> dict:
        extra = {"reason": self.reason} if self.reason else {}
        if self.accepted and self.changes:
            extra["changes"] = list(self.changes)
        if self.unprotected:
            extra["unprotected"] = list(self.unprotected)
        return {"method": method, "accepted": self.accepted, "protected": self.protected, **extra}


def check_rewrite(protected: str, rewritten: str, placeholders: set[str]) -> RewriteOutcome:
    normalised = restore_text(rewritten, lambda ref: ref.exact() if ref.exact() in placeholders else None)
    # a placeholder-shaped text the user wrote ("<TODO_1>", which protect leaves as it is) is no invention; one protect
    # escaped ("\EMAIL_3") is, when the rewrite drops its backslash: it is read live, not by its characters (rev28 F2)
    live = set(restore_text(protected, lambda _ref: None).unresolved)
    invented = sorted(set(normalised.unresolved) - live)
    if invented:
        return RewriteOutcome(protected, False, f"the rewrite invented placeholder(s) {', '.join(invented)}")
    lost = sorted(p for p in placeholders if p not in normalised.text)
    if lost:
        return RewriteOutcome(protected, False, f"the rewrite lost placeholder(s) {', '.join(lost)}")
    repeated = sorted(p for p in placeholders if normalised.text.count(p) > protected.count(p))
    if repeated:  # restored, the value would stand where it never was ("call me at <EMPLOYER_1>")
        return RewriteOutcome(protected, False, f"the rewrite repeated placeholder(s) {', '.join(repeated)}")
    return RewriteOutcome(normalised.text, True)


def rewrite_method(name: str, settings: Settings) -> tuple[str, Settings]:
    """The method a rewrite name runs and its settings: a registered method as it is, any other
    value a model spec run with `standard`; `ValueError` for neither. Cheap: builds nothing."""
    if name in method_names():
        return name, settings
    try:
        model = ModelConfig.model_validate({**settings.model.model_dump(), "model": name})
    except ValueError:
        raise ValueError(
            f"unknown rewrite {name!r}: use none, a method ({', '.join(method_names())}) or a model spec (embedded, hf:PATH, vllm:NAME, provider/name)"
        ) from None
    return "standard", settings.model_copy(update={"model": model})


def build_rewriter(name: str, settings: Settings, pool: LLMPool) -> Method:
    """A registered method by name; any other value is a model spec run with `standard`."""
    return build_method(*rewrite_method(name, settings), pool)


def rewrite_protected(
    method: Method,
    items: list[tuple[str, str, set[str]]],
    on_progress: ProgressCallback | None = None,
    values: list[dict[str, str]] | None = None,
) -> list[RewriteOutcome]:
    """`items`: (id, protected text, its placeholders). `values`: per item, its placeholders' values (`Protected.values`),
    which the `local` method's cue tagger reads in their place, so that it marks what it marks in the raw text
    (`anonymize` on the same post); nothing else of the rewrite sees them."""
    profiles = [
        Profile(id=item_id, comments=[Comment(text=text, masked=values[i] if values else {})])
        for i, (item_id, text, _) in enumerate(items)
    ]
    results = check_what_stays(method, profiles, method.anonymize_many(profiles, on_progress))
    outcomes = []
    for (_, text, placeholders), result in zip(items, results, strict=True):
        if not result.parsed:
            outcomes.append(RewriteOutcome(text, False, "the model's answer could not be parsed"))
            continue
        outcome = check_rewrite(text, result.text, placeholders)
        outcome = replace(outcome, changes=tuple(result.details.get("changes", ())))
        unprotected = result.details.get("unprotected", [])
        if unprotected or result.unread():  # phrases nothing replaced fluently stayed, or it was not read: say so
            attributes = {u["phrase"]: u.get("attribute") or "" for u in unprotected}
            outcome = replace(
                outcome,
                reason=outcome.reason or result.failure(text) or "",  # a rejection's reason first
                unprotected=tuple(attributes),
                unread=result.unread() is not None,
                unread_why=result.unread() or "",
                read_in_part=result.read_in_part(),
                attributes=tuple(attributes.values()),
            )
        outcomes.append(outcome)
    return outcomes


def with_rewrites(protected: list[Protected], method: Method) -> list[Protected]:
    """Each protected text rewritten by `method` and checked (`rewrite_protected`): `text` becomes
    the text to send (the protected text when the rewrite was rejected), `rewrite` says what happened."""
    outcomes = rewrite_protected(
        method,
        [(str(i), p.text, p.placeholders) for i, p in enumerate(protected)],
        values=[p.values for p in protected],
    )
    return [replace(p, text=outcome.text, rewrite=outcome) for p, outcome in zip(protected, outcomes, strict=True)]


class NamedRewriter:
    """A rewrite method by name (as `protect --rewrite` takes it), built on first use, once,
    whichever thread asks first (a server's requests run on several threads)."""

    def __init__(self, name: str, settings: Settings, pool: LLMPool | None = None):
        rewrite_method(name, settings)  # an unknown name fails here, before anything loads
        self.name = name
        self.settings = settings
        self.pool = pool or LLMPool()
        self._method: Method | None = None
        self._lock = threading.Lock()

    def method(self) -> Method:
        with self._lock:
            if self._method is None:
                self._method = build_rewriter(self.name, self.settings, self.pool)
            return self._method
