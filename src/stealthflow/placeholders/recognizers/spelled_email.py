"""An e-mail address spelled out in words ("jan dot novak at gmail dot com", "jan punto novak arroba gmail punto com"):
words of data/spelled_email.yaml between spaces, read back as "@" and "."; it is one when the address read back is,
its domain's suffix a public one (not reserved for documentation). Its gain is beside the class."""

from __future__ import annotations

from functools import cached_property

import regex

from stealthflow.placeholders.domains import offline_tld
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.languages import cue_pattern
from stealthflow.placeholders.reserved import reserved_host
from stealthflow.placeholders.types import Span
from stealthflow.resources import data_yaml

SPELLED_EMAIL = "spelled_email.yaml"
_PART = r"[\p{L}\d_%+-]+(?:\.[\p{L}\d_%+-]+)*"  # a run of an address's characters, real dots inside it


# Gain: no spelled-out address in benchmarks/data/pii-heldout-c..p (EMAIL 192 of 193 English, 140 of 140 in the six
# languages, with and without); no span on no annotated value; data/test.jsonl in one session: 45 of 1 969 comments
# flagged with and without. It stays by the rule's second clause (no false alarm on c..p, no comment flagged).
@register_recognizer
class SpelledEmailRecognizer(Recognizer):
    """A local part, a spelled "at", a domain whose dots are spelled ("gmail dot com"), the words of one language."""

    name, type = "spelled_email", "EMAIL"

    @cached_property
    def _patterns(self) -> tuple[tuple[regex.Pattern[str], regex.Pattern[str]], ...]:
        """Per language of data/spelled_email.yaml: its spelled dot alone (a cheap search first: the whole pattern
        tried at each word of prose cost about 1 ms per KB), and the whole address."""
        label = rf"(?<![\p{{L}}\d_%+.@-]){_PART}"
        patterns = []
        for words in data_yaml(SPELLED_EMAIL).values():
            at, dot = cue_pattern(tuple(words["at"])), cue_pattern(tuple(words["dot"]))
            # at most four spelled dots in the local part: unbounded, a run of them ("dot dot dot ...", no "at" after)
            # was read again from each of its words, quadratic time (8 KB: 3 s)
            address = regex.compile(
                rf"{label}(?: +(?P<dot>{dot}) +{_PART}){{0,4}}(?P<at> +(?:{at}) +){_PART}(?: +(?P<dot>{dot}) +{_PART})+"
                rf"(?![\p{{L}}\d_-])"
            )
            patterns.append((regex.compile(rf" (?:{dot}) "), address))
        return tuple(patterns)

    @cached_property
    def _any_dot(self) -> regex.Pattern[str]:
        """Any language's spelled dot alone: most texts hold none, and one search then tells so for every language
        (a search per language was 2 % of the pattern layer's time on benchmarks/tagger_threads.py's 1 KB texts)."""
        return regex.compile("|".join(f"(?:{dot.pattern})" for dot, _ in self._patterns))

    def find(self, text: str) -> list[Span]:
        if self._any_dot.search(text) is None:
            return []
        spans = []
        for dot, address in self._patterns:
            if dot.search(text) is None:
                continue
            for match in address.finditer(text, overlapped=True):
                domain = _spelled_back(match).rpartition("@")[2]
                if offline_tld()(domain).fqdn and not reserved_host(domain):
                    spans.append(self.span(*match.span(), reason="spelled out, an address once read back"))
        return _longest(spans)


def _spelled_back(match: regex.Match[str]) -> str:
    """The address a match spells: its "at" as "@", each spelled dot as ".", the spaces around them dropped."""
    pieces, copied = [], match.start()
    spelled = [(*match.span("at"), "@")] + [(*span, ".") for span in match.spans("dot")]
    for start, end, symbol in sorted(spelled):
        pieces += [match.string[copied:start].strip(), symbol]
        copied = end
    pieces.append(match.string[copied : match.end()].strip())
    return "".join(pieces)


def _longest(spans: list[Span]) -> list[Span]:
    """Of overlapping spans, the first (the longest: matches start earliest)."""
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if not kept or span.start >= kept[-1].end:
            kept.append(span)
    return kept
