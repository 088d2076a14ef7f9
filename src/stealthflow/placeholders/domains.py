"""Host names, offline: whether one ends in a public suffix ("example.org", not "jule.kaffeeklatsch"), and
whether one may be an email address's domain; where a URL's authority (its user, password, host and port) is."""

from __future__ import annotations

import bisect
import math
import mimetypes
import re
from functools import cache

from stealthflow.resources import listed_words, resource_dir

# A host name of the address's own network ("billing.internal", "nas.local", "build-01.corp", "router.lan"):
# dotted labels, the last of letters
_PRIVATE_DOMAIN = re.compile(r"(?:[\w-]+\.)+([^\W\d_]{2,63})")
# A URL's authority (RFC 3986 `scheme://[user[:password]@]host[:port]`): from "://" to the next "/", "?", "#",
# space, quote or angle bracket. An @ in it ends the user and password (`postgresql://admin:S3cr3t@10.0.3.17:5432`).
URL_AUTHORITY = re.compile(r"://([^\s/?#\"'<>]+)")


def url_authorities(text: str) -> list[tuple[int, int]]:
    """(start, end) of each URL authority in `text` (after its "://"), in order."""
    return [match.span(1) for match in URL_AUTHORITY.finditer(text)] if "://" in text else []


def url_hosts(text: str) -> list[tuple[int, int]]:
    """(start, end) of each URL's host and port in `text` (its authority after the user and password), in order."""
    hosts = []
    for start, end in url_authorities(text):
        at = text.rfind("@", start, end)
        hosts.append((at + 1 if at >= 0 else start, end))
    return hosts


def inside(ranges: list[tuple[int, int]], position: int) -> bool:
    """Whether `position` is inside one of `ranges` (disjoint, in order: `url_authorities`, `url_hosts`)."""
    at = bisect.bisect_right(ranges, (position, math.inf))
    return at > 0 and ranges[at - 1][1] > position


@cache
def offline_tld():
    """tldextract's extractor on the public-suffix list bundled with it (its default one downloads the
    list on first use): nothing waits on the network. Imported when a text first holds an address or a
    domain (tldextract imports `requests`: a fifth of a second of a cold command)."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


FILE_EXTENSIONS = "file_extensions.txt"  # the extensions `mimetypes` lacks ("md", "yml"), under the data directory
# One word of a file name: letters, digits, "_" and "-", dotted, no "/", "@" or ":" ("rt-notes.md", "build.yml")
_FILE_NAME = re.compile(r"[\w-]+(?:\.[\w-]+)*\.(\w+)")


@cache
def _file_types() -> frozenset[str]:
    """The file name extensions Python's `mimetypes` knows (its own table, not the system's), and those of
    data/file_extensions.txt: "icon@2x.png" and "notes.md" are files."""
    known = frozenset(extension[1:] for extension in mimetypes.MimeTypes(filenames=()).types_map[True])
    return known | listed_words(resource_dir("data") / FILE_EXTENSIONS)


def file_name(value: str) -> bool:
    """Whether `value` is one file name, its extension a file type ("rt-notes.md", "rt-code.py"), though a host name
    may take that form (".md" and ".py" are countries' suffixes)."""
    match = _FILE_NAME.fullmatch(value)
    return match is not None and match[1].lower() in _file_types()


def public_host(host: str) -> bool:
    """Whether `host` ends in a public suffix ("nhs.uk", "gmail.com"), not a name of a private network ("nas.local")."""
    return bool(offline_tld()(host).fqdn)


def email_domain(host: str) -> bool:
    """Whether `host` may be an email address's domain: a name with a public suffix, or any host name of letters,
    digits and hyphens whose last label is letters (a company's `.internal`, `.corp`, `.lan`, `.local`) and no
    file type."""
    if public_host(host):
        return True
    domain = _PRIVATE_DOMAIN.fullmatch(host)
    return domain is not None and domain[1].lower() not in _file_types()
