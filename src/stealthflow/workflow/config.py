"""Workflow settings (the `workflow:` section of a recipe). Defaults follow AgentStealth."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, field_serializer


class InsightConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    learn: bool = True  # False: the memory stays as loaded (frozen) for the whole run
    max_rules: int = Field(5, ge=1)  # M_max per attribute
    score_cap: int = Field(10, ge=2)
    max_operations: int = Field(4, ge=1)  # per insight call
    max_pairs_per_attribute: int = Field(8, ge=1)  # insight calls per attribute and batch
    max_successes: int = Field(5, ge=1)  # examples in a successes-only call
    example_chars: int = Field(1500, ge=100)  # each text shown to the insight call is cut to this


class WorkflowConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rounds: int = Field(5, ge=1)
    utility_threshold: float = Field(0.075, ge=0)  # τ: warn when U(k-1) - U(k) exceeds it
    utility_warnings: bool = True
    use_insights: bool = True  # show the insight rules to the anonymizer
    batch_size: int = Field(10, ge=1)  # profiles per insight batch (they run concurrently)
    max_concurrency: int | None = Field(None, ge=1)  # profiles in flight (may exceed batch_size); None = batch_size
    # Pipelined insight batches: a profile of batch n starts once batch n-1-insight_lag has updated
    # the memory, and its anonymizer shows the newest finished version. 0 = the reference's strict
    # order (each batch waits for the previous batch's update). None = `lag`: enough batches to
    # fill `max_concurrency`.
    insight_lag: int | None = Field(None, ge=0)
    # Stop cleanly once the run (all processes that resumed it) has spent this many USD, as priced
    # by litellm's offline cost map; rerun with a higher cap (or none) to go on. None = no cap.
    max_cost: float | None = Field(None, ge=0)
    early_stop: bool = False  # stop a profile once every attribute at risk is protected
    attackers: list[str] = Field(default_factory=lambda: ["llm"])
    llm_judge: bool = True  # let the judge model decide the verdicts the rules leave open
    min_certainty: int = Field(3, ge=1, le=5)  # unlabelled input: guesses this sure stand in for truth
    insights: InsightConfig = Field(default_factory=InsightConfig)

    @property
    def concurrency(self) -> int:
        """Profiles in flight."""
        return self.max_concurrency or self.batch_size

    @property
    def lag(self) -> int:
        """The insight lag in use: `insight_lag`, or by default ⌈concurrency ÷ batch_size⌉ (1 without
        `max_concurrency`), so that the batches admitted at once hold at least `concurrency` profiles."""
        if self.insight_lag is not None:
            return self.insight_lag
        return math.ceil(self.concurrency / self.batch_size)

    @field_serializer("insight_lag")
    def _lag_in_use(self, _value: int | None) -> int:
        """Dumped as the number in use, not the rule: a run's saved config says which lag it ran with
        (and a rerun must match it), and the default without `max_concurrency` dumps as before (1)."""
        return self.lag
