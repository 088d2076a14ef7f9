"""Structured identifiers: emails, cards (Luhn-checked), IBANs (mod 97 and the country's format),
IP addresses and US SSNs by the patterns of data/identifier_patterns.yaml (Presidio's, carried
over), URLs and handles by their own, and phone numbers through `phonenumbers`.

None of them needs an NLP pipeline or a model: detection stays fast, offline, and light to import.
"""

from __future__ import annotations

import ipaddress
import re
import string
import unicodedata
import urllib.parse
from collections.abc import Iterator
from functools import cache, cached_property, lru_cache

import phonenumbers
import regex

from stealthflow.placeholders.common_words import common_word
from stealthflow.placeholders.domains import email_domain, inside, offline_tld, url_authorities
from stealthflow.placeholders.language import ENGLISH, OTHERS, language_file
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.public_names import brands, name_key
from stealthflow.placeholders.recognizers.sentences import sentence_around
from stealthflow.placeholders.reserved import (
    documentation_host,
    forge_owner_words,
    generic_account,
    inside_sample_value,
    published_software_page,
    reserved_host,
    reserved_ip,
    sample_value,
)
from stealthflow.placeholders.types import Span, parse_phone
from stealthflow.resources import data_yaml

IDENTIFIER_PATTERNS = "identifier_patterns.yaml"


def _email_domain_known(address: str) -> bool:
    """An address at a domain `domains.email_domain` accepts."""
    return email_domain(address.rpartition("@")[2])


_TOKEN = re.compile(r"\S+")  # starts only where the previous match ended: one linear pass
_ASCII_SPACES = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"  # the shadow text folds every other space to " "


def _token_start(text: str, index: int, reach: int = 1024) -> int:
    """Start of the whitespace-separated token holding `index`: a bounded C-speed scan per space
    kind, then (a token longer than `reach`) a walk back, once per token."""
    low = max(0, index - reach)
    found = max(text.rfind(space, low, index) for space in _ASCII_SPACES)
    if found >= 0 or low == 0:
        return found + 1
    while low > 0 and not text[low - 1].isspace():
        low -= 1
    return low


@cache
def identifier_patterns() -> dict:
    """The parsed data/identifier_patterns.yaml."""
    return data_yaml(IDENTIFIER_PATTERNS)


class PatternBacked(Recognizer):
    """Runs the patterns that data/identifier_patterns.yaml lists under its `name`; keeps hits at or
    above `min_score`, but the published sample values of its `name` (`reserved.sample_value`: the test
    card 4242 4242 4242 4242). A match scores its pattern's score, 1 when `valid` says it is the identifier,
    0 when `valid` says it is not or `invalid` rules it out; a match inside a wider one scoring as
    much is dropped.

    The patterns backtrack: over a long run without spaces they take quadratic time. So detection
    looks only at the whitespace-separated tokens where a cheap `wanted` regex (run once over the
    whole text) matches, and a token longer than `window` is looked at only around each place it
    matches, in pieces of at most 2 x `window` characters: linear time in the text's length.
    """

    min_score = 0.5
    flags = regex.DOTALL | regex.MULTILINE | regex.IGNORECASE  # as Presidio compiles its patterns
    wanted: re.Pattern[str] | None = None  # None: the whole text (patterns of bounded length)
    window = 256  # longer than any value of this type
    trailing = ""  # punctuation that ends a sentence, not the identifier

    @cached_property
    def patterns(self) -> list[tuple[regex.Pattern[str], float]]:
        return [(regex.compile(p["regex"], self.flags), p["score"]) for p in identifier_patterns()[self.name]]

    def valid(self, value: str) -> bool | None:
        """Whether a match is the identifier by its check (a checksum); None: no check, its pattern's score stands."""
        return None

    def invalid(self, value: str) -> bool:
        """Whether a match is ruled out (a value never issued)."""
        return False

    def pieces(self, text: str):
        """(offset, piece) pairs worth running the patterns on."""
        if self.wanted is None:  # bounded-length patterns (cards, IBANs, SSNs) run on the whole text
            yield 0, text
            return
        done = 0  # tokens end before this: each is looked at once, however many hits it holds
        for hit in self.wanted.finditer(text):
            if hit.start() < done:
                continue
            start = _token_start(text, hit.start())
            token = _TOKEN.match(text, start)
            done = token.end()
            value = token[0]
            if len(value) <= 2 * self.window:
                yield start, value
                continue
            regions: list[list[int]] = []
            for inner in self.wanted.finditer(value):
                region_start, region_end = (
                    max(0, inner.start() - self.window),
                    min(len(value), inner.end() + self.window),
                )
                if regions and region_start <= regions[-1][1]:
                    regions[-1][1] = max(regions[-1][1], region_end)
                else:
                    regions.append([region_start, region_end])
            for region_start, region_end in regions:
                for piece_start in range(region_start, region_end, self.window):
                    piece_end = min(region_end, piece_start + 2 * self.window)
                    yield start + piece_start, value[piece_start:piece_end]
                    if piece_end == region_end:
                        break

    def find(self, text: str) -> list[Span]:
        spans = {}
        for offset, piece in self.pieces(text):
            for found_start, found_end, score in self.analyze(piece):
                if score >= self.min_score and not sample_value(self.name, piece[found_start:found_end]):
                    start = offset + found_start
                    end = start + len(piece[found_start:found_end].rstrip(self.trailing))
                    spans[(start, end)] = self.span(start, end, score)  # overlapping pieces find a value twice
        return list(spans.values())

    def analyze(self, text: str) -> list[tuple[int, int, float]]:
        """(start, end, score) of the matches scoring above 0, but those inside a wider one scoring as much."""
        found = set()
        for pattern, pattern_score in self.patterns:
            for match in self.matches(pattern, text):
                start, end = match.span()
                if start == end:
                    continue
                valid = self.valid(text[start:end])
                score = pattern_score if valid is None else float(valid)
                if score > 0 and not self.invalid(text[start:end]):
                    found.add((start, end, score))
        kept: list[tuple[int, int, float]] = []
        for start, end, score in sorted(found, key=lambda r: (r[0], r[0] - r[1], -r[2])):  # widest first
            if not any(start >= a and end <= b and score <= s for a, b, s in kept if b >= start):
                kept.append((start, end, score))
        return kept

    def matches(self, pattern: regex.Pattern[str], text: str) -> Iterator[regex.Match[str]]:
        """The matches of one of the patterns in the text."""
        return pattern.finditer(text)


