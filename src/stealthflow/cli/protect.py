"""`stealthflow protect | restore | vault ... | serve`: placeholders for explicit PII, then a
rewrite against attribute inference (by default), and hydration of the cloud's reply."""

from __future__ import annotations

import codecs
import contextlib
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape
from rich.table import Table

from stealthflow.cli.app import (
    AdapterOption,
    CacheOption,
    ClauseTaggerOption,
    ConfigOption,
    LlmExtractorOption,
    ModelOption,
    RefuseUncoveredOption,
    RewriteOption,
    RoundsOption,
    SecretsInUrlsOption,
    TaggerOption,
    ValuesInLinksOption,
    app,
    as_lines,
    bytes_progress,
    check_rewrite,
    command_group,
    console,
    fail,
    open_user_vault,
    out,
    phrase_report,
    progress_bar,
    protect_settings,
    reachable,
    rewriter_for,
    said_when_interrupted,
    stderr_is_terminal,
    user_protector,
    vault_errors,
)
from stealthflow.config import Settings
from stealthflow.data.attributes import attribute_word
from stealthflow.data.jsonl import dump_line
from stealthflow.data.output_file import not_the_input, write_output
from stealthflow.lasting import lasting_objects
from stealthflow.llm.pool import LLMPool
from stealthflow.pipeline.records import Record

vault_app = command_group("vault", "Manage the local placeholder vault.")

SessionOption = Annotated[
    str,
    typer.Option(
        "--session", "-s", help="conversation/session id: restoration only hydrates placeholders issued to it"
    ),
]
UserOption = Annotated[Optional[str], typer.Option("--user", help="vault user (default: protect.user in the config)")]
OutputOption = Annotated[
    Optional[str], typer.Option("--output", "-o", help="write here instead of stdout ('-' = stdout)")
]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON instead of plain text")]


def _source_argument(what: str, more: str = "") -> object:
    """The optional TEXT|FILE|- argument of `protect` and `restore` (or --input instead)."""
    return Annotated[
        Optional[str],
        typer.Argument(
            metavar="[TEXT|FILE|-]",
            help=f"the {what} itself, a plain-text or JSONL file, or - for stdin{more}",
            show_default=False,
        ),
    ]


def _input_option(what: str) -> object:
    return Annotated[Optional[str], typer.Option("--input", "-i", help=f'JSONL of {{"id", "text"}} {what} (- = stdin)')]


TextSource = _source_argument("text")
ReplySource = _source_argument("reply", " (restored as it arrives)")
RecordsInput = _input_option("records")
RepliesInput = _input_option("replies")


def _one_of(source: str | None, input: str | None, what: str) -> None:
    if source is not None and input is not None:
        fail(f"give the {what} as TEXT, FILE or - or as --input FILE.jsonl: one, not both")
    if source is None and input is None:
        fail(f"give the {what} (TEXT, FILE or -) or --input FILE.jsonl")


def _input_records(input: str) -> list[Record]:
    """The records of `--input` (a JSONL file, or - for stdin)."""
    from stealthflow.cli.source import read_stdin
    from stealthflow.pipeline.records import parse_records, read_records

    return parse_records(read_stdin(), "<stdin>") if input == "-" else read_records(Path(input))


