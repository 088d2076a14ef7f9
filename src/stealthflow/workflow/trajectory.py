"""One trajectory line per (profile, round): everything later stages need, no model re-run.

Round 0 is the original text (attacked, no anonymizer turn). Rounds 1..N each hold the
anonymizer turn (exact messages shown, raw answer, parse result, warning flag, the insight
rules that were shown and the memory version), the attacks on the new text with their
verdicts, and the lexical utility against the original.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel, Field

from stealthflow.attack.types import AttributeGuess, Verdict
from stealthflow.llm.base import Message


class AttackRecord(BaseModel):
    attacker: str  # attacker name ("llm", "classifier")
    model: str  # model id behind it
    messages: list[Message] = Field(default_factory=list)  # prompt as sent (empty for non-LLM attackers)
    raw: str = ""
    guesses: dict[str, AttributeGuess] = Field(default_factory=dict)
    verdicts: dict[str, list[Verdict]] = Field(default_factory=dict)  # per attribute, per ranked guess
    well_formed: bool = False


class AnonymizerTurn(BaseModel):
    prompt_id: str  # "anonymizer" or "anonymizer+utility_warning"
    messages: list[Message]
    raw: str
    explanation: str = ""
    parsed: bool
    utility_warning: bool
    insights_shown: dict[str, list[str]] = Field(default_factory=dict)  # attribute -> rules shown
    insight_version: int = 0
    model: str


class RoundRecord(BaseModel):
    run_id: str
    profile_id: str
    round: int  # 0 = original
    text: str
    anonymizer: AnonymizerTurn | None = None
    attacks: list[AttackRecord] = Field(default_factory=list)
    utility: dict[str, float] = Field(default_factory=dict)  # bleu, rouge1, rougel, mean (vs original)
    protected: dict[str, bool] = Field(default_factory=dict)  # combined rule over all attackers
    labels: dict[str, str] = Field(default_factory=dict)  # ground truth used for the verdicts
    params: dict[str, Any] = Field(default_factory=dict)  # models and generation parameters
    created: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))