# The email pattern's pieces (data/identifier_patterns.yaml): a local part of these characters and dots, "@", a domain
# of words joined by hyphens and dots; an @ with a local-part character before it and a domain after it is a site.
# In a link's path, query or fragment, the URL's delimiters end the local part ("?email=anna@x.org": "anna").
_URL_DELIMITERS = "/?#&="
_LOCAL_IN_URL = r"!$%'*+\-^_`{|}~\w"
_LOCAL_CHARACTERS = _LOCAL_IN_URL + _URL_DELIMITERS
_EMAIL_SITE = regex.compile(rf"(?<=[{_LOCAL_CHARACTERS}])@(?=\w+(?:-+\w+)*(?:\.\w+(?:-+\w+)*)+\b)", PatternBacked.flags)
# searched backwards: where the local part starts in text, and in a link
_NOT_LOCAL = regex.compile(rf"[^{_LOCAL_CHARACTERS}.]", PatternBacked.flags | regex.REVERSE)
_NOT_LOCAL_IN_URL = regex.compile(rf"[^{_LOCAL_IN_URL}.]", PatternBacked.flags | regex.REVERSE)
# A run of local-part characters that is a link's or a file's path, query or fragment: from a "/" ("//host/u/anna"
# after "://", "/home/sam/mail/anna"), from "www.", or with a query's "?key=" ("site.io/share?email=anna"). On the
# 66 texts with personal data of a read-only review, the addresses in links, paths and queries stay the address
# alone (7 texts) and the 4 with / ? # & = in the local part are masked whole; annotated sets: no change.
_LINK_RUN = regex.compile(r"/|www\.|[^?]*\?[^=]*=", PatternBacked.flags | regex.IGNORECASE)
_DOMAIN_RUN = regex.compile(r"[\w.-]*", PatternBacked.flags)


@register_recognizer
class EmailRecognizer(PatternBacked):
    """Emails (the pattern of data/identifier_patterns.yaml), their domain a public suffix or a private host name,
    not one reserved for documentation (`reserved.reserved_host`: "jane.doe@example.com").

    A match holds one @, its local part the run of local-part characters and dots before it. So the
    pattern is tried once per site, from the start of that run to the end of the domain's characters
    after it: the plain scan tried it from every word boundary of the run, each try reading on to
    the @ (a token dense with @ cost it two seconds per MB); the same matches."""

    name, type = "email", "EMAIL"
    read_by_reader = "EMAIL"  # with the tagger, the e-mail reader leaves an organisation's inbox in clear
    wanted, trailing = re.compile("@"), ".,;:!?)'\""

    def valid(self, value: str) -> bool:
        return _email_domain_known(value)

    def invalid(self, value: str) -> bool:
        return reserved_host(value.rpartition("@")[2])

    def matches(self, pattern: regex.Pattern[str], text: str) -> Iterator[regex.Match[str]]:
        position = 0  # where the last match ended: the next one starts there at the earliest, as in a plain scan
        authorities = url_authorities(text)  # "postgres://u:p@db.local" holds no email
        for site in _EMAIL_SITE.finditer(text):
            if inside(authorities, site.start()):
                continue
            start, end = self._local_start(text, position, site.start()), _DOMAIN_RUN.match(text, site.end()).end()
            match = pattern.search(text, start, end)
            if match:
                position = match.end()
                yield match

    @staticmethod
    def _local_start(text: str, position: int, site: int) -> int:
        """Where the local part before the @ at `site` starts, at `position` at the earliest: the run of local-part
        characters, or in a link its piece after the last URL delimiter."""
        before = _NOT_LOCAL.search(text, position, site)
        start = before.end() if before else position
        if _LINK_RUN.match(text, start, site):
            before = _NOT_LOCAL_IN_URL.search(text, start, site)
            start = before.end() if before else start
        return start


@register_recognizer
class CreditCardRecognizer(PatternBacked):
    name, type = "credit_card", "CREDIT_CARD"

    def valid(self, value: str) -> bool:
        return luhn_valid(value.replace("-", "").replace(" ", ""))