@app.command()
def protect(
    source: TextSource = None,
    input: RecordsInput = None,
    output: OutputOption = None,
    json_output: JsonOption = False,
    session: SessionOption = "default",
    levels: Annotated[
        Optional[str], typer.Option(help="levels to mask, e.g. PL2,PL3,PL4 (PL4 is always masked)")
    ] = None,
    style: Annotated[
        Optional[str], typer.Option(help="placeholder style: indexed (<EMAIL_1>) or hmac ([[EMAIL:3f81a2c9]])")
    ] = None,
    rewrite: Annotated[
        str,
        typer.Option(
            help="then rewrite against attribute inference: local (per post, offline), none, another method (standard, stealth) or a model spec"
        ),
    ] = "local",
    rounds: RoundsOption = None,
    show: Annotated[
        bool,
        typer.Option(
            "--show",
            help="print each text before and after on stderr when stderr is a terminal (never into a file or pipe)",
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="list every value masked and phrase rewritten on stderr (default: a one-line summary)",
        ),
    ] = False,
    explain: Annotated[
        bool,
        typer.Option(
            "--explain",
            help="say on stderr why each value was masked: its recognizer, the rule that kept it, its confidence",
        ),
    ] = False,
    llm: LlmExtractorOption = None,
    tagger: TaggerOption = None,
    clause_tagger: ClauseTaggerOption = None,
    user: UserOption = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    cache: CacheOption = None,
) -> None:
    """Replace explicit PII by placeholders (kept in the encrypted vault), then rewrite the
    phrases that give you away (--rewrite local, the default; --rewrite none to skip).

    Text (an argument, a plain-text file or stdin) prints the protected text; JSONL records
    (`-i FILE` or a .jsonl file) write JSONL, resuming an existing output file."""
    from stealthflow.cli.source import read_source
    from stealthflow.pipeline.records import finished_rows, read_records

    _one_of(source, input, "text to protect")
    settings = protect_settings(
        config,
        model,
        adapter,
        levels=levels,
        style=style,
        llm_extractor=llm,
        tagger=tagger,
        clause_tagger=clause_tagger,
        user=user,
    )
    if rounds is not None:
        settings.workflow = settings.workflow.model_copy(update={"rounds": rounds})
    check_rewrite(rewrite, settings)
    show = show and _shown_on_terminal()
    with vault_errors():
        if input is not None:
            not_the_input(output, input)
            records, text_mode = _input_records(input), False
        else:
            read = read_source(source)
            not_the_input(output, "-" if source == "-" else read.path)
            text_mode = not read.is_records
            records = [Record(read.name, read.read_text())] if text_mode else read_records(read.path)
        if not records:
            fail(f"{input or source}: no records to protect")
        finished = {} if text_mode or output in (None, "-") else finished_rows(Path(output), session, rewrite)
        how_far = (
            contextlib.nullcontext()
            if text_mode
            else said_when_interrupted(lambda: _how_far(output, len(records), session))
        )
        with how_far, _protection(settings, rewrite, cache, show, verbose, explain) as run:
            if text_mode:
                _protect_text(run, records[0].text, session, output, json_output)
            else:
                _protect_records(run, records, session, output, finished)


def _how_far(output: str | None, total: int, session: str) -> str:
    """What an interrupted `protect -i` left written, and how to go on (rows reach the output 16 at a time)."""
    if output in (None, "-"):
        return "each row printed is whole; with -o FILE, a rerun of the same command resumes where it stopped"
    path = Path(output)
    with path.open(encoding="utf-8") if path.exists() else contextlib.nullcontext([]) as rows:
        written = sum(1 for _ in rows)
    return (
        f"{output} holds {written} of {total} rows (session {session!r}); rerun the same command to resume from there"
    )


def _shown_on_terminal() -> bool:
    """Whether --show may print raw text: only to a terminal, never into a log a redirect or pipe writes (said why)."""
    if stderr_is_terminal():
        return True
    console.print(
        "[yellow]--show: not shown, stderr is not a terminal[/] (redirected or piped: the texts before protection "
        "would be written there)",
        highlight=False,
    )
    return False


