"""Reading the sentence around a value: where it ends, whether the writer uses capitals, whether it
names the writer, the reader or their kin, and whom it is about (`anothers_life`). The context
recognizers (context.py) and the PII tagger's filters (pii_tagger/filters/) share these checks.
"""

from __future__ import annotations

import re

import regex

from stealthflow.pii_tagger.lexicons import ANIMALS, KEEPERS, RELATIVES, THINGS
from stealthflow.placeholders.recognizers.gate import skipping
from stealthflow.placeholders.recognizers.public_names import public_name_at, text_words
from stealthflow.resources import data_yaml
from stealthflow.sentence_ends import (
    SENTENCE_REACH,
    initial_before,
    sentence_end,
    sentence_start,
)


def sentence_around(text: str, start: int, end: int, reach: int = SENTENCE_REACH) -> str:
    """The sentence holding text[start:end] (a dot inside a value such as "$15.50" does not end it),
    at most `reach` characters on either side of it."""
    stop = sentence_end(text, end, reach)
    return text[sentence_start(text, start, reach) : stop.start() if stop else end + reach]


def names_writer_or_reader(sentence: str) -> bool:
    return _FIRST_PERSON.search(sentence) is not None


_KIN = re.compile(rf"\b(?i:{RELATIVES})s?\b")


def names_writer_reader_or_kin(sentence: str) -> bool:
    return names_writer_or_reader(sentence) or _KIN.search(sentence) is not None


# Another's life, not the writer's: what a sentence says of whom it opens with, a few words on (a long
# sentence in unpunctuated chat may run on into the writer's news), where nothing after them names the
# writer, the reader or their kin ("Selena Gomez and my sister both have lupus" is the sister's):
# - a famous name (public_names.py) or office, maybe past "Did you know" or "Did" ("Stephen Hawking lived with ALS",
#   "Lionel Messi earns $60 million a year at Inter Miami", "The King's cancer diagnosis was announced");
# - an animal, a plant, a machine or a character of fiction ("Our cat has diabetes and needs insulin",
#   "My laptop has a virus", "In the show, the detective has OCD");
# - people in general ("A junior developer in Berlin earns about 50k euros", "Most runners get shin splints").
_LEAD_IN = re.compile(
    r"\s*(?:(?i:did\s+you\s+know|apparently|fun\s+fact|turns\s+out|so|wow)\b[\s,:;!-]*(?:(?i:that)\s+)?"
    r"|(?i:(?:how|why|when|where|what)\s+)?(?i:did|does|has|had|is|was|were)\s+)?"  # asked of them: "Did Jeff Bezos really work at McDonald's?"
)
_OFFICE = r"king|queen|pope|president|prime\s+minister|chancellor|crown\s+prince|prince|princess"
_FICTION = r"characters?|hero(?:ine)?|protagonist|villain|narrator|detective"
_NOT_PEOPLE = rf"{ANIMALS}|{THINGS}|plants?|roses?|trees?|tomato(?:es)?|hedges?|lawn|laptop|computer|pc|phone|server|website|{_FICTION}"
_ANYONE = (
    r"people|persons?|adults?|children|kids|teens|teenagers|men|women|patients|workers?|employees?|staff|developers?|engineers?|nurses?|doctors?"
    r"|teachers?|ceos?|executives?|managers?|graduates?|students?|players?|footballers?|athletes?|runners?|drivers?|plumbers?|americans|brits|germans"
)
_SUBJECT_OPENS = re.compile(
    rf"\s*(?:(?i:the\s+(?:{_OFFICE}))(?:['’]s)?\b"
    rf"|(?i:in\s+the\s+[\w-]+,?\s+)?(?:(?i:my|our|the|his|her|their|your|a|an)\s+)?(?:[\w-]+\s+){{0,2}}?(?i:{_NOT_PEOPLE})(?:['’]s)?\b"
    rf"(?!\s+(?i:{KEEPERS}|\w+(?:er|or|ist|ic|ian)s?)\b)"  # not the person looking after them: "Our dog walker has Crohn's", "The car mechanic"
    rf"|(?i:an?|every|most|many|some|all)\s+(?:[\w-]+\s+){{0,2}}?(?i:{_ANYONE})\b)"
)
_SAID_OF_SUBJECT = 8  # words at most between the subject and what is said of it


CASE_REACH = 1000  # characters either side of a place that judge the writer's case, on one long line