_SEPARATED_CARD = re.compile(r"(?<![\d.])\d{4}([./_·])\d{4}\1\d{4}\1\d{1,7}(?![\d.])")


def luhn_valid(digits: str) -> bool:
    total = 0
    for position, digit in enumerate(int(d) for d in reversed(digits)):
        total += digit if position % 2 == 0 else (digit * 2 - 9 if digit > 4 else digit * 2)
    return total % 10 == 0


@register_recognizer
class SeparatedCardRecognizer(Recognizer):
    """Card numbers grouped with dots, slashes or underscores (the card pattern knows spaces and
    dashes only), Luhn-checked so dotted version numbers or dates are not taken for cards; not a published test
    card (`reserved.sample_value`, the card recognizer's list)."""

    name, type = "credit_card_separated", "CREDIT_CARD"

    def find(self, text: str) -> list[Span]:
        return [
            self.span(m.start(), m.end())
            for m in _SEPARATED_CARD.finditer(text)
            if 13 <= len(digits := re.sub(r"\D", "", m[0])) <= 19
            and luhn_valid(digits)
            and not sample_value(CreditCardRecognizer.name, digits)
        ]


_IBAN_CLASSES = {"n": "[0-9]", "a": "[A-Z]", "c": "[a-zA-Z0-9]"}
_IBAN_DIGITS = {ord(ch): str(value) for value, ch in enumerate(string.digits + string.ascii_uppercase)}


@cache
def _iban_formats() -> dict[str, regex.Pattern[str]]:
    """Per country, the regex of its IBANs (spaces and dashes removed) from `iban_countries` of
    data/identifier_patterns.yaml: "8n 16c" reads 8 digits, then 16 letters or digits."""
    return {
        country: regex.compile(country + "[0-9]{2}" + "".join(_iban_part(part) for part in bban.split()))
        for country, bban in identifier_patterns()["iban_countries"].items()
    }


def _iban_part(part: str) -> str:
    """A part of a BBAN format ("4a", "16c") as a regex; a literal ("0") as it is."""
    return f"{_IBAN_CLASSES[part[-1]]}{{{part[:-1]}}}" if part[-1] in _IBAN_CLASSES else part


# Where an IBAN may start: its country's two capitals, then a check digit.
_IBAN_SITE = regex.compile(r"(?<![A-Z0-9])([A-Z]{2})(?=[ -]?[0-9])")


@cache
def _spaced_ibans() -> dict[str, regex.Pattern[str]]:
    """Per country, its IBANs at their length (`iban_countries`) with a space or dash before any character, as a user
    may split one: "DE50 5260 1815 9083 0166 1 3" (Presidio's pattern reads groups of four and one shorter last group
    only: it took "DE50 ... 0166 1", whose check fails, and the IBAN went out in clear). One ends where its country's
    IBANs end: "DE44 3704 0044 0532 9130 00 12 Euro" is the IBAN and a count."""
    spaced = {kind: f"[ -]?{characters}" for kind, characters in _IBAN_CLASSES.items()}
    return {
        country: regex.compile(
            country
            + "(?:[ -]?[0-9]){2}"
            + "".join(
                f"(?:{spaced[part[-1]]}){{{part[:-1]}}}" if part[-1] in spaced else f"[ -]?{part}"
                for part in bban.split()
            )
            + "(?![A-Z0-9])",
            IbanRecognizer.flags,
        )
        for country, bban in identifier_patterns()["iban_countries"].items()
    }


@register_recognizer
class IbanRecognizer(PatternBacked):
    """IBANs whose check digits are those ISO 13616 computes (mod 97) and which open with their country's format:
    Presidio's pattern (groups of four), and at each `_IBAN_SITE` its country's length however it is spaced
    (`_spaced_ibans`; a country pattern per site: one alternation of them all took 0.65 s on a 550 KB text)."""

    name, type = "iban", "IBAN"
    flags = regex.DOTALL | regex.MULTILINE  # capitals only, as Presidio's

    @cached_property
    def patterns(self) -> list[tuple[regex.Pattern[str], float]]:
        return [*super().patterns, (_IBAN_SITE, 1.0)]

    def matches(self, pattern: regex.Pattern[str], text: str) -> Iterator[regex.Match[str]]:
        if pattern is not _IBAN_SITE:
            yield from super().matches(pattern, text)
            return
        for site in _IBAN_SITE.finditer(text):
            country = _spaced_ibans().get(site[1])
            if country is not None and (found := country.match(text, site.start())):
                yield found

    def valid(self, value: str) -> bool:
        iban = value.replace("-", "").replace(" ", "").upper()  # a country's "c" places take lower case too
        remainder = int((iban[4:] + iban[:2] + "00").translate(_IBAN_DIGITS)) % 97
        country = _iban_formats().get(iban[:2])
        return f"{98 - remainder:02d}" == iban[2:4] and country is not None and country.match(iban) is not None


