"""What an evaluation run persists, one JSONL line per finished unit, so a rerun resumes.

- `originals.jsonl`: per profile, every attacker's guesses and verdicts on the original text;
- `anonymized-METHOD.jsonl`: per profile, the method's output (final text and round texts);
- `scores-METHOD.jsonl`: per profile, the scores of the text after every round.

A line cut short by a crash is dropped on the next load (and the file truncated to the last
whole line) because its unit simply runs again; any other malformed line stops the run with
`FILE:LINE: reason`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Generic, TypeVar

from pydantic import BaseModel, Field

from stealthflow.attack import Verdict
from stealthflow.data.jsonl import parse_lines


class AttackScore(BaseModel):
    """One attacker on one text: ranked guesses and their verdicts per labelled attribute."""

    guesses: dict[str, list[str]] = Field(default_factory=dict)
    verdicts: dict[str, list[Verdict]] = Field(default_factory=dict)
    well_formed: bool = False


class TextScore(BaseModel):
    """Everything measured on one text of one profile (round 0 = the original)."""

    round: int
    attacks: dict[str, AttackScore] = Field(default_factory=dict)  # attacker name -> score
    bleu: float = 1.0
    rouge1: float = 1.0
    rougel: float = 1.0
    readability: float | None = None
    meaning: float | None = None
    hallucination: int | None = None
    # Evidence spans of the original (phrases the strong attacker quoted) still in this text.
    evidence_kept: int = 0
    evidence_total: int = 0


class OriginalRecord(BaseModel):
    profile_id: str
    labels: dict[str, str]  # attribute -> ground truth used (hardness ≥ 1)
    score: TextScore


class AnonymizedRecord(BaseModel):
    profile_id: str
    text: str
    rounds: list[str] = Field(default_factory=list)
    parsed: bool = True


class ScoreRecord(BaseModel):
    profile_id: str
    method: str
    parsed: bool = True
    rounds: list[TextScore]  # rounds 1..N; the last one is the final text


Record = TypeVar("Record", bound=BaseModel)


class JsonlStore(Generic[Record]):
    """Append-only JSONL of `model` records keyed by `profile_id`."""

    def __init__(self, path: Path, model: type[Record]):
        self.path = path
        self.model = model

    def load(self) -> dict[str, Record]:
        if not self.path.exists():
            return {}
        records: dict[str, Record] = {}
        raw = self.path.read_bytes()
        lines = raw.split(b"\n")
        if lines and lines[-1].strip():  # the last write never finished: drop it, it reruns
            self._truncate(len(raw) - len(lines[-1]))
            lines = lines[:-1]
        for record in parse_lines(self.path, lines, self.model):
            records[record.profile_id] = record
        return records

    def append(self, records: list[Record]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            for record in records:
                handle.write(record.model_dump_json() + "\n")

    def _truncate(self, size: int) -> None:
        with self.path.open("r+b") as handle:
            handle.truncate(size)
