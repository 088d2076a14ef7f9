"""`stealthflow proxy`: the OpenAI-compatible privacy proxy (see docs/proxy.md)."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from stealthflow.cli.app import (
    AdapterOption,
    ClauseTaggerOption,
    ConfigOption,
    LlmExtractorOption,
    ModelOption,
    RefuseUncoveredOption,
    TaggerOption,
    app,
    console,
    explain,
    fail,
    port_free,
    rewriter_for,
    run_server,
    service_settings,
    user_protector,
    vault_errors,
)


@app.command()
def proxy(
    upstream: Annotated[
        str | None,
        typer.Option(
            "--upstream",
            help="litellm model string: openai/gpt-4o-mini, deepseek/deepseek-chat, ollama/llama3.1, openai/NAME with --upstream-base",
        ),
    ] = None,
    upstream_base: Annotated[
        str | None, typer.Option("--upstream-base", help="base URL of an OpenAI-compatible upstream server")
    ] = None,
    upstream_key_env: Annotated[
        str | None,
        typer.Option(
            "--upstream-key-env", help="environment variable holding the upstream API key (default OPENAI_API_KEY)"
        ),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            help="interface to bind; anything but loopback exposes the proxy (and your vault's values) to that network"
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8788,
    llm: LlmExtractorOption = None,
    tagger: TaggerOption = None,
    clause_tagger: ClauseTaggerOption = None,
    refuse_uncovered: RefuseUncoveredOption = None,
    max_reply_bytes: Annotated[
        int | None,
        typer.Option(
            "--max-reply-bytes",
            help="largest upstream reply passed on, plain or streamed (default 16000000); a larger one is a 502",
        ),
    ] = None,
    total_timeout: Annotated[
        float | None,
        typer.Option(
            "--total-timeout", help="seconds a whole upstream call may take, a stream to its last chunk (default 600)"
        ),
    ] = None,
    rewrite: Annotated[
        str | None,
        typer.Option(
            "--rewrite",
            help="then rewrite user messages against attribute inference, once per conversation: none (default, fast), local (offline model), another method or a model spec, as `protect --rewrite`",
        ),
    ] = None,
    rewrite_fail: Annotated[
        str | None,
        typer.Option(
            "--rewrite-fail",
            help="a user message the rewrite left not protected (a phrase stayed, not read, rejected): refuse (default: a 422, nothing sent), send-unread (send those it could not read, e.g. another language than English for local, with their placeholders; refuse the others) or send it as it is",
        ),
    ] = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
) -> None:
    """Serve an OpenAI-compatible API that protects every request and restores every reply."""
    from stealthflow.llm.pool import LLMPool
    from stealthflow.proxy.app import TOKEN_ENV, TOKEN_FILE, create_proxy_app
    from stealthflow.service.security import LOOPBACK_HOSTS, TokenError, default_token_file, service_token

    settings = service_settings(config, model, adapter, llm, tagger, clause_tagger, refuse_uncovered)
    overrides = {
        "upstream": upstream,
        "upstream_base": upstream_base,
        "upstream_key_env": upstream_key_env,
        "rewrite": rewrite,
        "rewrite_fail": rewrite_fail,
        "max_reply_bytes": max_reply_bytes,
        "total_timeout": total_timeout,
    }
    try:
        proxy_config = settings.proxy.model_validate(
            {**settings.proxy.model_dump(), **{k: v for k, v in overrides.items() if v is not None}}
        )
    except ValueError as exc:
        fail(explain(exc))
    if not proxy_config.upstream:
        fail("give the upstream model: --upstream MODEL (or proxy.upstream in the config)")
    port_free(host, port)
    if host not in LOOPBACK_HOSTS:
        console.print(
            f"[bold yellow]binding {escape(host)}[/]: anyone on that network who has the token can send text through your vault and read replies restored"
        )
        if host not in ("0.0.0.0", "::"):
            proxy_config.allowed_hosts = [*proxy_config.allowed_hosts, host]
    if not os.environ.get(proxy_config.upstream_key_env):
        console.print(f"[yellow]${proxy_config.upstream_key_env} is not set[/]: the upstream gets no API key")

    def announce(path: Path) -> None:
        console.print(
            f"[bold]a proxy token was created in {escape(str(path))}[/] (shown this once): {path.read_text(encoding='utf-8').strip()}"
        )

    token_file = default_token_file(TOKEN_FILE)
    try:
        token = service_token(token_file, on_new=announce, env=TOKEN_ENV)
    except TokenError as exc:
        fail(str(exc))
    pool = LLMPool()
    protector = user_protector(settings, pool)
    with vault_errors():
        rewriter = rewriter_for(proxy_config.rewrite, settings, pool)

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("stealthflow.proxy").setLevel(logging.INFO)  # metadata only: status, timings, counts
    console.print(
        f"proxying {escape(proxy_config.upstream)} on http://{escape(host)}:{port}/v1 (vault user {settings.protect.user!r}, rewrite {escape(proxy_config.rewrite)}); "
        f"clients send the token (${TOKEN_ENV} or {escape(str(token_file))}) as their API key"
    )
    try:
        run_server(create_proxy_app(protector, proxy_config, token, rewriter), host, port, protector)
    finally:
        pool.close()
