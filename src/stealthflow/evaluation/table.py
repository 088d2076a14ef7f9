"""The evaluation table's rows and the report they make up (built by report.py, drawn by plots.py)."""

from __future__ import annotations

from dataclasses import dataclass

from stealthflow.attack.strength import ABOVE_MAJORITY, ABOVE_UNIFORM, AccuracyRow
from stealthflow.evaluation.metrics import Estimate


@dataclass(frozen=True)
class Row:
    method: str
    attacker: str
    round: int | None  # None = final text
    figures: dict[str, Estimate]  # TABLE_COLUMNS -> estimate
    attributes: int
    profiles: int
    no_guess: float  # share of the attacker's attributes with no guess on the scored text
    parse_failures: int  # profiles whose anonymizer answer could not be read (text kept)


@dataclass
class Report:
    rows: list[Row]  # final text per method and attacker, `original` first
    attribute_rows: list[tuple[str, Row]]  # (attribute, row)
    curves: list[Row]  # per round for loop methods, round 0 = original
    accuracy: list[AccuracyRow]
    overall_accuracy: dict[str, tuple[Estimate, Estimate]]  # attacker -> (top-1, top-3) pooled over attributes

    def at_chance(self, attacker: str) -> bool:
        """Neither an attribute nor the pooled categorical ones on which the attacker beats chance on the originals: its privacy figures mean little."""
        return not any(r.verdict in (ABOVE_MAJORITY, ABOVE_UNIFORM) for r in self.accuracy if r.attacker == attacker)