@dataclass
class _Run:
    protector: object
    rewriter: object | None
    rewrite: str
    show: bool = False
    verbose: bool = False
    explain: bool = False
    secrets_found: int = 0
    secret_types: set = field(default_factory=set)  # of the secrets found, said once in the closing paragraph
    rejected: int = 0
    stayed: Counter = field(default_factory=Counter)  # phrases the rewrite left, by text id
    unread: int = 0  # texts the rewrite could not read (a language it does not cover)
    read_in_part: int = 0  # texts it read but for a sentence (or more) in another language
    unprotected: int = 0  # texts the rewrite left not protected (`"rewrite": {"protected": false}`)
    masked: Counter = field(default_factory=Counter)  # placeholders issued, by type
    rewritten: Counter = field(default_factory=Counter)  # phrases rewritten, by attribute
    phrases: object = None  # how --verbose names them (`phrase_report`)

    def protect(self, items: list[Record], session: str) -> list[dict]:
        """Rows `{id, session, vault, text, spans[, rewrite]}` (`protect_records`); warnings go to stderr."""
        from stealthflow.pipeline.protector import secret_warning
        from stealthflow.pipeline.records import protect_records
        from stealthflow.placeholders.types import Level

        results = protect_records(self.protector, items, session, self.rewriter, self.rewrite)
        for item, (_, _, outcome) in zip(items, results, strict=True):
            if outcome is not None:
                self._count(item.id, outcome)
        for item, (row, p, _) in zip(items, results, strict=True):
            self.masked.update(span.type for span in p.spans)
            if self.verbose or self.explain:
                for span in p.spans:
                    why = f" at {span.start}-{span.end}: {span.explanation()}, confidence {span.score:.2f}"
                    console.print(
                        f"{escape(item.id)}: masked {span.type} ({span.level.name}) as {escape(span.placeholder)}"
                        + (escape(why) if self.explain else ""),
                        highlight=False,
                        soft_wrap=True,
                    )
            if self.explain:
                self._explain_samples(item.id, item.text, p.spans)
            if self.show:
                console.print(
                    f"[bold]{escape(item.id)}[/]\n  before: {escape(item.text)}\n  after:  {escape(row['text'])}",
                    highlight=False,
                )
            self.secrets_found += any(span.level == Level.PL4 for span in p.spans)
            self.secret_types.update(span.type for span in p.spans if span.level == Level.PL4)
            for warning in p.warnings:
                if warning != secret_warning(p.spans):  # said once for all texts, in the closing paragraph
                    console.print(f"[yellow]warning:[/] {item.id}: {warning}")
        return [row for row, _, _ in results]

    @staticmethod
    def _explain_samples(text_id: str, text: str, spans) -> None:
        """Name each published sample number left in clear (data/reserved_values.yaml): a user who tries a card, IBAN or
        ID with an issuer's own example otherwise reads "nothing to mask" and thinks it is not detected."""
        from stealthflow.placeholders.reserved import samples_in

        for start, end, note in samples_in(text):
            if not any(span.start < end and start < span.end for span in spans):
                console.print(
                    f"{escape(text_id)}: left at {start}-{end}: a published sample number ({escape(note)}; "
                    "data/reserved_values.yaml), not a real one",
                    highlight=False,
                    soft_wrap=True,
                )

    def _count(self, text_id: str, outcome) -> None:
        """Tally a rewrite's outcome; with --verbose, name what it changed, rejected or left."""
        self.rejected += not outcome.accepted
        self.stayed[text_id] += len(outcome.unprotected)
        self.unread += outcome.unread and not outcome.read_in_part
        self.read_in_part += outcome.read_in_part
        self.unprotected += not outcome.protected
        if outcome.accepted:
            self.rewritten.update(attribute_word(c["attribute"]) for c in outcome.changes if c.get("attribute"))
        if not self.verbose:
            return
        if outcome.accepted and outcome.changes:  # off a terminal, the count says "rewritten" itself
            changes = self.phrases.changes(outcome.changes)
            rewrote = "rewrote " if self.phrases.words else ""
            console.print(f"{escape(text_id)}: {rewrote}{escape(changes)}", highlight=False)
        if not outcome.accepted:
            console.print(f"[yellow]{escape(text_id)}: rewrite rejected:[/] {escape(outcome.reason)}", highlight=False)
        if outcome.unprotected:
            phrases = self.phrases.stayed(list(outcome.unprotected), list(outcome.attributes))
            console.print(f"[yellow]{escape(text_id)}: stayed:[/] {escape(phrases)}", highlight=False)
        if outcome.unread and not outcome.unprotected:  # the phrases' reason names the phrases: said above
            console.print(f"[yellow]{escape(text_id)}: rewrite {escape(outcome.reason)}[/]", highlight=False)

    def not_protected(self) -> str:
        """What `"protected": false` means for the texts written anyway. protect exits 0 all the same: its output is
        the placeholder text, written whatever the rewrite did (as the docs say), and an exit 2 means nothing was
        written; `anonymize`, whose output is the rewrite, withholds such a text and exits 2."""
        return (
            f'{self.unprotected} text(s) not protected against attribute inference ("rewrite": {{"protected": false}}):'
            " what points to their author (an age, a place, a job, family) may be in the text written as it was; only"
            f" the values found are placeholders. Reword it yourself ({self._where_stayed()}), or give --rewrite"
            " none for placeholders only"
        )

    def _where_stayed(self) -> str:
        """Where the phrases that stayed are named: --verbose names them on a terminal, the rows off one."""
        if not self.verbose:
            return "--verbose names what stayed"
        return "named above" if self.phrases.words else "the rows' 'rewrite' field, --json or -i/-o, names what stayed"

    def summary(self) -> str:
        """One line: how many values were masked and phrases rewritten, by type / attribute."""

        def counted(counter: Counter) -> str:
            return ", ".join(f"{name} {count}" for name, count in counter.most_common())

        line = (
            f"masked {sum(self.masked.values())} value(s) ({counted(self.masked)})"
            if self.masked
            else "nothing to mask"
        )
        if self.rewriter is not None:
            stayed = sum(self.stayed.values())
            if self.rewritten:
                line += f"; rewrote {sum(self.rewritten.values())} phrase(s) ({counted(self.rewritten)})"
            else:
                unread = self.unread or self.read_in_part
                line += "; rewrote no phrase" if stayed or self.rejected or unread else "; nothing to rewrite"
            if stayed:
                texts = sum(1 for count in self.stayed.values() if count)
                line += f"; {stayed} phrase(s) could not be generalized and stayed, in {texts} of {len(self.stayed)} text(s)"
            if self.unread:
                line += f"; {self.unread} text(s) not checked: the local rewrite reads English only"
            if self.read_in_part:
                line += (
                    f"; {self.read_in_part} text(s) not checked in part (a sentence in another language): the local"
                    " rewrite reads English only"
                )
        listed = self.masked or self.rewritten or any(self.stayed.values()) or self.rejected or self.unread
        listed = listed or self.read_in_part
        return line + ("; --verbose lists them" if listed and not (self.verbose or self.explain) else "")


