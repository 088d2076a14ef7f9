"""The JSON bodies the service's text endpoints take. An unknown or misspelt field is a 422, never
ignored ("levels" is no field of /protect); a text to protect or analyze must hold more than whitespace."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from stealthflow.pipeline.records import not_blank, valid_unicode
from stealthflow.sessions import MEMORY_SESSIONS, PROXY_SESSIONS, check_name

#: the 404 of a request id a restore names that its session did not record; like every error, it quotes nothing the
#: caller sent (a session name may be a user's value, and clients log errors)
UNKNOWN_REQUEST = "no request of that id in that session (unknown, expired or forgotten)"


def session_refused(session: str) -> str | None:
    """Why the service's session routes (protect, restore, analyze, /sessions) refuse `session` (None: not refused):
    a memory user's values restore only through /memory/hydrate, with the request id its /memory/pack answered; a proxy
    caller's only through the proxy, for the token that protected them (a service token or the page's credential
    reads neither)."""
    if session.startswith(MEMORY_SESSIONS):
        return (
            f"{MEMORY_SESSIONS}... sessions hold a memory user's values: they restore only through /memory/hydrate "
            "with the request id /memory/pack answered"
        )
    if session.startswith(PROXY_SESSIONS):
        return (
            f"{PROXY_SESSIONS}... sessions hold a proxy caller's values: they restore only through the proxy, for the "
            "token that protected them"
        )
    return None


def own_session(session: str) -> str:
    """`session`, if the session routes serve it (`session_refused`) and it is a printable name (`check_name`); else a
    ValueError (a 422)."""
    if refused := session_refused(session):
        raise ValueError(refused)
    return check_name(session)


class TextRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str
    session: str = Field(min_length=1)

    _valid = field_validator("text")(valid_unicode)
    _own = field_validator("session")(own_session)


class PostRequest(TextRequest):
    """A text to protect."""

    _not_blank = field_validator("text")(not_blank)


class AnalyzeRequest(PostRequest):
    """The page's post (`/analyze`): its session is "default" when none is given, as the CLI's `--session`."""

    session: str = Field("default", min_length=1)


class ProtectRequest(PostRequest):
    rewrite: str = "none"  # or the method the server rewrites with (`serve --rewrite`)
    # A text carrying what a restore gave out, such as a tool's result: every value of the session masked in it. Not for
    # an assistant turn the upstream may have written: masked so, it tells the upstream which guesses are the session's
    # values (docs/security.md, Not defended).
    from_model: bool = False


class RestoreRequest(TextRequest):
    vault: str | None = None  # the id /protect answered, checked against this vault
    request: str | None = None  # the request id /protect answered: only its placeholders restore
    secrets_in_urls: bool = False  # guarded values inside links, markup and JSON too
    values_in_links: bool = False  # the other values inside links too (never inside a URL that loads by itself)
