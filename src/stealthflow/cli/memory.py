"""`stealthflow memory ...`: agent memories stored redacted (append, pack, hydrate, forget, list), and `adopt`: a
memory session of an earlier version copied into one wrapper owner's."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from stealthflow.cli.app import (
    ClauseTaggerOption,
    ConfigOption,
    SecretsInUrlsOption,
    TaggerOption,
    ValuesInLinksOption,
    as_lines,
    command_group,
    console,
    fail,
    protect_settings,
    rewriter_for,
    user_errors,
    user_protector,
    vault_errors,
)

memory_app = command_group("memory", "Agent memories kept redacted: values stay in the local vault.")

UserOption = Annotated[
    str, typer.Option("--user", help="the memory owner (its values live in vault session 'memory:<user>')")
]
StoreOption = Annotated[
    Path | None, typer.Option("--store", help="the memory SQLite file (default: memory.sqlite beside the vault)")
]


def _none_for(user: str) -> str:
    """What `pack` and `list` say on stderr for a user without memories (stdout stays empty, exit 0)."""
    return f"no memories for user {user}"


@contextlib.contextmanager
def _store(
    store: Path | None,
    config: Path | None,
    llm: bool | None = False,
    tagger: bool | None = None,
    rewrite: str = "none",
    clause_tagger: bool | None = None,
) -> Iterator[MemoryStore]:  # noqa: F821
    from stealthflow.llm.pool import LLMPool
    from stealthflow.memory import MemoryStore
    from stealthflow.memory.store import default_store_path

    settings = protect_settings(config, None, None, llm_extractor=llm, tagger=tagger, clause_tagger=clause_tagger)
    pool = LLMPool()
    protector = user_protector(settings, pool)
    with vault_errors():
        opened = MemoryStore(
            store or default_store_path(settings.protect.vault_path),
            protector,
            rewriter=rewriter_for(rewrite, settings, pool),
        )
        try:
            yield opened
        except (ValueError, KeyError) as exc:
            # a KeyError's str() is its message's repr: its first argument is the message
            fail(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc))
        finally:
            opened.close()
            protector.close()
            pool.close()


def _jsonl_rows(path: Path) -> list[tuple[str, str, str, dict | None]]:
    """The rows of the JSONL input `path` (- for stdin), `input_rows`."""
    from stealthflow.cli.source import Source, read_stdin
    from stealthflow.memory.store import input_rows

    with user_errors():
        return input_rows(read_stdin() if str(path) == "-" else Source(path=path).read_text(), str(path))


@memory_app.command()
def append(
    user: Annotated[str | None, typer.Option("--user", help="the memory owner (JSONL rows carry their own)")] = None,
    text: Annotated[
        str | None, typer.Option("--text", help="the memory text, or - for stdin (on the command line it is exposed)")
    ] = None,
    input: Annotated[
        Path | None, typer.Option("-i", "--input", help="a JSONL file of {user, text, metadata?} rows, or - for stdin")
    ] = None,
    llm: Annotated[bool, typer.Option("--llm-extractor/--no-llm", help="also run the LLM PII extractor")] = False,
    tagger: TaggerOption = None,
    clause_tagger: ClauseTaggerOption = None,
    rewrite: Annotated[
        str,
        typer.Option(
            "--rewrite",
            help="then rewrite against attribute inference: none, local (offline model), another method or a model spec",
        ),
    ] = "none",
    json_out: Annotated[bool, typer.Option("--json", help="print each stored item as JSON")] = False,
    store: StoreOption = None,
    config: ConfigOption = None,
) -> None:
    """Redact a memory (optionally rewrite it), embed the stored text, store it; prints id and stored text.

    `-i FILE` run again on the same input (after a crash, say) skips the lines already stored."""
    if (text is None) == (input is None):
        fail("give --text TEXT or -i FILE.jsonl")
    if text is not None and not user:
        fail("--user is required with --text")
    if text is not None:
        from stealthflow.cli.source import Source, text_option

        with user_errors():
            text = Source(text=text_option(text)).read_text()
    rows = [(None, user, text, None)] if text is not None else _jsonl_rows(input)
    with _store(store, config, llm, tagger, rewrite, clause_tagger) as memory:
        if input is not None and (done := memory.imported_lines([(row[1], row[0]) for row in rows])):
            todo = [row for row in rows if (row[1], row[0]) not in done]
            if len(todo) < len(rows):
                console.print(f"resuming: {len(rows) - len(todo)} line(s) of {input} already stored, {len(todo)} to go")
            rows = todo
        for line, owner, body, metadata in rows:
            item = memory.append(owner, body, metadata, line=line)
            for warning in item.warnings:
                console.print(f"[yellow]warning:[/] memory {item.id}: {warning}", highlight=False)
            print(
                json.dumps({"id": item.id, "user": owner, "text": item.text}, ensure_ascii=False)
                if json_out
                else f"{item.id}\t{item.text}"
            )


def _none_packed(user: str, held: int, below_floor: int, budget: int, min_score: float) -> str:
    """What `pack` says on stderr when the user has memories but none was packed: none similar enough, or none fits."""
    if below_floor == held:
        return (
            f"no memory of user {user} is similar enough to the query (none scores {min_score} or more; {held} stored, "
            "--min-score lowers the floor)"
        )
    return f"no memory of user {user} fits in {budget} tokens ({held} stored)"


@memory_app.command()
def pack(
    user: UserOption,
    query: Annotated[
        str, typer.Option("--query", help="what the context is for, or - for stdin (on the command line it is exposed)")
    ],
    budget: Annotated[int, typer.Option("--budget", min=1, help="token budget of the packed context")] = 400,
    min_score: Annotated[
        float | None,
        typer.Option(
            "--min-score",
            min=-1.0,
            max=1.0,
            help="leave out memories less similar to the query than this cosine (default: the store's floor, "
            "docs/memory.md); -1 packs any memory, to the budget",
        ),
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help='print {"text", "items": [{"id", "text", "score"}], "request"}')
    ] = False,
    store: StoreOption = None,
    config: ConfigOption = None,
) -> None:
    """The user's memories most similar to the query, redacted, within the budget, none less similar than the floor
    (--min-score). The pack's request id (on stderr, or in --json) is what `memory hydrate --request` takes: a reply to
    the pack gets only its placeholders back."""
    from stealthflow.cli.source import Source, text_option
    from stealthflow.memory.store import MIN_SCORE

    min_score = MIN_SCORE if min_score is None else min_score
    with user_errors():
        query = Source(text=text_option(query)).read_text()
    with _store(store, config) as memory:
        packed = memory.pack(user, query, budget, min_score=min_score)
        if not packed.items:
            held = len(memory.list(user))
            console.print(
                _none_packed(user, held, packed.below_floor, budget, min_score) if held else _none_for(user),
                highlight=False,
                markup=False,
            )
    if json_out:
        print(json.dumps(packed.to_json(), ensure_ascii=False))
        return
    if packed.items:
        print(packed.text)
    if packed.request:
        console.print(f"request: {packed.request} (memory hydrate --request ID)", highlight=False, markup=False)


@memory_app.command()
def hydrate(
    user: UserOption,
    request: Annotated[
        str, typer.Option("--request", help="the request id of the pack the reply answers (`memory pack` prints it)")
    ],
    json_out: Annotated[
        bool, typer.Option("--json", help='print {"text", "restored", "unresolved", "withheld"}')
    ] = False,
    secrets_in_urls: SecretsInUrlsOption = False,
    values_in_links: ValuesInLinksOption = False,
    store: StoreOption = None,
    config: ConfigOption = None,
) -> None:
    """Restore, in the reply read from stdin, the placeholders the pack `--request` sent; the user's others stay as
    they are and are listed on stderr, as are those that are not this user's and those withheld as restore withholds
    them."""
    from stealthflow.cli.source import Source, read_stdin
    from stealthflow.placeholders.scope import cli_switch, result_json, withheld_notice

    with user_errors():
        text = Source(text=read_stdin()).read_text()
    with _store(store, config) as memory:
        result = memory.restore(user, text, request, secrets_in_urls, values_in_links)
    if json_out:
        print(json.dumps(result_json(result), ensure_ascii=False))
    else:
        sys.stdout.write(as_lines(result.text))
    if unresolved := memory.unresolved_notice(user, result.unresolved):
        console.print(f"[yellow]{escape(unresolved)}[/]", highlight=False)
    if result.withheld:
        console.print(f"[yellow]{escape(withheld_notice(result.withheld, cli_switch))}[/]", highlight=False)


@memory_app.command()
def forget(
    user: UserOption,
    id: Annotated[int | None, typer.Option("--id", help="the memory to remove")] = None,
    all: Annotated[bool, typer.Option("--all", help="remove all the user's memories and their vault values")] = False,
    store: StoreOption = None,
    config: ConfigOption = None,
) -> None:
    """Remove a memory (or all), its vector, and vault values no other memory uses."""
    if (id is None) == (not all):
        fail("give --id ID or --all")
    with _store(store, config) as memory:
        removed = memory.forget(user, id, all=all)
    console.print(f"forgot {removed} memor{'y' if removed == 1 else 'ies'} of {user}")


@memory_app.command("list")
def list_(
    user: UserOption,
    json_out: Annotated[
        bool, typer.Option("--json", help='print each memory as a JSON line {"id", "text", "metadata"}')
    ] = False,
    store: StoreOption = None,
    config: ConfigOption = None,
) -> None:
    """The user's memories (redacted), oldest first."""
    with _store(store, config) as memory:
        items = memory.list(user)
    if not items:
        console.print(_none_for(user), highlight=False, markup=False)
    for item in items:
        print(
            json.dumps({"id": item.id, "text": item.text, "metadata": item.metadata}, ensure_ascii=False)
            if json_out
            else f"{item.id}\t{item.text}"
        )