@contextlib.contextmanager
def _protection(
    settings: Settings,
    rewrite: str,
    cache: Path | None,
    show: bool = False,
    verbose: bool = False,
    explain: bool = False,
) -> Iterator[_Run]:
    pool = LLMPool(cache)
    if settings.protect.uses_llm_extractor(settings.model.model, settings.model.is_local()):
        reachable(pool, settings.model, "the PII extractor model")
    with lasting_objects():  # detection's recognizers and the rewriter, kept for the command's life
        protector = user_protector(settings, pool)
        rewriter = rewriter_for(rewrite, settings, pool)
    run = _Run(protector, rewriter, rewrite, show, verbose, explain, phrases=phrase_report() if verbose else None)
    try:
        yield run
    finally:
        protector.close()
        pool.close()
    console.print(run.summary(), highlight=False, soft_wrap=True)
    if run.phrases and (said := run.phrases.not_named("the rows' 'rewrite' field (--json, or -i/-o) holds them")):
        console.print(said, highlight=False, soft_wrap=True)
    if run.rejected:
        console.print(
            f"[yellow]{run.rejected} rewrite(s) rejected (an unreadable answer or a placeholder lost): their placeholder text was sent instead; --verbose says why, as the rows' 'rewrite' field does[/]"
        )
    if run.unprotected:
        console.print(f"[yellow]warning:[/] {escape(run.not_protected())}", highlight=False, soft_wrap=True)
    if run.secrets_found:
        console.print(
            f"[yellow]{run.secrets_found} text(s) held a secret (PL4: {', '.join(sorted(run.secret_types))}): the secrets"
            " found are masked, but a text with one"
            " often holds more of shapes the detector does not know: read those texts before sending them, and rotate"
            " their credentials[/]"
        )


