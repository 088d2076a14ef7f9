"""`stealthflow anonymize TEXT|FILE|- --method NAME`: rewrite posts so attributes cannot be inferred."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.markup import escape

from stealthflow.cli.app import (
    AdapterOption,
    AttackersOption,
    CacheOption,
    ConfigOption,
    InsightsOption,
    ModelOption,
    RawToModelOption,
    RoundsOption,
    app,
    console,
    fail,
    out,
    phrase_report,
    progress_bar,
    reachable,
    refuse_or_warn_raw,
    settings_from,
    split_names,
    user_errors,
)
from stealthflow.cli.generate import print_risk_report
from stealthflow.cli.source import SourceArgument, source_posts
from stealthflow.data.output_file import not_the_input, write_output


@app.command()
def anonymize(
    source: SourceArgument,
    method: Annotated[
        str,
        typer.Option(
            help="anonymization method (see `stealthflow methods`); local runs offline, standard/aa/stealth need a strong --model"
        ),
    ] = "local",
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--output",
            "-o",
            help="write {id, text, protected, reason?, changes?} JSONL here (no text when not protected)",
        ),
    ] = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help="print one {id, text, protected, ...} JSON line per profile (no text when not protected)"
        ),
    ] = False,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
    cache: CacheOption = None,
    insights: InsightsOption = None,
    attackers: AttackersOption = None,
    rounds: RoundsOption = None,
    phrase_adapter: Annotated[
        Optional[Path],
        typer.Option(
            "--phrase-adapter",
            help="local: a phrase-generalizer adapter (training/phrase-generalizer.yaml) suggesting stand-ins "
            "(default: the one in models/phrase-generalizer/, if shipped)",
            exists=True,
            file_okay=False,
        ),
    ] = None,
    remove_sentences: Annotated[
        bool,
        typer.Option(
            "--remove-sentences",
            help="local: a phrase the tagger is sure of that stayed leaves with its clause or sentence "
            "(fewer cues left, but posts may lose their point)",
        ),
    ] = False,
    raw_to_model: RawToModelOption = False,
    show_unprotected: Annotated[
        bool,
        typer.Option(
            "--show-unprotected",
            help="name on stderr the phrases that stayed in a text not protected, even when stderr is a file or pipe "
            "(which keeps them); never in the -o/--json rows; a phrase holding a value protect masks is still counted",
        ),
    ] = False,
    allow_unchanged: Annotated[
        bool,
        typer.Option(
            "--allow-unchanged",
            help="exit 0 even when a text could not be anonymized; that text is still not printed or written "
            "(only its protected: false row is)",
        ),
    ] = False,
) -> None:
    """Anonymize each profile and print (or write) the rewritten text.

    Fails closed: a text that could not be rewritten is never printed; it is marked
    "protected": false with the reason (on stderr, and in -o/--json) and the command exits 2.
    A text with nothing to change is printed as it is ("unchanged": true). Credentials are
    masked in every output. A --model not on this machine gets each text raw: refused unless --raw-to-model."""
    from stealthflow.anonymize import build_method, method_names
    from stealthflow.anonymize.methods import OFFLINE_METHODS, sends_raw_text
    from stealthflow.anonymize.rows import output_row, secret_masker
    from stealthflow.anonymize.stays import check_what_stays
    from stealthflow.data.jsonl import dump_line
    from stealthflow.llm.pool import LLMPool

    settings = settings_from(config, model, adapter)
    if method not in method_names():
        fail(f"unknown method {method!r}; choose from {', '.join(method_names())}")
    if remove_sentences and method != "local":
        fail(f"--remove-sentences is for --method local, not {method}")
    if sends_raw_text(method, settings):
        instead = f"use `stealthflow protect --rewrite {method}` (placeholders go first), a local model"
        refuse_or_warn_raw(f"--method {method}", settings.model, raw_to_model, instead)
    with user_errors():
        input_source, profiles, separator = source_posts(source)
        not_the_input(output, input_source.path)
        pool = LLMPool(cache)
        if method not in OFFLINE_METHODS:
            reachable(pool, settings.model, "the anonymizer model")
        options = {
            "insights": insights,
            "attackers": split_names(attackers),
            "rounds": rounds,
            "phrase_adapter": phrase_adapter,
            "remove_sentences": remove_sentences or None,
        }
        try:
            anonymizer = build_method(method, settings, pool, {k: v for k, v in options.items() if v is not None})
        except ValueError as exc:  # unknown attacker, unreadable insight memory
            fail(str(exc))
        with progress_bar(f"anonymizing ({method})", len(profiles)) as progress:
            results = anonymizer.anonymize_many(profiles, on_progress=lambda n: progress.advance(0, n))
        results = check_what_stays(anonymizer, profiles, results)
        secrets = secret_masker(settings)
    originals = {p.id: p for p in profiles}
    rows = []
    for result in results:
        row, warnings = output_row(result, originals[result.profile_id].text, secrets, method)
        for warning in warnings:
            console.print(f"[yellow]warning:[/] {result.profile_id}: {warning}")
        rows.append(row)
    phrases, stayed = phrase_report(), phrase_report(asked=show_unprotected)
    printed = 0
    for result, row in zip(results, rows, strict=True):
        profile = originals[result.profile_id]
        name = _post_names(profile, input_source.is_records, len(profiles) > 1)
        if not row["protected"]:
            why = _why_not(result, profile, input_source.is_records, stayed, method)
            console.print(
                f"[red]not protected:[/] {escape(result.profile_id)}: {escape(why)}",
                highlight=False,
                soft_wrap=True,
            )
        elif row.get("unchanged"):
            console.print(
                f"{escape(result.profile_id)}: nothing to change (no phrase points to an attribute); the text is as it was",
                highlight=False,
                soft_wrap=True,
            )
        if json_output:
            out.file.write(dump_line(row))
            continue
        if output is None and row["protected"]:
            if input_source.is_records:
                out.rule(result.profile_id)
            elif printed:  # a plain text's posts as they were separated: a blank line between paragraphs
                out.file.write(separator.removesuffix("\n"))
            out.file.write(row["text"].rstrip("\n") + "\n")  # the rewrite as it is: no wrapping, no padding
            printed += 1
        print_changes(result, name, phrases)
        if "risk" in result.details:
            print_risk_report(result)
    where = _where_words_are(rows, output, stayed.words)
    if said := phrases.not_named(where) or stayed.not_named(where):
        console.print(said, highlight=False, soft_wrap=True)
    if output:
        write_output(output, "".join(dump_line(row) for row in rows))
        if str(output) != "-":
            console.print(f"wrote {len(rows)} texts to {output} ({sum(r['protected'] for r in rows)} protected)")
    pool.close()
    if (
        unprotected := [r for r, row in zip(results, rows, strict=True) if not row["protected"]]
    ) and not allow_unchanged:
        named = ", ".join(r.profile_id for r in unprotected[:5]) + (", ..." if len(unprotected) > 5 else "")
        fail(
            f"{len(unprotected)} of {len(rows)} text(s) could not be anonymized and were not printed ({named}; "
            f'"protected": false): '
            f"{_remedy(unprotected, method)}. --allow-unchanged makes this exit 0; it still prints none of them"
        )


def _remedy(unprotected: list, method: str) -> str:
    """The closing advice for the texts not protected: a text the local rewrite did not read (in a language it does
    not cover, with no phrase that stayed) gets its own, since no phrase of it stayed to rewrite."""
    if method != "local":
        return "`--method local` rewrites them and checks what stays"
    unread = sum(bool(r.unread()) and not r.details.get("unprotected") for r in unprotected)
    advice = []
    if unread < len(unprotected):
        advice.append(
            "rewrite the phrases that stayed yourself, or use `stealthflow protect` (placeholders, and the rewrite "
            "with the phrases that stayed reported)"
        )
    if unread:
        advice.append(
            f"{unread} of them not checked, in languages the local rewrite does not read: rewrite them yourself, or "
            "use `stealthflow protect` (placeholders for the personal data it finds)"
        )
    return "; ".join(advice)


def _where_words_are(rows: list[dict], output: Path | None, stayed_named: bool) -> str:
    """Where the words a pipe or file did not get are: a protected text's changes in its row; the phrases that stayed
    in a text not protected (its row holds none of its words, as the file may be shared) on stderr with
    --show-unprotected."""
    where = []
    if any(row["protected"] for row in rows):
        where.append(
            f"the rows of {output} list the changes of the texts protected"
            if output
            else "--json or -o FILE lists the changes of the texts protected"
        )
    if not stayed_named and any("unprotected" in row for row in rows):
        where.append("--show-unprotected names here the phrases that stayed in a text not protected (its row never)")
    return "; ".join(where) or "a text not protected has none of its words in its row"


def _post_names(profile, records: bool, several_posts: bool):
    """How a post of `profile` is named on stderr, by its index: a JSONL row by its id (`ID post N` in a profile of
    several posts), a post of a plain text of several by its profile's id (`posts:2`, `post_profiles`), a single text
    as `post 1`."""
    if records:
        several = len(profile.comments) > 1
        return lambda index: profile.id + (f" post {index + 1}" if several else "")
    return lambda index: profile.id if several_posts else "post 1"


def _why_not(result, profile, records: bool, phrases, method: str) -> str:
    """Why a profile is not protected; which phrases stayed, in which post (named as `phrases` may name them)."""
    from stealthflow.anonymize.rows import not_protected

    stayed = result.stayed_by_post()
    if not stayed:
        return not_protected(result, profile.text, method)
    unread = f"; {result.unread()}" if result.unread() else ""
    if len(profile.comments) < 2:
        found = phrases.stayed([p for ps in stayed.values() for p in ps])
        return f"{result.stayed_why()} for {found}: the phrase(s) stayed{unread}"
    name = _post_names(profile, records, True)
    where = "; ".join(f"{name(index)}: {phrases.stayed(found)}" for index, found in stayed.items())
    return (
        f"{result.stayed_why()} in {where}: the phrase(s) stayed{unread}. The {len(profile.comments)} posts are "
        "one profile, so none is printed (give them as JSONL records, one post each, to get the others)"
    )


def print_changes(result, name, phrases) -> None:
    """Per post (`name(index)`), what the method changed, as `phrases` may say it: on a terminal each stretch, what
    replaced it and its attribute; elsewhere how many, by attribute."""
    by_post: dict[int, list[dict]] = {}
    for change in result.details.get("changes", []):
        by_post.setdefault(change["post"], []).append(change)
    for post, changes in sorted(by_post.items()):
        console.print(f"{escape(name(post))}: {escape(phrases.changes(changes))}", highlight=False, soft_wrap=True)


@app.command()
def methods() -> None:
    """List the anonymization methods."""
    from stealthflow.anonymize import method_names

    for name in method_names():
        out.print(name)
