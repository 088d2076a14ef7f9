"""The paper's metrics (AgentStealth Table 1) and their bootstrap confidence intervals.

Per labelled attribute (hardness ≥ 1), comparing the attacker's verdicts on the final text
with those on the original:
- protected (counts towards Anonymity): the top-1 guess on the final text is wrong;
- progressed (counts towards Progress): the top-3 correctness vector on the final text is
  lexicographically lower than on the original (a correct guess fell in rank or out of the
  top 3), so an attribute the attacker never got right cannot progress.
Only "yes" counts as correct; "less precise" and a missing guess count as wrong.

Score_Utility = [BLEU + ROUGE-1 + ROUGE-L + (Meaning − 1)/9] / 4, from the column means.

Intervals: percentile bootstrap over *profiles* (a profile's attributes are not independent:
one rewrite protects or exposes them together), so every figure resamples whole profiles.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from stealthflow.attack import Verdict, correctness_vector, top1_correct
from stealthflow.stats import percentile_bootstrap


def protected(final: list[Verdict]) -> bool:
    return not top1_correct(final)


def progressed(original: list[Verdict], final: list[Verdict]) -> bool:
    return correctness_vector(final) < correctness_vector(original)


def top3_correct(verdicts: list[Verdict]) -> bool:
    return "yes" in verdicts[:3]


def score_utility(bleu: float, rouge1: float, rougel: float, meaning: float) -> float:
    return (bleu + rouge1 + rougel + (meaning - 1) / 9) / 4


@dataclass(frozen=True)
class Estimate:
    """A figure with its bootstrap 95 % interval and the number of units behind it."""

    value: float
    low: float
    high: float
    n: int  # attributes for shares, texts for utility figures

    def format(self, digits: int = 3) -> str:
        if self.n == 0 or math.isnan(self.value):
            return "–"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    @classmethod
    def missing(cls) -> "Estimate":
        return cls(math.nan, math.nan, math.nan, 0)


def bootstrap_estimate(
    columns: Sequence[Sequence[float]], statistic: Callable[..., float], n: int, seed: int = 0
) -> Estimate:
    """`statistic(*columns)` with a percentile bootstrap CI, resampling rows (profiles) jointly."""
    result = percentile_bootstrap(columns, statistic, seed=seed) if n else None
    return Estimate(*result, n) if result is not None else Estimate.missing()


def share(hits: Sequence[float], totals: Sequence[float]) -> Estimate:
    """Σ hits / Σ totals over profiles, e.g. protected attributes / labelled attributes."""
    return bootstrap_estimate([hits, totals], _ratio, n=int(np.sum(totals)))


def mean(values: Sequence[float | None]) -> Estimate:
    """Mean over the profiles that have a value (a missing judge score is skipped, not zero)."""
    column = [math.nan if v is None else v for v in values]
    return bootstrap_estimate([column], _nanmean, n=int(np.sum(~np.isnan(np.asarray(column, dtype=float)))))


def utility_score(
    bleu: Sequence[float], rouge1: Sequence[float], rougel: Sequence[float], meaning: Sequence[float | None]
) -> Estimate:
    """Score_Utility from the column means, bootstrapped the same way."""
    meaning_column = [math.nan if m is None else m for m in meaning]

    def statistic(b, r1, rl, m):
        return score_utility(b.mean(-1), r1.mean(-1), rl.mean(-1), np.nanmean(m, -1))

    n_meaning = int(np.sum(~np.isnan(np.asarray(meaning_column, dtype=float))))
    if n_meaning == 0:
        return Estimate.missing()
    return bootstrap_estimate([bleu, rouge1, rougel, meaning_column], statistic, n=len(bleu))


def _ratio(hits: np.ndarray, totals: np.ndarray) -> np.ndarray:
    return hits.sum(-1) / totals.sum(-1)  # 0/0 = NaN: no attribute drawn


def _nanmean(values: np.ndarray) -> np.ndarray:
    return np.nanmean(values, -1)