def _protect_text(run: _Run, text: str, session: str, output: str | None, json_output: bool) -> None:
    """One text; a long one in pieces (`split_text`), with progress in bytes and an ETA."""
    from stealthflow.pipeline.pieces import join_rows, split_text

    pieces = split_text(text)
    if len(pieces) == 1:
        rows = run.protect([Record("text", text)], session)
    else:
        rows = []
        with bytes_progress("protecting", len(text.encode("utf-8"))) as advance:
            for number, piece in enumerate(pieces, 1):
                rows += run.protect([Record(f"text (piece {number})", piece)], session)
                advance(len(piece.encode("utf-8")))
        run.stayed = Counter({"text": sum(run.stayed.values())})  # the pieces are one text
    row = join_rows(rows, pieces)
    write_output(output, dump_line(row) if json_output else as_lines(row["text"]))


def _protect_records(
    run: _Run, records: list[Record], session: str, output: str | None, finished: dict[str, str | None]
) -> None:
    """Each record's row, appended to `output` (or stdout) as it is protected; a record whose row `output` already
    holds (`finished`: this session's rows there, `finished_rows`) for the same text is skipped (`resume`)."""
    from stealthflow.pipeline.records import refused_ids, resume

    ids, reasons, step = [record.id for record in records], [], 256
    with progress_bar("checking ids", len(ids)) as progress:  # all before a row is written: ~1.4 ms an id
        for start in range(0, len(ids), step):
            chunk = ids[start : start + step]
            reasons += refused_ids(run.protector.detector, chunk)
            progress.advance(0, len(chunk))
    if refused := [f"{record.where}: {why}" for record, why in zip(records, reasons, strict=True) if why]:
        fail(f"{len(refused)} record(s) refused, nothing protected: {refused[0]}")
    to_file = output not in (None, "-")
    done = set()
    if finished:
        done, changed = resume(Path(output), finished, records, run.protector.input_digester(session))
        console.print(f"resuming: {len(done)} of {len(records)} already in {output}", highlight=False)
        if changed:
            console.print(
                f"[yellow]{changed} row(s) of {output} were protected from a text the input no longer holds under "
                "their id (or from one this version cannot check): removed, and protected again[/]",
                highlight=False,
            )
    todo = [r for r in records if r.id not in done]
    if to_file:
        Path(output).parent.mkdir(parents=True, exist_ok=True)
    step = 16
    with (
        progress_bar("protecting", len(todo)) as progress,
        Path(output).open("a", encoding="utf-8") if to_file else contextlib.nullcontext(sys.stdout) as handle,
    ):
        for start in range(0, len(todo), step):
            chunk = todo[start : start + step]
            for row in run.protect(chunk, session):
                handle.write(dump_line(row))
            handle.flush()
            progress.advance(0, len(chunk))
    if to_file:
        console.print(f"wrote {len(todo)} protected texts to {output} (session {session!r})")


