"""Evidence spans: the phrases a strong attacker quoted when it inferred an attribute.

Every labelled profile carries DeepSeek-V3's attack answers on the original comments; each
attribute's `inference` quotes its evidence in double quotes (`mentions "tourism management"
directly`). A quoted phrase found in a comment — ignoring case, spacing and the curly/straight
form of quotes and apostrophes — is an evidence span of that comment: what a strong attacker
relied on. Phrases found in no comment are dropped and counted.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stealthflow.data.schema import Profile

REFERENCE_MODEL = "deepseek-ai/DeepSeek-V3"
_QUOTED = re.compile(r'"([^"\n]{2,160})"|“([^”\n]{2,160})”')
_EDGE_PUNCTUATION = " \t,.;:!?()[]'…-"
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "\u00a0": " "})
MIN_PHRASE_CHARS = 3


@dataclass(frozen=True)
class EvidenceSpan:
    attribute: str
    comment_index: int
    start: int  # offsets into that comment's text
    end: int
    text: str  # the phrase as it stands in the comment


@dataclass
class Evidence:
    spans: list[EvidenceSpan] = field(default_factory=list)
    quoted: Counter = field(default_factory=Counter)  # attribute -> phrases quoted
    located: Counter = field(default_factory=Counter)  # attribute -> phrases found in a comment

    def in_comment(self, index: int) -> list[EvidenceSpan]:
        return [span for span in self.spans if span.comment_index == index]


def quoted_phrases(inference: str) -> list[str]:
    """The phrases an inference quotes, trimmed; an ellipsis splits a cut quote into its parts."""
    phrases = []
    for match in _QUOTED.finditer(inference):
        for part in re.split(r"\.\.\.|…", match.group(1) or match.group(2)):
            part = part.strip(_EDGE_PUNCTUATION)
            if len(part) >= MIN_PHRASE_CHARS:
                phrases.append(part)
    return phrases


def _folded(text: str) -> tuple[str, list[int]]:
    """`text` lower-cased with whitespace runs collapsed, and each folded char's original offset."""
    chars, offsets = [], []
    for index, char in enumerate(text.translate(_FOLD)):
        if char.isspace():
            if chars and chars[-1] == " ":
                continue
            char = " "
        chars.append(char.lower())
        offsets.append(index)
    return "".join(chars), offsets


def find_phrase(phrase: str, text: str) -> tuple[int, int] | None:
    """Offsets of the first case/space-insensitive occurrence of `phrase` in `text`."""
    needle, _ = _folded(phrase)
    haystack, offsets = _folded(text)
    # Word-bounded, so "art" does not match inside "party".
    match = re.search(rf"(?<!\w){re.escape(needle.strip())}(?!\w)", haystack)
    if match is None:
        return None
    return offsets[match.start()], offsets[match.end() - 1] + 1


def locate_evidence(profile: Profile, model: str = REFERENCE_MODEL) -> Evidence:
    evidence = Evidence()
    answers = profile.reference_predictions.get(model) or {}
    seen: set[tuple[str, int, int]] = set()
    for attribute, answer in answers.items():
        if not isinstance(answer, dict):
            continue
        for phrase in quoted_phrases(str(answer.get("inference") or "")):
            evidence.quoted[attribute] += 1
            # The phrase gives the author away wherever it stands: every comment holding it counts.
            hits = [
                (index, found)
                for index, comment in enumerate(profile.comments)
                if (found := find_phrase(phrase, comment.text))
            ]
            evidence.located[attribute] += bool(hits)
            for index, (start, end) in hits:
                if (attribute, index, start) not in seen:
                    seen.add((attribute, index, start))
                    evidence.spans.append(
                        EvidenceSpan(attribute, index, start, end, profile.comments[index].text[start:end])
                    )
    return evidence