# A sign-off (`sign_offs` of data/usernames.yaml, seven languages), a comma, and a signature of one to three words that
# ends the line ("Danke für alles. Grüße, jürgen müller"): its case is its own, and its words are one name (ux21's
# report H1: the author's name was judged by the capitals before it, read as no name, and sent in clear).
_SIGNATURE = re.compile(
    rf"(?<![^\W\d_])(?i:{'|'.join(map(re.escape, data_yaml('usernames.yaml')['sign_offs']))})[ \t]*,[ \t]*"
    r"(?=(?P<signature>[^\W\d_][\w'’-]*(?:[ \t]+[^\W\d_][\w'’-]*){0,2})[.!]?[ \t]*(?:\n|$))"
)
_SIGN_OFF_REACH = 64  # characters before a signature that its sign-off may take, and that a signature may hold


def _signature_starts(text: str, at: int) -> list[re.Match[str]]:
    """The signatures (`_SIGNATURE`) that start at or before `at` on its line, read up to that line's end."""
    line_end = text.find("\n", at, at + _SIGN_OFF_REACH)
    if line_end < 0 and len(text) > at + _SIGN_OFF_REACH:
        return []  # a signature ends its line a few words on
    stop = len(text) if line_end < 0 else line_end + 1
    return [found for found in _SIGNATURE.finditer(text, max(0, at - _SIGN_OFF_REACH), stop) if found.end() <= at]


def signature_end(text: str, start: int) -> int | None:
    """Where the signature (`_SIGNATURE`) that starts at `start` ends; None: none starts there."""
    return next((found.end("signature") for found in _signature_starts(text, start) if found.end() == start), None)


def in_lowercase_if_shouted(text: str) -> str:
    """A text written all in capitals as the tagger reads it: in lowercase, character for character (the spans keep
    their places), since the students learnt names and places from capitals that such a text gives to every word (the
    street addresses' lowercase patterns read each run of capitals so: `in_lowercase_where_shouted`). The tagger alone, on
    pii-heldout-u, v, w upper-cased (benchmarks/pii_registers.py --case upper): English (720 texts) recall 0.503 -> 0.663,
    precision 0.796 -> 0.837, REAL_NAME 69 -> 172 of 339, ADDRESS 0 -> 24 of 43, texts without PII flagged 43 -> 48 of
    360; six languages (1 080) recall 0.597 -> 0.705, precision 0.766 -> 0.846, flagged 116 -> 97 of 540; the original
    files hold no such text (no span changes)."""
    lowered = text.lower()
    return lowered if text.isupper() and len(lowered) == len(text) else text


# A run of words in capitals on one line: tokens without a lowercase letter ("45", "M14", "AVENUE,"), two of them words of
# two capitals or more ("OAK AVENUE, MANCHESTER"); "NHS" or "I" alone are none.
_SHOUTED_RUN = regex.compile(r"[^\s\p{Ll}]+(?:[ \t]+[^\s\p{Ll}]+)*")
_SHOUTED_WORD = regex.compile(r"\p{Lu}{2,}")


def in_lowercase_where_shouted(text: str) -> str:
    """`text` with each run of words in capitals (`_SHOUTED_RUN`) in lowercase, character for character (spans keep
    their places): the street-address patterns' reading of an address in capitals inside mixed-case text ("Address: 45
    OAK AVENUE, MANCHESTER M14 5RT", "I live at 12 BIRCH ROAD, LEEDS LS6 2AB"; ux23b M5). A text all in capitals is read
    in lowercase as by `in_lowercase_if_shouted`, line by line."""
    return _SHOUTED_RUN.sub(_lowered_if_shouted, text)


def _lowered_if_shouted(run: regex.Match[str]) -> str:
    lowered = run[0].lower()
    return lowered if len(_SHOUTED_WORD.findall(run[0])) >= 2 and len(lowered) == len(run[0]) else run[0]


def capitalises(text: str, at: int) -> bool:
    """Whether the writer uses capitals on the line around `at`: a lowercase word is then no name, and
    a name no lowercase word. The line, not the whole text: a chat log or a list of memories holds
    messages typed in lowercase beside capitalised ones (validation messages joined four or five to
    a text, with the whole text judged: name recall 0.925 -> 0.812). A signature after a sign-off
    (`_SIGNATURE`) is judged alone."""
    reach_start, reach_end = max(0, at - CASE_REACH), at + CASE_REACH
    start, end = (
        text.rfind("\n", reach_start, at) + 1,
        text.find("\n", at, reach_end),
    )  # within reach: a 100 KB line is not read per span
    start = max(start, reach_start)
    if signed := _signature_starts(text, at):
        start = max(start, signed[-1].end())
    return text_words(text).has_capital(start, reach_end if end < 0 else end)