@app.command()
def restore(
    session: SessionOption,
    source: ReplySource = None,
    input: RepliesInput = None,
    output: OutputOption = None,
    json_output: JsonOption = False,
    stream: Annotated[
        bool, typer.Option("--stream", help="same as the source -: restore stdin to stdout as it arrives")
    ] = False,
    secrets_in_urls: SecretsInUrlsOption = False,
    values_in_links: ValuesInLinksOption = False,
    user: UserOption = None,
    config: ConfigOption = None,
) -> None:
    """Put the real values back into a reply; placeholders not issued to the session stay, and so does any value
    inside a URL that loads by itself (an image), any value inside a link but an e-mail as a mailto: address, glued
    into an e-mail address or host name, or in code, JSON or a tool call written in the reply (see
    --values-in-links), a secret, card, IBAN, passport or ID number inside a link, markup or JSON, glued to text or
    after '=' (see --secrets-in-urls), and a placeholder without brackets (API_KEY_1) but another value's in prose."""
    from stealthflow.cli.source import read_source
    from stealthflow.pipeline.protector import Protector
    from stealthflow.pipeline.records import read_records
    from stealthflow.placeholders.scope import cli_switch, result_json, withheld_notice

    if stream:
        source = source or "-"
    _one_of(source, input, "reply to restore")
    settings = protect_settings(config, None, None, user=user)
    links = {"secrets_in_urls": secrets_in_urls, "values_in_links": values_in_links}  # what restores inside URLs
    with vault_errors():
        protector = Protector(settings.protect, open_user_vault(settings))
        written, rows = None, None  # what goes to the output once the session is known; rows: how many records
        if input is not None:
            not_the_input(output, input)
            records = _input_records(input)
            _of_session(records, session)
            unresolved, withheld, written, rows = _restore_records(protector, session, records, links)
        elif source == "-" and not json_output and output in (None, "-"):
            unresolved, withheld = _restore_stdin(protector, session, links)
        else:
            read = read_source(source, private=False)  # a reply holds placeholders, not the values
            not_the_input(output, "-" if source == "-" else read.path)
            if read.is_records:
                records = read_records(read.path)
                _of_session(records, session)
                unresolved, withheld, written, rows = _restore_records(protector, session, records, links)
            else:
                result = protector.restore(read.read_text(), session, **links)
                unresolved, withheld = result.unresolved, result.withheld
                written = dump_line(result_json(result)) if json_output else as_lines(result.text)
        error = protector.no_such_session(session, unresolved)
        unknown = protector.unknown_session(session, unresolved)
        protector.close()
    if error:
        fail(error)  # a mistyped session: exit 2, nothing written (the reply is unchanged)
    if written is not None:
        write_output(output, written)
        if rows is not None and output not in (None, "-"):
            console.print(f"wrote {rows} restored texts to {output}")
    if unknown:
        console.print(f"[yellow]{escape(unknown)}[/]", highlight=False, soft_wrap=True)
    elif unresolved:
        console.print(
            f"[yellow]{len(unresolved)} placeholder(s) have no value in session {session!r} (never issued to it, "
            f"or forgotten since) and stay as they are:[/] {', '.join(sorted(set(unresolved)))}"
        )
    if withheld:
        console.print(f"[yellow]{escape(withheld_notice(withheld, cli_switch))}[/]")


def _of_session(records: list[Record], session: str) -> None:
    """Rows another session protected are refused before anything is restored or written: this session's values
    in their placeholders would be another text's."""
    from stealthflow.pipeline.records import other_sessions

    elsewhere = other_sessions(records, session)
    if elsewhere:
        named = ", ".join(repr(other) for other in elsewhere)
        fail(f"the rows were protected in session {named}, not {session!r}: restore them with --session {elsewhere[0]}")


def _restore_records(
    protector, session: str, records: list[Record], links: dict[str, bool]
) -> tuple[list[str], list[tuple[str, str]], str, int]:
    """Unresolved placeholders, withheld values, the JSONL lines to write and their number."""
    from stealthflow.placeholders.scope import withheld_json

    for record in records:  # before anything is written: fail closed, as a whole
        protector.vault.check_issued_here(record.vault, record.where)
    unresolved, withheld, lines = [], [], []
    for record in records:
        result = protector.restore(record.text, session, **links)
        unresolved += result.unresolved
        withheld += result.withheld
        lines.append(
            dump_line(
                {
                    "id": record.written_id,
                    "text": result.text,
                    "unresolved": result.unresolved,
                    "withheld": withheld_json(result.withheld),
                }
            )
        )
    return unresolved, withheld, "".join(lines), len(lines)


def _restore_stdin(protector, session: str, links: dict[str, bool]) -> tuple[list[str], list[tuple[str, str]]]:
    restorer = protector.stream(session, **links)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # chunks may split a character
    last = ""  # the last character written: the output ends with a line end, as a file's restore does
    while raw := sys.stdin.buffer.read1(4096):  # whatever has arrived, without waiting for more
        piece = restorer.feed(decoder.decode(raw))
        sys.stdout.write(piece)
        sys.stdout.flush()
        last = piece[-1:] or last
    piece = restorer.feed(decoder.decode(b"", final=True)) + restorer.finish()
    last = piece[-1:] or last
    sys.stdout.write(piece + ("\n" if last not in ("", "\n") else ""))
    sys.stdout.flush()
    return restorer.unresolved, restorer.withheld


