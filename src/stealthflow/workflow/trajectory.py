"""One trajectory line per (profile, round): everything later stages need, no model re-run.

Round 0 is the original text (attacked, no anonymizer turn). Rounds 1..N each hold the
anonymizer turn (exact messages shown, raw answer, parse result, warning flag, the insight
rules that were shown and the memory version), the attacks on the new text with their
verdicts, and the lexical utility against the original.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from stealthflow.attack.types import AttributeGuess, Verdict
from stealthflow.data.jsonl import read_models
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
    labels_source: str = "labels"  # "labels", or "attacker": its confident round-0 guesses (unlabelled input)
    utility_warning_next: bool = False  # U dropped by more than τ: the next round's prompt carries the warning
    params: dict[str, Any] = Field(default_factory=dict)  # models and generation parameters
    created: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))

    def guess_summary(self, attribute: str) -> str:
        """Every attacker's guesses for `attribute`, e.g. "llm: 34; 30 (4/5) | classifier: 30-40"."""
        parts = []
        for attack in self.attacks:
            guess = attack.guesses.get(attribute)
            named = "; ".join(guess.guesses) if guess and guess.guesses else "no guess"
            certainty = f" ({guess.certainty}/5)" if guess and guess.certainty else ""
            parts.append(f"{attack.attacker}: {named}{certainty}")
        return " | ".join(parts) or "no guess"


class TrajectoryFile:
    """The run's JSONL of round records: appended per finished batch, cut back on resume."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    def truncate(self, size: int) -> None:
        """Drop whatever an interrupted batch appended after the last finished one."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a+b") as handle:
            handle.truncate(size)

    def append(self, records: list[RoundRecord]) -> int:
        """Append and flush to disk; returns the new file size."""
        with self.path.open("ab") as handle:
            for record in records:
                handle.write((record.model_dump_json() + "\n").encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
            return handle.tell()

    def read(self) -> list[RoundRecord]:
        return read_models(self.path, RoundRecord, "trajectory line")
