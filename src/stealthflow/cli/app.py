"""The CLI's shared set-up: the typer app and its help format, shared options, settings, the
user's vault, the rewriter `--rewrite` names, errors as one line, the progress bars. Command
modules register on `app` (sub-command groups are made with `Typer`)."""

from __future__ import annotations

import contextlib
import gc
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    DownloadColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)
from typer.core import TyperCommand, TyperGroup

from stealthflow.config import Settings, load_settings
from stealthflow.data import DataError

if TYPE_CHECKING:
    import click

    from stealthflow.anonymize.methods import Method
    from stealthflow.llm import ModelConfig
    from stealthflow.llm.pool import LLMPool
    from stealthflow.pipeline.protector import Protector
    from stealthflow.placeholders.vault import Vault

# The command list: what a person protecting text needs first, the research tools after.
COMMAND_ORDER = ("protect", "restore", "vault", "batch", "serve", "proxy", "memory", "anonymize", "attack", "methods")
_TYPE_LABEL = re.compile(r" <([^>]+)>")
_VALUE_NAMES = {
    "str": "TEXT",
    "int": "N",
    "int range": "N",
    "float": "X",
    "float range": "X",
    "file": "FILE",
    "path": "PATH",
    "directory": "DIR",
}


def _value_name(label: str) -> str:
    """A typer type label (`<str>`, `<int range>`) as a click-style value name (TEXT, N)."""
    return _VALUE_NAMES.get(label, label.upper())


def _help_records(command: click.Command, ctx: click.Context) -> tuple[list, list]:
    """(arguments, options) help rows without typer's `<type>` labels: an argument shows its
    metavar only, an option the name of the value it takes (`--session TEXT`)."""
    args, opts = [], []
    for param in command.get_params(ctx):
        if (record := param.get_help_record(ctx)) is None:
            continue
        if param.param_type_name == "argument":
            args.append((_TYPE_LABEL.sub("", record[0]), record[1]))
        else:
            opts.append((_TYPE_LABEL.sub(lambda m: f" {_value_name(m.group(1))}", record[0]), record[1]))
    return args, opts


def _format_options(command: click.Command, ctx: click.Context, formatter: click.HelpFormatter) -> None:
    for title, rows in zip(("Arguments", "Options"), _help_records(command, ctx), strict=True):
        if rows:
            with formatter.section(title):
                formatter.write_dl(rows)


class Command(TyperCommand):
    """Plain click help (readable at 80 columns), value names instead of typer's type labels."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _format_options(self, ctx, formatter)


class Group(TyperGroup):
    """As `Command`; the commands listed in `COMMAND_ORDER`, then the others as registered."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its first sentence whole (wrapped, not cut at the terminal's width)."""
        commands = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        if rows := [
            (name, command.get_short_help_str(limit=300))
            for name, command in commands
            if command and not command.hidden
        ]:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = super().list_commands(ctx)
        return sorted(names, key=lambda n: COMMAND_ORDER.index(n) if n in COMMAND_ORDER else len(COMMAND_ORDER))


class Typer(typer.Typer):
    """A typer app whose commands and groups print plain help (`Command`, `Group`)."""

    def __init__(self, **kwargs: Any):
        super().__init__(
            cls=Group, rich_markup_mode=None, pretty_exceptions_show_locals=False, **kwargs
        )  # locals may hold private text

    def command(self, *args: Any, **kwargs: Any):
        return super().command(*args, cls=kwargs.pop("cls", Command), **kwargs)


app = Typer(name="stealthflow", help="Protect text before it leaves your device.", no_args_is_help=True)


def command_group(name: str, help: str) -> Typer:
    """The group `stealthflow NAME ...`, added to `app`: its commands are registered on the Typer returned; run
    without one, it prints its help."""
    group = Typer(help=help, no_args_is_help=True)
    app.add_typer(group, name=name)
    return group


