"""`stealthflow ui`: the local page (`service.page`) on the service, opened in the browser with a
one-time sign-in link. `serve` runs the same server (the page at `/`) without opening it."""

from __future__ import annotations

import atexit
import html
import os
import shutil
import tempfile
import threading
import time
import webbrowser
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from stealthflow.cli.app import (
    AdapterOption,
    ClauseTaggerOption,
    ConfigOption,
    LlmExtractorOption,
    ModelOption,
    RewriteOption,
    TaggerOption,
    app,
    console,
    fail,
    port_free,
    run_server,
    service_settings,
    user_protector,
)
from stealthflow.config import Settings

if TYPE_CHECKING:
    from stealthflow.pipeline.protector import Protector
    from stealthflow.pipeline.rewrite import NamedRewriter


@app.command()
def ui(
    port: Annotated[int, typer.Option(help="port on 127.0.0.1")] = 8765,
    rewrite: RewriteOption = "local",
    open_browser: Annotated[bool, typer.Option("--open/--no-open", help="open the page in your browser")] = True,
    llm: LlmExtractorOption = None,
    tagger: TaggerOption = None,
    clause_tagger: ClauseTaggerOption = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
) -> None:
    """Open a local page: paste a post, see what gives you away, take the rewrite, restore the reply."""
    settings, protector, rewriter = page_service(
        config, model, adapter, llm, tagger, rewrite, clause_tagger=clause_tagger
    )
    serve_page(settings, protector, port, rewriter, open_browser=open_browser, warm=True)


def page_service(
    config: Path | None,
    model: str | None,
    adapter: str | None,
    llm: bool | None,
    tagger: bool | None,
    rewrite: str,
    refuse_uncovered: bool | None = None,
    clause_tagger: bool | None = None,
) -> tuple[Settings, Protector, NamedRewriter | None]:
    """What `ui` and `serve` run: the settings with their options, the user's protector, and the
    `--rewrite` (None for `none`; not built yet: an unknown name fails before anything loads)."""
    from stealthflow.pipeline.rewrite import NamedRewriter

    settings = service_settings(config, model, adapter, llm, tagger, clause_tagger, refuse_uncovered)
    try:
        rewriter = None if rewrite == "none" else NamedRewriter(rewrite, settings)
    except ValueError as exc:
        fail(str(exc))
    return settings, user_protector(settings), rewriter


def serve_page(
    settings: Settings, protector, port: int, rewriter, memory=None, open_browser: bool = False, warm: bool = False
) -> None:
    """The service with its page on 127.0.0.1:`port` until stopped; prints the one-time sign-in link.
    `warm`: load what the page uses (cue tagger, attacker, rewrite model) at start, in the background."""
    from stealthflow.service import create_app
    from stealthflow.service.page import LINK_SECONDS, PageLogins
    from stealthflow.service.security import TOKEN_ENV, TokenError, default_token_file, service_token

    port_free("127.0.0.1", port)
    try:
        token = service_token(
            on_new=lambda path: console.print(
                f"[bold]a service token was created in {path}[/]: send it as `Authorization: Bearer $(cat {path})`"
            )
        )
    except TokenError as exc:
        fail(str(exc))
    logins = PageLogins()
    service = create_app(protector, token, memory=memory, rewriter=rewriter, page=logins)
    one_time = logins.new_link()
    link = f"http://127.0.0.1:{port}/#token={one_time}"
    console.print(
        f"serving on http://127.0.0.1:{port} (vault user {escape(settings.protect.user)!r}); API callers need the bearer token (${TOKEN_ENV} or {default_token_file()})"
    )
    console.print(
        f"the page: {link}\n  (a one-time link, valid for {LINK_SECONDS // 60} minutes; restart for a new one)",
        highlight=False,
        soft_wrap=True,
    )
    if warm:
        threading.Thread(target=service.state.analyzer.warm, name="warm-up", daemon=True).start()
    if open_browser:
        pending = partial(logins.pending, one_time)
        threading.Thread(target=_open_when_up, args=(port, link, pending), name="open-page", daemon=True).start()
    run_server(service, "127.0.0.1", port, protector)


def _open_when_up(port: int, link: str, pending: Callable[[], bool], timeout: float = 120.0) -> None:
    """Opens `link` once the server answers, through a private file that leads to it: the browser
    launcher's command line, which any local process can read in /proc, holds only the file's name.
    The file goes once the link is used or expired (`pending` false), or when this process ends."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1.0).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    else:
        return
    opener = link_file(link)
    atexit.register(shutil.rmtree, opener.parent, ignore_errors=True)
    try:
        webbrowser.open(opener.as_uri())
        while pending():
            time.sleep(0.5)
    finally:
        shutil.rmtree(opener.parent, ignore_errors=True)


def link_file(link: str) -> Path:
    """A page readable by this user only (0600, in a 0700 directory) that sends the browser on to `link`."""
    folder = Path(tempfile.mkdtemp(prefix="stealthflow-"))
    path = folder / "open.html"
    target = html.escape(link, quote=True)
    page = (
        '<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
        f'<meta http-equiv="refresh" content="0;url={target}"><title>stealthflow</title>'
        f'<p>Opening <a href="{target}">the stealthflow page</a>…</p>\n'
    )
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(page)
    return path
