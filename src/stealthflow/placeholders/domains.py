"""Public suffixes, offline: whether a host name ends in one ("example.org", not "jule.kaffeeklatsch")."""

from __future__ import annotations

from functools import cache


@cache
def offline_tld():
    """tldextract's extractor on the public-suffix list bundled with it (its default one downloads the
    list on first use): nothing waits on the network. Imported when a text first holds an address or a
    domain (tldextract imports `requests`: a fifth of a second of a cold command)."""
    import tldextract

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
