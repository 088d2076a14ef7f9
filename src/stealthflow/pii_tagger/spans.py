"""Span shaping: a model's span trimmed or grown to the whole value (a name without the words it ran on
into, a secret's whole token, a condition's and an amount's whole name).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from stealthflow.pii_tagger.filters.employer import FIRM_OR_INSTITUTION
from stealthflow.pii_tagger.filters.finance import AMOUNT, MONEY
from stealthflow.pii_tagger.lexicons import alternation, name_lexicon
from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.placeholders.common_words import function_word
from stealthflow.placeholders.language import OTHERS, elisions, function_word_of_covered, language_file
from stealthflow.placeholders.recognizers.public_names import brand, city_names, name_key, region_names
from stealthflow.placeholders.recognizers.secrets import secret_word_length
from stealthflow.placeholders.recognizers.sentences import capitalises, signature_end
from stealthflow.resources import data_yaml
from stealthflow.sentence_ends import sentence_ends, words_end

_TRIM = " \t\n,;:.!?\"'()[]-–—"  # a sentence's punctuation around a value is not part of it (a list's or an aside's dash too)


_NAME_WORD = re.compile(r"\S+")


def capitalised_part(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span without the lowercase words at its ends, where the writer capitalises names: the
    model runs on into the sentence ("Nvidia overvalued", "rob Peter"). Words inside stay ("Ludwig
    van Beethoven"), as do words with a capital anywhere ("al-Zahra", "d'Arc") and words of scripts without case."""
    return _without_end_words(text, start, end, _lowercase_word)  # all lowercase: as it is, and not_a_name decides


def _without_end_words(text: str, start: int, end: int, dropped, first: bool = True) -> tuple[int, int]:
    """text[start:end] from its first (`first`; else from `start`) to its last word for which `dropped(word)` is false
    (the words between stay); as it is if there is none."""
    kept = [word for word in _NAME_WORD.finditer(text, start, end) if not dropped(word.group())]
    return (kept[0].start() if first else start, kept[-1].end()) if kept else (start, end)


def _lowercase_word(word: str) -> bool:
    return any(c.islower() for c in word) and not any(c.isupper() for c in word)


_LEADING_DASH = re.compile(r"(?:[^\w\s]+\s+)?")
# What ends a secret: a space, quote, bracket or a separator between a name and its value.
_SECRET_BREAK = re.compile(r"[\s\"'“”‘’`()<>\[\]{},;:=|/]")


def whole_secret(text: str, start: int, end: int) -> tuple[int, int]:
    """A model's secret span grown to the whole token it sits in: the model stops short of a symbol
    ("Secur3Pass" of "Secur3Pass!", "Yellow3" of "Mellow!Yellow3"); a full stop or a question mark after it
    ends the sentence ("card ending 4242?"). The token's ends are looked up among the text's breaks, found once
    (`_secret_breaks`): a span inside a long token does not walk it again."""
    breaks = _secret_breaks(text)
    at = bisect_left(breaks, start)
    start = min(start, breaks[at - 1] + 1 if at else 0)
    at = bisect_left(breaks, end, at)
    grown = max(end, breaks[at] if at < len(breaks) else len(text))
    while grown > end and text[grown - 1] in _SECRET_SENTENCE_END:
        grown -= 1
    return start, grown


_QUOTES = "\"'`"


def _within_quotes(start: int, end: int, text: str) -> tuple[int, int]:
    """A secret a quote opens ends at the same quote, which closes it: the token of `get("DB_PASSWORD",
    "hunter2-Winter2026!")` runs on to the code's `")` (ux26 M1: the cloud got broken code, and the same secret in
    `{"password": "hunter2-Winter2026!"}` another placeholder)."""
    if start < end and text[start] in _QUOTES:
        quote, start = text[start], start + 1
    elif start and text[start - 1] in _QUOTES:
        quote = text[start - 1]
    else:
        return start, end
    close = text.find(quote, start, end)
    return (start, close) if close > start else (start, end)