@memory_app.command()
def adopt(
    from_session: Annotated[
        str,
        typer.Option(
            "--from-session",
            help="the session to copy from: memory:ID (`stealthflow vault list` shows the sessions)",
        ),
    ],
    kind: Annotated[
        str,
        typer.Option("--kind", help="the owner to copy into: mem0.user_id, mem0.agent_id, mem0.run_id or langgraph"),
    ],
    owner: Annotated[
        str,
        typer.Option("--owner", help="its id: mem0's user_id, agent_id or run_id, or a namespace's parts joined by /"),
    ],
    texts: Annotated[
        Path | None,
        typer.Option(
            "--texts",
            help="the owner's memories as its store holds them (placeholders and all; any format, - for stdin): only "
            "the values they name are copied",
        ),
    ] = None,
    all_values: Annotated[
        bool,
        typer.Option("--all-values", help="copy every value of the session, other owners' of that id included"),
    ] = False,
    config: ConfigOption = None,
) -> None:
    """Once, after upgrading: copy the values of memory:ID, where earlier versions kept every memory owner's of that id,
    into one wrapper owner's own session.

    Earlier versions kept the values of mem0's user, agent and run and of a LangGraph namespace of one id in
    memory:ID, which is now the memory user ID's alone. The copy makes the memories the owner wrote then hydrate. With
    --texts only the values those memories name become readable by the owner; --all-values copies every value memory:ID
    holds (the memory user ID's and other owners' included). Refused when the owner's session already numbered values
    of its own; a rerun on the same input does nothing and says so."""
    from stealthflow.cli.source import Source, read_stdin
    from stealthflow.integrations.wrapper import adopt as adopt_values

    if (texts is None) == (not all_values):
        fail(
            "give --texts FILE (the owner's memories as stored: only the values they name are copied) or --all-values "
            f"(every value of {from_session}, those of other owners of that id included)"
        )
    with user_errors():
        memories = None if texts is None else [read_stdin() if str(texts) == "-" else Source(path=texts).read_text()]
    protector = user_protector(protect_settings(config, None, None, llm_extractor=False, tagger=False))
    try:
        with vault_errors():
            session, copied = adopt_values(protector, from_session, kind, owner, memories)
    finally:
        protector.close()
    if copied:
        console.print(f"copied {copied} value(s) of {from_session} into {session}", highlight=False, markup=False)
    else:
        console.print(
            f"nothing to do: {session} already holds every value of {from_session} to copy (an earlier adopt copied "
            "them)",
            highlight=False,
            markup=False,
        )
