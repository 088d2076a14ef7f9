"""`stealthflow generate`: run the adversarial workflow over a labelled corpus into a run directory."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from stealthflow.cli.app import (
    AdapterOption,
    AttackersOption,
    ConfigOption,
    InsightsOption,
    ModelOption,
    app,
    console,
    fail,
    out,
    progress_bar,
    settings_from,
    split_names,
    user_errors,
)
from stealthflow.resources import split_path

if TYPE_CHECKING:  # the workflow pulls in metrics and langgraph: imported when a command runs
    from stealthflow.anonymize import Anonymized
    from stealthflow.config import Settings
    from stealthflow.insights import InsightMemory
    from stealthflow.llm.pool import LLMPool
    from stealthflow.workflow.runner import RunDirectory
    from stealthflow.workflow.summary import RunSummary


@app.command()
def generate(
    out_dir: Annotated[Path, typer.Option("--out", help="run directory; rerun the same command to resume")],
    data: Annotated[
        Path, typer.Option("--data", help="labelled profiles (JSONL); default: the bundled train split")
    ] = split_path("train"),
    rounds: Annotated[Optional[int], typer.Option(min=1, help="anonymization rounds per profile (default 5)")] = None,
    batch_size: Annotated[Optional[int], typer.Option(min=1, help="profiles per insight batch (default 10)")] = None,
    max_concurrency: Annotated[
        Optional[int], typer.Option(min=1, help="profiles in flight (default: the batch size)")
    ] = None,
    insight_lag: Annotated[
        Optional[int],
        typer.Option(
            min=0,
            help="batches a profile's memory may lag behind (default: max-concurrency ÷ batch size, rounded up; 0 = strict order)",
        ),
    ] = None,
    max_cost: Annotated[
        Optional[float],
        typer.Option(
            min=0,
            help="stop cleanly once the run has spent this many USD (litellm's prices); rerun with a higher cap to go on",
        ),
    ] = None,
    limit: Annotated[Optional[int], typer.Option(min=1, help="use only the first N profiles")] = None,
    attackers: AttackersOption = None,
    insights: InsightsOption = None,
    freeze_insights: Annotated[bool, typer.Option(help="keep the insight memory as loaded (no updates)")] = False,
    insights_out: Annotated[
        Optional[Path],
        typer.Option(help="also save the memory here after every batch (it is always in OUT/insights.json)"),
    ] = None,
    early_stop: Annotated[
        Optional[bool], typer.Option(help="stop a profile once all its attributes are protected")
    ] = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
) -> None:
    """Anonymizer ↔ attacker loop with utility warnings and a learned insight memory; writes trajectories."""
    from stealthflow.data import load_profiles
    from stealthflow.insights import InsightMemory
    from stealthflow.llm.pool import LLMPool
    from stealthflow.workflow.runner import RunDirectory

    settings = settings_from(config, model, adapter)
    overrides = {
        "rounds": rounds,
        "batch_size": batch_size,
        "max_concurrency": max_concurrency,
        "insight_lag": insight_lag,
        "max_cost": max_cost,
        "attackers": split_names(attackers),
        "early_stop": early_stop,
    }
    settings.workflow = settings.workflow.model_copy(update={k: v for k, v in overrides.items() if v is not None})
    if freeze_insights:
        settings.workflow.insights = settings.workflow.insights.model_copy(update={"learn": False})
    directory = RunDirectory(out_dir)
    resolved = {
        "data": str(data),
        "limit": limit,
        "insights": str(insights) if insights else None,
        # The cost cap is not part of the run's identity: raising it is how a stopped run goes on.
        "settings": settings.model_dump(mode="json", exclude={"workflow": {"max_cost"}}),
    }
    with user_errors():
        profiles = load_profiles(data, limit)
        try:
            directory.check_config(resolved)
            memory = InsightMemory.load(insights) if insights and str(insights) != "none" else InsightMemory()
        except ValueError as exc:
            fail(str(exc))
        pool = LLMPool(directory.responses)  # a labelled corpus: caching answers makes reruns resume
        try:
            summary = _run(settings, pool, directory, memory, profiles, insights_out)
        finally:
            pool.close()
    print_summary(summary)
    console.print(f"run directory: {directory.root}  (trajectories.jsonl, insights.json, summary.json, config.yaml)")
    if summary.stopped:
        console.print(f"[yellow]stopped:[/] {escape(summary.stopped)}", soft_wrap=True)
        raise typer.Exit(STOPPED_AT_COST_CAP)


STOPPED_AT_COST_CAP = 3  # exit code: the run is incomplete but resumable (scripts must not take it for done)


def _run(
    settings: Settings, pool: LLMPool, directory: RunDirectory, memory: InsightMemory, profiles, export: Path | None
) -> RunSummary:
    """The run (`GenerateRun.from_settings`), with a bar of profiles and one of rounds (calls, tokens/s, cost)."""
    from stealthflow.workflow.runner import GenerateRun, RunEvents
    from stealthflow.workflow.usage import RunUsage

    usage = RunUsage()

    def on_round(_profile_id: str, _k: int) -> None:
        # `progress`, `rounds_task` and `started` are set below, as the run starts (its events fire only in `run`)
        spent = usage.this_process()
        rate = spent.completion_tokens / max(time.monotonic() - started, 1e-9)
        progress.update(rounds_task, advance=1, info=f"{spent.calls} calls · {rate:.1f} tok/s · ${usage.cost():.4f}")

    events = RunEvents(
        on_round=on_round,
        on_profiles=lambda n: progress.advance(0, n),
        on_batch=lambda n, m: progress.update(0, info=f"batch {n} · insight memory v{m.version}"),
    )
    try:
        run = GenerateRun.from_settings(settings, pool, directory, memory, export, events, usage)
    except ValueError as exc:  # an unknown attacker
        fail(str(exc))
    with progress_bar("profiles", len(profiles)) as progress:
        rounds_task = progress.add_task("rounds", total=len(profiles) * settings.workflow.rounds, info="")
        started = time.monotonic()
        return run.run(profiles)


def print_summary(summary: RunSummary) -> None:
    table = Table(
        title=f"{summary.profiles} profiles · insight memory v{summary.insight_version} (+{summary.insights_added} rules added)"
    )
    for column in ("round", "protected", "mean utility", "utility warnings", "unparsed answers"):
        table.add_column(column, justify="right")
    for stats in summary.rounds:
        share = f"{stats.protected}/{stats.at_stake}" + (
            f" ({stats.protected / stats.at_stake:.0%})" if stats.at_stake else ""
        )
        table.add_row(
            str(stats.round), share, f"{stats.mean_utility:.3f}", str(stats.warnings), str(stats.parse_failures)
        )
    out.print(table)
    if summary.usage:
        spent = Table(title=f"tokens and cost (whole run): ${summary.cost_usd:.4f}")
        for column in ("role", "calls", "prompt tokens", "completion tokens", "cost (USD)"):
            spent.add_column(column, justify="right")
        for role, used in summary.usage.items():
            spent.add_row(
                role, str(used.calls), f"{used.prompt_tokens:,}", f"{used.completion_tokens:,}", f"{used.cost_usd:.4f}"
            )
        out.print(spent)
    for profile_id, error in summary.failed.items():
        console.print(f"[red]failed:[/] {profile_id}: {error}")


def print_risk_report(result: Anonymized) -> None:
    """The `stealth`/`aa` methods' per-attribute report: guesses before and after."""
    table = Table(title=f"{result.profile_id}: attacker guesses before / after")
    for column in ("attribute", "before", "after", "status"):
        table.add_column(column)
    for attribute, row in result.details["risk"].items():
        table.add_row(attribute, escape(row["before"]), escape(row["after"]), risk_status(row))
    out.print(table)


def risk_status(row: dict) -> str:
    if row["protected"] is not None:
        return "[green]protected[/]" if row["protected"] else "[red]still inferred[/]"
    answers = [part.strip() for summary in (row["before"], row["after"]) for part in summary.split("|")]
    if all(part.endswith("no guess") for part in answers):  # the attackers said nothing at all
        return "[bold red]blind: no answer — this says nothing about your privacy[/]"
    return "[dim]not confidently inferred[/]"
