"""FAKE acceptance gates for tests whose fake fluency scorers decide what reads well: a linear gate with weights on
the fluency score (and the removal flag) alone, so a test keeps deciding by the scores it sets; and the FAKE fluency
scorer those tests set the scores with."""

from __future__ import annotations

from stealthflow.anonymize.gate import FEATURES, Gate
from stealthflow.utility.fluency import Fluency


def floors_gate(stand_in: float = 0.0, removal: float | None = None) -> Gate:
    """FAKE gate: passes an edit whose fluency score is at least `stand_in`, or `removal` (default the same) for an
    edit that only drops words."""
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("fluency")] = 1.0
    weights[FEATURES.index("removal")] = stand_in - (stand_in if removal is None else removal)
    return Gate((0.0,) * len(FEATURES), (1.0,) * len(FEATURES), tuple(weights), -stand_in, 0.5)


class ScoreByTable:
    """FAKE scorer: a fixed score per rewritten sentence, whatever spaces end it (anything else reads badly);
    remembers what it scored."""

    def __init__(self, table: dict[str, float]):
        self.table = table
        self.seen: list[str] = []

    def compare(self, originals, rewrites):
        self.seen.extend(rewrites)
        return [Fluency(self.table.get(r.strip(), -9.0), 0.0) for r in rewrites]