console = Console(stderr=True)
out = Console()


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        out.print(f"stealthflow {version('stealthflow')}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_print_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """Protect text before it leaves your device."""


ConfigOption = Annotated[
    Optional[Path], typer.Option("--config", "-c", help="YAML settings (see configs/)", exists=True, dir_okay=False)
]
ModelOption = Annotated[
    Optional[str],
    typer.Option("--model", "-m", help="model spec: embedded, hf:PATH, vllm:NAME, or a litellm model string"),
]
AdapterOption = Annotated[Optional[str], typer.Option("--adapter", help="PEFT adapter directory for a local model")]
LlmExtractorOption = Annotated[
    Optional[bool],
    typer.Option(
        "--llm-extractor/--no-llm",
        help=(
            "run the LLM PII extractor after the recognizers (default: only when the configured model runs on this"
            " machine and is not the embedded one)"
        ),
    ),
]
TaggerOption = Annotated[
    Optional[bool],
    typer.Option(
        "--tagger/--no-tagger",
        help="run the offline PII span tagger (names, addresses, employers, health, income; default: on, config protect.tagger)",
    ),
]
ClauseTaggerOption = Annotated[
    Optional[bool],
    typer.Option(
        "--clause-tagger",
        help='also look for health and money told in a clause ("I\'m three months behind on rent"): more CPU per text (default: off, config protect.clause_tagger)',
    ),
]
RefuseUncoveredOption = Annotated[
    Optional[bool],
    typer.Option(
        "--refuse-uncovered/--forward-uncovered",
        help="refuse (HTTP 422, nothing sent) a text with sentences in a language the recognizers do not cover, instead of protecting only its structured identifiers there with a warning (default: forward, config protect.refuse_uncovered)",
    ),
]
RoundsOption = Annotated[
    Optional[int],
    typer.Option(
        "--rounds", min=1, help="rounds of the loop methods (aa, stealth); default: workflow.rounds of the config (5)"
    ),
]

SeedOption = Annotated[int, typer.Option(help="random seed: the same seed and input give the same output")]


def attackers_option(default: str) -> object:
    """The `--attackers` option, saying what its command runs without it."""
    return Annotated[
        Optional[str],
        typer.Option(
            "--attackers",
            help="comma-separated attackers: llm (the attacker model), classifier (stylometric, CPU), probe (on the "
            f"embedded model's hidden states, CPU); default: {default}",
        ),
    ]


AttackersOption = attackers_option("llm")
InsightsOption = Annotated[
    Optional[Path],
    typer.Option(
        "--insights",
        help="insight memory (JSON); for the stealth method the default is the shipped one AgentStealth learned with DeepSeek-V3, 'none' for no rules",
        dir_okay=False,
    ),
]


def split_names(value: str | None) -> list[str] | None:
    """A comma-separated option (`--attackers llm,classifier`) as its names; None when not given."""
    return [n.strip() for n in value.split(",") if n.strip()] if value else None


CacheOption = Annotated[
    Optional[Path],
    typer.Option(
        "--cache", help="keep an on-disk response cache at this path (off by default: it stores model answers in clear)"
    ),
]


def settings_from(config: Path | None, model: str | None, adapter: str | None) -> Settings:
    try:
        return load_settings(config, model, adapter)
    except (ValueError, OSError) as exc:
        fail(explain(exc))


def protect_settings(
    config: Path | None, model: str | None, adapter: str | None, **protect_overrides: object
) -> Settings:
    """Settings with the `protect` section's command-line overrides (None: as configured)."""
    settings = settings_from(config, model, adapter)
    update = {k: v for k, v in protect_overrides.items() if v is not None}
    try:
        settings.protect = settings.protect.model_validate({**settings.protect.model_dump(), **update})
    except ValueError as exc:
        fail(explain(exc))
    return settings


def service_settings(
    config: Path | None,
    model: str | None,
    adapter: str | None,
    llm: bool | None,
    tagger: bool | None,
    clause_tagger: bool | None,
    refuse_uncovered: bool | None,
) -> Settings:
    """The settings `serve`, `ui` and `proxy` run on: `protect_settings` with their detection options."""
    return protect_settings(
        config,
        model,
        adapter,
        llm_extractor=llm,
        tagger=tagger,
        clause_tagger=clause_tagger,
        refuse_uncovered=refuse_uncovered,
    )


def open_user_vault(settings: Settings, new_vault: bool = False) -> "Vault":
    """The user's vault; a key created now gets a one-time notice: it is the only way in."""
    from stealthflow.pipeline.protector import open_vault

    def notice(where: str) -> None:
        console.print(
            f"[bold yellow]a new vault key was created in {escape(where)}[/]: back it up (e.g. in your password manager); "
            "without it the vault cannot be read. `stealthflow vault export FILE` makes an encrypted backup of the vault."
        )

    return open_vault(settings.protect, on_new_key=notice, new_vault=new_vault)


def user_protector(settings: Settings, pool: "LLMPool | None" = None) -> "Protector":
    """The protector of the user's vault, detection as `settings` say (what `protect`, `serve`,
    `ui`, `proxy` and `memory` run on); the vault's and the models' errors as one line."""
    from stealthflow.pipeline.protector import Protector

    with vault_errors():
        return Protector.from_settings(settings, pool, vault=open_user_vault(settings))


@contextlib.contextmanager
def vault_errors() -> Iterator[None]:
    """`user_errors`, and the vault's and the models' failures, as one line and exit 2."""
    from stealthflow.llm import LLMCallError
    from stealthflow.placeholders.vault import VaultMismatch

    with user_errors():
        try:
            yield
        except (VaultMismatch, LLMCallError, ValueError) as exc:
            fail(str(exc))


def check_rewrite(rewrite: str, settings: Settings) -> None:
    """A `--rewrite` that names nothing fails here, before any model or vault is opened."""
    from stealthflow.pipeline.rewrite import rewrite_method

    try:
        if rewrite != "none":
            rewrite_method(rewrite, settings)
    except ValueError as exc:
        fail(str(exc))


def rewriter_for(rewrite: str, settings: Settings, pool: "LLMPool") -> "Method | None":
    """The method `--rewrite` names (None for `none`), its model checked reachable (an offline one needs none)."""
    from stealthflow.anonymize.methods import OFFLINE_METHODS
    from stealthflow.pipeline.rewrite import build_rewriter

    if rewrite == "none":
        return None
    try:
        rewriter = build_rewriter(rewrite, settings, pool)
    except ValueError as exc:
        fail(str(exc))
    if rewrite not in OFFLINE_METHODS:
        reachable(pool, settings.model, "the rewrite model")
    return rewriter


def explain(exc: Exception) -> str:
    """A pydantic error as one readable line per field (no dump, no links); others as they are."""
    if isinstance(exc, ValidationError):
        return "\n".join(
            f"{'.'.join(str(part) for part in e['loc']) or 'value'}: {e['msg'].removeprefix('Value error, ')}"
            for e in exc.errors()
        )
    return str(exc)


def stderr_is_terminal() -> bool:
    """Whether stderr may carry a post's own words (its text, its phrases): a terminal shows them and keeps
    nothing; a file or pipe (a redirect, a log) would keep them."""
    return sys.stderr.isatty()


def phrase_report(asked: bool = False):
    """The `PhraseReport` every command names a post's phrases with on stderr: words only to a terminal, or when the
    user `asked` for them (an option such as `anonymize --show-unprotected`: a file or pipe will keep them)."""
    from stealthflow.anonymize.phrase_report import PhraseReport

    return PhraseReport(asked or stderr_is_terminal())


def fail(message: str) -> None:
    # One unwrapped line, markup-escaped: messages carry file paths that must stay intact.
    console.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    raise typer.Exit(2)


RawToModelOption = Annotated[
    bool,
    typer.Option(
        "--raw-to-model",
        help="allow sending each text raw (credentials and e-mails included) to a model not on this machine",
    ),
]


def refuse_or_warn_raw(what: str, model: "ModelConfig", allowed: bool, instead: str) -> None:
    """Before any call to `model`: `what` would send each text raw to it and it is not on this machine
    (`llm.registry.off_machine`). Refused unless `allowed` (--raw-to-model), naming `instead`; said either way."""
    where = model.where()
    if not allowed:
        fail(
            f"{what} would send each text raw (credentials, e-mails and phones included) to {where}, which is not on"
            f" this machine: {instead}, or --raw-to-model to send the raw texts anyway"
        )
    console.print(
        f"[yellow]warning:[/] --raw-to-model: each text goes raw to {escape(where)}, which is not on this machine",
        highlight=False,
        soft_wrap=True,
    )


@contextlib.contextmanager
def said_when_interrupted(how_far: Callable[[], str]) -> Iterator[None]:
    """Ctrl-C: one line on stderr, `how_far()` (what the command wrote and how to go on), then exit 130 (the shell's
    code for SIGINT), not a silent stop."""
    try:
        yield
    except KeyboardInterrupt:
        console.print(f"[yellow]interrupted:[/] {escape(how_far())}", highlight=False, soft_wrap=True)
        raise typer.Exit(130) from None


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


def as_lines(text: str) -> str:
    """`text` ending with a line end, so that what a shell prints next starts on a line of its own."""
    return text if text.endswith("\n") else text + "\n"


def print_markdown(text: str) -> None:
    """Render markdown (tables) on a terminal; write it raw when stdout is a pipe or a file."""
    if out.is_terminal:
        from rich.markdown import Markdown

        out.print(Markdown(text))
    else:
        out.file.write(as_lines(text))


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
    """A bar (done / total, time) on a terminal; nothing where stderr is a file or a pipe (a log keeps no bar)."""
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[info]}"),
    ]
    with Progress(*columns, console=console, disable=not console.is_terminal) as progress:
        progress.add_task(description, total=total, info=extra)
        yield progress