@vault_app.command("forget")
def vault_forget(
    session: Annotated[
        Optional[str], typer.Option("--session", "-s", help="forget this session and every value only it holds")
    ] = None,
    value: Annotated[
        bool,
        typer.Option(
            "--value", help="forget one value (read from a hidden prompt or stdin, never from the command line)"
        ),
    ] = False,
    user: UserOption = None,
    config: ConfigOption = None,
) -> None:
    """Right to be forgotten: delete a value or a whole session from the vault."""
    if (session is None) == (not value):
        fail("give exactly one of --session ID or --value")
    settings = protect_settings(config, None, None, user=user)
    with vault_errors():
        vault = open_user_vault(settings)
        if value:
            secret = (
                sys.stdin.readline().rstrip("\n")
                if not sys.stdin.isatty()
                else typer.prompt("value to forget", hide_input=True)
            )
            deleted = vault.forget_value(settings.protect.user, secret)
            vault.close()
            if not deleted:
                fail("that value is not in the vault")
            console.print(f"deleted {deleted} value(s) from the vault")
            return
        grants, deleted = vault.forget_session(settings.protect.user, session)
        vault.close()
    if not grants:
        fail(f"no session {session!r} in the vault (see `stealthflow vault list`)")
    console.print(
        f"forgot session {session!r}: {grants} placeholder(s) it was issued; {deleted} value(s) no other session holds were deleted"
    )


@vault_app.command("list")
def vault_list(user: UserOption = None, config: ConfigOption = None, json_output: JsonOption = False) -> None:
    """Sessions in the vault: how many values each holds, when created and last used (never values)."""
    settings = protect_settings(config, None, None, user=user)
    with vault_errors():
        vault = open_user_vault(settings)
        sessions = vault.sessions(settings.protect.user)
        path, vault_id = vault.path, vault.id
        vault.close()
    if json_output:
        out.print_json(data={"vault": str(path), "id": vault_id, "user": settings.protect.user, "sessions": sessions})
        return
    if not out.is_terminal:  # a pipe or a file: whole lines, tab-separated
        out.file.write("".join(f"{r['session']}\t{r['values']}\t{r['created']}\t{r['last_used']}\n" for r in sessions))
        console.print(
            f"{len(sessions)} session(s) in {path} (id {vault_id}, user {settings.protect.user!r}): session, values, created, last used",
            highlight=False,
            soft_wrap=True,
        )
        return
    table = Table(title=f"{path} (id {vault_id}, user {settings.protect.user!r})")
    table.add_column("session", overflow="fold")  # a long name wraps whole; dates and counts never do
    for column in ("values", "created", "last used"):
        table.add_column(column, no_wrap=True)
    for row in sessions:
        table.add_row(escape(row["session"]), str(row["values"]), row["created"], row["last_used"])
    out.print(table)


@vault_app.command("export")
def vault_export(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="backup file to write (encrypted with a key derived from the vault key)"),
    ],
    force: Annotated[bool, typer.Option("--force", help="overwrite FILE if it exists (an earlier backup)")] = False,
    config: ConfigOption = None,
) -> None:
    """Encrypted backup of the whole vault (restore it with `vault import`; it needs the same key)."""
    settings = protect_settings(config, None, None)
    with vault_errors():
        vault = open_user_vault(settings)
        try:
            vault.export(file, overwrite=force)
        except FileExistsError:
            fail(f"{file} exists (an earlier backup?): pass --force to overwrite it, or choose another file")
        finally:
            vault.close()
    console.print(f"wrote an encrypted backup of the vault to {file}; it opens only with the same vault key")


@vault_app.command("import")
def vault_import(
    file: Annotated[Path, typer.Argument(help="a backup written by `vault export`", exists=True, dir_okay=False)],
    replace_existing: Annotated[
        bool, typer.Option("--replace", help="overwrite a vault that already holds values")
    ] = False,
    config: ConfigOption = None,
) -> None:
    """Restore a backup written by `vault export` (same key)."""
    from stealthflow.placeholders import known_vaults

    settings = protect_settings(config, None, None)
    with vault_errors():
        vault = open_user_vault(settings, new_vault=True)  # the vault it replaces may be gone
        count = vault.import_(file, replace_existing)
        known_vaults.remember(vault.path, vault.id)  # the backup brings its own identity
        vault.close()
    console.print(f"restored {count} value(s) into {settings.protect.vault_path or 'the vault'}")


