"""PNG curves next to the JSONL logs they are drawn from."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

SMOOTH_FROM = 50  # points; shorter curves are drawn as they are


def read_jsonl(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def plot_curves(rows: list[dict], x: str, ys: list[str], path: Path, title: str) -> Path | None:
    """One line per key in `ys` against `x` (rows missing a key are skipped); None if nothing to draw."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = {y: [(r[x], r[y]) for r in rows if r.get(y) is not None and x in r] for y in ys}
    if not any(series.values()):
        return None
    figure, axis = plt.subplots(figsize=(6, 3.5))
    for name, points in series.items():
        if len(points) >= SMOOTH_FROM:
            # per-step values of a batch of 1-2 examples are noise around the trend: show both
            xs, values = zip(*points, strict=True)
            (line,) = axis.plot(xs, values, alpha=0.3, lw=0.8)
            window = max(2, len(points) // 20)
            averaged = np.convolve(values, np.ones(window) / window, mode="valid")
            axis.plot(xs[window - 1 :], averaged, color=line.get_color(), label=f"{name} (mean of {window} steps)")
        elif points:
            axis.plot(*zip(*points, strict=True), marker=".", label=name)
    axis.set_xlabel(x)
    axis.set_title(title)
    axis.grid(alpha=0.3)
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
