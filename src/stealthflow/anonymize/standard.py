"""The `standard` method: one rewrite with a plain anonymization prompt, no attacker feedback."""

from __future__ import annotations

from stealthflow import prompts
from stealthflow.anonymize.methods import Anonymized, ProgressCallback, register_method
from stealthflow.anonymize.output import Rewrite, parse_rewrite
from stealthflow.data.schema import Profile
from stealthflow.llm import LLM, Message


def standard_messages(text: str) -> list[Message]:
    return [
        {"role": "system", "content": prompts.render("anonymizer_system")},
        {"role": "user", "content": prompts.render("standard_anonymizer", text=text)},
    ]


class StandardAnonymizer:
    name = "standard"

    def __init__(self, llm: LLM):
        self.llm = llm

    def rewrite_many(self, texts: list[str], on_done: ProgressCallback | None = None) -> list[Rewrite]:
        answers = self.llm.chat_many([standard_messages(t) for t in texts], on_done=on_done)
        return [parse_rewrite(a.text, t) for a, t in zip(answers, texts, strict=True)]

    def anonymize_many(self, profiles: list[Profile], on_progress: ProgressCallback | None = None) -> list[Anonymized]:
        rewrites = self.rewrite_many([p.text for p in profiles], on_done=on_progress)
        return [Anonymized(p.id, r.text, [r.text], r.parsed) for p, r in zip(profiles, rewrites, strict=True)]


register_method("standard", lambda settings, pool, options: StandardAnonymizer(pool.get(settings.model)))
