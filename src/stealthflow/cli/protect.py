"""`stealthflow protect | restore | vault forget | serve`: placeholders for explicit PII,
an optional rewrite against attribute inference, and hydration of the cloud's reply."""

from __future__ import annotations

import codecs
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Optional

import typer

from stealthflow.cli.app import (
    AdapterOption,
    CacheOption,
    ConfigOption,
    ModelOption,
    app,
    console,
    fail,
    progress_bar,
    settings_from,
    user_errors,
)
from stealthflow.config import Settings
from stealthflow.llm import LLMCallError
from stealthflow.llm.pool import LLMPool

vault_app = typer.Typer(help="Manage the local placeholder vault.", no_args_is_help=True)
app.add_typer(vault_app, name="vault")

SessionOption = Annotated[str, typer.Option("--session", "-s", help="conversation/session id: restoration only hydrates placeholders issued to it")]
UserOption = Annotated[Optional[str], typer.Option("--user", help="vault user (default: protect.user in the config)")]


def _settings(config: Path | None, model: str | None, adapter: str | None, **protect_overrides: object) -> Settings:
    settings = settings_from(config, model, adapter)
    update = {k: v for k, v in protect_overrides.items() if v is not None}
    try:
        settings.protect = settings.protect.model_validate({**settings.protect.model_dump(), **update})
    except ValueError as exc:
        fail(str(exc))
    return settings


@contextlib.contextmanager
def _vault_errors() -> Iterator[None]:
    from stealthflow.placeholders.keys import VaultKeyError
    from stealthflow.placeholders.vault import VaultTampered

    with user_errors():
        try:
            yield
        except (VaultKeyError, VaultTampered, LLMCallError, ValueError) as exc:
            fail(str(exc))


@app.command()
def protect(
    input: Annotated[Path, typer.Option("--input", "-i", help='JSONL of {"id", "text"}', dir_okay=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="JSONL of {id, text, spans} (resumed if it exists)", dir_okay=False)],
    session: SessionOption = "default",
    levels: Annotated[Optional[str], typer.Option(help="levels to mask, e.g. PL2,PL3,PL4 (PL4 is always masked)")] = None,
    style: Annotated[Optional[str], typer.Option(help="placeholder style: indexed (<EMAIL_1>) or hmac ([[EMAIL:3f81a2c9]])")] = None,
    rewrite: Annotated[str, typer.Option(help="then rewrite against attribute inference: none, a method (standard, stealth) or a model spec")] = "none",
    llm: Annotated[Optional[bool], typer.Option("--llm/--no-llm", help="run the LLM extractor after the deterministic recognizers")] = None,
    user: UserOption = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    cache: CacheOption = None,
) -> None:
    """Replace explicit PII by placeholders (kept in the encrypted vault), optionally rewrite."""
    from stealthflow.pipeline.protector import Protector
    from stealthflow.pipeline.records import finished_ids, read_records
    from stealthflow.pipeline.rewrite import build_rewriter, rewrite_protected

    settings = _settings(config, model, adapter, levels=levels, style=style, llm_extractor=llm, user=user)
    with _vault_errors():
        records = read_records(input)
        done = finished_ids(output)
        todo = [r for r in records if r[0] not in done]
        if done:
            console.print(f"resuming: {len(records) - len(todo)} of {len(records)} already in {output}")
        pool = LLMPool(cache)
        protector = Protector.from_settings(settings, pool)
        rewriter = build_rewriter(rewrite, settings, pool) if rewrite != "none" else None
        step = 16
        secrets_found = rejected = 0
        output.parent.mkdir(parents=True, exist_ok=True)
        with progress_bar("protecting", len(todo)) as progress, output.open("a", encoding="utf-8") as handle:
            for start in range(0, len(todo), step):
                chunk = todo[start : start + step]
                protected = protector.protect_many([text for _, text in chunk], session)
                rows = [{"id": record_id, "text": p.text, "spans": [s.to_json() for s in p.spans]} for (record_id, _), p in zip(chunk, protected, strict=True)]
                if rewriter is not None:
                    outcomes = rewrite_protected(rewriter, [(row["id"], p.text, p.placeholders) for row, p in zip(rows, protected, strict=True)])
                    for row, outcome in zip(rows, outcomes, strict=True):
                        row["text"], row["rewrite"] = outcome.text, outcome.to_json(rewrite)
                        rejected += not outcome.accepted
                for row, p in zip(rows, protected, strict=True):
                    secrets_found += bool(p.warnings)
                    for warning in p.warnings:
                        console.print(f"[yellow]warning:[/] {row['id']}: {warning}")
                    handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                handle.flush()
                progress.advance(0, len(chunk))
        protector.close()
        pool.close()
    console.print(f"wrote {len(todo)} protected texts to {output} (session {session!r})")
    if rewriter is not None and rejected:
        console.print(f"[yellow]{rejected} rewrite(s) rejected (unreadable answer or placeholders lost); their placeholder text was kept, the reason is in each line's 'rewrite' field[/]")
    if secrets_found:
        console.print(f"[yellow]{secrets_found} text(s) held a secret (PL4): rotate those credentials[/]")


