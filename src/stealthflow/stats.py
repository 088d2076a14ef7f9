"""The one percentile bootstrap behind every confidence interval (evaluation tables, attacker strength)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np

CONFIDENCE = 0.95
RESAMPLES = 2000


def percentile_bootstrap(
    columns: Sequence[Sequence[float]],
    statistic: Callable[..., float],
    resamples: int = RESAMPLES,
    seed: int = 0,
    confidence: float = CONFIDENCE,
) -> tuple[float, float, float] | None:
    """(value, low, high) of `statistic(*columns)`, resampling rows jointly; None if undefined.

    Each column holds one value per row (NaN where a row has none). `statistic` reduces the
    last axis, so all resamples are computed at once; resamples whose statistic is undefined
    (e.g. no row with a value drawn) are left out.
    """
    table = np.asarray(columns, dtype=float)  # (columns, rows)
    if table.size == 0:
        return None
    picks = np.random.default_rng(seed).integers(0, table.shape[1], (resamples, table.shape[1]))
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN resamples: dropped below
        value = float(statistic(*table))
        draws = np.asarray(statistic(*table[:, picks]), dtype=float)  # (resamples,)
    draws = draws[~np.isnan(draws)]
    if math.isnan(value) or not len(draws):
        return None
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail])
    return value, float(low), float(high)
