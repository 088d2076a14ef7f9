"""Values no person owns: host names reserved for documentation and testing (example.com, *.test), the IP
addresses that reach no host on the public internet (`ipaddress`'s `is_global`: private, documentation, loopback,
link-local, unspecified), public resolvers' addresses (8.8.8.8), the accounts every system has ("root", "git") and the
card, IBAN and national ID numbers published as test or specimen values (4242 4242 4242 4242, DE89 3704 0044 0532
0130 00, RSSMRA80A01H501U). The names, resolvers, accounts and sample numbers, with their RFC or source, are
data/reserved_values.yaml.

The email, URL and IP recognizers leave the names and addresses, the card, IBAN and national ID recognizers the sample
numbers (`sample_value`; its gain is in the yaml). The names and addresses, measured with the PII tagger on, on the
texts of benchmarks/data/pii-heldout-{c..k} (benchmarks/pii_false_alarms.py, benchmarks/pii_registers.py): English texts
without personal data flagged 400 -> 367 of 1 200, the six other languages' 395 -> 388 of 1 260; annotated values
lost: 1 email of 146 and 7 IP addresses of 58 (English, c-e), none in the other languages. Each rule's share is
beside it (`reserved_ip`, data/reserved_values.yaml)."""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from functools import cache

from stealthflow.resources import data_yaml

RESERVED_VALUES = "reserved_values.yaml"


@cache
def _reserved() -> dict:
    return data_yaml(RESERVED_VALUES)


@cache
def _domains() -> frozenset[str]:
    return frozenset(name.lower() for name in _reserved()["domains"])


@cache
def _public_services() -> frozenset[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    return frozenset(ipaddress.ip_address(address) for address in _reserved()["public_services"])


@cache
def _accounts() -> frozenset[str]:
    return frozenset(_reserved()["accounts"])


def generic_account(name: str) -> bool:
    """Whether `name` is an account every system has, or a placeholder for one ("root", "git", "your_username")."""
    return name.casefold() in _accounts()


@cache
def _documentation_sites() -> frozenset[str]:
    return frozenset(name.lower() for name in _reserved()["documentation_sites"])


@cache
def _forges() -> dict[str, frozenset[str]]:
    return {key: frozenset(entry.lower() for entry in entries) for key, entries in _reserved()["code_forges"].items()}


def forge_owner_words() -> frozenset[str]:
    """The words that make a code forge's page the writer's own ("my", "unser": `owner_words` of `code_forges`)."""
    return _forges()["owner_words"]


def published_software_page(host: str, path: str) -> bool:
    """Whether `host` + `path` is a code forge's page of published software: a release, tag, archive, issue or pull
    request of a repository ("github.com" + "/simonw/llm/releases/tag/v1.2.3"; `code_forges`)."""
    if host.lower() not in _forges()["hosts"]:
        return False
    segments = [segment for segment in path.split("/") if segment]
    if segments[2:3] == ["-"]:  # GitLab: "/owner/repo/-/releases"
        del segments[2]
    return len(segments) > 2 and segments[2].lower() in _forges()["sections"]


def _under(host: str, names: frozenset[str]) -> bool:
    """Whether `host` is one of `names` or lies under one."""
    labels = host.lower().rstrip(".").split(".")
    return any(".".join(labels[i:]) in names for i in range(len(labels)))


def documentation_host(host: str) -> bool:
    """Whether `host` is a documentation site's or lies under one ("docs.python.org", "flask.readthedocs.io")."""
    return _under(host, _documentation_sites())


def reserved_host(host: str) -> bool:
    """Whether `host` is a reserved name or lies under one ("events.example.org", "acme.example", "db.test")."""
    return _under(host, _domains())


def reserved_ip(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether `address` reaches no host on the public internet, or is a public resolver's.

    Addresses that reach no public host, alone (pii-heldout-{c..k}, tagger on): English texts without personal
    data un-flagged 11, other languages' 7; 33 fewer IP spans outside the annotated values of texts with personal
    data; lost 7 annotated English values, documentation or private addresses that sets c-e marked when tied to a
    person (203.0.113.57, 198.51.100.23, 10.20.4.17, ...): the conventions of sets f-k leave such addresses unmarked."""
    if address.version == 6 and address.teredo:  # 2001::/32, not global, carries its client's public IPv4 and port
        return reserved_ip(address.teredo[1])
    return not address.is_global or address in _public_services()


def _letters_and_digits(value: str) -> str:
    """`value` without its spaces and punctuation, upper-case, in NFKC ("de89-3704..." and "DE89 3704 ..." are one)."""
    return "".join(ch for ch in unicodedata.normalize("NFKC", value) if ch.isalnum()).upper()


@cache
def _sample_values(kind: str) -> frozenset[str]:
    return frozenset(_letters_and_digits(str(value)) for value in _reserved()["sample_values"].get(kind, ()))


@cache
def _sample_prefixes(kind: str) -> tuple[str, ...]:
    return tuple(str(prefix) for prefix in _reserved()["sample_prefixes"].get(kind, ()))


@cache
def _sample_notes() -> dict[str, str]:
    """Each listed sample number (letters and digits only) -> its note in data/reserved_values.yaml."""
    return {
        _letters_and_digits(str(value)): str(note or kind)
        for kind, values in _reserved()["sample_values"].items()
        for value, note in values.items()
    }


@cache
def _sample_pattern() -> re.Pattern[str]:
    """Every listed sample number as written anywhere: a space, dot, dash or slash may stand between two characters."""
    spelt = (r"[ ./-]?".join(map(re.escape, key)) for key in sorted(_sample_notes(), key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?i:{'|'.join(spelt)})(?!\w)")


def samples_in(text: str) -> list[tuple[int, int, str]]:
    """The listed sample numbers `text` writes, each with where it is and its note ("IBAN registry example, Germany"):
    for `protect --explain`, which says why such a number was left (ux20's report LOW-1)."""
    return [(m.start(), m.end(), _sample_notes()[_letters_and_digits(m[0])]) for m in _sample_pattern().finditer(text)]


def sample_value(kind: str, value: str) -> bool:
    """Whether `value`, a number the recognizer `kind` found ("credit_card", "iban", "nl_bsn", ...), is one published
    as a test, sample or specimen value, or opens a range its issuer keeps out of issue ("999 ..." NHS numbers)."""
    key = _letters_and_digits(value)
    return key in _sample_values(kind) or key.startswith(_sample_prefixes(kind))


@cache
def _every_sample_value() -> tuple[str, ...]:
    return tuple(sorted({value for kind in _reserved()["sample_values"] for value in _sample_values(kind)}))


SAMPLE_REACH = 42  # characters read on each side of a value for the sample number it is part of: a spaced IBAN's length


def inside_sample_value(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is one of the listed sample numbers, or part of one written around it: the phone
    recognizers leave the digits of a sample IBAN ("0417 1643 00" of "NL91 ABNA 0417 1643 00") or a sample NHS number
    ("943 476 5919"), which the IBAN and NHS recognizers leave. On pii-heldout-{k..p}, rules alone: 5 phone spans of
    texts without personal data that dropping the sample values would add, none added; no other span changes."""
    part = _letters_and_digits(text[start:end])
    around = _letters_and_digits(text[max(0, start - SAMPLE_REACH) : end + SAMPLE_REACH])
    return any(part in sample and sample in around for sample in _every_sample_value())