# What ends a sentence after a secret, not the secret: of the 683 secrets annotated in benchmarks/data/pii-heldout-c
# to -k and data/tagger-natural/, none ends with "." or "?", 57 end with "!" (which stays in the value).
_SECRET_SENTENCE_END = ".?"


@lru_cache(maxsize=1)  # the text of the last span grown; cleared after each batch (find_many)
def _secret_breaks(text: str) -> list[int]:
    return [match.start() for match in _SECRET_BREAK.finditer(text)]


# The word that ends a condition's name, where the model tagged only its first word or two: "kidney"
# of "stage 3 kidney disease", "social" of "social anxiety", "Meniere" of "Meniere's disease".
_CONDITION_HEAD = re.compile(rf"(?i:{alternation('condition_heads')})")
_CONDITION_REST = re.compile(r"(?:['’]s)?(?:[ \t-]+[\w'’]+){1,2}")


def _whole_condition(text: str, end: int) -> int:
    """Where a condition whose tagged part ends at `end` ends: past the last of the next two words
    (on the same line, no punctuation between) that ends a condition's name; `end` if none does."""
    rest = _CONDITION_REST.match(text, end)
    heads = [word for word in re.finditer(r"[\w'’]+", rest[0]) if _CONDITION_HEAD.fullmatch(word[0])] if rest else []
    return end + heads[-1].end() if heads else end


def _not_a_name_end(word: str) -> bool:
    """A lowercase function word of a covered language or of English: no condition's or organisation's name ends on one,
    where the model ran on into a verb ("reumatoïde artritis kan"; ux20's report M2) or the preposition before an amount
    ("Intesa Sanpaolo di 180.000 euro"; ux26 M9). Conditions, on pii-heldout-q, r, u (benchmarks/pii_registers.py
    --types, 1 800 texts), with `_DATE_AFTER`: no annotated value lost, no span added or dropped."""
    bare = word.strip(_TRIM)
    return len(bare) > 1 and bare.islower() and (function_word_of_covered(bare) or function_word(bare))