@register_recognizer
class IpRecognizer(PatternBacked):
    name, type = "ip_address", "IP_ADDRESS"
    # a dotted quad, or two colons among hex digits: prices (12.50) and times (10:30) are not looked at
    wanted, window = re.compile(r"\d\.\d{1,3}\.\d{1,3}\.\d|:[0-9A-Fa-f]{0,4}:"), 64

    def invalid(self, value: str) -> bool:
        """Not an address, or one no person's connection has (`reserved.reserved_ip`: 10.0.0.5, 203.0.113.7, 8.8.8.8)."""
        try:
            address = ipaddress.ip_interface(value).ip
        except ValueError:
            return True
        return reserved_ip(address)


_HEX_LETTER = re.compile(r"[A-Fa-f]")


# A MAC address is a DEVICE_ID: a network card's own number, not an address a network gives (an IP_ADDRESS said so to
# the cloud; ux26 M10).
# Gain: no MAC address in the sets (pii-heldout-k..r and u, both files, benchmarks/pii_registers.py): no span added
# or changed; ux19's report M6 had "mac 00:1A:2B:3C:4D:5E" in clear.
@register_recognizer
class MacRecognizer(PatternBacked):
    """A device's hardware (MAC) address: "00:1A:2B:3C:4D:5E", "00-1a-2b-3c-4d-5e", "001a.2b3c.4d5e"; not a
    multicast or broadcast address (the first octet's lowest bit set: a group's, no device's), nor one published for
    documentation (data/reserved_values.yaml)."""

    name, type = "mac_address", "DEVICE_ID"
    wanted, window = re.compile(r"[0-9A-Fa-f]{2}[:-][0-9A-Fa-f]{2}[:-]|[0-9A-Fa-f]{4}\.[0-9A-Fa-f]{4}\."), 64

    def valid(self, value: str) -> bool:
        unicast = not int(value[:2], 16) & 1  # a multicast or broadcast address is a group's
        return unicast and (":" in value or _HEX_LETTER.search(value) is not None)


# A token that is a URL: optional scheme, dotted host whose last label is a known public
# suffix, optional port and path. Linear: a host label cannot be split two ways (it ends at a dot).
_URL = re.compile(r"(?:(?:https?|ftp)://)?(?:[\w-]+\.)+([A-Za-z]{2,63})(?::\d{2,5})?(?:[/?#]\S*)?", re.IGNORECASE)
_URL_TRAILING = ".,;:!?)'\"]>"
_DOTTED_TOKEN = re.compile(r"(?<!\S)[^\s.]*\.\S*")  # the whitespace-separated tokens holding a dot, whole
# A Markdown link's `](` between its text and its target: a URL starts after it as after white space ("See [my
# profile](https://github.com/omarhaddad) and thanks" left the URL in clear, glued to "profile]("; ux26 H0).
_LINK_TARGET = re.compile(r"\]\(")
MAX_URL = 2048


@register_recognizer
class UrlRecognizer(Recognizer):
    """URLs and bare domains (`shop.co.uk/path`), their suffix checked against the offline
    public-suffix list (so `file.txt` or `e.g.` are not URLs), their host not reserved for documentation
    (`reserved.reserved_host`: "www.example.com/privacy"), and no code forge's page of published software the writer
    does not call their own (`public_software`). Presidio's URL pattern takes
    quadratic time on long dotted runs; this one looks at each token once."""

    name, type = "url", "URL"

    def find(self, text: str) -> list[Span]:
        spans = []
        for token in _DOTTED_TOKEN.finditer(text):  # a URL has a dot: the other tokens are not looked at
            for start, end in _link_parts(token):
                spans.extend(self._url(text, start, end))
        return spans

    def _url(self, text: str, start: int, end: int) -> list[Span]:
        """The URL that text[start:end], a token or a link's part, is once its brackets, quotes and trailing
        punctuation are stripped; none if it is no URL."""
        piece = text[start:end]
        value = piece.lstrip("([<'\"").rstrip(_URL_TRAILING)
        if "." not in value or len(value) > MAX_URL:
            return []
        start += piece.index(value)
        match = _URL.fullmatch(value)
        if match and "@" not in value and _is_url(match[0]) and not public_software(text, start, start + len(value)):
            return [self.span(start, start + len(value), 0.6)]
        return []


def _link_parts(token: re.Match[str]) -> Iterator[tuple[int, int]]:
    """Where a dotted token's parts start and end: the token, or a Markdown link's text and target (`_LINK_TARGET`)."""
    start = token.start()
    for mark in _LINK_TARGET.finditer(token[0]):
        yield start, token.start() + mark.start()
        start = token.start() + mark.end()
    yield start, token.end()


_WORD = re.compile(r"\w+")


def public_software(text: str, start: int, end: int) -> bool:
    """Whether the URL text[start:end] is a code forge's page of published software ("https://github.com/simonw/llm/
    releases/tag/v1.2.3", an issue: `reserved.published_software_page`) in a sentence with no word outside it that
    makes it the writer's own ("my", "unser": `forge_owner_words`): a public project's page, no one's personal data."""
    authority, _, path = text[start:end].split("//")[-1].partition("/")
    if not published_software_page(authority.split(":")[0], re.split(r"[?#]", path)[0]):
        return False
    sentence = sentence_around(text, start, end).replace(text[start:end], " ")
    return {word.casefold() for word in _WORD.findall(sentence)}.isdisjoint(forge_owner_words())


