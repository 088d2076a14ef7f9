"""Stand-ins for chains, shops, banks, transit networks and country-specific institutions: the generic noun of their
kind, in the name's slot.

"Tesco meal deal", "grabbed a coffee at Tim Hortons", "the TTC was down" say where the author lives; "at the
supermarket", "the coffee shop", "the train was down" say only what the place is, which is true and tells no
country. The names and their nouns are data: `data/generalize/brand_kinds.tsv`, built from the OpenStreetMap Name
Suggestion Index and the hand-written kind table `data/generalize/brand_kinds.yaml` (`stealthflow tagger brand-kinds`,
provenance in data/README.md), and the hand-written table of institutions, exams, schemes and acronyms
`data/generalize/institution_kinds.tsv` ("the NHS" -> "the health service", "my GCSEs" -> "my exams"). A stand-in is a candidate like any other: the meaning floor and the acceptance gate
decide whether it is taken (`stealthflow.anonymize.generalize`).
"""

from __future__ import annotations

from functools import cache

from stealthflow.anonymize import syntax
from stealthflow.placeholders.recognizers.public_names import name_key
from stealthflow.resources import resource_dir

#: the tables read, a later one's noun winning for a name in both
KINDS = ("generalize/brand_kinds.tsv", "generalize/institution_kinds.tsv")
#: the most words a name is looked up with ("Bank of Nova Scotia")
MAX_WORDS = 5
#: words that open a noun phrase before a name: kept in front of the stand-in ("at", "my", "the")
_LEAD_TAGS = {"ADP", "DET"}
#: dependencies of a name that modifies the noun after it ("a Tesco meal deal", "my Woolworths run")
_MODIFYING = {"compound", "nmod", "amod"}


#: the kinds of brand_kinds.tsv that are transit networks, their lines and passes (one a line)
TRANSIT_KINDS = "generalize/transit_kinds.txt"


@cache
def kinds() -> dict[str, str]:
    """Name (as looked up: `name_key`) -> the generic noun of its kind ("#" opens a comment line)."""
    return {name: noun for table in KINDS for name, noun in _table(table).items()}


@cache
def place_names() -> frozenset[str]:
    """The names (`name_key`) that tell a reader the country or city: a transit network's (a kind of
    `TRANSIT_KINDS`) and every country-specific institution's; a chain's or a shop's are not among them."""
    transit = set(_lines(TRANSIT_KINDS))
    brands, institutions = (_table(table) for table in KINDS)
    return frozenset(name for name, noun in brands.items() if noun in transit) | frozenset(institutions)


@cache
def _place_name_firsts() -> frozenset[str]:
    """The first word of each of `place_names`: a post holding none of them is not parsed."""
    return frozenset(name.partition(" ")[0] for name in place_names())


