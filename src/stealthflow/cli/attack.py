"""`stealthflow attack TEXT|FILE|-`: what an attacker infers from each profile or post."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from stealthflow.attack import CorrectnessJudge, LLMAttacker
from stealthflow.cli.app import (
    AdapterOption,
    CacheOption,
    ConfigOption,
    ModelOption,
    app,
    fail,
    out,
    progress_bar,
    reachable,
    settings_from,
    user_errors,
)
from stealthflow.cli.source import SourceArgument, source_profiles
from stealthflow.data import ATTRIBUTES
from stealthflow.llm.pool import LLMPool


@app.command()
def attack(
    source: SourceArgument,
    attributes: Annotated[Optional[str], typer.Option(help="comma-separated; default: the labelled ones, else all 8")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="write the parsed attacks as JSONL")] = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    cache: CacheOption = None,
) -> None:
    """Infer personal attributes of each profile and print the guesses with their certainty."""
    settings = settings_from(config, model, adapter)
    requested = [a.strip() for a in attributes.split(",")] if attributes else None
    if requested and (unknown := set(requested) - set(ATTRIBUTES)):
        fail(f"unknown attributes {sorted(unknown)}; choose from {', '.join(ATTRIBUTES)}")
    with user_errors():
        _, profiles = source_profiles(source)
        pool = LLMPool(cache)
        attacker = LLMAttacker(reachable(pool.get(settings.attacker_model()), "the attacker model"))
        judge = CorrectnessJudge()
        asked = [requested or list(p.labelled()) or list(ATTRIBUTES) for p in profiles]
        with progress_bar("attacking", len(profiles)) as progress:
            results = attacker.attack_many([p.text for p in profiles], asked, on_done=lambda n: progress.advance(0, n))
    for profile, result in zip(profiles, results, strict=True):
        verdicts = judge.score(result, profile.labelled())
        table = Table(title=f"{profile.id}" + ("" if result.well_formed else "  (answer not in the requested format)"))
        for column in ("attribute", "guesses (top 3)", "certainty", *(["truth", "correct"] if verdicts else [])):
            table.add_column(column)
        for attribute, guess in result.guesses.items():
            row = [attribute, "; ".join(guess.guesses) or "[dim]no guess[/]", str(guess.certainty or "-")]
            if verdicts:
                label = profile.labels.get(attribute)
                row += [label.estimate if label else "", ", ".join(verdicts.get(attribute, []))]
            table.add_row(*row)
        out.print(table)
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        with output.open("w", encoding="utf-8") as handle:
            for profile, result in zip(profiles, results, strict=True):
                handle.write(json.dumps({"id": profile.id, **result.model_dump()}, ensure_ascii=False) + "\n")
    pool.close()
