"""Is an attacker better than chance? Its accuracy on labelled texts beside chance levels, with CIs.

Privacy figures measured against an attacker that cannot infer the attributes in the first
place are meaningless, so every evaluation should show, per attacker and attribute:

- top-1 / top-3 accuracy under the correctness judge, with percentile bootstrap CIs;
- the majority-class level: the best *constant* guess on the same labels, judged by the same
  rules (for age the best constant age bucket, which the ±5-year tolerance makes generous);
- the uniform level: a guess drawn uniformly from the option list (age: `AGE_BUCKETS`);
- a verdict from a paired bootstrap of (attacker − majority) per profile: "above majority"
  when its CI lies above 0, "above uniform only" when only the accuracy CI clears the uniform
  level, else "NOT above chance". Free-text attributes (location, …) have no chance level.
- one more row pooling the categorical attributes (each with its own chance levels): a few
  labelled profiles per attribute leave every per-attribute interval wide, the pooled one
  answers "is this attacker above chance at all" with all of them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np

from stealthflow.attack.judge import CorrectnessJudge, rule_verdict
from stealthflow.attack.types import AttackResult, Verdict
from stealthflow.data.attributes import AGE_BUCKETS, OPTIONS
from stealthflow.data.schema import Profile
from stealthflow.stats import percentile_bootstrap

TOP_K = 3
MEASURED = (
    Path(__file__).parent / "artifacts" / "strength.json"
)  # the shipped attackers' verdicts on their own evaluation
POOLED = "categorical (pooled)"
ABOVE_MAJORITY, ABOVE_UNIFORM, NOT_ABOVE_CHANCE, NO_CHANCE_LEVEL = (
    "above majority",
    "above uniform only",
    "NOT above chance",
    "no chance level",
)


@cache
def measured_verdicts() -> dict[str, dict[str, str]]:
    """Per shipped attacker (`classifier`, `llm:embedded`), its verdict on each attribute it was
    evaluated on (`ABOVE_MAJORITY`, ...), as `stealthflow attacker eval` measured it."""
    measured = json.loads(MEASURED.read_text(encoding="utf-8"))
    return {
        key: {attribute: verdict for verdict, attributes in verdicts.items() for attribute in attributes}
        for key, verdicts in measured.items()
        if key != "source"
    }


def described_verdicts(attacker_model: str) -> dict[str, str]:
    """Per shipped attacker (`classifier`, `llm`), its measured verdicts as one phrase ("above majority on gender,
    married; NOT above chance on age"); an attacker measured with a model (`llm:embedded`) only when `attacker_model`
    is that model."""
    described = {}
    for key, verdicts in measured_verdicts().items():
        name, _, model = key.partition(":")
        if model and attacker_model != model:
            continue
        grouped: dict[str, list[str]] = {}
        for attribute, verdict in verdicts.items():
            grouped.setdefault(verdict, []).append(attribute)
        described[name] = "; ".join(f"{verdict} on {', '.join(attributes)}" for verdict, attributes in grouped.items())
    return described


@dataclass(frozen=True)
class Interval:
    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.2f} [{self.low:.2f}, {self.high:.2f}]"


@dataclass(frozen=True)
class ChanceLevels:
    majority_guess: str
    majority_top1: np.ndarray  # per profile: is the best constant guess right?
    majority_top3: np.ndarray  # per profile: is one of the best constant three right?
    uniform_top1: float
    uniform_top3: float


@dataclass(frozen=True)
class AccuracyRow:
    attacker: str
    attribute: str
    n: int  # labelled profiles scored
    answered: int  # of which the attacker gave at least one guess
    top1: Interval
    top3: Interval
    chance: ChanceLevels | None
    gain_over_majority: Interval | None  # top-1 minus the majority level, paired bootstrap
    verdict: str


def chance_candidates(attribute: str) -> tuple[str, ...] | None:
    """The guesses a chance attacker draws from; None for free-text attributes."""
    return AGE_BUCKETS if attribute == "age" else OPTIONS.get(attribute)


def chance_levels(attribute: str, truths: Sequence[str], k: int = TOP_K) -> ChanceLevels | None:
    candidates = chance_candidates(attribute)
    if candidates is None or not truths:
        return None
    # correct[i, j]: would constant guess j be judged right for profile i?
    correct = np.array(
        [[rule_verdict(attribute, truth, c) == "yes" for c in candidates] for truth in truths], dtype=float
    )
    best = int(np.argmax(correct.mean(0)))
    k = min(k, len(candidates))
    best_set = max(combinations(range(len(candidates)), k), key=lambda subset: correct[:, subset].max(1).mean())
    m = len(candidates)
    # Chance that k distinct uniform draws include one of the c correct options.
    uniform_top_k = np.mean([1 - comb(m - int(c), k) / comb(m, k) for c in correct.sum(1)])
    return ChanceLevels(
        majority_guess=candidates[best],
        majority_top1=correct[:, best],
        majority_top3=correct[:, best_set].max(1),
        uniform_top1=float(correct.mean()),
        uniform_top3=float(uniform_top_k),
    )


def bootstrap(values: np.ndarray, n_boot: int = 2000, seed: int = 0) -> Interval:
    """Mean with a percentile bootstrap CI over items."""
    result = percentile_bootstrap([values], lambda column: column.mean(-1), resamples=n_boot, seed=seed)
    return Interval(*result) if result is not None else Interval(float("nan"), float("nan"), float("nan"))


def accuracy_vs_chance(
    attacker: str,
    attribute: str,
    truths: Sequence[str],
    verdicts: Sequence[Sequence[Verdict]],
    n_boot: int = 2000,
    seed: int = 0,
) -> AccuracyRow:
    """One row: an attacker's judged guesses (top-3 order, [] = no guess) for one attribute."""
    return _row(attacker, attribute, verdicts, chance_levels(attribute, truths), n_boot, seed)


def pooled_categorical(
    attacker: str,
    labelled: dict[str, tuple[Sequence[str], Sequence[Sequence[Verdict]]]],
    n_boot: int = 2000,
    seed: int = 0,
) -> AccuracyRow | None:
    """One row over every categorical attribute of `labelled` (attribute -> (truths, verdicts)).

    Each item keeps its own attribute's chance levels. Items are resampled independently
    although a profile contributes one per attribute: the interval is slightly optimistic.
    """
    parts = [(chance_levels(attribute, truths), verdicts) for attribute, (truths, verdicts) in labelled.items()]
    parts = [(chance, verdicts) for chance, verdicts in parts if chance is not None]
    if not parts:
        return None
    weights = [len(verdicts) for _, verdicts in parts]
    chance = ChanceLevels(
        majority_guess="each attribute's",
        majority_top1=np.concatenate([c.majority_top1 for c, _ in parts]),
        majority_top3=np.concatenate([c.majority_top3 for c, _ in parts]),
        uniform_top1=float(np.average([c.uniform_top1 for c, _ in parts], weights=weights)),
        uniform_top3=float(np.average([c.uniform_top3 for c, _ in parts], weights=weights)),
    )
    return _row(attacker, POOLED, [v for _, verdicts in parts for v in verdicts], chance, n_boot, seed)


def _row(
    attacker: str,
    attribute: str,
    verdicts: Sequence[Sequence[Verdict]],
    chance: ChanceLevels | None,
    n_boot: int,
    seed: int,
) -> AccuracyRow:
    top1 = np.array([bool(v) and v[0] == "yes" for v in verdicts], dtype=float)
    top3 = np.array(["yes" in v[:TOP_K] for v in verdicts], dtype=float)
    top1_interval = bootstrap(top1, n_boot, seed)
    gain, verdict = None, NO_CHANCE_LEVEL
    if chance is not None:
        gain = bootstrap(top1 - chance.majority_top1, n_boot, seed)
        if gain.low > 0:
            verdict = ABOVE_MAJORITY
        elif top1_interval.low > chance.uniform_top1:
            verdict = ABOVE_UNIFORM
        else:
            verdict = NOT_ABOVE_CHANCE
    return AccuracyRow(
        attacker=attacker,
        attribute=attribute,
        n=len(verdicts),
        answered=sum(1 for v in verdicts if v),
        top1=top1_interval,
        top3=bootstrap(top3, n_boot, seed),
        chance=chance,
        gain_over_majority=gain,
        verdict=verdict,
    )


def accuracy_rows(
    attacker: str,
    labelled: dict[str, tuple[Sequence[str], Sequence[Sequence[Verdict]]]],
    n_boot: int = 2000,
    seed: int = 0,
) -> list[AccuracyRow]:
    """A row per attribute (attribute -> (truths, verdicts)), then the pooled categorical row."""
    rows = [
        accuracy_vs_chance(attacker, attribute, truths, verdicts, n_boot, seed)
        for attribute, (truths, verdicts) in labelled.items()
    ]
    if sum(row.chance is not None for row in rows) < 2:
        return rows  # one categorical attribute: its own row says it all
    return rows + [pooled_categorical(attacker, labelled, n_boot, seed)]


def attacker_accuracy(
    attacker: str,
    profiles: Sequence[Profile],
    results: Sequence[AttackResult],
    attributes: Sequence[str],
    judge: CorrectnessJudge | None = None,
    n_boot: int = 2000,
    seed: int = 0,
) -> list[AccuracyRow]:
    """Rows for every attribute, over the profiles labelled with it (then the pooled row); a missing guess counts as wrong."""
    judge = judge or CorrectnessJudge()
    scored = [judge.score(result, profile.labelled()) for profile, result in zip(profiles, results, strict=True)]
    labelled = {}
    for attribute in attributes:
        pairs = [
            (profile.labelled()[attribute].estimate, verdicts.get(attribute, []))
            for profile, verdicts in zip(profiles, scored, strict=True)
            if attribute in profile.labelled()
        ]
        if pairs:
            truths, verdicts = zip(*pairs)
            labelled[attribute] = (list(truths), list(verdicts))
    return accuracy_rows(attacker, labelled, n_boot, seed)


TABLE_HEADER = (
    "attacker",
    "attribute",
    "n",
    "answered",
    "top-1 [95% CI]",
    "top-3 [95% CI]",
    "majority top-1 / top-3 (guess)",
    "uniform top-1 / top-3",
    "top-1 − majority [95% CI]",
    "verdict",
)


def table_cells(row: AccuracyRow) -> tuple[str, ...]:
    chance = row.chance
    return (
        row.attacker,
        row.attribute,
        str(row.n),
        str(row.answered),
        str(row.top1),
        str(row.top3),
        f"{chance.majority_top1.mean():.2f} / {chance.majority_top3.mean():.2f} ({chance.majority_guess})"
        if chance
        else "-",
        f"{chance.uniform_top1:.2f} / {chance.uniform_top3:.2f}" if chance else "-",
        f"{row.gain_over_majority.value:+.2f} [{row.gain_over_majority.low:+.2f}, {row.gain_over_majority.high:+.2f}]"
        if row.gain_over_majority
        else "-",
        row.verdict,
    )


def markdown_table(rows: Sequence[AccuracyRow]) -> str:
    lines = ["| " + " | ".join(TABLE_HEADER) + " |", "|" + "---|" * len(TABLE_HEADER)]
    lines += ["| " + " | ".join(table_cells(row)) + " |" for row in rows]
    return "\n".join(lines)