def _is_url(value: str) -> bool:
    """Whether a URL-shaped value has a public suffix, a host no documentation site's (`documentation_host`) and,
    written bare (no scheme, path or subdomain), a name longer than one letter: "S.Com" and "S.Coop" close Spanish company names,
    "h.no" is an Indian house number; a one-letter site ("t.co") is public, no one's identifier."""
    host = value.split("//")[-1].split("/")[0].split(":")[0]
    parts = offline_tld()(host)
    if (
        not parts.suffix
        or reserved_host(host)
        or documentation_host(host)
        or _program_key(value, parts.domain, parts.suffix)
    ):
        return False
    return "//" in value or "/" in value.split("//")[-1] or bool(parts.subdomain) or len(parts.domain) > 1


def _program_key(value: str, domain: str, suffix: str) -> bool:
    """Whether a bare value is two lowercase English words (`common_word`) joined by a dot, a program's key or
    attribute ("git config user.email", `self.name`), though "email" and "name" are public suffixes too. From ux22b's
    report (M4); on pii-heldout-c..r, u..x (208 URL spans) it drops 1, "user.name", not annotated, and no annotated
    URL."""
    return value.islower() and value == f"{domain}.{suffix}" and common_word(domain) and common_word(suffix)


# A social or chat handle: "@" with no word, dot, "@" or "]" before it (not an email's domain, nor a bot's:
# "dependabot[bot]@users.noreply.github.com"; in a path
# such as medium.com/@anna_b/post, which the URL recognizer leaves, it is the person's handle too),
# a letter within its 40 characters, ending on a word character; hyphens inside it ("@carlos-m-88", a Venmo handle,
# was cut at its first: "<USERNAME_1>-m-88", ux27's report H9).
_HANDLE = re.compile(r"(?<![\w.@\]])@(?=[\w.-]{0,39}[^\W\d_])\w(?:[\w.-]{0,38}\w)?(?![\w@])")
# ... and no chat shorthand ("see you @noon", "@5pm") or broadcast mention ("@everyone").
_NOT_HANDLE = re.compile(
    r"(?i:everyone|here|channel|all|noon|midnight|home|work|school|night|\d{1,2}(?:[:.]\d\d)?(?:am|pm|h))"
)

# ... nor a Python decorator: "@" opens its line, which holds its arguments at most, and a decorator, "def", "class" or
# "async def" opens the next line. Written from the fit packages of benchmarks/code_negatives.py; on its choose
# packages (740 snippets) USERNAME spans 78 -> 10, snippets flagged 162 -> 129; on pii-heldout-u, v, w (both files
# each) USERNAME found 103 -> 103 of 139, spans right 103 -> 103 of 105.
_DECORATED = re.compile(r"(?:\([^\n]*\))?[ \t]*\n(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:@|def\s|class\s|async\s+def\s)")


def _decorator(text: str, start: int, end: int) -> bool:
    """Whether the handle text[start:end] is a Python decorator (`_DECORATED`)."""
    line_start = text.rfind("\n", 0, start) + 1
    return not text[line_start:start].strip() and _DECORATED.match(text, end) is not None


@register_recognizer
class HandleRecognizer(Recognizer):
    """Social and chat handles ("@lena_rossi92", "@dmitri.volkov"): the name a person goes by online;
    not a brand's ("@Ryanair", "@BritishGas": the brands of public_names.py, without their spaces)."""

    name, type = "handle", "USERNAME"

    def find(self, text: str) -> list[Span]:
        authorities = url_authorities(text)  # "postgres://u:Winter2023!@db.home-lab.net" holds no handle
        return [
            self.span(m.start(), m.end(), 0.8)
            for m in _HANDLE.finditer(text)
            if not _NOT_HANDLE.fullmatch(m[0], 1)
            and name_key(m[0][1:]).replace(" ", "") not in _brand_handles()
            and not inside(authorities, m.start())
            and not _decorator(text, m.start(), m.end())
        ]


@register_recognizer
class UrlUserRecognizer(Recognizer):
    """The user of a URL without a password, everything before its authority's last "@": an EMAIL when it is an
    address ("ssh://lena.rossi@mailbox.org@git.acme.io", "https://marta.kowalski%40gmx.net@portal.acme.io"), else a
    USERNAME ("ftp://jsmith@files.smithfamily.org"). A user with a password is url_password's CREDENTIAL. An account
    every system has is no one's ("ssh://git@gitlab.acme.io", "ssh://root@203.0.113.5": `reserved.generic_account`; on
    benchmarks/data/pii-heldout-c..p, benchmarks/pii_recognizer_gain.py url_user --before main: no span changes)."""

    name, type = "url_user", "USERNAME"

    def find(self, text: str) -> list[Span]:
        spans = []
        for start, end in url_authorities(text):
            at = text.rfind("@", start, end)
            user = text[start:at] if at > start else ""
            if user and ":" not in user and not generic_account(user):
                address = urllib.parse.unquote(user)
                email = "@" in address and _email_domain_known(address)
                spans.append(self.span(start, at, span_type="EMAIL" if email else None))
        return spans


@cache
def _brand_handles() -> frozenset[str]:
    return frozenset(key.replace(" ", "") for key in brands())


