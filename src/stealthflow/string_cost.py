"""What protecting many short strings costs, and the bound a server holds a request's strings to (finding F5).

Protecting a string costs a fixed time besides its time per character: about as much as `TEXT_COST` characters of one
text, on the text cheapest per character measured (benchmarks/request_strings.py: the review's `ab0 ab1 ...` tokens).
A request whose strings' fixed cost passes both its characters (it would cost over twice the same characters sent as
one text) and `FREE_COST` (the few thousand strings any request may hold) is refused (`TooManyStrings`) before
anything is detected: at the proxy's 4 MB body limit, short strings held a core for about 100 s.
"""

from __future__ import annotations

from collections.abc import Sequence

TEXT_COST = 300
FREE_COST = 1_000_000


class TooManyStrings(ValueError):
    """A request of more strings than its characters pay for: a server answers 413, nothing protected or sent."""

    def __init__(self, allowed: int):
        super().__init__(
            f"the request holds more than {allowed:,} strings, too many for its size: protecting each string costs "
            f"about as much as {TEXT_COST} characters of text, so these would take over twice as long as the same text "
            "in one string; join short strings into fewer, longer ones (a list's items into one text) or send them "
            "over several requests; nothing was sent"
        )


def most_strings(characters: int) -> int:
    """How many strings `characters` characters of text pay for."""
    return max(characters, FREE_COST) // TEXT_COST


def check_strings(texts: Sequence[str]) -> None:
    """`TooManyStrings` when `texts` are more than their characters pay for."""
    if len(texts) > (allowed := most_strings(sum(map(len, texts)))):
        raise TooManyStrings(allowed)
