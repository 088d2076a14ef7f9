"""One filter per label: what a model's span must look like (`plausible`) and what its surroundings
must show (`in_context`), where the model alone over-reaches on text it was not trained on. A
filter's `in_context` names the rule that kept the span, or returns None to drop it (told whether the text may be
English: outside it some leave a span to its label's context model, filters/unlisted.py). A label without a filter
keeps every span."""

from __future__ import annotations

from functools import lru_cache

from stealthflow.pii_tagger.filters import address, credential, employer, finance, health, real_name

FILTERS = {
    "REAL_NAME": real_name,
    "ADDRESS": address,
    "EMPLOYER": employer,
    "HEALTH": health,
    "FINANCE": finance,
    "CREDENTIAL": credential,
}
NO_FILTER = "no filter for its label"


@lru_cache(maxsize=256)  # the spans of a long token grow to one secret: it is judged once; cleared after each batch
def kept(label: str, text: str, start: int, end: int, english: bool = True) -> str | None:
    """Why the `label` span text[start:end] is kept ("<label> filter: <rule>"), None if it is dropped. `english`: the
    text may be English (the detector's guess), where the name filter reads English's articles (`real_name._ARTICLES`)."""
    if end <= start:
        return None
    chosen = FILTERS.get(label)
    if chosen is None:
        return NO_FILTER
    if not chosen.plausible(text[start:end]):
        return None
    reason = chosen.in_context(text, start, end, english)
    return f"{label.lower()} filter: {reason}" if reason else None
