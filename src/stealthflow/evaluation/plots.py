"""PNG plots of an evaluation (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
import numpy as np  # noqa: E402

from stealthflow.evaluation.metrics import Estimate  # noqa: E402

if TYPE_CHECKING:
    from stealthflow.evaluation.table import Report, Row


def _errors(estimates) -> np.ndarray:
    """Asymmetric error bars (2 × n) from estimates; NaN-free."""
    return np.array([[max(0.0, e.value - e.low) for e in estimates], [max(0.0, e.high - e.value) for e in estimates]])


def plot_tradeoff(report: "Report", path: Path) -> Path:
    """Anonymity vs Score_Utility: one line per loop method (rounds 0..N), one point per other method."""
    attackers = sorted({r.attacker for r in report.rows})
    figure, axes = plt.subplots(1, len(attackers), figsize=(6 * len(attackers), 4.5), squeeze=False)
    for axis, attacker in zip(axes[0], attackers, strict=True):
        loops = sorted({r.method for r in report.curves if r.attacker == attacker})
        for method in loops:
            points = [r for r in report.curves if r.attacker == attacker and r.method == method]
            _draw(axis, points, label=method, line=True)
            for row in points:
                axis.annotate(
                    str(row.round),
                    (row.figures["Score_Utility"].value, row.figures["Anonymity"].value),
                    fontsize=7,
                    xytext=(3, 3),
                    textcoords="offset points",
                )
        for row in (r for r in report.rows if r.attacker == attacker and r.method not in loops):
            _draw(axis, [row], label=row.method, line=False)
        axis.set_xlabel("Score_Utility (higher keeps more)")
        axis.set_ylabel("Anonymity (share of attributes with a wrong top-1 guess)")
        axis.set_title(
            f"privacy–utility trade-off, attacker: {attacker}\n(numbers = round; bars = 95% CI)", fontsize=10
        )
        axis.grid(alpha=0.3)
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def _draw(axis, rows: list["Row"], label: str, line: bool) -> None:
    rows = [
        r
        for r in rows
        if not math.isnan(r.figures["Score_Utility"].value) and not math.isnan(r.figures["Anonymity"].value)
    ]
    if not rows:
        return
    utility = [r.figures["Score_Utility"] for r in rows]
    anonymity = [r.figures["Anonymity"] for r in rows]
    axis.errorbar(
        [u.value for u in utility],
        [a.value for a in anonymity],
        xerr=_errors(utility),
        yerr=_errors(anonymity),
        fmt="o-" if line else "s",
        capsize=3,
        label=label,
    )


def plot_attack_accuracy(report: "Report", path: Path) -> Path:
    """Per attribute: top-1 accuracy on the originals and on each method's final text, with chance."""
    attackers = sorted({r.attacker for r in report.accuracy}) or sorted({r.attacker for r in report.rows})
    figure, axes = plt.subplots(len(attackers), 1, figsize=(12, 4 * len(attackers)), squeeze=False)
    for axis, attacker in zip(axes[:, 0], attackers, strict=True):
        accuracy = [r for r in report.accuracy if r.attacker == attacker]
        attributes = [r.attribute for r in accuracy]
        methods = [r.method for r in report.rows if r.attacker == attacker and r.method != "original"]
        series = [("original text", [r.top1 for r in accuracy])]
        for method in methods:
            rows = {a: r for a, r in report.attribute_rows if r.attacker == attacker and r.method == method}
            # top-1 accuracy on the final text = 1 − Anonymity
            series.append((method, [_flip(rows[a].figures["Anonymity"]) if a in rows else None for a in attributes]))
        width = 0.8 / max(1, len(series))
        positions = np.arange(len(attributes))
        for index, (label, values) in enumerate(series):
            present = [(i, v) for i, v in enumerate(values) if v is not None and not math.isnan(v.value)]
            if not present:
                continue
            xs = positions[[i for i, _ in present]] + (index - (len(series) - 1) / 2) * width
            errors = _errors([v for _, v in present])
            axis.bar(
                xs,
                [v.value for _, v in present],
                width,
                yerr=errors,
                capsize=2,
                error_kw={"ecolor": "dimgray", "lw": 0.8},
                label=label,
            )
        majority = [r.chance.majority_top1.mean() if r.chance is not None else math.nan for r in accuracy]
        axis.scatter(positions, majority, marker="_", s=600, color="black", zorder=3, label="majority-class chance")
        axis.set_xticks(positions, [f"{a}\n(n={r.n})" for a, r in zip(attributes, accuracy, strict=True)])
        axis.set_ylim(0, 1)
        axis.set_ylabel("top-1 accuracy")
        axis.set_title(f"attack accuracy per attribute, attacker: {attacker} (bars = 95% CI)", fontsize=10)
        axis.grid(axis="y", alpha=0.3)
        axis.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def _flip(estimate: Estimate) -> Estimate:
    return Estimate(1 - estimate.value, 1 - estimate.high, 1 - estimate.low, estimate.n)
