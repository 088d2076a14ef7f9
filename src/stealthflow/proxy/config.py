"""The `proxy:` section of the settings YAML; `stealthflow proxy` flags override it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class ProxyConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    upstream: str = ""  # a litellm model string: openai/gpt-4o-mini, deepseek/deepseek-chat, ollama/llama3.1
    upstream_base: str | None = None  # any OpenAI-compatible server: openai/NAME + this base URL
    upstream_key_env: str = "OPENAI_API_KEY"  # the key is read from this variable, never from a file
    # Seconds. openai/ upstreams: to connect and for each read (a stream: until each next chunk);
    # other upstreams: litellm's timeout for the whole call.
    timeout: float = Field(120.0, gt=0)
    total_timeout: float = Field(600.0, gt=0)  # seconds a whole upstream call may take, its reply read to the end
    max_reply_bytes: int = Field(16_000_000, gt=0)  # a larger upstream reply (plain or streamed) is an error
    max_retries: int = Field(0, ge=0, le=5)  # litellm's retries on top; bounded, never forever
    max_body_bytes: int = Field(4_000_000, gt=0)  # larger requests get 413
    cors_origins: list[str] = Field(default_factory=list)  # browser origins allowed to call (none: no CORS)
    allowed_hosts: list[str] = Field(default_factory=list)  # Host names accepted besides loopback ones
    pass_media: bool = False  # send image/audio/file parts on unredacted (they cannot be inspected)
    # Then rewrite user messages against attribute inference: none (fast), local (offline model),
    # another method (standard, stealth, ner-mask) or a model spec, as `protect --rewrite`.
    rewrite: str = "none"
    # A user message the rewrite left not protected (a rejected rewrite, a marked phrase that stayed, a text it could
    # not read): refuse the request (422, nothing sent), send only those it could not read (a language the `local`
    # rewrite does not read: their placeholders in, not rewritten) and refuse the others, or send each as it is;
    # counted in the headers.
    rewrite_fail: Literal["refuse", "send-unread", "send"] = "refuse"
    rewrite_cache_entries: int = Field(10_000, ge=1)  # (session, protected text) -> its rewrite, reused every turn
    # Restore guarded values (secrets, cards, IBANs, IDs: `ProtectConfig.guarded_types`) into tool-call
    # arguments and URLs of replies too
    # (off: they stay placeholders there, so a hostile reply cannot send them out; placeholders.scope).
    restore_secrets_in_urls_and_tools: bool = False
    # Restore the other values (names, e-mails, phones...) inside links and bare URLs of replies too (off: they stay
    # placeholders there but an e-mail as a mailto: address). A URL that loads by itself (an image) never gets one.
    restore_values_in_links: bool = False
    # The tools whose calls' arguments get values restored ("*": every tool); any other tool call keeps its
    # placeholders. A tool's output goes back upstream in the next request, and a command (`echo <EMAIL_1> | base64`)
    # can give a value back in a form no re-masking reads: name only tools that send nothing back transformed.
    restore_tool_arguments: list[str] = Field(default_factory=list)