def function_words_only(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is lowercase function words alone (`_not_a_name_end`): no value, where a run the model
    tagged was split at a value's beginning and left a word before it ("la", "heb"; `SpanTagger.begins_split`). On
    pii-heldout-zc's six languages (benchmarks/pii_registers.py --misses) the split left 2 such spans, this drops both.
    Not read for an amount ("two million": number words are function words) nor a secret."""
    words = text[start:end].split()
    return bool(words) and all(_not_a_name_end(word) for word in words)


# A day or a month the model ran a condition on into, and a short preposition before it ("cancro da mama em setembro";
# ux20's report LOW-3).
_DATE_AFTER = re.compile(
    rf"[ \t]+(?:[^\W\d]{{1,3}}[ \t]+)?(?i:{alternation('weekdays', 'months', 'other_calendars')})$"
)


# What an amount is, said right after it, where the model stopped short or ran on: "£80,000 in student
# loans" (tagged "£80,000 in"), "$84K base", "6 grand a month", "a 10k bonus", "₦470,000 monthly" (not "plus bonus").
_AMOUNT_KIND = re.compile(
    r"[ \t]+(?i:in[ \t]+(?:[\w-]+[ \t]+)?(?:loans?|debt|savings|stocks|shares|bonds|crypto|bitcoin|pension|401k|isa|ira|mortgage)\b"
    r"|base\b|net\b|gross\b|bonus\b|raise\b|(?:monthly|yearly|annually|weekly|hourly)\b|(?:an?|per)[ \t]+(?:year|month|week|hour)\b)"
)


def _whole_amount(text: str, start: int, end: int) -> int:
    """Where an amount tagged as text[start:end] ends: at its last word of money (the model runs on:
    "C$40,000 to savings", "CHF 132,000 plus bonus"), then past what it is, said right after it."""
    words = list(_NAME_WORD.finditer(text, start, end))
    money = [word for word in words if MONEY.search(word[0]) or AMOUNT.search(word[0])]
    if money and money[-1] is not words[-1]:
        end = money[-1].end()
    kind = _AMOUNT_KIND.match(text, end)
    return kind.end() if kind else end


# The model runs an organisation on past its possessive into a number ("Duolingo's 365-day streak"):
# no firm's name goes on that way ("McDonald's", "Sainsbury's head office" do go on).
_POSSESSIVE_RUN_ON = re.compile(r"['’]s\s+(?=\d)")
# ... and a person's name past its possessive into what is theirs ("Terry Pratchett's Discworld").
_POSSESSIVE_BEFORE_NAME = re.compile(
    rf"(?<=\w)['’]s\s+(?=[A-Z])(?!(?i:{FIRM_OR_INSTITUTION})\b)"
)  # not "'s Gravensande", "St. Mary's Academy"


# An opening bracket and what follows it, up to the span's end, without the bracket that closes it.
_OPEN_ASIDE = re.compile(r"\s*(?:\([^)]*|\[[^\]]*|\{[^}]*)\Z")


def _before_open_aside(text: str, start: int, end: int) -> int:
    """Where a name span ends that runs on into an aside the span does not close: before its opening bracket (the
    model ran "Dr. Leonie Brandt-Hoffmann (Praxis Brandt, Kaiserstraße 12, ...)" on into the practice's first word,
    and it went out as "Dr. <REAL_NAME_19><ADDRESS_4>)", the bracket inside the name; ux28 finding 11). An aside closed
    inside the name stays ("Margaret (Peggy) Ellison": 3 of the 9 618 names annotated in benchmarks/data/pii-heldout-*
    hold one, none an open bracket)."""
    aside = _OPEN_ASIDE.search(text[start:end], 1)
    return start + aside.start() if aside else end


# A form writes the surname in capitals before the given name ("Nom : DUPONT Marie"); the model tags the given name alone.
# No span changes on pii-heldout-u, v, w (1 800 texts; none is such a form): its gain is the tester's form alone.
_CAPITALS_WORD_BEFORE = re.compile(r"(?<![\w'’-])([^\W\d_][\w'’-]*)[ \t]+$")


def _surname_in_capitals_before(text: str, start: int) -> int:
    """Where a name starting at `start` starts with the word in capitals right before it on its line, if that word is
    a family name of the name lexicon and the name itself is not in capitals ("DUPONT Marie"); `start` otherwise."""
    word = _CAPITALS_WORD_BEFORE.search(text, max(0, start - 40), start)
    if word is None or len(word[1]) < 2 or not word[1].isupper() or text[start : start + 2].isupper():
        return start
    return word.start(1) if name_lexicon().get(word[1].casefold(), 0) & FAMILY else start


# A hyphenated name's parts the model tagged apart: "Jean-Baptiste Nkurunziza" went out as "<REAL_NAME_9>-Baptiste
# Nkurunziza" (ux27's report H8).
_HYPHENATED_AFTER = re.compile(r"(?:-[^\W\d_][^\W\d_'’]*)+(?![\w-])")
_HYPHENATED_BEFORE = re.compile(r"(?<![\w-])(?:[^\W\d_][^\W\d_'’]*-)+$")


def _whole_hyphenated(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span grown over the capitalised parts joined by a hyphen to its first or last word ("Jean" of
    "Jean-Baptiste", "Baptiste" of "Jean-Baptiste")."""
    after = _HYPHENATED_AFTER.match(text, end)
    if after and all(part[:1].isupper() for part in after[0][1:].split("-")):
        end = after.end()
    before = _HYPHENATED_BEFORE.search(text, max(0, start - 40), start)
    if before and all(part[:1].isupper() for part in before[0][:-1].split("-")):
        start = before.start()
    return start, end


# The model tags a given name alone before its family name ("Met Pieter de Vries.", "Allô, c'est Julien Moreau.").
# On pii-heldout-u, v, w (1 800 texts, benchmarks/pii_registers.py --types): one span grown ("Florian" to "Florian
# Petersen" under a letter), no figure changed.
@lru_cache(maxsize=1)
def _family_after() -> re.Pattern[str]:
    """A family name's word on the name's line, after the name particles of the six languages (`name_particles` of
    data/languages/<code>.yaml: "de", "van der", "da")."""
    particles = sorted({word for code in OTHERS for word in language_file(code)["name_particles"] if "'" not in word})
    particle = "|".join(re.escape(word) for word in sorted(particles, key=len, reverse=True))
    return re.compile(rf"[ \t]+(?:(?:{particle})[ \t]+)*(?P<family>[^\W\d_][^\W\d_'’-]*)(?![\w'’-])")


def family_name_end(text: str, start: int, end: int) -> int:
    """Where a name of one given name of the name lexicon ends when a family name of the lexicon follows it on its line,
    capitalised and no function word of a covered language ("Pieter de Vries", "Julien Moreau"); `end` otherwise. Read
    after the verifiers (recognizer.py), which judge the span the model tagged."""
    words = text[start:end].split()
    if len(words) != 1 or not name_lexicon().get(words[0].split("-")[0].casefold(), 0) & GIVEN:
        return end
    after = _family_after().match(text, end)
    if after is None or not after["family"][0].isupper() or function_word_of_covered(after["family"]):
        return end
    return after.end() if name_lexicon().get(after["family"].casefold(), 0) & FAMILY else end


def _without_identifiers(text: str, start: int, end: int) -> tuple[int, int]:
    """A name span without the words at its ends that hold an underscore: a variable's or a key's
    name the model ran on into ("Regards, Mateo Okafor OPENAI_API_KEY=...")."""
    return _without_end_words(
        text, start, end, lambda word: "_" in word
    )  # all identifiers: as it is, and plausible() drops it


# The model runs a name on past a comma into the number after it, the writer's age ("I'm Marta Kowalczyk, 34, nurse"):
# the name ends at the comma. A number without the comma stays a name's ("RTX 4070" is no one: plausible()).
# pii-heldout-c..p (benchmarks/pii_registers.py --misses, shipped detector): 2 annotated names more found ("our dad
# <name>, 67", "Mum (<name>, 67)"), no value lost, no wrong span added.
_AGE_AFTER_NAME = re.compile(r",\s*\d[\d\s]*$")


# What ends a person's name that opens a span of the type: a comma, and for an address a line break too
# ("John Smith, 221B Baker St."; "Claire Dubois\n7 allée des Roses, 69003 Lyon" under a letter). A name read before a
# line break of an address span the address filter drops: on pii-heldout-c..n 1 name more, no other span changed.
PERSON_ENDS = {"EMPLOYER": re.compile(","), "ADDRESS": re.compile(r"[,\n]")}


def person_within(text: str, start: int, end: int, label: str = "EMPLOYER") -> tuple[int, int] | None:
    """Where text[start:end], a `label` span, reads as a person's name ("Heard from Anneliese Vogt today"): the whole
    of it, or the part before the first end of a name that opens such a span (`PERSON_ENDS`: "Hans Müller, IBAN ..."),
    each without the lowercase words at its ends where the writer uses capitals ("Write to Paavo Lehtinen at ...")."""
    stop = PERSON_ENDS[label].search(text, start, end)
    return person_in(text, start, end) or (
        person_in(text, start, stop.start()) if stop and stop.start() > start else None
    )


def person_in(text: str, start: int, end: int) -> tuple[int, int] | None:
    """text[start:end] as a person's name, without the words at its ends a model ran on into
    (lowercase ones where the writer capitalises, function words where not); None if it reads as none."""
    name_start, name_end = (
        capitalised_part(text, start, end) if capitalises(text, start) else _without_function_words(text, start, end)
    )
    return (
        (name_start, name_end)
        if reads_as_person(text, name_start, name_end) and not brand(text, name_start, name_end)
        else None
    )


def _without_function_words(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] without the English function words at its ends (data/function_words.txt): in chat
    without capitals, the words a model ran on into ("text kofi mensah on 07700 900123")."""
    return _without_end_words(text, start, end, function_word)


def reads_as_person(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] reads as a person's full name: two or three words, capitalised where the
    writer capitalises, the last a family name of the student's name lexicon (Faker's, names.py)
    and the first a given name or a word it does not know ("Anneliese Vogt", "Lindiwe Mthembu"; not "Lyme Regis")."""
    words = text[start:end].split()
    if not 2 <= len(words) <= 3 or (capitalises(text, start) and not all(word[0].isupper() for word in words)):
        return False
    lexicon = name_lexicon()
    first, last = (lexicon.get(word.casefold(), 0) for word in (words[0], words[-1]))
    return bool(last & FAMILY) and (first == 0 or bool(first & GIVEN))


def _one_sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] up to the first sentence end in it (`stealthflow.sentence_ends`, after its marks) that has a word
    before it. On the dev files benchmarks/data/pii-heldout-{c,d,e,g..k} (pii_registers.py): chars masked outside values
    2.56 -> 2.52 % (six languages), 2.55 -> 2.52 % (English registers); recall 0.761 -> 0.761 and 0.820 -> 0.819.
    A line break ends none here (an address's or a signature's lines are one value), nor an abbreviation's full stop
    ("Av. Corrientes", "Dr. Huber"; the measured gain is at `sentence_ends._abbreviation_before`)."""
    for found in sentence_ends(text, start, end, line_breaks=False, abbreviations_end=False):
        if any(ch.isalnum() for ch in text[start : words_end(found)]):
            return start, words_end(found)
    return start, end


# The types whose value may run over lines: an address block ("Claire Dubois\n7 allée des Roses, 69003 Lyon" is read by
# the address filter, `PERSON_ENDS`) and a secret (a key's lines). No other annotated value holds a line break (0 of
# 28 000 in benchmarks/data/pii-heldout-*), and a form's next line is its label ("Nom : DUPONT Marie\nAdresse : ..."
# was one name span "Marie\nAdresse"; ux23b M6). On pii-heldout-u, v, w (benchmarks/pii_registers.py, tagger on, both
# files, 1 800 texts): 8 texts' spans change, each a name that ran on into the next line's label or word
# ("Thomas Okeke\nIBAN", "Mike\nPayroll") or a sign-off before it ("Grüsse\nNadja Keller": the two sign-off cases were
# seen there); precision, recall and texts without PII flagged unchanged.
_SPAN_LINES = {"ADDRESS", "CREDENTIAL"}


def _one_line(text: str, start: int, end: int) -> tuple[int, int]:
    """text[start:end] up to its first line break that has a word before it, or from the line after it when that line
    follows a sign-off (data/usernames.yaml: "Grüsse\nNadja Keller" is the name); as it is if there is none."""
    brk = text.find("\n", start, end)
    while brk >= 0 and not any(ch.isalnum() for ch in text[start:brk]):
        brk = text.find("\n", brk + 1, end)
    if brk < 0:
        return start, end
    after = brk + 1 + len(text[brk + 1 : end]) - len(text[brk + 1 : end].lstrip())
    last_word = text[start:brk].strip(_TRIM).rsplit(None, 1)[-1].casefold()
    if after < end and last_word in _sign_offs():
        return _one_line(text, after, end)
    return start, brk


@lru_cache(maxsize=1)
def _sign_offs() -> frozenset[str]:
    return frozenset(word.casefold() for word in data_yaml("usernames.yaml")["sign_offs"])


_LAST_WORD = re.compile(r"[^\W\d_]+$")


def _before_elision(text: str, start: int, end: int) -> int:
    """Where text[start:end] ends if it ends inside an elided word (`language.elisions`): the model's piece stops at
    the apostrophe ("asthme s" of "mon asthme s'aggrave", "asma s" of "la mia asma s'aggrava"), and the elided word
    belongs to the next, lowercase word, so the span ends before it; `end` otherwise. A capital after the apostrophe
    makes one name of them ("Jeanne d'Arc", "Marco D'Amico"): left as it is."""
    if not text.startswith(("'", "’"), end) or not text[end + 1 : end + 2].islower():
        return end
    word = _LAST_WORD.search(text, start, end)
    if word is None or word.start() == start or word[0].casefold() + "'" not in elisions():
        return end
    return start + len(text[start : word.start()].rstrip(_TRIM))


def shaped(text: str, start: int, end: int, label: str) -> tuple[int, int]:
    """A model's `label` span text[start:end] trimmed or grown to the whole value: without a sentence's
    punctuation around it; a secret without its secret word and a list's dash, grown to its whole token;
    a name without identifiers, a possessive and what is theirs, or lowercase words where the writer
    capitalises; an organisation without a possessive run on into a number; a condition's and an
    amount's whole name. A span that runs across a sentence's end ends there: the model's run-on is the next
    sentence's words ("Av. Corrientes 1234, CABA. Laburo", "4402. Fijne vakantie!")."""
    start, end = _one_sentence(text, start, end)
    if label not in _SPAN_LINES:
        start, end = _one_line(text, start, end)
    value = text[start:end]
    trim = " \t\n" if label == "CREDENTIAL" else _TRIM  # a secret keeps every character it may hold
    start, end = start + len(value) - len(value.lstrip(trim)), end - (len(value) - len(value.rstrip(trim)))
    if label != "CREDENTIAL":
        end = _before_elision(text, start, end)
    if label == "CREDENTIAL":
        start += secret_word_length(text[start:end])  # "password lantern42": the value only
        start += len(_LEADING_DASH.match(text, start, end)[0])  # "- mango123": not the list's dash
        end = start + len(re.sub(r"\s+[^\w\s]+$", "", text[start:end]))  # "448812 -": not the sentence's dash
        start, end = _within_quotes(*whole_secret(text, start, end), text)
    if label == "REAL_NAME":
        start, end = _without_identifiers(text, start, end)
        end = _before_open_aside(text, start, end)
        if age := _AGE_AFTER_NAME.search(text, start, end):
            end = age.start()  # "Marta Kowalczyk, 34": the name (plausible() drops a name holding a digit)
    if label == "EMPLOYER" and (run_on := _POSSESSIVE_RUN_ON.search(text, start, end)):
        end = run_on.start() + 2  # "Duolingo's 365-day streak": the organisation, then its possessive (dropped next)
    if label == "EMPLOYER":
        start, end = _without_end_words(text, start, end, _not_a_name_end, first=False)
    if label == "REAL_NAME" and (owned := _POSSESSIVE_BEFORE_NAME.search(text, start, end)):
        end = owned.start() + 2  # "Terry Pratchett's Discworld": the person, then what is theirs
    if label in ("REAL_NAME", "EMPLOYER") and text.endswith(("'s", "’s"), start, end):
        end -= 2  # "Dr. Nakamura's email": the name, not its possessive
    if label == "REAL_NAME" and (signed := signature_end(text, start)) and signed > end:
        end = signed  # "Grüße, jürgen müller": the model's "jürgen", and the rest of the signature
    if label == "REAL_NAME" and capitalises(text, start):
        start, end = capitalised_part(text, start, end)
        start = _surname_in_capitals_before(text, start)
        start, end = _whole_hyphenated(text, start, end)
    if label == "HEALTH":
        end = _whole_condition(text, end)
        if date := _DATE_AFTER.search(text, start, end):
            end = date.start()
        start, end = _without_end_words(text, start, end, _not_a_name_end, first=False)
    if label == "FINANCE":
        end = _whole_amount(text, start, end)
    if label == "ADDRESS":
        end = _without_next_sentence(text, start, end)
    return start, end


