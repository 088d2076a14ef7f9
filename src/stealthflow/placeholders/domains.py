"""Host names, offline: whether one ends in a public suffix ("example.org", not "jule.kaffeeklatsch"), and
whether one may be an email address's domain."""

from __future__ import annotations

import mimetypes
import re
from functools import cache

# A host name of the address's own network ("billing.internal", "nas.local", "build-01.corp", "router.lan"):
# dotted labels, the last of letters
_PRIVATE_DOMAIN = re.compile(r"(?:[\w-]+\.)+([^\W\d_]{2,63})")


@cache
def offline_tld():
    """tldextract's extractor on the public-suffix list bundled with it (its default one downloads the
    list on first use): nothing waits on the network. Imported when a text first holds an address or a
    domain (tldextract imports `requests`: a fifth of a second of a cold command)."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


@cache
def _file_types() -> frozenset[str]:
    """The file name extensions Python's `mimetypes` knows (its own table, not the system's): "icon@2x.png" is a file."""
    return frozenset(extension[1:] for extension in mimetypes.MimeTypes(filenames=()).types_map[True])


def email_domain(host: str) -> bool:
    """Whether `host` may be an email address's domain: a name with a public suffix, or any host name of letters,
    digits and hyphens whose last label is letters (a company's `.internal`, `.corp`, `.lan`, `.local`) and no
    file type."""
    if offline_tld()(host).fqdn:
        return True
    domain = _PRIVATE_DOMAIN.fullmatch(host)
    return domain is not None and domain[1].lower() not in _file_types()
