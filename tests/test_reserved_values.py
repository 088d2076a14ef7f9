"""Values no person owns (placeholders/reserved.py, data/reserved_values.yaml): the email, URL and IP recognizers
leave documentation domains, addresses that reach no public host and public resolvers; personal values beside them
stay masked, and published test cards and sample IBANs stay masked on purpose."""

from __future__ import annotations

import pytest

from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.recognizers import build_recognizers
from stealthflow.placeholders.reserved import reserved_host

DETECTOR = Detector(build_recognizers())


def found(text: str) -> list[tuple[str, str]]:
    return [(s.type, text[s.start : s.end]) for s in DETECTOR.detect(text)]


@pytest.mark.parametrize(
    "text",
    [
        "The sample data in the onboarding wizard uses john.doe@example.com, which confuses our users.",
        "The IT helpdesk (ext. 2000, helpdesk@company.example) will have a skeleton crew.",
        "CONTACT_EMAIL=admin@example.org",
        "Seed the staging users with qa@db.test and nobody@host.invalid.",
        "You can read the full policy at www.example.com/privacy.",
        "Status updates at status.example.com, or reset at https://accounts.example.net/reset.",
    ],
)
def test_documentation_domains_are_no_ones_email_or_url(text):
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "$ ping -c 2 192.168.1.1",
        '10.0.0.5 - - [04/Nov/2024:12:00:01 +0000] "GET /health HTTP/1.1" 200 2',
        "Firewall log shows repeated SSH attempts from 203.0.113.45 and 198.51.100.7 overnight.",
        "Please whitelist the documentation range 192.0.2.0/24 and 2001:db8::/32 in the test environment.",
        "The printer fell back to 169.254.12.7 and the carrier NAT hands out 100.64.3.9.",
        "ping 8.8.8.8 -c 3, then set the resolvers to 1.1.1.1 and 2606:4700:4700::1111.",
    ],
)
def test_addresses_that_reach_no_public_host_and_public_resolvers_are_no_ones(text):
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("new email is r.nakamura.1990@proton.me, the old yahoo one got hacked", "r.nakamura.1990@proton.me", "EMAIL"),
        ("Questions? customer.care@example-shop.com", "customer.care@example-shop.com", "EMAIL"),
        ("My profile https://community.example-forum.net/u/ravi", "https://community.example-forum.net/u/ravi", "URL"),
        ('failed login for user "k.hoffmann" from 91.64.118.203 (Home-Office)', "91.64.118.203", "IP_ADDRESS"),
        ("ssh me@2a00:23c6:9fb::3e -p 2222 should work now", "2a00:23c6:9fb::3e", "IP_ADDRESS"),
        # a Teredo address (2001::/32, not global to `ipaddress`) holds its client's public IPv4: 84.112.57.203
        (
            "My Teredo address is 2001:0:4136:e378:8000:63bf:ab8f:c634 if that helps.",
            "2001:0:4136:e378:8000:63bf:ab8f:c634",
            "IP_ADDRESS",
        ),
    ],
)
def test_a_personal_value_on_a_public_domain_or_address_stays_masked(text, value, kind):
    assert (kind, value) in found(text)


@pytest.mark.parametrize(
    ("text", "value", "kind"),
    [
        ("the Stripe test card 4242 4242 4242 4242 works in test mode", "4242 4242 4242 4242", "CREDIT_CARD"),
        ("Beispiel-IBAN aus der Doku: DE89 3704 0044 0532 0130 00.", "DE89 3704 0044 0532 0130 00", "IBAN"),
    ],
)
def test_published_test_cards_and_sample_ibans_stay_masked(text, value, kind):
    assert (kind, value) in found(text)


@pytest.mark.parametrize(
    ("host", "reserved"),
    [
        ("example.org", True),
        ("EVENTS.Example.COM", True),
        ("acme.example", True),
        ("localhost", True),
        ("example-shop.com", False),
        ("myexample.org", False),
        ("example.co.uk", False),
    ],
)
def test_a_host_is_reserved_when_it_is_or_lies_under_a_reserved_name(host, reserved):
    assert reserved_host(host) is reserved
