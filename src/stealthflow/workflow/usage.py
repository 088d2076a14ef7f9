"""Tokens and cost of a `generate` run per role, over every process that worked on it.

Each role's `LLM` view counts into its own meter (`LLMPool.metered`), so roles that share one
model (and its client) are still told apart. `progress.json` keeps the totals, and a resumed run
starts from them: calls replayed from the response cache cost nothing and are not counted again.
"""

from __future__ import annotations

from stealthflow.llm.usage import TokenUsage, UsageMeter

ROLES = ("anonymizer", "attacker", "judge", "insight")


class RunUsage:
    def __init__(self) -> None:
        self.meters = {role: UsageMeter() for role in ROLES}  # this process
        self.earlier: dict[str, TokenUsage] = {}  # what earlier processes of the run recorded

    def this_process(self) -> TokenUsage:
        return sum((meter.total() for meter in self.meters.values()), TokenUsage())

    def totals(self) -> dict[str, TokenUsage]:
        return {role: self.earlier.get(role, TokenUsage()) + meter.total() for role, meter in self.meters.items()}

    def cost(self) -> float:
        return sum(usage.cost_usd for usage in self.totals().values())
