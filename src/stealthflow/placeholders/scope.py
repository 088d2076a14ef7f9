"""What a reply may restore: only the placeholders of the request it answers, and secrets only
where they stay on the device.

A reply comes from a model that may be prompt-injected or hostile. Filling in every placeholder of
the session would let it ask for any value the session ever protected (`<API_KEY_3>` in a tool
call's URL, a markdown image carrying `<EMAIL_7>` to its server). So a reply restores only the
placeholders that occur in the request it answers (a chat re-sends its history, which holds every
placeholder a reply may legitimately use; without a request, every placeholder of the session: `restore`
of the CLI, the Python API and HTTP), and a guarded value (a secret of a PL4 type: passwords,
keys, tokens; or a structured number, `STRUCTURED_IDS`: cards, IBANs, passports, national IDs) never
in tool-call arguments, JSON in text or inside a link or markup (`placeholders.context`), unless
`secrets_in_urls_and_tools` says so. What is not restored stays a placeholder and is reported
(`Withheld`), never its value.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from stealthflow.placeholders.restore import Reference, Withheld

NOT_IN_REQUEST = Withheld("not_in_request")
SECRET_IN_URL = Withheld("secret_in_url")
SECRET_IN_TOOL = Withheld("secret_in_tool_call")


_PLACES = {
    NOT_IN_REQUEST.why: "not in the request the reply answers",
    SECRET_IN_URL.why: "inside a link or markup",
    SECRET_IN_TOOL.why: "in JSON or a tool call",
}


@dataclass(frozen=True)
class RestoreScope:
    # `Reference.key`s of the request's placeholders (`Entry.names`); None: every placeholder of the session
    placeholders: frozenset[tuple[str, int | str]] | None
    guarded_types: frozenset[str]  # secrets and structured numbers (`ProtectConfig.guarded_types`)
    secrets_in_urls_and_tools: bool = False

    def withholds(self, ref: Reference) -> Withheld | None:
        """Why `ref` is not restored here, or None when it may be."""
        if self.placeholders is not None and ref.key not in self.placeholders:
            return NOT_IN_REQUEST
        if ref.place != "text" and ref.type in self.guarded_types and not self.secrets_in_urls_and_tools:
            return SECRET_IN_URL if ref.place == "url" else SECRET_IN_TOOL
        return None


def withheld_json(withheld: list[tuple[str, str]]) -> list[dict[str, str]]:
    """`RestoreResult.withheld` as JSON: each placeholder left as it is, and why."""
    return [{"placeholder": placeholder, "reason": why} for placeholder, why in withheld]


def withheld_notice(withheld: list[tuple[str, str]], switch: str) -> str:
    """One line on the placeholders a restore left as they are (`RestoreResult.withheld`) and why, naming `switch`,
    the caller's way to fill in a guarded value there all the same."""
    reasons = Counter(why for _, why in withheld)
    why = "; ".join(f"{_PLACES.get(reason, reason)}: {count}" for reason, count in sorted(reasons.items()))
    names = ", ".join(sorted({placeholder for placeholder, _ in withheld}))
    return (
        f"withheld {len(withheld)} placeholder(s), left as they are: {names} ({why}). A secret, card, IBAN, passport "
        f"or ID number a reply places there could be sent away when the link is opened; {switch} fills them in."
    )