@vault_app.command("new")
def vault_new(config: ConfigOption = None) -> None:
    """Start an empty vault on purpose where the old one is gone (replies protected with it will not restore)."""
    settings = protect_settings(config, None, None)
    with vault_errors():
        vault = open_user_vault(settings, new_vault=True)
        count, path, vault_id = vault.count(), vault.path, vault.id
        vault.close()
    if count:
        console.print(
            f"{path} is a vault holding {count} value(s) (id {vault_id}); it is now the vault of record for this path"
        )
    else:
        console.print(
            f"a new, empty vault (id {vault_id}) is at {path}; text protected with an earlier vault will not restore here"
        )


@vault_app.command("rotate-key")
def vault_rotate_key(config: ConfigOption = None) -> None:
    """A new vault key: every value re-encrypted, every digest re-keyed (placeholders unchanged)."""
    from stealthflow.placeholders import known_vaults
    from stealthflow.placeholders.keys import ENV_VAR, NewKey, from_env, key_places, new_secret

    settings = protect_settings(config, None, None)
    printed = from_env(settings.protect.key_source)

    def hand_over(encoded: str) -> None:  # we cannot change the caller's environment: the key is printed before use
        sys.stdout.write(f"{encoded}\n")
        sys.stdout.flush()

    new_key = NewKey(new_secret(), settings.protect.key_source, settings.protect.key_file, hand_over)
    with vault_errors():
        vault = open_user_vault(settings)
        try:
            known_vaults.refuse_shared_key(vault, key_places(settings.protect.key_source, settings.protect.key_file))
            count, bad = vault.rotate(new_key.keys, new_key)
        except Exception:
            if printed and new_key.kept_in:
                console.print(
                    f"[yellow]the vault was not re-keyed: the key printed does not open it, ${ENV_VAR} does[/]"
                )
            raise
        finally:
            vault.close()
    if bad:
        console.print(
            f"[yellow]{bad} vault row(s) did not authenticate (edited or damaged) and were left as they were:[/] their placeholders do not restore"
        )
    if printed:
        console.print(
            f"re-encrypted {count} value(s); set ${ENV_VAR} to the new key printed on stdout (the old key no longer opens the vault)"
        )
        return
    console.print(
        f"re-encrypted {count} value(s); the new key is in {new_key.stored_in} — back it up, the old key no longer opens the vault"
    )


@app.command()
def serve(
    port: Annotated[int, typer.Option(help="port on 127.0.0.1")] = 8765,
    llm: LlmExtractorOption = None,
    tagger: TaggerOption = None,
    clause_tagger: ClauseTaggerOption = None,
    refuse_uncovered: RefuseUncoveredOption = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    memory_store: Annotated[
        Path | None,
        typer.Option(
            "--memory-store",
            help="the memory SQLite file behind POST /memory/* (default: memory.sqlite beside the vault)",
        ),
    ] = None,
    memory: Annotated[
        bool, typer.Option("--memory/--no-memory", help="serve POST /memory/append|pack|hydrate|forget")
    ] = True,
    print_token_path: Annotated[
        bool,
        typer.Option(
            "--print-token-path",
            help="print the file the server reads its token from (unless $STEALTHFLOW_SERVICE_TOKEN is set) and exit",
        ),
    ] = False,
    rewrite: RewriteOption = "local",
) -> None:
    """Serve protect/restore (and agent memories) over HTTP on 127.0.0.1 (loopback only, bearer
    token), and the page at /. GET /health answers without a token once the server is ready."""
    from stealthflow.service.security import default_token_file

    if print_token_path:
        out.print(str(default_token_file()), highlight=False, soft_wrap=True)
        return
    from stealthflow.cli.ui import page_service, serve_page
    from stealthflow.memory import MemoryStore
    from stealthflow.memory.store import default_store_path

    settings, protector, rewriter = page_service(
        config, model, adapter, llm, tagger, rewrite, refuse_uncovered, clause_tagger
    )
    memories = (
        MemoryStore(memory_store or default_store_path(settings.protect.vault_path), protector) if memory else None
    )
    serve_page(settings, protector, port, rewriter, memory=memories)