@register_recognizer
class UsSsnRecognizer(PatternBacked):
    """US SSNs written 3-2-4 with one kind of separator, not of a range never issued (area 000 or 666,
    group 00, serial 0000, one digit throughout). The published sample numbers (123-45-6789), which
    Presidio drops, are kept: typed by a user they are still an SSN-shaped identifier, masked as one
    rather than left to the phone recognizer."""

    name, type, min_score = "us_ssn", "NATIONAL_ID", 0.3

    def invalid(self, value: str) -> bool:
        digits = "".join(ch for ch in value if ch.isdigit())
        return (
            len({ch for ch in value if ch in ".- "}) > 1
            or len(set(digits)) == 1
            or digits[3:5] == "00"
            or digits[5:] == "0000"
            or digits[:3] in ("000", "666")
        )


# Cheap candidate scan: 7-15 digits with the separators people type. Running
# phonenumbers' own matcher over the whole text is ~5x slower, so it only validates candidates.
# SSN-shaped numbers (3-2-4), dates (with a log line's hour: "2024-11-03 02:00:01"), dotted IPv4s, bare digit
# runs (order numbers, codes) and a year's serial numbers ("2023-0456") are not phone numbers.
_NOT_PHONE = re.compile(
    r"\d{3}-\d{2}-\d{4}|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?:[ T]\d{1,2})?|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,3}(?:\.\d{1,3}){3}|\d{7,9}|(?:19|20)\d\d-\d{3,4}"
)
# The words right before a number that name it as another kind: "Invoice 2024-117", "meeting ID 845 2219 0371", "part number 8843-229".
_OTHER_KIND_BEFORE = re.compile(
    r"\b(?i:invoice|ticket|order|part|item|product|model|serial|isbn|tracking|parcel|shipment|reference|ref|claim|meeting|webinar|zoom|conference|(?:call|room)\s+id|build|version|issue|bug)"
    r"(?i:\s+(?:no\.?|number|num|id|#|code))?\s*(?i:is|was|:|#)?\s*$"
)


@cache
def _other_kind_before_abroad() -> regex.Pattern[str]:
    """The same in the six other languages: a noun of `number_kinds` and a sign of `number_signs` (data/languages/*.yaml)
    right before the number: "Bestellung Nr. 302-1182-44", "commande n° 447-3390", "pedido n.º 2026-88417". The words
    in NFKC, as the text the recognizers read ("n.º" is "n.o" there)."""
    kinds, signs = (
        {unicodedata.normalize("NFKC", word) for code in OTHERS for word in language_file(code)[key]}
        for key in ("number_kinds", "number_signs")
    )
    kind, sign = ("|".join(map(regex.escape, sorted(words, key=len, reverse=True))) for words in (kinds, signs))
    return regex.compile(rf"(?<![\p{{L}}\d])(?i:{kind})[ \t-]*(?i:{sign})[ \t]*:?[ \t]*$")


def other_kind_before(text: str, start: int) -> bool:
    """Whether the words right before `start` name the number there as another kind (an order, an invoice, a ticket)."""
    low = max(0, start - 32)
    return bool(_OTHER_KIND_BEFORE.search(text, low, start) or _other_kind_before_abroad().search(text, low, start))


_FIRST_DIGIT = re.compile(r"\d")
# An area code and a slash before the rest of the number: a trunk-prefixed one ("0176/2345678") or one after the country
# code ("+49 (0) 176 / 234 567 89": the number was cut at the slash, and "+49 (0) 176 / " went out beside the
# placeholder). Not any slash: "28/41307925/27", "2024/118", "4812/5000" were phone numbers then (pii-heldout-c..v,
# data/tagger-natural: 22 texts), with this form none of them.
_AREA_SLASH = (
    r"(?<!/)(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}|0\d{1,4})[ \t]?/[ \t]?\d{2,5}(?:[ .-]?\d{2,5}){0,3}"
)
# The country code after the international prefix 00 as after "+", and the trunk 0 in brackets after it: "0044 (0)20 7946
# 0958" was "0044 <PHONE_1>" (the pattern started at the bracket; ux26 M10).
_PHONE_CANDIDATE = re.compile(
    rf"(?<![\w+.-])(?:{_AREA_SLASH}|(?:(?:\+|00)\d{{1,3}}[ .-]?)?(?:\(\d{{1,4}}\)[ .-]?)?\d{{1,4}}(?:[ .-]?\d{{2,5}}){{1,4}})"
    r"(?![\w-]|\.\d)"
)
# A number spelled digit by digit, each a blank apart ("0 1 7 6 2 3 4 5 6 7 8 9", typed to beat scrapers or pasted so):
# 7 to 15 digits, not part of a longer run of single digits; masked when valid as a whole (`_valid_spelled`). Not
# written from stored data: none of the 19 874 texts of data/ and benchmarks/data holds such a run.
_SPELLED_DIGITS = re.compile(r"(?<![\w+.-])(?<!\d[ \t])(?:\+[ \t]?)?\d(?:[ \t]\d){6,14}(?![\w-]|\.\d|[ \t]\d)")


