"""What a run achieved, per round: attributes protected, mean utility, warnings issued."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from pydantic import BaseModel, Field

from stealthflow.insights.memory import InsightMemory
from stealthflow.llm.usage import TokenUsage
from stealthflow.workflow.trajectory import RoundRecord


class RoundStats(BaseModel):
    round: int
    profiles: int
    protected: int  # attributes protected (all attackers beaten), summed over profiles
    at_stake: int  # attributes with a label (or a confident guess), summed over profiles
    mean_utility: float
    warnings: int  # prompts of this round that carried the utility warning
    parse_failures: int  # anonymizer answers that could not be read (text kept)


class RunSummary(BaseModel):
    profiles: int
    rounds: list[RoundStats]
    failed: dict[str, str] = Field(default_factory=dict)
    insight_version: int
    insights_added: int  # rules created during this run
    usage: dict[str, TokenUsage] = Field(default_factory=dict)  # per role: anonymizer, attacker, judge, insight
    cost_usd: float = 0.0  # over every role and every process of the run
    stopped: str | None = None  # why the run stopped early (the cost cap); None: it ran to the end


def summarize(
    records: list[RoundRecord],
    memory: InsightMemory,
    start_version: int,
    failed: dict[str, str],
    usage: dict[str, TokenUsage] | None = None,
    stopped: str | None = None,
) -> RunSummary:
    by_round: dict[int, list[RoundRecord]] = defaultdict(list)
    for record in records:
        by_round[record.round].append(record)
    rounds = [
        RoundStats(
            round=k,
            profiles=len(group),
            protected=sum(sum(r.protected.values()) for r in group),
            at_stake=sum(len(r.protected) for r in group),
            mean_utility=sum(r.utility.get("mean", 0.0) for r in group) / len(group),
            warnings=sum(bool(r.anonymizer and r.anonymizer.utility_warning) for r in group),
            parse_failures=sum(bool(r.anonymizer and not r.anonymizer.parsed) for r in group),
        )
        for k, group in sorted(by_round.items())
    ]
    added = sum(
        1
        for version in memory.history
        if version.version > start_version
        for op in version.operations
        if op.outcome == "added"
    )
    usage = usage or {}
    return RunSummary(
        profiles=len(by_round.get(0, [])),
        rounds=rounds,
        failed=failed,
        insight_version=memory.version,
        insights_added=added,
        usage=usage,
        cost_usd=sum(u.cost_usd for u in usage.values()),
        stopped=stopped,
    )


def plot_summary(summary: RunSummary, path: Path) -> None:
    """PNG next to summary.json: share of attributes protected and mean utility per round."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rounds = [r.round for r in summary.rounds]
    figure, axis = plt.subplots(figsize=(5, 3.2))
    axis.plot(
        rounds,
        [r.protected / r.at_stake if r.at_stake else 0 for r in summary.rounds],
        marker="o",
        label="attributes protected",
    )
    axis.plot(rounds, [r.mean_utility for r in summary.rounds], marker="s", label="mean utility (BLEU/ROUGE)")
    axis.set(xlabel="round", ylim=(0, 1.05), xticks=rounds, title=f"{summary.profiles} profiles")
    axis.legend(loc="lower left")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