@contextlib.contextmanager
def bytes_progress(description: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar in bytes (done / total, bytes per second, time left); yields `advance(n)`."""
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task(description, total=total)
        yield lambda done: progress.advance(task, done)


@contextlib.contextmanager
def user_errors() -> Iterator[None]:
    """Turn expected errors (bad input, missing model) into a clear message and exit code 2."""
    from stealthflow.llm.embedded import EmbeddedModelMissing
    from stealthflow.pipeline.protector import PersonalName
    from stealthflow.placeholders.keys import VaultKeyError
    from stealthflow.placeholders.language import UncoveredText
    from stealthflow.placeholders.vault import VaultTampered
    from stealthflow.sessions import SessionNameError

    try:
        yield
    except (
        DataError,
        EmbeddedModelMissing,
        FileNotFoundError,
        PersonalName,
        SessionNameError,
        UncoveredText,
        VaultKeyError,
        VaultTampered,
    ) as exc:
        fail(str(exc))


SecretsInUrlsOption = Annotated[
    bool,
    typer.Option(
        "--secrets-in-urls",
        help="fill in secrets, cards, IBANs, passports and ID numbers inside links, markup and JSON, glued to text "
        "or after '=' too (by default they stay placeholders there, as the proxy leaves them); never inside a URL "
        "that loads by itself (an image, markup), nor from a placeholder without brackets (API_KEY_1)",
    ),
]


ValuesInLinksOption = Annotated[
    bool,
    typer.Option(
        "--values-in-links",
        help="fill in the other values (names, e-mails, phones, addresses...) inside links and bare URLs, glued into "
        "an e-mail address or host name, and in code, JSON or a tool call written in the reply too, which a click or "
        "a run sends away (by default they stay placeholders there, as the proxy leaves them); "
        "never inside a URL that loads by itself (an image, markup)",
    ),
]


RewriteOption = Annotated[
    str,
    typer.Option(
        "--rewrite",
        help="what the page and POST /protect {rewrite} rewrite with: local (per post, offline), none, another method or a model spec",
    ),
]


def port_free(host: str, port: int) -> None:
    """Fail (one line, exit 2) when `host`:`port` cannot be listened on, before a server announces itself: uvicorn
    would print its error after the banner and exit 3."""
    import errno
    import socket

    try:
        socket.create_server((host, port), family=socket.AF_INET6 if ":" in host else socket.AF_INET).close()
    except OSError as exc:
        why = "the port is in use (another server?)" if exc.errno == errno.EADDRINUSE else exc.strerror or str(exc)
        fail(f"cannot listen on {host}:{port}: {why}; give another with --port")


def run_server(app, host: str, port: int, protector) -> None:
    """Serve `app` until stopped, `protector` with its detection helpers; it is closed after."""
    import uvicorn

    protector.start_detection_helpers()
    # The start-up heap (phonenumbers' metadata, the recognizers and their patterns...) lives as long as the
    # server: kept out of the collector's generations, requests no longer pay for full collections
    # over it (protect + restore of 1 KB messages in-process: mean 3.3 -> 2.6 ms, p99 17 -> 9 ms).
    gc.freeze()
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
    finally:
        protector.close()