def anothers_life(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is said of the famous person, the animal, the thing, the fictional
    character or the people in general its sentence opens with (or is that famous person), with
    nothing after them naming the writer, the reader or their kin."""
    if not capitalises(text, start):
        return False  # no telling where a sentence ends ("frida kahlo scored twice the new job pays 5 million yen")
    opening = sentence_start(text, start)
    while opening > 1 and initial_before(text, opening):
        opening = sentence_start(text, opening - 2)
    lead = _LEAD_IN.match(text, opening).end()
    subject_end = public_name_at(text, lead) or (subject.end() if (subject := _SUBJECT_OPENS.match(text, lead)) else 0)
    said_of_subject = subject_end <= start or (start, end) == (
        lead,
        subject_end,
    )  # or the famous name itself, tagged as an employer
    if not subject_end or not said_of_subject or len(text[subject_end:start].split()) > _SAID_OF_SUBJECT:
        return False
    stop = sentence_end(text, end)
    return not names_writer_reader_or_kin(text[subject_end : stop.start() if stop else end + SENTENCE_REACH])


def impersonal_money(sentence: str) -> bool:
    return _PRICE_TALK.search(sentence) is not None and not names_writer_or_reader(sentence)


# Money as a price or a statistic ("a Tesla costs around 45k", "the average salary for nurses is
# 38000 pounds") where no one in the sentence is the writer or their reader: no one's income.
_PRICE_TALK = skipping(
    re.compile(
        r"\b(?i:costs?|priced?|prices|average|median|typical|minimum\s+wage|revenue|profits?|market|budget|tuition|fees?|fines?|sale|sells?|sold|(?<!net\s)worth|charges?)\b"
    )
)  # someone's net worth is theirs
_FIRST_PERSON = skipping(
    re.compile(r"\b(?i:i|i'm|i've|i'd|me|my|mine|we|we're|we've|(?-i:us|Us)|our|you|your)\b")
)  # not "the US"


# An address talked about as a landmark ("10 Downing Street is smaller than it looks", "Is 1600
# Pennsylvania Avenue open for tours?", "Can you visit 221B Baker Street?"): the subject of its
# sentence or something to visit, in a message with no word tying it to anyone (a first person, a
# home, a delivery, a meeting).
_LANDMARK_BEFORE = re.compile(
    r"^\s*(?:(?i:(?:how|what|where|when|why|who)\s+(?:\w+\s+)?)?(?i:is|was|are|were|does|did|has)\s+)?(?:the\s+)?$"
    r"|\b(?i:visit\w*|tour\w*|see|seeing|saw|photos?\s+of|pictures?\s+of|outside|in\s+front\s+of)\s+$"
)
_ADDRESS_TIE = skipping(
    re.compile(
        r"\b(?i:i|i'm|i've|me|my|mine|we|we're|(?-i:us|Us)|our|live[sd]?|living|mov(?:e|ed|ing)|deliver\w*|send|sent|ship\w*|post(?:ed|ing)?|mail\w*"
        r"|address|home|house|flat|apartment|apt|stay\w*|come|coming|meet\w*|pick|drop|party|dinner|appointment|interview|parcel|package|order)\b"
    )
)


_LANDMARK_REACH = 64  # characters before an address that its cue may take ("Is it worth a visit to the")


def landmark_address(text: str, start: int) -> bool:
    first = sentence_start(text, start)
    # a longer stretch of its sentence is cut ("\x00": no sentence starts at the cut), so each address costs a bounded look
    before = text[first:start] if start - first <= _LANDMARK_REACH else "\x00" + text[start - _LANDMARK_REACH : start]
    if _LANDMARK_BEFORE.search(before) is None:
        return False
    return not text_words(text).holds_match(
        _ADDRESS_TIE, start - SENTENCE_REACH, start + SENTENCE_REACH
    )  # in the message


_QUESTION_WORD = re.compile(
    r"\s*(?i:how|what|why|when|which|who|where|is|are|was|were|does|do|did|can|could|should|will|would|has|have)\b"
)


def question(text: str, start: int, end: int) -> str | None:
    """The sentence holding text[start:end] if it asks a question: opens with a question word, ends with "?"."""
    sentence = sentence_around(text, start, end)
    stop = sentence_end(text, end)
    return sentence if _QUESTION_WORD.match(sentence) and stop is not None and "?" in (stop["marks"] or "") else None
