"""`stealthflow attack TEXT|FILE|-`: what an attacker infers from each profile or post."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from stealthflow.attack import CorrectnessJudge
from stealthflow.cli.app import (
    AdapterOption,
    CacheOption,
    ConfigOption,
    ModelOption,
    RawToModelOption,
    app,
    attackers_option,
    fail,
    out,
    progress_bar,
    reachable,
    refuse_or_warn_raw,
    settings_from,
    split_names,
    user_errors,
)
from stealthflow.cli.source import SourceArgument, source_profiles
from stealthflow.data import ATTRIBUTES
from stealthflow.data.attributes import attribute_word
from stealthflow.data.jsonl import dump_line
from stealthflow.data.output_file import not_the_input, write_output
from stealthflow.llm.pool import LLMPool

BLIND = "blind: no answer — this says nothing about your privacy"
AttackAttackers = attackers_option("classifier with the embedded model (it gives no usable answer), llm with any other")


@app.command()
def attack(
    source: SourceArgument,
    attributes: Annotated[
        Optional[str], typer.Option(help="comma-separated; default: the labelled ones, else all 8")
    ] = None,
    attackers: AttackAttackers = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="write the parsed attacks as JSONL")] = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json",
            help="print one JSON line per profile and attacker: {id, kind, attacker, guesses, strength, cues, ...}",
        ),
    ] = False,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    cache: CacheOption = None,
    raw_to_model: RawToModelOption = False,
) -> None:
    """Infer personal attributes of each profile and print the guesses with their certainty.

    The llm attacker sends each text as it is: a model not on this machine is refused unless --raw-to-model."""
    from stealthflow.anonymize.cues import profile_cues
    from stealthflow.attack.registry import attacker_names, build_attackers, default_attackers
    from stealthflow.attack.strength import described_verdicts
    from stealthflow.llm.registry import off_machine

    settings = settings_from(config, model, adapter)
    requested = [a.strip() for a in attributes.split(",")] if attributes else None
    if requested and (unknown := set(requested) - set(ATTRIBUTES)):
        fail(f"unknown attributes {sorted(unknown)}; choose from {', '.join(ATTRIBUTES)}")
    names = split_names(attackers) if attackers else default_attackers(settings)
    if unknown := [n for n in names if n not in attacker_names()]:
        fail(f"unknown attackers {unknown}; choose from {', '.join(attacker_names())}")
    if "llm" in names and off_machine(settings.attacker_model()):
        instead = "attack the protected text (`stealthflow protect` first), a local model or --attackers classifier"
        refuse_or_warn_raw("the llm attacker", settings.attacker_model(), raw_to_model, instead)
    with user_errors():
        input_source, profiles = source_profiles(source)
        not_the_input(output, input_source.path)
        pool = LLMPool(cache)
        if "llm" in names:
            reachable(pool, settings.attacker_model(), "the attacker model")
        judge = CorrectnessJudge()
        asked = [requested or list(p.labelled()) or list(ATTRIBUTES) for p in profiles]
        texts = [p.text for p in profiles]
        runs = []
        for attacker in build_attackers(names, settings, pool):
            with progress_bar(f"attacking ({attacker.name})", len(profiles)) as progress:
                runs.append((attacker, attacker.attack_many(texts, asked)))
                progress.advance(0, len(profiles))
    strength = described_verdicts(settings.attacker_model().model)
    for index, profile in enumerate(profiles):
        cues = {} if profile.labelled() else profile_cues(profile)
        for attacker, results in runs:
            said = strength.get(attacker.name, "not evaluated here (see docs/attack.md)")
            if json_output:
                row = {"id": profile.id, "kind": attacker.name, **results[index].model_dump(), "strength": said}
                out.file.write(
                    dump_line(row | {"cues": [{"post": post, **cue} for post, found in cues.items() for cue in found]})
                )
            else:
                _print_attack(profile, attacker, results[index], judge, said)
        if not json_output:
            print_cues(cues, profile.id, len(profile.comments))
    if output:
        rows = [{"id": p.id, **results[index].model_dump()} for index, p in enumerate(profiles) for _, results in runs]
        write_output(output, "".join(map(dump_line, rows)))
    pool.close()


def _print_attack(profile, attacker, result, judge: CorrectnessJudge, strength: str) -> None:
    verdicts = judge.score(result, profile.labelled())
    blind = not any(guess.guesses for guess in result.guesses.values())
    caption = f"{attacker.name} attacker — on its own evaluation: {strength}"
    title = f"{profile.id} · {attacker.name}" + (
        f"  [bold red]({BLIND})[/]" if blind else "" if result.well_formed else "  (answer not in the requested format)"
    )
    table = Table(title=title, caption=caption)
    for column in ("attribute", "guesses (top 3)", "certainty", *(["truth", "correct"] if verdicts else [])):
        table.add_column(column)
    for attribute, guess in result.guesses.items():
        if not getattr(attacker, "covers", lambda _: True)(attribute):
            continue  # the classifier has no model for it: nothing to report
        row = [attribute, escape("; ".join(guess.guesses)) or "[dim]no answer[/]", str(guess.certainty or "-")]
        if verdicts:
            label = profile.labels.get(attribute)
            row += [label.estimate if label else "", ", ".join(verdicts.get(attribute, []))]
        table.add_row(*row)
    out.print(table)


def print_cues(cues: dict[int, list[dict]], profile_id: str, posts: int = 1) -> None:
    """One line per post with cues, named as the attack table's title names the profile: `ID`, or `ID post N`
    when the profile has several posts. Values protect masks are counted, not named."""
    for post, found in cues.items():
        where = profile_id + (f" post {post + 1}" if posts > 1 else "")
        phrases = "; ".join(f'"{c["phrase"]}" ({attribute_word(c["attribute"])})' for c in found if "phrase" in c)
        masked = sum(c.get("masked", 0) for c in found)
        said = [f"phrases that point to you: {phrases}"] if phrases else []
        said += [f"{masked} value(s) that protect masks with a placeholder"] if masked else []
        out.print(f"{escape(where)}: {escape('; '.join(said))}", highlight=False)
