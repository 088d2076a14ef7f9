"""Run the loop over a corpus: insight batches, resume after a crash, trajectories, summary.

A run directory holds everything (`runs/NAME/`):
    config.yaml         resolved settings and arguments (a rerun must match them)
    trajectories.jsonl  one `RoundRecord` per (profile, round), finished batches only
    insights.json       the insight memory with its history (one version per batch)
    progress.json       finished batches, trajectory length, memory version, failed profiles
    checkpoints.sqlite  LangGraph checkpoints: a killed batch resumes node by node
    responses.sqlite    response cache: calls that finished before a kill are not repeated
    summary.json/.png   per-round protection, utility and warnings, tokens and cost per role (rewritten at the end)

Batches commit in order. With an insight lag L > 0 (`workflow.insight_lag`; by default
⌈max_concurrency ÷ batch_size⌉, `WorkflowConfig.lag`) they are pipelined: profiles of
batch n start (up to `max_concurrency` in flight) once batch n-1-L has committed, while earlier
batches finish and their insight updates run. A batch's insight calls start when its profiles
have finished, showing the newest memory then (at most L versions old); their operations are
applied in batch order.

Crash safety: within a batch the checkpointer and the cache keep the work; a batch counts as
finished only when `progress.json` (written atomically, last) says so. On rerun the trajectory
file is cut back to the length recorded there and the memory is reset to the version recorded
there, so a half-finished batch leaves neither duplicate lines nor a half-applied update.

Cost cap (`workflow.max_cost`): once the run's cost reaches it, every profile stops at its next
node that would call a model, no batch is committed any more (no half profile is recorded, no
insight call starts), and `progress.json` keeps the tokens and cost spent; a rerun with a higher
cap continues from the checkpoints. Only calls already under way when the cap was reached add
to it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from pydantic import BaseModel, Field

from stealthflow.data.schema import Profile
from stealthflow.insights.learner import InsightLearner, Proposal
from stealthflow.insights.memory import InsightMemory, write_atomic
from stealthflow.llm.usage import TokenUsage
from stealthflow.workflow.graph import build_graph, recursion_limit
from stealthflow.workflow.nodes import Steps
from stealthflow.workflow.state import CHECKPOINT_TYPES, ProfileState
from stealthflow.workflow.summary import RunSummary, plot_summary, summarize
from stealthflow.workflow.trajectory import RoundRecord, TrajectoryFile
from stealthflow.workflow.usage import RunUsage

if TYPE_CHECKING:
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

Outcome = ProfileState | BaseException


def run_profiles(
    graph, profiles: list[Profile], max_concurrency: int, rounds: int, resumable: bool = False
) -> list[Outcome]:
    """Run one graph per profile concurrently; a failing profile yields its exception.

    With a checkpointer (`resumable`), a profile whose graph already finished is not run
    again, and one that was interrupted continues from its last finished node.
    """
    configs = [
        {
            "configurable": {"thread_id": p.id},
            "max_concurrency": max_concurrency,
            "recursion_limit": recursion_limit(rounds),
        }
        for p in profiles
    ]
    outcomes: list[Outcome | None] = [None] * len(profiles)
    pending, inputs = [], []
    for index, (profile, config) in enumerate(zip(profiles, configs, strict=True)):
        snapshot = graph.get_state(config) if resumable else None
        if snapshot is None or snapshot.created_at is None:
            pending.append(index)
            inputs.append({"profile": profile})
        elif snapshot.next:  # interrupted: continue from the checkpoint
            pending.append(index)
            inputs.append(None)
        else:
            outcomes[index] = snapshot.values
    if pending:
        # "sync": a node's checkpoint is on disk before the next node starts (kill -9 safe).
        durability = {"durability": "sync"} if resumable else {}
        results = graph.batch(inputs, [configs[i] for i in pending], return_exceptions=True, **durability)
        for index, result in zip(pending, results, strict=True):
            outcomes[index] = result
    return [o for o in outcomes if o is not None]


class Progress(BaseModel):
    batches_done: int = 0
    profiles_done: int = 0
    trajectory_bytes: int = 0
    insight_version: int = 0
    failed: dict[str, str] = Field(default_factory=dict)  # profile id -> error
    usage: dict[str, TokenUsage] = Field(default_factory=dict)  # per role, over every process of the run


class CostCapReached(Exception):
    """Raised at a node boundary once the run has spent `workflow.max_cost`."""


@dataclass
class RunEvents:
    """Hooks for a progress display; all optional. `on_round` fires from worker threads."""

    on_round: Callable[[str, int], None] | None = None
    on_profiles: Callable[[int], None] | None = None  # profiles finished (or skipped as done)
    on_batch: Callable[[int, InsightMemory], None] | None = None


class RunDirectory:
    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.config = self.root / "config.yaml"
        self.trajectories = self.root / "trajectories.jsonl"
        self.insights = self.root / "insights.json"
        self.progress = self.root / "progress.json"
        self.checkpoints = self.root / "checkpoints.sqlite"
        self.responses = self.root / "responses.sqlite"
        self.summary = self.root / "summary.json"

    def check_config(self, resolved: dict) -> None:
        """First run: save the resolved config. Rerun: it must be the same run."""
        self.root.mkdir(parents=True, exist_ok=True)
        if self.config.exists():
            saved = yaml.safe_load(self.config.read_text(encoding="utf-8"))
            if saved != resolved:
                changed = sorted(k for k in set(saved or {}) | set(resolved) if (saved or {}).get(k) != resolved.get(k))
                raise ValueError(
                    f"{self.root} holds a run with a different config (changed: {', '.join(changed)}); use a new --out"
                )
            return
        write_atomic(self.config, yaml.safe_dump(resolved, sort_keys=False, allow_unicode=True))


class GenerateRun:
    """The `generate` command's engine: batches of profiles through the graph, then insights."""

    def __init__(
        self,
        steps: Steps,
        directory: RunDirectory,
        learner: InsightLearner | None,
        memory: InsightMemory,
        export_path: Path | None = None,
        events: RunEvents | None = None,
        usage: RunUsage | None = None,
    ):
        self.steps = steps
        self.directory = directory
        self.learner = learner  # None: the memory stays frozen
        self.export_path = export_path
        self.events = events or RunEvents()
        self.config = steps.config
        self.usage = usage or RunUsage()  # the meters of the roles' LLM views
        self.stopped: str | None = None  # why the run stopped before the end (the cost cap)
        self.progress = (
            Progress.model_validate_json(directory.progress.read_text()) if directory.progress.exists() else None
        )
        self.memory = self._starting_memory(memory)
        self.usage.earlier = dict(self.progress.usage)
        self.start_version = self.memory.history[0].version if self.memory.history else self.memory.version
        self.trajectories = TrajectoryFile(directory.trajectories)

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        pool: LLMPool,
        directory: RunDirectory,
        memory: InsightMemory,
        export_path: Path | None = None,
        events: RunEvents | None = None,
        usage: RunUsage | None = None,
    ) -> GenerateRun:
        """The run `settings` describe: the anonymizer, the attackers (`workflow.attackers`), the judge (an LLM one
        with `workflow.llm_judge`) and the insight learner (with `workflow.insights.learn`), each role's model calls
        metered on its own in `usage`, even where roles share a model; `memory` capped as `workflow.insights` says.
        ValueError: an attacker `settings` name is unknown."""
        from stealthflow.attack import CorrectnessJudge
        from stealthflow.attack.registry import build_attackers

        config = settings.workflow
        usage = usage or RunUsage()
        role = {name: pool.metered(meter) for name, meter in usage.meters.items()}
        memory = memory.model_copy(
            update={"max_rules": config.insights.max_rules, "score_cap": config.insights.score_cap}
        )
        attackers = build_attackers(config.attackers, settings, role["attacker"])
        anonymizer = role["anonymizer"].get(settings.model)
        judge = CorrectnessJudge(role["judge"].get(settings.judge_model()) if config.llm_judge else None)
        steps = Steps(anonymizer, attackers, judge, config, run_id=directory.root.name)
        learner = (
            InsightLearner(role["insight"].get(settings.model), config.insights) if config.insights.learn else None
        )
        return cls(steps, directory, learner, memory, export_path, events, usage)

    def _starting_memory(self, initial: InsightMemory) -> InsightMemory:
        if self.progress is not None:  # a rerun: the memory of the last finished batch
            return InsightMemory.load(self.directory.insights).at_version(self.progress.insight_version)
        memory = initial.with_snapshot()
        self._save(memory)
        self.progress = Progress(insight_version=memory.version)
        write_atomic(self.directory.progress, self.progress.model_dump_json(indent=2))
        return memory

    def run(self, profiles: list[Profile]) -> RunSummary:
        serde = JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINT_TYPES)
        connection = sqlite3.connect(self.directory.checkpoints, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        try:
            graph = build_graph(self.steps, SqliteSaver(connection, serde=serde))
            self.steps.prepare()
            self.steps.on_round = self.events.on_round
            self.steps.before_llm_node = self._check_cost_cap if self.config.max_cost is not None else None
            self.trajectories.truncate(self.progress.trajectory_bytes)
            size = self.config.batch_size
            batches = [profiles[start : start + size] for start in range(0, len(profiles), size)]
            for batch in batches[: self.progress.batches_done]:
                self._emit_profiles(len(batch))
            if self.config.lag == 0:
                for number in range(self.progress.batches_done, len(batches)):
                    if not self._run_batch(graph, number, batches[number]):
                        break
            else:
                self._run_pipelined(graph, batches)
        finally:
            connection.close()
        # Every call of this process has returned: record what it spent (after a stop, too).
        self.progress = self.progress.model_copy(update={"usage": self.usage.totals()})
        write_atomic(self.directory.progress, self.progress.model_dump_json(indent=2))
        summary = summarize(
            self.trajectories.read(),
            self.memory,
            self.start_version,
            self.progress.failed,
            self.progress.usage,
            self.stopped,
        )
        write_atomic(self.directory.summary, summary.model_dump_json(indent=2))
        if summary.rounds:
            plot_summary(summary, self.directory.root / "summary.png")
        return summary

    def _run_batch(self, graph, number: int, batch: list[Profile]) -> bool:
        self.steps.memory = self.memory
        return self._commit_or_stop(
            number, batch, run_profiles(graph, batch, self.config.concurrency, self.config.rounds, resumable=True)
        )

    def _run_pipelined(self, graph, batches: list[list[Profile]]) -> None:
        """Profiles of later batches run while earlier ones finish; batches still commit in order."""
        self.steps.memory = self.memory
        lag, first = self.config.lag, self.progress.batches_done
        submitted: dict[int, Future] = {}  # batch number -> (outcomes, insight proposal)

        def run_one(profile: Profile) -> Outcome:
            return run_profiles(graph, [profile], 1, self.config.rounds, resumable=True)[0]

        def finish(futures: list[Future]) -> tuple[list[Outcome], Proposal | None]:
            outcomes = [future.result() for future in futures]
            return outcomes, self._propose(outcomes)

        def commit_next() -> bool:
            number = self.progress.batches_done
            if not self._commit_or_stop(number, batches[number], *submitted.pop(number).result()):
                return False
            self.steps.memory = self.memory  # profiles starting from now show the new version
            return True

        # A batch's insight calls start as soon as its profiles finish, in their own thread: queued
        # one behind the other (each waits for the slowest of its ~10 heavy-tailed calls) they
        # capped the run at ~batch_size profiles per update latency, whatever the concurrency.
        with (
            ThreadPoolExecutor(self.config.concurrency, thread_name_prefix="profile") as pool,
            ThreadPoolExecutor(lag + 1, thread_name_prefix="insight") as finishing,
        ):
            for number in range(first, len(batches)):
                while self.progress.batches_done < number - lag and commit_next():
                    pass
                if self.stopped:
                    break
                submitted[number] = finishing.submit(
                    finish, [pool.submit(run_one, profile) for profile in batches[number]]
                )
            while submitted and not self.stopped:
                commit_next()
            pool.shutdown(
                cancel_futures=True
            )  # after a stop, queued profiles do not start; running ones stop at a node

    def _propose(self, outcomes: list[Outcome]) -> Proposal | None:
        """A finished batch's insight calls, showing the newest memory (never older than the lag allows)."""
        finished = [outcome["records"] for outcome in outcomes if not isinstance(outcome, BaseException)]
        if self.learner is None or not finished or self._over_cost_cap():  # no insight call starts past the cap
            return None
        return self.learner.propose(self.memory, finished)

    def _commit_or_stop(
        self, number: int, batch: list[Profile], outcomes: list[Outcome], proposal: Proposal | None = None
    ) -> bool:
        """Commit the batch, unless the cost cap has been reached: then nothing more is committed."""
        if self._over_cost_cap():
            self.stopped = (
                f"max cost reached: ${self.usage.cost():.4f} spent of ${self.config.max_cost:.4f} (workflow.max_cost); "
                f"{self.progress.batches_done} batches done, rerun with a higher --max-cost to go on"
            )
            return False
        self._commit(number, batch, outcomes, proposal)
        return True

    def _over_cost_cap(self) -> bool:
        return self.config.max_cost is not None and self.usage.cost() >= self.config.max_cost

    def _check_cost_cap(self) -> None:
        if self._over_cost_cap():
            raise CostCapReached(f"cost cap ${self.config.max_cost:.4f} reached")

    def _commit(
        self, number: int, batch: list[Profile], outcomes: list[Outcome], proposal: Proposal | None = None
    ) -> None:
        """Append a batch's trajectories, update the memory (with `proposal`, when its calls were
        made already), then record progress (atomically, last)."""
        finished: list[list[RoundRecord]] = []
        failed = dict(self.progress.failed)
        for profile, outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                failed[profile.id] = f"{type(outcome).__name__}: {outcome}"
            else:
                finished.append(outcome["records"])
                failed.pop(profile.id, None)
        size = self.trajectories.append([r for records in finished for r in records])
        if self.learner is not None and finished:
            shown = (
                f" (calls shown version {proposal.shown.version})"
                if proposal and proposal.shown.version != self.memory.version
                else ""
            )
            self.memory = self.learner.update(
                self.memory, finished, note=f"batch {number + 1}{shown}", proposal=proposal
            )
            self._save(self.memory)
        self.progress = Progress(
            batches_done=number + 1,
            profiles_done=self.progress.profiles_done + len(batch),
            trajectory_bytes=size,
            insight_version=self.memory.version,
            failed=failed,
            usage=self.usage.totals(),
        )
        write_atomic(self.directory.progress, self.progress.model_dump_json(indent=2))
        self._emit_profiles(len(batch))
        if self.events.on_batch:
            self.events.on_batch(number + 1, self.memory)

    def _save(self, memory: InsightMemory) -> None:
        memory.save(self.directory.insights)
        if self.export_path is not None:
            memory.save(self.export_path)

    def _emit_profiles(self, n: int) -> None:
        if self.events.on_profiles:
            self.events.on_profiles(n)
