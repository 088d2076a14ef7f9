"""The typer app, shared options and the progress bar. Command modules register on `app`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from stealthflow.config import Settings, load_settings

if TYPE_CHECKING:
    from stealthflow.llm import ModelConfig
    from stealthflow.llm.pool import LLMPool
from stealthflow.data import DataError

app = typer.Typer(
    name="stealthflow",
    help="Protect text before it leaves your device.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # locals may hold private text
)
console = Console(stderr=True)
out = Console()


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        out.print(f"stealthflow {version('stealthflow')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True, help="print the version and exit")] = False,
) -> None:
    """Protect text before it leaves your device."""

ConfigOption = Annotated[Optional[Path], typer.Option("--config", "-c", help="YAML settings (see configs/)", exists=True, dir_okay=False)]
ModelOption = Annotated[Optional[str], typer.Option("--model", "-m", help="model spec: embedded, hf:PATH, vllm:NAME, or a litellm model string")]
AdapterOption = Annotated[Optional[str], typer.Option("--adapter", help="PEFT adapter directory for a local model")]
RoundsOption = Annotated[Optional[int], typer.Option("--rounds", min=1, help="rounds of the loop methods (aa, stealth); default: workflow.rounds of the config (5)")]
CacheOption = Annotated[
    Optional[Path], typer.Option("--cache", help="keep an on-disk response cache at this path (off by default: it stores model answers in clear)")
]


def settings_from(config: Path | None, model: str | None, adapter: str | None) -> Settings:
    try:
        return load_settings(config, model, adapter)
    except (ValueError, OSError) as exc:
        fail(explain(exc))


def explain(exc: Exception) -> str:
    """A pydantic error as one readable line per field (no dump, no links); others as they are."""
    if isinstance(exc, ValidationError):
        return "\n".join(f"{'.'.join(str(part) for part in e['loc']) or 'value'}: {e['msg'].removeprefix('Value error, ')}" for e in exc.errors())
    return str(exc)


def fail(message: str) -> None:
    # One unwrapped line, markup-escaped: messages carry file paths that must stay intact.
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(2)


def recipe_overrides(items: list[str] | None) -> dict:
    """`--set KEY=VALUE` options as recipe overrides (values read as YAML: numbers, lists...)."""
    import yaml

    overrides = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep:
            fail(f"--set {item!r}: expected KEY=VALUE")
        overrides[key.strip()] = yaml.safe_load(value)
    return overrides


def print_markdown(text: str) -> None:
    """Render markdown (tables) on a terminal; write it raw when stdout is a pipe or a file."""
    if out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(text))
    else:
        out.file.write(text if text.endswith("\n") else text + "\n")


def reachable(pool: "LLMPool", config: "ModelConfig", what: str) -> None:
    """One tiny call if `config` is a remote model: one that cannot authenticate or connect fails
    the command here (after the bounded retries), before anything is written as done."""
    from stealthflow.llm import LLMCallError

    if config.model == "embedded" or config.model.partition(":")[0] in ("hf", "vllm", "llamacpp"):
        return  # local weights: loading them is the check
    llm = pool.get(config)
    if llm.backend.info.backend not in ("litellm", "router"):
        return  # a plugin's or a test's own backend
    try:
        llm.chat([{"role": "user", "content": "Reply with OK."}], max_new_tokens=1)
    except LLMCallError as exc:
        fail(f"{what} ({llm.backend.info.model_id}) did not answer: {str(exc).splitlines()[0][:300]}")


@contextlib.contextmanager
def progress_bar(description: str, total: int, extra: str = "") -> Iterator[Progress]:
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[info]}"),
    ]
    with Progress(*columns, console=console) as progress:
        progress.add_task(description, total=total, info=extra)
        yield progress


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn expected errors (bad input, missing model) into a clear message and exit code 2."""
    from stealthflow.llm.embedded import EmbeddedModelMissing
    from stealthflow.placeholders.keys import VaultKeyError
    from stealthflow.placeholders.vault import VaultTampered

    try:
        yield
    except (DataError, EmbeddedModelMissing, FileNotFoundError, VaultKeyError, VaultTampered) as exc:
        fail(str(exc))