# A word's letters and digits, and what joins two of its parts inside it: a hyphen or slash between word characters
# ("7719-334-08", "1-0-1", "Schwarzkopf-Öztürk", "5/10"), a full stop or comma between digits ("89,90"). Scripts written
# without spaces between words (Chinese, Japanese, Korean, Thai) have no such token: their spans stay as they are.
_TOKEN_CHAR = r"[^\W\u0E00-\u0E7F\u3000-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]"
_TOKEN = rf"(?:{_TOKEN_CHAR}|[-/](?={_TOKEN_CHAR})|(?<=\d)[.,](?=\d))+"
_TOKEN_REST = re.compile(_TOKEN)
_TOKEN_HEAD = re.compile(rf"{_TOKEN}(?=.\Z)", re.DOTALL)
_TOKEN_REACH = 64  # how far back a token's head is looked for: no word is longer


def whole_tokens(text: str, start: int, end: int) -> tuple[int, int]:
    """A kept span (the filters judge it as tagged: a grown token makes no span a value) that ends inside a token grown
    to the token's end: the model's word pieces stop at a hyphen or a
    separator and the token's tail went out in clear ("(Kundennummer 7719-334-08)" as "(<ADDRESS_1>-08)", "Metformin
    1000 mg 1-0-1" as "<HEALTH_5>-1"; ux28 finding 10); one that starts inside a token starts at the token's start,
    unless that token's tail is the span's whole first line ("Öztürk" of "Schwarzkopf-Öztürk" over an address: the
    address, not the name, left to the overlap of the name's span). A possessive or an elided word cut off before an
    apostrophe is no part of a token."""
    if 0 < end < len(text) and re.match(_TOKEN_CHAR, text[end - 1]) and (rest := _TOKEN_REST.match(text, end)):
        end = rest.end()
    if (
        0 < start < end
        and re.match(_TOKEN_CHAR, text[start])
        and (head := _TOKEN_HEAD.search(text, max(0, start - _TOKEN_REACH), start + 1))
    ):
        tail = _TOKEN_REST.match(text, start).end()
        if "\n" not in text[tail:end].lstrip(" \t")[:1]:
            start = head.start()
    return start, end