@app.command()
def restore(
    session: SessionOption,
    input: Annotated[Optional[Path], typer.Option("--input", "-i", help='JSONL of {"id", "text"} replies', dir_okay=False)] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="write {id, text, unresolved} JSONL here (default: stdout)")] = None,
    stream: Annotated[bool, typer.Option("--stream", help="restore a streamed reply from stdin to stdout as it arrives")] = False,
    user: UserOption = None,
    config: ConfigOption = None,
) -> None:
    """Put the real values back into a reply; placeholders not issued to the session stay."""
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.pipeline.records import read_records

    if stream == (input is not None):
        fail("give either --input FILE or --stream (reads stdin)")
    settings = _settings(config, None, None, user=user)
    with _vault_errors():
        records = read_records(input) if input else []
        protector = Protector(settings.protect, open_vault(settings.protect))
        if stream:
            unresolved = _restore_stdin(protector, session)
        else:
            unresolved = _restore_records(protector, session, records, output)
        protector.close()
    if unresolved:
        console.print(f"[yellow]{len(unresolved)} placeholder(s) were not issued to session {session!r} and stay as they are:[/] {', '.join(sorted(set(unresolved)))}")


def _restore_records(protector, session: str, records: list[tuple[str, str]], output: Path | None) -> list[str]:
    unresolved, lines = [], []
    for record_id, text in records:
        result = protector.restore(text, session)
        unresolved += result.unresolved
        lines.append(json.dumps({"id": record_id, "text": result.text, "unresolved": result.unresolved}, ensure_ascii=False))
    if output:
        output.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        console.print(f"wrote {len(lines)} restored texts to {output}")
    else:
        sys.stdout.write("".join(line + "\n" for line in lines))
    return unresolved


def _restore_stdin(protector, session: str) -> list[str]:
    restorer = protector.stream(session)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # chunks may split a character
    while raw := sys.stdin.buffer.read1(4096):  # whatever has arrived, without waiting for more
        sys.stdout.write(restorer.feed(decoder.decode(raw)))
        sys.stdout.flush()
    sys.stdout.write(restorer.feed(decoder.decode(b"", final=True)) + restorer.finish())
    sys.stdout.flush()
    return restorer.unresolved


@vault_app.command("forget")
def vault_forget(
    session: Annotated[Optional[str], typer.Option("--session", "-s", help="forget this session and every value only it holds")] = None,
    value: Annotated[bool, typer.Option("--value", help="forget one value (read from a hidden prompt or stdin, never from the command line)")] = False,
    user: UserOption = None,
    config: ConfigOption = None,
) -> None:
    """Right to be forgotten: delete a value or a whole session from the vault."""
    from stealthflow.pipeline.protector import open_vault

    if (session is None) == (not value):
        fail("give exactly one of --session ID or --value")
    settings = _settings(config, None, None, user=user)
    with _vault_errors():
        vault = open_vault(settings.protect)
        if value:
            secret = sys.stdin.readline().rstrip("\n") if not sys.stdin.isatty() else typer.prompt("value to forget", hide_input=True)
            deleted = vault.forget_value(settings.protect.user, secret)
        else:
            deleted = vault.forget_session(settings.protect.user, session)
        vault.close()
    console.print(f"deleted {deleted} value(s) from the vault")


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="port on 127.0.0.1")] = 8765,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
) -> None:
    """Serve protect/restore over HTTP on 127.0.0.1 (loopback only)."""
    import uvicorn

    from stealthflow.pipeline.protector import Protector
    from stealthflow.service import create_app

    settings = _settings(config, model, adapter)
    with _vault_errors():
        protector = Protector.from_settings(settings)
    console.print(f"serving on http://127.0.0.1:{port} (vault user {settings.protect.user!r})")
    uvicorn.run(create_app(protector), host="127.0.0.1", port=port, log_level="warning", access_log=False)
