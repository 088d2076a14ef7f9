"""Values no person owns: host names reserved for documentation and testing (example.com, *.test), the IP
addresses that reach no host on the public internet (`ipaddress`'s `is_global`: private, documentation, loopback,
link-local, unspecified), public resolvers' addresses (8.8.8.8) and the accounts every system has ("root", "git").
The names, resolvers and accounts, with their RFC or source, are data/reserved_values.yaml.

The email, URL and IP recognizers leave these values. Measured with the PII tagger on, on the texts of
benchmarks/data/pii-heldout-{c..k} (benchmarks/pii_false_alarms.py, benchmarks/pii_registers.py): English texts
without personal data flagged 400 -> 367 of 1 200, the six other languages' 395 -> 388 of 1 260; annotated values
lost: 1 email of 146 and 7 IP addresses of 58 (English, c-e), none in the other languages. Each rule's share is
beside it (`reserved_ip`, data/reserved_values.yaml).

Card numbers and IBANs are not here: a published test card or sample IBAN stays masked (a false alarm there costs
little, and the demo relies on it)."""

from __future__ import annotations

import ipaddress
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


def reserved_host(host: str) -> bool:
    """Whether `host` is a reserved name or lies under one ("events.example.org", "acme.example", "db.test")."""
    labels = host.lower().rstrip(".").split(".")
    return any(".".join(labels[i:]) in _domains() for i in range(len(labels)))


def reserved_ip(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether `address` reaches no host on the public internet, or is a public resolver's.

    Addresses that reach no public host, alone (pii-heldout-{c..k}, tagger on): English texts without personal
    data un-flagged 11, other languages' 7; 33 fewer IP spans outside the annotated values of texts with personal
    data; lost 7 annotated English values, documentation or private addresses that sets c-e marked when tied to a
    person (203.0.113.57, 198.51.100.23, 10.20.4.17, ...): the conventions of sets f-k leave such addresses unmarked."""
    if address.version == 6 and address.teredo:  # 2001::/32, not global, carries its client's public IPv4 and port
        return reserved_ip(address.teredo[1])
    return not address.is_global or address in _public_services()
