"""`stealthflow anonymize TEXT|FILE|- --method NAME`: rewrite posts so attributes cannot be inferred."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from stealthflow.anonymize import build_method, method_names
from stealthflow.cli.app import (
    AdapterOption,
    CacheOption,
    ConfigOption,
    ModelOption,
    RoundsOption,
    app,
    console,
    fail,
    out,
    progress_bar,
    reachable,
    settings_from,
    user_errors,
)
from stealthflow.cli.generate import AttackersOption, InsightsOption, print_risk_report, split_names
from stealthflow.cli.source import SourceArgument, source_profiles
from stealthflow.llm.pool import LLMPool


@app.command()
def anonymize(
    source: SourceArgument,
    method: Annotated[str, typer.Option(help="anonymization method (see `stealthflow methods`)")] = "standard",
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="write {id, text} JSONL here")] = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    cache: CacheOption = None,
    insights: InsightsOption = None,
    attackers: AttackersOption = None,
    rounds: RoundsOption = None,
) -> None:
    """Anonymize each profile and print (or write) the rewritten text."""
    settings = settings_from(config, model, adapter)
    if method not in method_names():
        fail(f"unknown method {method!r}; choose from {', '.join(method_names())}")
    with user_errors():
        input_source, profiles = source_profiles(source)
        pool = LLMPool(cache)
        if method != "ner-mask":
            reachable(pool.get(settings.model), "the anonymizer model")
        if method == "stealth" and insights is None:
            console.print("[yellow]warning:[/] no --insights FILE given: the stealth loop runs without insight rules")
        options = {"insights": insights, "attackers": split_names(attackers), "rounds": rounds}
        try:
            anonymizer = build_method(method, settings, pool, {k: v for k, v in options.items() if v is not None})
        except ValueError as exc:  # unknown attacker, unreadable insight memory
            fail(str(exc))
        with progress_bar(f"anonymizing ({method})", len(profiles)) as progress:
            results = anonymizer.anonymize_many(profiles, on_progress=lambda n: progress.advance(0, n))
    for result in results:
        if "error" in result.details:
            console.print(f"[red]failed:[/] {result.profile_id}: {result.details['error']}; text left unchanged")
        elif not result.parsed:
            console.print(f"[yellow]warning:[/] {result.profile_id}: the model's answer could not be parsed; text kept unchanged")
        if output is None and (input_source.is_records or len(results) > 1):
            out.rule(result.profile_id)
            out.print(result.text, markup=False, highlight=False)
        if "risk" in result.details:
            print_risk_report(result)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        with output.open("w", encoding="utf-8") as handle:
            for result in results:
                handle.write(json.dumps({"id": result.profile_id, "text": result.text}, ensure_ascii=False) + "\n")
        console.print(f"wrote {len(results)} anonymized texts to {output}")
    pool.close()


@app.command()
def methods() -> None:
    """List the anonymization methods."""
    for name in method_names():
        out.print(name)
