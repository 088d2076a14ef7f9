"""Anonymization methods by name: what `anonymize --method` and `evaluate --methods` accept.

A method turns profiles into anonymized texts. Loop methods (`aa`, `stealth`) also return
the text after every round, which the evaluation needs for its trade-off curve.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from stealthflow.anonymize.placeholders_kept import new_markers
from stealthflow.config import Settings
from stealthflow.data.schema import Profile
from stealthflow.llm.pool import LLMPool


@dataclass
class Anonymized:
    profile_id: str
    text: str
    rounds: list[str] = field(default_factory=list)  # text after round 1..N (last == text)
    parsed: bool = True  # False when the model's answer could not be read and the text was kept
    details: dict[str, Any] = field(default_factory=dict)
    nothing_to_change: bool = False  # the method found nothing that gives the author away: kept on purpose
    # False: nothing checks what stays (ner-mask masks named entities only), so the text is never reported protected
    checked: bool = True

    def failure(self, original: str) -> str | None:
        """Why this text is not protected (None: it is). Fails closed: a text the method returned
        unchanged without saying there was nothing to change was not rewritten."""
        if "error" in self.details:
            return f"the method failed: {self.details['error']}"
        if not self.parsed:
            return "the model's answer could not be read; the text is unchanged"
        if markers := new_markers(original, self.text):
            return f"the rewrite put marker(s) in place of words ({', '.join(markers)}): it is no text to post"
        if unprotected := self.details.get("unprotected"):
            phrases = "; ".join(f'"{u["phrase"]}"' for u in unprotected)
            stayed = f"{self.stayed_why()} for {phrases}: the phrase(s) stayed"
            return "; ".join(filter(None, [stayed, self.unread()]))
        if unread := self.unread():
            return unread
        if " ".join(self.text.split()) == " ".join(original.split()) and not self.nothing_to_change:
            return "nothing was rewritten: the text is unchanged"
        return None

    def stayed_why(self) -> str:
        """The words that open the reason of phrases that stayed: `local`'s own, or those of a check of another
        method's rewrite (`stays.check_what_stays`)."""
        return self.details.get("stayed_reason", "no fluent generalization")

    def unread(self) -> str | None:
        """What the method could not read (None: it read every post): a post, or a sentence of one, in a language
        it does not cover ("not checked in part" when every such post was read but for a sentence: what it changed
        and what stayed are of the rest). Such a text is not protected and no word of it is named."""
        if not (languages := list(dict.fromkeys(u["language"] for u in self.details.get("not_read", [])))):
            return None
        what = "not checked in part" if self.read_in_part() else "not checked"
        return f"{what}: the local rewrite reads English only (language: {', '.join(languages)})"

    def read_in_part(self) -> bool:
        """Whether what the method could not read is only sentences of posts it read otherwise (`unread`)."""
        not_read = self.details.get("not_read", [])
        return bool(not_read) and not any(u.get("whole", True) for u in not_read)

    def stayed_by_post(self) -> dict[int, list[str]]:
        """The phrases the method marked but could not generalize, by post (its index in the profile)."""
        by_post: dict[int, list[str]] = {}
        for left in self.details.get("unprotected", []):
            by_post.setdefault(left.get("post", 0), []).append(left["phrase"])
        return dict(sorted(by_post.items()))


ProgressCallback = Callable[[int], None]  # called with the number of profiles just finished


class Method(Protocol):
    name: str

    def anonymize_many(
        self, profiles: list[Profile], on_progress: ProgressCallback | None = None
    ) -> list[Anonymized]: ...


MethodFactory = Callable[[Settings, LLMPool, dict[str, Any]], Method]
_METHODS: dict[str, MethodFactory] = {}
# Built-in methods by name -> the module that registers it when imported. Names are known
# without importing (`stealthflow methods` answers at once); modules load on first use,
# since some pull heavy dependencies (torch, langgraph).
_BUILTIN_MODULES = {
    "aa": "stealthflow.workflow.methods",
    "local": "stealthflow.anonymize.local",
    "ner-mask": "stealthflow.anonymize.ner_mask",
    "standard": "stealthflow.anonymize.standard",
    "stealth": "stealthflow.workflow.methods",
}


def register_method(name: str, factory: MethodFactory) -> None:
    _METHODS[name] = factory


def method_names() -> list[str]:
    return sorted(set(_BUILTIN_MODULES) | set(_METHODS))


OFFLINE_METHODS = frozenset({"ner-mask"})  # methods that never call `settings.model`


def sends_raw_text(name: str, settings: Settings) -> bool:
    """Whether method `name` sends each text as it is (credentials, e-mails and all) to an API endpoint not on this
    machine: every method but an offline one calls `settings.model` with the raw post (only its output is masked)."""
    from stealthflow.llm.registry import off_machine

    return name not in OFFLINE_METHODS and off_machine(settings.model)


def build_method(name: str, settings: Settings, pool: LLMPool, options: dict[str, Any] | None = None) -> Method:
    if name not in _METHODS and name in _BUILTIN_MODULES:
        importlib.import_module(_BUILTIN_MODULES[name])
    if name not in _METHODS:
        raise ValueError(f"unknown method {name!r}; choose from {', '.join(method_names())}")
    return _METHODS[name](settings, pool, options or {})
