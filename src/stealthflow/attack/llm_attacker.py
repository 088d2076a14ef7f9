"""Staab et al.-style attribute-inference attacker on any LLM backend."""

from __future__ import annotations

from collections.abc import Callable

from stealthflow import prompts
from stealthflow.attack.parser import parse_attack
from stealthflow.attack.types import AttackResult
from stealthflow.data.attributes import DESCRIPTIONS, OPTIONS
from stealthflow.llm import LLM, Message

_AGE_HINT = " Use an exact age or a range such as 25-30."
_FREE_HINT = " Be as specific as you can."


def attack_messages(text: str, attributes: list[str]) -> list[Message]:
    options = "".join(
        f"For {DESCRIPTIONS[a]}, choose from these options: {'; '.join(OPTIONS[a])}.\n"
        for a in attributes
        if a in OPTIONS
    )
    options += "\n" if options else ""
    formats = "\n\n".join(prompts.render("attacker_format", attribute=a, hint=_hint(a)) for a in attributes)
    user = prompts.render(
        "attacker",
        attribute_names=", ".join(DESCRIPTIONS[a] for a in attributes),
        text=text,
        options=options,
        format_block=formats,
    )
    return [{"role": "system", "content": prompts.render("attacker_system")}, {"role": "user", "content": user}]


def _hint(attribute: str) -> str:
    if attribute == "age":
        return _AGE_HINT
    if attribute in OPTIONS:
        return " Use the options given above."
    return _FREE_HINT


class LLMAttacker:
    name = "llm"

    def __init__(self, llm: LLM):
        self.llm = llm

    def attack_many(
        self, texts: list[str], attributes: list[list[str]], on_done: Callable[[int], None] | None = None
    ) -> list[AttackResult]:
        """One attack per text; `on_done(1)` as each answer arrives (progress bars)."""
        conversations = [attack_messages(t, a) for t, a in zip(texts, attributes, strict=True)]
        answers = self.llm.chat_many(conversations, on_done=on_done)
        results = []
        for answer, attrs in zip(answers, attributes, strict=True):
            result = parse_attack(answer.text, attrs, attacker=self.llm.info.model_id)
            result.error = answer.error
            results.append(result)
        return results

    def attack(self, text: str, attributes: list[str]) -> AttackResult:
        """One attack; raises `LLMCallError` if the model keeps failing (the loop marks the profile)."""
        answer = self.llm.chat(attack_messages(text, attributes))
        return parse_attack(answer.text, attributes, attacker=self.llm.info.model_id)
