"""The Python API: `protect`, `restore`, `restore_stream`.

Without a `protector`, one is built from the default settings (`stealthflow.config`) and
reused: the user's vault, the default policy, the deterministic recognizers (and the PII
tagger), and the LLM extractor only when the configured model runs on this machine and is not
the embedded one.
`llm_extractor=` turns the extractor on or off for a call, as `--llm-extractor/--no-llm` do; `clause_tagger=True`
also looks for health and money told in a clause, as `--clause-tagger` does.
`rewrite=` then rewrites the protected text against attribute inference, as `protect --rewrite`
does (`local`: per post, offline; any registered method or a model spec; default `none`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from stealthflow.config import load_settings
from stealthflow.pipeline.protector import Protected, Protector
from stealthflow.pipeline.records import not_blank
from stealthflow.pipeline.rewrite import NamedRewriter, with_rewrites
from stealthflow.placeholders.restore import RestoreResult


@cache
def default_protector(llm_extractor: bool | None = None, clause_tagger: bool | None = None) -> Protector:
    settings = load_settings()
    given = {"llm_extractor": llm_extractor, "clause_tagger": clause_tagger}
    if update := {key: value for key, value in given.items() if value is not None}:
        settings.protect = settings.protect.model_copy(update=update)
    return Protector.from_settings(settings)


@cache
def default_rewriter(name: str) -> NamedRewriter:
    return NamedRewriter(name, load_settings())


def protect(
    text: str,
    *,
    session: str,
    protector: Protector | None = None,
    llm_extractor: bool | None = None,
    clause_tagger: bool | None = None,
    rewrite: str = "none",
) -> Protected:
    """Replace explicit PII in `text` by placeholders issued to `session`; with `rewrite` other than
    `none`, then rewrite it: `.text` is the text to send, `.rewrite` says whether the rewrite was
    accepted (a rejected one leaves the placeholder text), what it changed, which phrases stayed
    (`.unprotected`) and whether none did (`.protected`). Empty or blank `text` is a ValueError, as the CLI and the
    service refuse it; a `text` that is no str (`None`) a TypeError."""
    not_blank(text)
    rewriter = (
        None if rewrite == "none" else default_rewriter(rewrite).method()
    )  # an unknown name fails before any work
    protected = (protector or default_protector(llm_extractor, clause_tagger)).protect(text, session)
    return protected if rewriter is None else with_rewrites([protected], rewriter)[0]


def restore(
    text: str,
    *,
    session: str,
    protector: Protector | None = None,
    vault: str | None = None,
    secrets_in_urls: bool = False,
    values_in_links: bool = False,
) -> RestoreResult:
    """Put the values back into a reply; placeholders not issued to `session` stay and are reported (`unresolved`).
    As the proxy does, a placeholder stays and is reported (`withheld`) inside a URL that loads by itself (a markdown
    image, an HTML `<img>`, CSS `url(`), inside a link unless `values_in_links=True` (but an e-mail address as a
    `mailto:` address), and for a secret, card, IBAN, passport or ID number inside a link, markup, JSON or a tool
    call unless `secrets_in_urls=True`.
    `vault`: the id protect reported (`Protected.vault`), so text from another vault fails closed."""
    return (protector or default_protector()).restore(
        text, session, vault, secrets_in_urls=secrets_in_urls, values_in_links=values_in_links
    )


def restore_stream(
    chunks: Iterable[str],
    *,
    session: str,
    protector: Protector | None = None,
    secrets_in_urls: bool = False,
    values_in_links: bool = False,
) -> Iterator[str]:
    """Restore a streamed reply chunk by chunk, never emitting half a placeholder (withheld values as `restore`)."""
    return (protector or default_protector()).restore_stream(chunks, session, secrets_in_urls, values_in_links)