def _without_next_sentence(text: str, start: int, end: int) -> int:
    """Where an address span that runs over a line break ends: before that line unless its part there is an address
    line, a postcode's digit or a city, region or country of the gazetteer (`_address_line`): not the first words of
    the next sentence ("Calle Mayor 23, 28013 Madrid\nMañana te llamo.", "80331 München\nTschüss!", ux24b); an address
    block's last line is whole ("7 allée des Roses\n69003 Lyon", "...\nLyon"). On pii-heldout-u, v, w (1 800 texts,
    benchmarks/pii_registers.py --types): 2 addresses without the next line's word ("Countersignatory", "Tel"),
    characters masked outside the values 1.47 -> 1.42 % (v's registers), no other figure changed; a last line read as
    an address line only when one (it was whenever nothing followed it on its line): no figure changed."""
    brk = text.rfind("\n", start, end)
    if brk < 0 or _address_line(text[brk:end]):
        return end
    return start + len(text[start:brk].rstrip(_TRIM))


def _address_line(line: str) -> bool:
    """Whether an address span's last line is an address line: it holds a digit (a postcode, a house number) or names
    a city, region or country (data/city_keys.txt, `region_names`)."""
    key = name_key(line)
    return any(ch.isdigit() for ch in line) or key in city_names() or key in region_names()


def clear_caches() -> None:
    """Forget the last text a secret was grown in (called after each batch: no text stays in memory)."""
    _secret_breaks.cache_clear()