@register_recognizer
class PhoneRecognizer(Recognizer):
    """Phone numbers (`phonenumbers`): international ones of a possible length, national ones valid in one of `regions`;
    not the digits of a published sample number (`reserved.inside_sample_value`: a sample IBAN's "0417 1643 00").

    A candidate is the longest run of digit groups the pattern reads; the number may be a prefix of it, a number in a
    region of the text's language (`home_regions`) before one elsewhere. "Our helpline 020 7946 0958 24 hours a day":
    "020 7946 0958" (the whole is no number; it was left in clear). "07700 900123 10 minutes": "07700 900123" (the
    whole is a number in Germany only, where the prefix is one too, and in India). "01632 960 448" stays whole (a
    British number of the range kept for fiction, valid in Germany; "01632 960" is not, but in Australia)."""

    name, type = "phone", "PHONE"
    read_by_reader = "PHONE"  # with the tagger, the phone reader tells a private person's from an organisation's line
    regions = ("US", "GB", "DE", "FR", "CA", "AU", "IN")

    @property
    def home_regions(self) -> tuple[str, ...]:
        """The regions of the language the texts it reads are in: English's (`regions` of data/languages/en.yaml)."""
        return _english_regions()

    def find(self, text: str) -> list[Span]:
        spans = []
        for match in _PHONE_CANDIDATE.finditer(text):
            if (
                not 7 <= _digits(match[0]) <= 15
                or _NOT_PHONE.fullmatch(match[0])
                or other_kind_before(text, match.start())
                or inside_sample_value(text, match.start(), match.end())
                or not (end := self.number_end(match[0], bool(_COUNTED.match(text, match.end()))))
            ):
                continue
            if end == len(match[0]):
                spans.append(self.span(*_whole_run(text, match.start(), match.end())))
            else:
                spans.append(self.span(match.start(), match.start() + end))
        for match in _SPELLED_DIGITS.finditer(text):
            if (
                _valid_spelled("".join(match[0].split()), self.regions)
                and not other_kind_before(text, match.start())
                and not inside_sample_value(text, match.start(), match.end())
            ):
                spans.append(self.span(match.start(), match.end()))
        return spans

    def number_end(self, candidate: str, counted: bool = False) -> int | None:
        """Where the phone number the candidate opens with ends (None: it holds none), at the end of one of its
        blank-separated digit groups: the whole candidate when it is a number at home (`home_regions`); when it is one
        only abroad, its longest prefix that is a number at home and in each region the whole is one in, else the whole;
        when it is none, its longest prefix of 7 digits or more that is a number at home, else abroad. A prefix is
        followed only by counts (`_NOT_A_COUNT`); `counted`: the text goes on with a word or "%" after the candidate,
        whose last group then reads as a count of up to `_COUNTED_DIGITS` digits ("020 7946 0958 365 days")."""
        if _valid_phone(candidate, self.home_regions):
            return len(candidate)
        abroad = tuple(region for region in self.regions if _valid_in(candidate, region))
        fallback = len(candidate) if abroad else None
        groups = list(_DIGIT_GROUP.finditer(candidate))
        counts_from = groups[-1].start() if counted and len(groups[-1][0]) <= _COUNTED_DIGITS else len(candidate)
        for group in reversed(groups[:-1]):
            prefix = candidate[: group.end()]
            if _digits(prefix) < 7 or _NOT_A_COUNT.search(candidate, group.end(), counts_from):
                break
            if _NOT_PHONE.fullmatch(prefix):
                continue
            if _valid_phone(prefix, self.home_regions) and all(_valid_in(prefix, region) for region in abroad):
                return group.end()
            if fallback is None and _valid_phone(prefix, self.regions):
                fallback = group.end()
        return fallback


# A group a number may end on: before a blank. Groups joined by dashes or dots are one value: an ID is not cut to a
# number and clear digits ("89.06.17-725.94", a Belgian national number, is not "89.06.17-725" and ".94"). Written
# from a false alarm on pii-heldout-c..k ("Uw bestelling 1092-8841-2277"); on pii-heldout-l and -m, cutting at any
# group would change 12 texts' spans (national numbers, Brazilian CPFs, each a partial or new span), this at none.
_DIGIT_GROUP = re.compile(r"\d+(?!\S)")


# A group of digits after a phone number is a count when it has one or two digits ("our helpline 020 7946 0958 24 hours a
# day", "07700 900123 10 minutes", "01 23 45 67 89 24 h sur 24"); a longer one goes on with the run of digit groups the
# number is part of (an order, a card, an account number): no phone number is cut out of that run ("Pedido 1234 5678
# 9012 enviado" was "1234 5678", valid in Belgium), and a number grows by such a group only (`_ANOTHER_GROUP`). On
# pii-heldout-c..n no span changes (values found, false alarms); of the 5 422 texts of data/ and benchmarks/data with 7
# digits or more, 2 change: a national number and a card number masked whole, no longer a phone number and digits.
_COUNT_DIGITS = 2
_NOT_A_COUNT = re.compile(rf"\d{{{_COUNT_DIGITS + 1},}}")
# A run's last group followed by a word or "%" is a count of up to three digits too, not part of the run: "our helpline
# 020 7946 0958 365 days a year", "020 7946 0958 100% free", "07700 900123 120 parcels" (masked whole: valid in
# Germany) keep their counts; a group of four digits before a word still goes on with the run ("Pedido 1234 5678 9012
# enviado" stays clear). A number valid at home as a whole keeps its last group ("030 1234567 365 Tage": German numbers
# vary in length). Not written from stored data: on pii-heldout-c..n and the 5 871 texts of data/ and benchmarks/data with
# 7 digits or more no span changes (recognizers); on a reviewer's 80 texts (protect CLI) 4 phones change, 2 masked that
# were left in clear, 2 without the count they had swallowed, no other span.
_COUNTED_DIGITS = 3
_COUNTED = re.compile(r"[ \t]?(?:%|[^\W\d_])")


