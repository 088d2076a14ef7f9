"""What a reply may restore: only the placeholders of the request it answers, no value inside a URL that loads by
itself, no value inside a link unless asked for, and secrets only where they stay on the device.

A reply comes from a model that may be prompt-injected or hostile. Filling in every placeholder of the session would let
it ask for any value the session ever protected (`<API_KEY_3>` in a tool call's URL, a markdown image carrying
`<EMAIL_7>` to its server). So a reply restores only the placeholders that occur in the request it answers (a chat
re-sends its history, which holds every placeholder a reply may legitimately use; without a request, every placeholder
of the session: `restore` of the CLI, the Python API and HTTP). In a reply's text (`placeholders.links`) no value of any
type is restored inside a URL that loads by itself (a markdown image, an HTML `<img>`, CSS `url(`: fetched as the reply
is shown), and none inside a link or a bare URL (sent when clicked) unless `values_in_links` says so, but an e-mail
address as the whole address of a `mailto:` link. The same holds inside a URL in a tool call's arguments
(`placeholders.json_urls`: an agent runs the call with no click; reported as `in_tool_call_url`), where a value that is
a whole argument (`"to": "<EMAIL_1>"`) or stands in prose is restored. No value is restored in code, JSON or a tool
call written in a reply's text, or in a string of tool-call arguments (`Reference.code`: an agent may run it with no
click) unless `values_in_links` says so (`IN_CODE`). A guarded value (a secret of a PL4 type:
passwords, keys, tokens; or a structured number, `STRUCTURED_IDS`: cards, IBANs, passports, national IDs) is never
restored in tool-call arguments, JSON in text or the paragraph of a link or markup (`placeholders.context`), unless
`secrets_in_urls_and_tools` says so (which also fills it in inside a link, never inside a URL that loads by itself).
A placeholder written with no bracket (`API_KEY_1`, `REAL_NAME_1`: the form a code variable takes) is a guarded value
nowhere, whatever the switches, and any other value only in a reply's prose: not glued to other text or after "=", in
code, JSON or a tool call. What is not restored stays a placeholder and is reported (`Withheld`), never its value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from stealthflow.placeholders.restore import Reference, RestoreResult, Withheld

NOT_IN_REQUEST = Withheld("not_in_request")
FORGOTTEN = Withheld("forgotten")  # numbered in the session, its value deleted since (`Vault.numbered`)
SECRET_IN_URL = Withheld("secret_in_url")
SECRET_IN_TOOL = Withheld("secret_in_tool_call")
IN_LOADING_URL = Withheld("in_loading_url")
IN_LINK = Withheld("in_link")
# a URL in a tool call's arguments (`placeholders.json_urls`), or in JSON in text
IN_TOOL_URL = Withheld("in_tool_call_url")
# any value in the arguments of a tool call the proxy is not told to restore into (`proxy.restore_tool_arguments`)
IN_TOOL_CALL = Withheld("in_tool_call")
SECRET_GLUED = Withheld("secret_glued")  # glued to other text, or after "=" (`placeholders.context`)
SECRET_BARE = Withheld("secret_bare")  # a guarded type's placeholder with no bracket
BARE_IN_CODE = Withheld("bare_in_code")  # any other type's, in code, JSON, a tool call or glued
# either, between HTML-escaped brackets (`&lt;REAL_NAME_1&gt;`): glued to the entities, read as one without brackets
HTML_ESCAPED = Withheld("html_escaped")
IN_CODE = Withheld("in_code")  # any value in code, JSON or a tool call written in a reply's text (`context.in_code`)
EMAIL = "EMAIL"  # the one type restored as the whole address of a mailto: link


_PLACES = {
    NOT_IN_REQUEST.why: "not in the request the reply answers",
    FORGOTTEN.why: "forgotten since, deleted from the vault",
    SECRET_IN_URL.why: "a secret inside a link or markup",
    SECRET_GLUED.why: "a secret in code or glued to other text",
    SECRET_BARE.why: "a secret written without brackets",
    BARE_IN_CODE.why: "written without brackets in code or glued to other text",
    HTML_ESCAPED.why: "between HTML-escaped brackets (&lt; &gt;)",
    SECRET_IN_TOOL.why: "a secret in JSON or a tool call",
    IN_LOADING_URL.why: "inside a URL that loads by itself",
    IN_LINK.why: "inside a link",
    IN_TOOL_URL.why: "inside a URL in a tool call or JSON",
    IN_TOOL_CALL.why: "in a tool call the proxy does not restore into",
    IN_CODE.why: "in code, JSON or a tool call written in the reply",
}


_SECRET_AT = {"tool": SECRET_IN_TOOL, "glued": SECRET_GLUED}  # a guarded value's reason by place; else SECRET_IN_URL


@dataclass(frozen=True)
class RestoreScope:
    # `Reference.key`s of the request's placeholders (`Entry.names`); None: every placeholder of the session
    placeholders: frozenset[tuple[str, int | str]] | None
    guarded_types: frozenset[str]  # secrets and structured numbers (`ProtectConfig.guarded_types`)
    secrets_in_urls_and_tools: bool = False
    # the other values inside a link or bare URL (never one that loads by itself), and in code written in a reply
    values_in_links: bool = False

    def withholds(self, ref: Reference) -> Withheld | None:
        """Why `ref` is not restored here, or None when it may be."""
        if self.placeholders is not None and ref.key not in self.placeholders:
            return NOT_IN_REQUEST
        if ref.url == "load":
            return IN_LOADING_URL
        if ref.html and (ref.type in self.guarded_types or ref.place in ("tool", "glued")):
            return HTML_ESCAPED
        if ref.type in self.guarded_types:
            if ref.bare:
                return SECRET_BARE
            if (ref.place != "text" or ref.url) and not self.secrets_in_urls_and_tools:
                return _SECRET_AT.get(ref.place, SECRET_IN_URL)
            return None
        if ref.bare and ref.place in ("tool", "glued"):
            return BARE_IN_CODE
        if ref.code and not self.values_in_links:  # an agent may run it with no click (rev22 F7)
            return IN_CODE
        in_link = ref.url == "click" or (ref.url == "mailto" and ref.type != EMAIL)
        if not in_link or self.values_in_links:
            return None
        return IN_TOOL_URL if ref.place == "tool" else IN_LINK


def withheld_json(withheld: list[tuple[str, str]]) -> list[dict[str, str]]:
    """`RestoreResult.withheld` as JSON: each placeholder left as it is, and why."""
    return [{"placeholder": placeholder, "reason": why} for placeholder, why in withheld]


def result_json(result: RestoreResult) -> dict[str, object]:
    """A restored reply as `restore --json`, `memory hydrate --json` and the service's restore answer it: its text, how
    many placeholders were filled in, those not issued here and those withheld (`withheld_json`)."""
    return {
        "text": result.text,
        "restored": result.restored,
        "unresolved": result.unresolved,
        "withheld": withheld_json(result.withheld),
    }


def cli_switch(name: str) -> str:
    """How the CLI spells an option of `RestoreScope` (`withheld_notice`)."""
    return "--" + name.replace("_", "-")


def json_switch(name: str) -> str:
    """How a JSON request spells it."""
    return f'"{name}": true'


def python_switch(name: str) -> str:
    """How a Python call spells it."""
    return f"{name}=True"


def withheld_notice(withheld: list[tuple[str, str]], switch: Callable[[str], str]) -> str:
    """One line on the placeholders a restore left as they are (`RestoreResult.withheld`) and why, naming the caller's
    way to fill them in all the same (`switch`: how it spells `secrets_in_urls` and `values_in_links`)."""
    reasons = Counter(why for _, why in withheld)
    why = "; ".join(f"{_PLACES.get(reason, reason)}: {count}" for reason, count in sorted(reasons.items()))
    names = ", ".join(sorted({placeholder for placeholder, _ in withheld}))
    notes = []
    if reasons[IN_LOADING_URL.why]:
        notes.append("A URL that loads by itself (an image, markup) would send a value the moment the reply is shown.")
    if reasons[IN_LINK.why]:
        notes.append(f"A link sends its values away when opened; {switch('values_in_links')} fills them in.")
    if reasons[IN_TOOL_URL.why]:
        notes.append(
            f"A tool call's URL sends its values away when the call runs; {switch('values_in_links')} fills them in."
        )
    if reasons[IN_CODE.why]:
        notes.append(
            "An agent may run code, JSON or a tool call written in a reply with no click, and send its values away;"
            f" {switch('values_in_links')} fills them in."
        )
    if reasons[SECRET_IN_URL.why] or reasons[SECRET_IN_TOOL.why]:
        notes.append(
            "A secret, card, IBAN, passport or ID number there could be sent away when the link is opened or the "
            f"call runs; {switch('secrets_in_urls')} fills them in."
        )
    if reasons[SECRET_GLUED.why]:
        notes.append(
            "A secret, card, IBAN, passport or ID number is filled in only as a word of its own in prose (quotation "
            f"marks and punctuation around it are fine), not in code or inside another word; {switch('secrets_in_urls')}"
            " fills them in."
        )
    if reasons[SECRET_BARE.why] or reasons[BARE_IN_CODE.why]:
        notes.append(
            "A placeholder without brackets (API_KEY_1) is a word code may use as a name: a secret, card, IBAN, "
            "passport or ID number is never filled in from it, another value only in prose."
        )
    if reasons[HTML_ESCAPED.why]:
        notes.append(
            "A placeholder between HTML-escaped brackets (&lt;REAL_NAME_1&gt;) is glued to the entities, as a name in "
            "code or markup is: it is left as it is, whatever the options."
        )
    return " ".join([f"withheld {len(withheld)} placeholder(s), left as they are: {names} ({why}).", *notes])
