"""`stealthflow evaluate`: the AgentStealth table, per-attribute tables and plots for any methods."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.progress import Progress

from stealthflow.cli.app import (
    AdapterOption,
    AttackersOption,
    CacheOption,
    ConfigOption,
    InsightsOption,
    ModelOption,
    RoundsOption,
    app,
    console,
    explain,
    fail,
    print_markdown,
    progress_bar,
    settings_from,
    split_names,
    user_errors,
)
from stealthflow.config import Settings
from stealthflow.llm.config import ModelConfig
from stealthflow.resources import split_path

SPLITS = ("test", "train")


class _BarReporter:
    """One rich task per stage (originals, anonymizing, scoring)."""

    def __init__(self, progress: Progress):
        self.progress = progress
        progress.update(progress.task_ids[0], visible=False)  # the bar's own task: stages replace it

    def stage(self, description: str, total: int) -> Callable[[int], None]:
        task = self.progress.add_task(description, total=total, info="")
        return lambda n: self.progress.advance(task, n)


@app.command()
def evaluate(
    out_dir: Annotated[Path, typer.Option("--out", help="output directory; rerun the same command to resume")],
    methods: Annotated[
        Optional[str], typer.Option(help="comma-separated methods (default: ner-mask,standard,aa,stealth)")
    ] = None,
    split: Annotated[Optional[str], typer.Option(help="labelled split: test (default) or train")] = None,
    data: Annotated[
        Optional[Path], typer.Option(help="labelled JSONL to use instead of --split", exists=True, dir_okay=False)
    ] = None,
    limit: Annotated[Optional[int], typer.Option(min=1, help="use only the first N profiles")] = None,
    sample_seed: Annotated[
        Optional[int], typer.Option(help="with --limit: a seeded random sample of N profiles instead of the first N")
    ] = None,
    rounds: RoundsOption = None,
    attackers: AttackersOption = None,
    attacker_model: Annotated[
        Optional[str], typer.Option(help="model of the evaluation attacker (default: settings' attacker, else --model)")
    ] = None,
    judge_model: Annotated[
        Optional[str], typer.Option(help="model of the correctness/utility judge (default: the attacker's)")
    ] = None,
    insights: InsightsOption = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    cache: CacheOption = None,
) -> None:
    """Anonymize a labelled split with each method and score it: Anonymity, Progress, utility, with CIs."""
    from stealthflow.anonymize import method_names
    from stealthflow.attack.registry import attacker_names
    from stealthflow.evaluation.report import write_report
    from stealthflow.evaluation.runner import EvaluationError, run_evaluation
    from stealthflow.llm.pool import LLMPool

    settings = settings_from(config, model, adapter)
    if split is not None and split not in SPLITS:
        fail(f"unknown split {split!r}; choose from {', '.join(SPLITS)} or pass --data")
    updates = {
        "methods": split_names(methods),
        "data": data or (split_path(split) if split else None),
        "limit": limit,
        "sample_seed": sample_seed,
        "attackers": split_names(attackers),
        "insights": insights,
    }
    settings.evaluation = settings.evaluation.model_copy(update={k: v for k, v in updates.items() if v is not None})
    if rounds is not None:
        settings.workflow = settings.workflow.model_copy(update={"rounds": rounds})
    # The evaluation attacker and judge are their own models; only generation knobs come from `model`.
    if attacker_model:
        settings.attacker = _role_model(settings, attacker_model)
    if judge_model:
        settings.judge = _role_model(settings, judge_model)
    if unknown := [m for m in settings.evaluation.methods if m not in method_names()]:
        fail(f"unknown methods {unknown}; choose from {', '.join(method_names())}")
    if unknown := [a for a in settings.evaluation.attackers if a not in attacker_names()]:
        fail(f"unknown attackers {unknown}; choose from {', '.join(attacker_names())}")
    # A labelled corpus, not a user's text: the response cache is on by default so reruns are free.
    pool = LLMPool(cache or out_dir / "responses.sqlite")
    try:
        with user_errors():
            try:
                with progress_bar("evaluating", 0) as progress:
                    evaluation = run_evaluation(settings, pool, out_dir, _BarReporter(progress))
            except EvaluationError as exc:
                fail(str(exc))
            report = write_report(evaluation, settings.evaluation.methods)
            for step, ids in evaluation.failed.items():
                console.print(
                    f"[yellow]warning:[/] {step}: {len(ids)} profiles failed (model calls kept failing); rerun the same command to retry them"
                )
    finally:
        pool.close()
    print_markdown((out_dir / "table.md").read_text(encoding="utf-8"))
    for attacker, (top1, _) in report.overall_accuracy.items():
        console.print(f"attacker {attacker}: top-1 accuracy on the originals {top1.format(2)} over {top1.n} attributes")
    console.print(
        f"wrote {out_dir}/table.md, table.csv, attributes.md, attack_accuracy.md, tradeoff.png, attack_accuracy.png"
    )


def _role_model(settings: Settings, spec: str) -> ModelConfig:
    """An evaluation attacker/judge model: `spec` with the generation knobs of `model`."""
    try:
        return ModelConfig.model_validate({**settings.model.model_dump(), "model": spec, "adapter": None})
    except ValueError as exc:
        fail(explain(exc))