def _digits(value: str) -> int:
    return sum(ch.isdigit() for ch in value)


@cache
def _english_regions() -> tuple[str, ...]:
    return tuple(language_file(ENGLISH)["regions"])


# A group of the run, no count, right after the candidate pattern's match: the pattern stopped at its five groups, not
# at the end of the run ("1 85 07 75 123" of "1 85 07 75 123 456 99", a French social security number whose key does
# not hold). A number followed by a count is no longer run: "0161 496 0000 2 bedrooms", "07700 900123 2 3 times",
# "01 23 45 67 89 24 h sur 24" keep their counts. On pii-heldout-c..n every run grown is a French NIR, each cut at five
# groups.
_ANOTHER_GROUP = re.compile(rf"[ \t]\d{{{_COUNT_DIGITS + 1},5}}(?!\w)")
# A group of digits standing alone, a blank from a phone number's end or start: the number is part of a longer run.
_RUN_GOES_ON = re.compile(r"[ \t]\d+(?!\w)")
_RUN_WENT_BEFORE = re.compile(r"(?<!\w)\d+[ \t]$")
GROUP_REACH = 16  # characters before a number read for a group of the same run


def _whole_run(text: str, start: int, end: int) -> tuple[int, int]:
    """The phone number text[start:end] grown to the run of digit groups it is part of: a run is masked whole, not
    as a phone number and clear digits ("1 85 07 75 123" of "1 85 07 75 123 456 99", a French social security number
    whose key does not hold, was masked and "456 99" left). Only a number the candidate pattern cut (_ANOTHER_GROUP)."""
    if not _ANOTHER_GROUP.match(text, end):
        return start, end
    while grown := _RUN_GOES_ON.match(text, end):
        end = grown.end()
    while grown := _RUN_WENT_BEFORE.search(text, max(0, start - GROUP_REACH), start):
        start = grown.start()
    return start, end


@lru_cache(maxsize=4096)  # a chat re-sends its history every turn: the same numbers come back
def _valid_phone(candidate: str, regions: tuple[str, ...]) -> bool:
    """A national number valid in one of `regions`; an international one (+country code) of a length
    its country's numbers have: the numbering plan need not list its range ("+44 7700 900456", in
    Ofcom's range for fiction, or a range allocated after phonenumbers' metadata)."""
    if candidate.startswith("+"):
        number = parse_phone(candidate, regions[0])
        return number is not None and phonenumbers.is_possible_number(number)
    return any(_valid_in(candidate, region) for region in trunk_first(_FIRST_DIGIT.search(candidate)[0], regions))


def _valid_spelled(digits: str, regions: tuple[str, ...]) -> bool:
    """A number spelled digit by digit (`_SPELLED_DIGITS`, blanks removed) valid in one of `regions` as a whole; written
    nationally, with the trunk prefix its region dials, if that is 0 ("0 1 7 6 ..." in Germany, "6 1 2 ..." in Spain):
    a list of digits that happens to be a German number without its 0 is no phone number."""
    if digits.startswith("+"):
        number = parse_phone(digits, regions[0])
        return number is not None and phonenumbers.is_valid_number(number)
    return any(_valid_in(digits, region) and (digits[0] == "0" or _trunk_prefix(region) != "0") for region in regions)


@lru_cache(maxsize=16384)
def _valid_in(candidate: str, region: str) -> bool:
    """A national number valid in `region`. Cached apart: a language's national recognizer (languages.py) asks for its
    country what the phone recognizer asked for the same candidate (German 1 KB prompts of
    benchmarks/proxy_overhead.py: national_phone_de's CPU per text, two runs: 0.13, 0.12 -> 0.09, 0.08 ms)."""
    number = parse_phone(candidate, region)
    return number is not None and phonenumbers.is_valid_number(number)


@cache
def trunk_first(digit: str, regions: tuple[str, ...]) -> tuple[str, ...]:
    """`regions`, those whose national (trunk) prefix is a number's first `digit` first ("0171 ...": the regions
    dialling 0 before the US and Canada, which dial 1), each group in its order. `_valid_phone`'s answer is the same
    in any order; a national number is valid in its own region, so it is found after fewer failed tries (the phone
    recognizer's CPU per 1 KB prompt of benchmarks/proxy_overhead.py, two runs: German 0.37 -> 0.25 ms, English 0.18
    -> 0.18 ms)."""
    return tuple(sorted(regions, key=lambda region: _trunk_prefix(region) != digit))


@cache
def _trunk_prefix(region: str) -> str:
    """The digits dialled before a national number in `region` (phonenumbers' metadata): "0" in Germany, "1" in the US."""
    return phonenumbers.PhoneMetadata.metadata_for_region(region).national_prefix or ""