def place_name_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each whole name of `place_names` written with a capital in `text`; a post with no word
    that opens such a name is not parsed."""
    names, firsts = place_names(), _place_name_firsts()
    capitalised = (word for word in text.split() if word[:1].isupper() or word[:1].isdigit())
    if not any(key in firsts for word in capitalised for key in name_key(word).split()[:1]):
        return []
    doc = syntax.parse(text)
    spans = []
    for token in doc:
        named = _capitalised(token) and brand_at(doc, token.i, len(doc))
        if not named:
            continue
        # brand_at reads "Luas ," as "Luas": the name ends at its last word
        after = next((i + 1 for i in range(named[0] - 1, token.i, -1) if not doc[i].is_punct), token.i + 1)
        if _whole_name(doc, token.i, after) and name_key(doc[token.i : after].text) in names:
            spans.append((token.idx, doc[after - 1].idx + len(doc[after - 1])))
    return spans


def _table(table: str) -> dict[str, str]:
    return {name_key(name): noun for name, _, noun in (line.partition("\t") for line in _lines(table))}


def _lines(table: str) -> list[str]:
    """The lines of a data file that are neither empty nor a comment ("#")."""
    text = (resource_dir("data") / table).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def brand_at(doc, first: int, last: int) -> tuple[int, str] | None:
    """(the token after it, its noun) for the longest name of `kinds` that starts at token `first` and ends by token
    `last`, or None."""
    table = kinds()
    for end in range(min(last, first + MAX_WORDS), first, -1):
        if doc[end - 1].tag_ != "POS" and (noun := table.get(name_key(doc[first:end].text))) is not None:
            return end, noun
    return None


def holds_brand(text: str) -> bool:
    """Some word of `text` written with a capital opens a whole name of `kinds`."""
    doc = syntax.parse(text)
    return any(
        _capitalised(token) and (named := brand_at(doc, token.i, len(doc))) and _whole_name(doc, token.i, named[0])
        for token in doc
    )


def stand_in(sentence: str, start: int, end: int) -> tuple[str, str, str] | None:
    """When a whole name of `kinds` written with a capital lies in sentence[start:end] (the first, after the phrase's
    preposition, determiner and modifiers): (the words before the name, the noun phrase in its place, the words after
    it), the noun phrase fitting the name's slot: "Tesco" -> "the supermarket", "at Tesco" -> "at" + "the
    supermarket", "Tesco's meal deal" -> "the supermarket's" + " meal deal"; a modifier ("a Tesco meal deal") or a name
    behind a determiner ("the TTC", "the 6am Caltrain", "my Tesco") -> the bare noun. None otherwise, and for a name
    behind "a"/"an" heading a phrase that is no preposition's object: "grabbed a Tim Hortons" is its coffee, not the
    shop ("at an OXXO" is the shop)."""
    span = syntax.phrase(sentence, start, end)
    if span is None:
        return None
    doc = span.doc
    lead = next((t.i for t in span if t.pos_ not in _LEAD_TAGS and t.tag_ != "PRP$"), span.end)
    found = next(
        (
            (t.i, *named)
            for t in doc[lead : span.end]
            if _capitalised(t) and (named := brand_at(doc, t.i, span.end)) and _whole_name(doc, t.i, named[0])
        ),
        None,
    )
    if found is None:
        return None
    first, after, noun = found
    last = doc[after - 1]
    owner = last.dep_ == "poss"  # "Tesco's meal deal"; not "at Sainsbury's", whose "'s" is the name's
    if after < len(doc) and doc[after].tag_ == "POS":
        if after == span.end and not owner:  # the name's "'s" outside the phrase would stay behind the stand-in
            return None
        after += after < span.end
    determiner = _determiner(doc, first, last)
    if owner or last.dep_ not in _MODIFYING and determiner is None:
        phrase = noun if determiner is not None else f"the {noun}"
        phrase += "'s" if owner and doc[after - 1].tag_ == "POS" else ""
    elif last.dep_ in _MODIFYING or last.dep_ == "pobj" or determiner.lower_ not in {"a", "an"}:
        phrase = noun  # "a Tesco meal deal", "at an OXXO", "the TTC"
    else:
        return None
    cut = doc[after - 1].idx + len(doc[after - 1])
    return sentence[start : doc[first].idx], phrase, sentence[cut:end]


def _capitalised(token) -> bool:
    """A name is looked up where it is written as one: "Mega", "OXXO", "Tesco"; never "mega"."""
    return token.text[:1].isupper() or token.text[:1].isdigit()


def _whole_name(doc, first: int, after: int) -> bool:
    """doc[first:after] is a whole name, no part of a longer one ("Nowa" of "Nowa Huta", "Norte" of "Roma Norte")."""
    return not any(0 <= i < len(doc) and doc[i].pos_ == "PROPN" and _capitalised(doc[i]) for i in (first - 1, after))


def _determiner(doc, first: int, last):
    """The determiner or possessive of the name doc[first:last.i + 1]: right before it ("a Tesco meal deal") or
    before its modifiers ("the 6am Caltrain"); None when it has none."""
    left = min(last.left_edge.i, first - 1) if first else 0
    return next((t for t in reversed(doc[max(left, 0) : first]) if t.pos_ == "DET" or t.tag_ == "PRP$"), None)
