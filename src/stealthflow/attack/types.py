"""What any attacker returns: per attribute an inference, up to three ranked guesses and a certainty."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, Field

Verdict = Literal["yes", "no", "less precise"]


class AttributeGuess(BaseModel):
    attribute: str
    inference: str = ""
    guesses: list[str] = Field(default_factory=list, max_length=3)  # empty = no guess
    certainty: int | None = Field(None, ge=1, le=5)


class AttackResult(BaseModel):
    attacker: str
    guesses: dict[str, AttributeGuess] = Field(default_factory=dict)
    raw: str = ""
    # True when the answer followed the requested format for every asked attribute.
    well_formed: bool = False
    error: str | None = None  # the model call failed after its retries

    def top1(self, attribute: str) -> str | None:
        guess = self.guesses.get(attribute)
        return guess.guesses[0] if guess and guess.guesses else None


class Attacker(Protocol):
    """Anything that infers attributes of texts: the LLM attacker, the classifier attacker."""

    name: str

    def attack_many(self, texts: list[str], attributes: list[list[str]]) -> list[AttackResult]: ...
