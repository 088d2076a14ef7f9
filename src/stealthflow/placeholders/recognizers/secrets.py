"""Credentials and secrets (PL4): detect-secrets' regex plugins, a private-key block, long
high-entropy tokens next to a key word, and passwords / one-time codes named in context.

detect-secrets' entropy plugins flag nearly every word of prose, so entropy is applied here
by hand, only to long tokens that sit next to "key", "token", "secret"...
"""

from __future__ import annotations

import re
from functools import cache

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString
from detect_secrets.plugins.ip_public import IPPublicDetector

from stealthflow.placeholders.recognizers.base import ContextRecognizer, Recognizer, register_recognizer
from stealthflow.placeholders.types import Span


@cache
def _detect_secrets_patterns() -> list[re.Pattern[str]]:
    """Every vendor-token regex of detect-secrets (AWS, GitHub, Slack, Stripe, JWT...)."""
    patterns = []
    for plugin_class in get_mapping_from_secret_type_to_class().values():
        if issubclass(plugin_class, RegexBasedDetector) and plugin_class is not IPPublicDetector:
            patterns.extend(plugin_class().denylist)
    return patterns


# Every vendor token is one long run of token characters; the ~30 vendor regexes only run
# on windows around such runs (with room for a "key =" before them), not on all the prose.
_LONG_TOKEN = re.compile(r"[^\s\"'`<>()]{16,}")
_WINDOW_BEFORE = 48


def _token_windows(text: str) -> list[tuple[int, int]]:
    windows: list[tuple[int, int]] = []
    for match in _LONG_TOKEN.finditer(text):
        start, end = max(match.start() - _WINDOW_BEFORE, 0), match.end()
        if windows and start <= windows[-1][1]:
            windows[-1] = (windows[-1][0], end)
        else:
            windows.append((start, end))
    return windows


@register_recognizer
class VendorTokenRecognizer(Recognizer):
    name, type = "vendor_token", "API_KEY"

    def find(self, text: str) -> list[Span]:
        spans = []
        for start, end in _token_windows(text):
            for pattern in _detect_secrets_patterns():
                for match in pattern.finditer(text, start, end):
                    spans.append(self.span(*_secret_bounds(match)))
        return spans


def _secret_bounds(match: re.Match[str]) -> tuple[int, int]:
    """The secret itself: a long last group when the pattern captures it after a key name
    (`AccountKey=(...)`), else the whole match (GitHub's group is just the `ghp` prefix)."""
    groups = [g for g in range(1, (match.re.groups or 0) + 1) if match.group(g)]
    if groups and match.end(groups[-1]) - match.start(groups[-1]) >= 16:
        return match.start(groups[-1]), match.end(groups[-1])
    return match.start(), match.end()


@register_recognizer
class PrivateKeyRecognizer(Recognizer):
    """A whole PEM private-key block (detect-secrets only flags its header line)."""

    name, type = "private_key", "PRIVATE_KEY"
    pattern = re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----|\Z)", re.DOTALL)

    def find(self, text: str) -> list[Span]:
        return [self.span(m.start(), m.end()) for m in self.pattern.finditer(text)]


_ENTROPY = Base64HighEntropyString()


@register_recognizer
class KeyedTokenRecognizer(ContextRecognizer):
    """`api key: 9fQx...`, `token sk-proj-...`: a long random-looking token after a key word."""

    name, type = "keyed_token", "API_KEY"
    triggers = ("key", "secret", "token", "bearer", "auth", "rotate", "revoke", "sk-", "sk_", "rk-", "rk_")
    pattern = re.compile(
        # after a key word (also inside OPENAI_API_KEY=), or with a well-known secret-key prefix
        r"(?:(?i:(?:\b|(?<=_))(?:api[ _-]?key|access[ _-]?key|secret(?:[ _-]?key)?|token|bearer|auth(?:orization)?|key|rotate|revoke)\b[^\n\w]{0,12}(?:is\s+|was\s+)?)"
        r"|(?<![\w-])(?=(?:sk|rk|sk_live|rk_live)[-_]))"
        r"[\"'`]?(?P<value>[A-Za-z0-9][A-Za-z0-9_\-+/=.]{18,200}[A-Za-z0-9_\-+/=])"
    )
    min_entropy = 3.5

    def accept(self, value: str) -> bool:
        has_mix = any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
        return has_mix and _ENTROPY.calculate_shannon_entropy(value) >= self.min_entropy


_ASSIGN = r"\s*(?:is|was|=|:|->|is:)\s*[\"'“‘]?"


@register_recognizer
class PasswordRecognizer(ContextRecognizer):
    name, type = "password", "PASSWORD"
    triggers = ("pass", "pwd", "pin")
    pattern = re.compile(
        r"(?i:\b(?:password|passwd|pwd|passphrase|passcode|pin(?:\s+code)?)\b(?:\s+(?:for|to|on|of)\s+[\w.@-]+)?"
        + _ASSIGN
        # "log in with password X", "using the passphrase X": no "is" / ":", so the value needs a digit or symbol
        + r"|\b(?:with|using|via)\s+(?:the\s+|my\s+)?(?:password|passwd|passphrase|passcode|pin)\s+[\"'“‘]?(?=\S*[^\sA-Za-z])"  # not a word ("password reset")
        + r")(?P<value>[^\s\"'”’]{3,64}?)"
        # "!" and "?" stay in the password: masking a sentence's "!" costs less than leaking a character
        + r"(?=[\"'”’]?(?:[\s,;)]|[.:](?:\s|$)|$))"
    )


@register_recognizer
class OtpRecognizer(ContextRecognizer):
    name, type = "otp", "OTP"
    triggers = ("otp", "code", "password", "pin", "passcode")
    pattern = re.compile(
        r"(?:(?i:\b(?:otp|one[- ]time\s+(?:code|password|pin|passcode)|(?:verification|security|confirmation|login|sign[- ]?in|2fa|mfa|sms|auth(?:entication)?)\s+code)\b"
        r"(?:\s+(?:for|to)\s+[\w.@-]+)?[^\w\n]{0,4}(?:\s*(?:is|was)\b)?\s*[:=]?\s*)"
        # "the code they texted is X", "the code I got was X", "...a code. It's X"
        r"|(?i:\bcode\s+(?:(?:that\s+)?(?:they|you|he|she|we|i|it)\s+)?(?:texted|sent|emailed|gave|got|received)(?:\s+(?:me|us|you))?\s+(?:is|was)\s*:?\s*)"
        r"|(?i:\bcode\b[^.!?\n]{0,60}[.!?:]?\s+(?:it's|it\s+is|it\s+was|it’s)\s+))"
        r"(?P<value>\d{4,8}|\d{3}[ -]\d{3})\b"
    )
