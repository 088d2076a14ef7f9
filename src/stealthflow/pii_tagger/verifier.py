"""A second look at the spans the tagger keeps of the labels it false-alarms on (REAL_NAME, ADDRESS, HEALTH,
EMPLOYER, FINANCE, CREDENTIAL): per label a small tree ensemble (gradient boosting) over what the runtime can tell
cheaply about the span (the student's confidence, its shape, capitals and position, how common its words are in the
text's languages, cue words of the data files around it, whether a pattern recognizer found it too), fitted on the
annotated development sets by `benchmarks/pii_verifiers.py` and stored as data (`data/pii-tagger/<label>_verifier.json`:
the features' names, the trees, the thresholds and how they were chosen). A span the tagger keeps whose score falls below its label's
threshold is dropped; else its reason gives the score. A label without a weights file is not verified.

The student's confidence alone does not part its false spans from true ones (capitalised ordinary words and titles at
0.8-1.0); the other features do, in part (each file's `chosen` says by how much, on sets it was not fitted on). Only the
tagger's spans are scored: a few look-ups and pattern searches, a share of capitals in its line and 150 short tree walks
per span, and a share of capitals per text (cached for the batch).
"""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache, partial
from itertools import accumulate, islice
from pathlib import Path

import numpy as np

from stealthflow.pii_tagger.candidate import Candidate, Kind
from stealthflow.pii_tagger.filters.address import STREET
from stealthflow.pii_tagger.filters.employer import ORGANISATION, WORK
from stealthflow.pii_tagger.filters.finance import AMOUNT, MONEY, OWNED_MONEY
from stealthflow.pii_tagger.filters.health import HEALTH_TALK, MEDICAL_WORD
from stealthflow.pii_tagger.lexicons import (
    RELATIVES,
    alternation,
    condition_key,
    entries_alternation,
    learnt_conditions,
    name_lexicon,
)
from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.pii_tagger.route import may_be_english
from stealthflow.placeholders.common_words import at_ceiling, common_word, frequent_in, function_word
from stealthflow.placeholders.language import ENGLISH, OTHERS, language_file
from stealthflow.placeholders.recognizers.introductions import (
    GREETINGS,
    RELATIVES_OF_LANGUAGES,
    greeted,
    introduced_before,
)
from stealthflow.placeholders.recognizers.languages import named_explicitly
from stealthflow.placeholders.recognizers.public_names import (
    brand,
    city_names,
    country_names,
    name_key,
    public_name,
    territory_names,
)
from stealthflow.placeholders.recognizers.secrets import introduced_as_secret, secret_words
from stealthflow.placeholders.recognizers.sentences import sentence_around, sentence_start
from stealthflow.resources import resource_dir

_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_REACH = 40  # characters before a name that a cue may take, as introductions.py reads them
# a relative or close person of any covered language just before a name ("my sister |Ana", "meine Frau |Katrin")
_RELATIVE_BEFORE = re.compile(rf"(?<!\w)(?i:{RELATIVES}|{RELATIVES_OF_LANGUAGES})\s*,?\s*$")
_GREETING_BEFORE = re.compile(rf"(?<!\w)(?i:{GREETINGS})\s*,?\s*$")
_OPENING_MARKS = " \t\"'«„“(-*#>"
_POSSESSIVE_AFTER = re.compile(r"['’]s\b")
_NEXT_WORD = re.compile(rf"[ \t]*({_WORD.pattern})")
# The first letter of the text's, each sentence's and each line's first word: after the text's start, a line break or
# ".", "!", "?", ":" that no letter or digit follows (not "rajesh.kumar@contoso.com", "10:30"), and spaces and marks.
_OPENING_WORD = re.compile(rf"(?:^|[.!?:](?!\w)|\n)[{re.escape(_OPENING_MARKS)}]*([^\W\d_])")
_TEXT_REACH = 2000  # characters of the text read for its capitals, and of a line on either side of a name

NAME_FEATURES = (
    "confidence",  # the student's mean token probability
    "words",  # words in the span, at most 4
    "lowercase",  # the span opens with a lowercase letter
    "all_caps",  # every letter a capital ("NHS")
    "sentence_start",  # nothing but marks before it in its sentence or line
    "line_capitals",  # share of the other words of its line, past each sentence's first, with a capital (titles)
    # the word just before it, inside the sentence, has a capital ("Prince William"); a sentence's first word only where a
    # comma parts it from the name ("Hope, Joy", not "Ask Rajesh"). Fitted and chosen on n-v as the script does, texts
    # without PII flagged: 423 without the comma's case, 422 with it (names found 2 134 and 2 131 of 2 491), no gain
    # beyond noise; it keeps "Joy" of the otters ("Hope, Joy and Faith are ...", test_name_verifier.py) in clear.
    "capital_before",
    "capital_after",  # the word just after it has a capital ("Normal People")
    "given",  # share of its words that are given names of the name lexicon (Faker's, names.py)
    "family",  # share that are family names there
    "common",  # share that are words of English (WordNet's lower-case lemmas, function words)
    "frequent",  # share that are frequent words of a language the text may be in (wordfreq, Zipf >= 3)
    "ceiling",  # share at the frequency ceiling of one of the six languages (common-<code>.txt)
    "introduced",  # a self-introduction or a relative before it ("my name is", "meine Frau", "my sister")
    "greeted",  # a greeting just before it ("Hi Deepak,")
    "english",  # the text may be English
    "agreed",  # a pattern recognizer found a REAL_NAME overlapping it
    "function_before",  # the word just before it is a function word of a language the text may be in ("bei", "the")
    "possessive_after",  # "'s" follows it
    "personal",  # its sentence holds a personal word ("my", "ich", "nous": `personal_words`)
    "place",  # it is a city, country or territory name (GeoNames, `public_names`)
    "text_capitals",  # share of the text's words, past each sentence's first, written with a capital
)


def name_features(
    text: str, start: int, end: int, confidence: float, languages: frozenset[str], agreed: bool
) -> list[float]:
    """The values of `NAME_FEATURES` for the name text[start:end] the tagger tagged with `confidence`, in a text that may be
    in any of `languages`; `agreed`: a pattern recognizer found a name there too."""
    value = text[start:end]
    words = _WORD.findall(value) or [value]
    lexicon = name_lexicon()
    codes = _codes(languages)
    line_start, line_end = _line(text, start, end)
    opening = sentence_start(text, start)
    before = _WORD.findall(text[opening:start])
    after = _NEXT_WORD.match(text, end)

    def share(test) -> float:
        return sum(bool(test(word)) for word in words) / len(words)

    return [
        confidence,
        min(len(words), 4),
        float(value[:1].islower()),
        float(len(value) > 1 and value.isupper()),
        float(not text[opening:start].strip(_OPENING_MARKS)),
        _line_capitals(text[line_start:line_end], start - line_start, end - line_start),
        float(bool(before) and before[-1][:1].isupper() and (len(before) > 1 or "," in text[opening:start])),
        float(bool(after) and after.group(1)[:1].isupper()),
        share(lambda word: lexicon.get(word.casefold(), 0) & GIVEN),
        share(lambda word: lexicon.get(word.casefold(), 0) & FAMILY),
        share(common_word),
        share(lambda word: any(frequent_in(word, code) for code in codes)),
        share(lambda word: any(at_ceiling(word, code) for code in codes if code in OTHERS)),
        float(introduced(text, start)),
        float(greeted_name(text, start, end)),
        float(may_be_english(languages)),
        float(agreed),
        float(bool(before) and before[-1].islower() and _function_word_of(before[-1].casefold(), codes)),
        float(_POSSESSIVE_AFTER.match(text, end) is not None),
        float(bool(set(_WORD.findall(sentence_around(text, start, end).casefold())) & _personal_words(codes))),
        float(_place(value)),
        _capitals(text[:_TEXT_REACH]),
    ]


def _related(text: str, start: int) -> bool:
    """A relative or close person just before the name at text[start:] ("my sister", "meine Frau")."""
    return _RELATIVE_BEFORE.search(text, max(0, start - _REACH), start) is not None


def introduced(text: str, start: int) -> bool:
    """A self-introduction or a relative just before the name at text[start:] ("my name is", "meine Frau", "my sister")."""
    return introduced_before(text, start) or _related(text, start)


def named_or_related(text: str, start: int) -> bool:
    """An explicit introduction ("my name is", "ich heiße": `named_explicitly`) or a relative just before the name at
    text[start:]; not a cue an organisation says of itself too ("this is", "hier ist") nor "I'm", "je suis"."""
    return named_explicitly(text, start) or _related(text, start)


def given_as_own(text: str, start: int, languages: frozenset[str], words: str) -> bool:
    """A word of the list `words` of the text's `languages` (data/languages/*.yaml: `personal_words`, "me", "my", "our",
    "her", "ich", "uns"; `writer_words`, "me", "my", "ich") before the value at text[start:] in its sentence ("Call me
    on", "my cell is", "ich wohne in der"): the writer gives it as theirs or a person's they know."""
    before = text[sentence_start(text, start) : start].casefold()
    return not _personal_words(_codes(languages), words).isdisjoint(_WORD.findall(before))


def greeted_name(text: str, start: int, end: int) -> bool:
    """A greeting just before the name text[start:end] ("Hi Deepak,")."""
    return greeted(text, start, end) or _GREETING_BEFORE.search(text, max(0, start - _REACH), start) is not None


def _line(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the line of text[start:end] starts and ends, at most `_TEXT_REACH` characters on either side."""
    line_start = max(text.rfind("\n", max(0, start - _TEXT_REACH), start) + 1, start - _TEXT_REACH)
    line_end = text.find("\n", end, end + _TEXT_REACH)
    return line_start, line_end if line_end >= 0 else min(len(text), end + _TEXT_REACH)


def _codes(languages: frozenset[str]) -> set[str]:
    """The covered languages among `languages` (English when none is)."""
    return {code for code in languages if code in OTHERS or code == ENGLISH} or {ENGLISH}


def _function_word_of(word: str, codes: set[str]) -> bool:
    return function_word(word) or any(word in _language_words(code, "function_words") for code in codes)


def _personal_words(codes: set[str], key: str = "personal_words") -> frozenset[str]:
    """The words of the list `key` of the languages `codes` (data/languages/*.yaml)."""
    return frozenset().union(*(_language_words(code, key) for code in codes))


@cache
def _language_words(code: str, key: str) -> frozenset[str]:
    return frozenset(word.casefold() for word in language_file(code).get(key, ()))


def _place(value: str) -> bool:
    key = name_key(value)
    return key in city_names() or key in country_names() or key in territory_names()


@lru_cache(maxsize=64)  # the lines and texts of a batch's spans: `clear_caches` empties it after each batch
def _capitals(piece: str) -> float:
    """Share of the words of `piece` that a capital opens, each sentence's and line's first word aside
    (`_OPENING_WORD`)."""
    words = _WORD.findall(piece)
    openers = _OPENING_WORD.findall(piece)
    capitals = sum(word[:1].isupper() for word in words) - sum(letter.isupper() for letter in openers)
    return capitals / max(len(words) - len(openers), 1)


_LETTER = re.compile(r"[^\W\d_]")
_WORD_OR_JOINER = re.compile(r"[^\W\d_]|['’-]")
_ANCHOR = re.compile(r"[.!?:](?!\w)|\n")  # what opens a sentence or a line before its first word's marks


def _line_capitals(line: str, start: int, end: int) -> float:
    """`_capitals` of `line` without line[start:end] (`_capitals(line[:start] + line[end:])`), read from the line's
    words and opening letters found once (`_line_index`: the candidates and spans of one line share them); read afresh
    where a word of the line runs across `start` or `end`, or one could run across where the two parts meet."""
    starts, ends, capital_words, openers, capital_openers = _line_index(line)
    before, after = line[:start], line[end:]
    first_after = bisect_left(starts, end)
    words_before = bisect_right(ends, start)
    if (
        (words_before < len(starts) and starts[words_before] < start)
        or (first_after > 0 and ends[first_after - 1] > end)
        or (before and after and _WORD_OR_JOINER.match(before[-1]) and _WORD_OR_JOINER.match(after[0]))
    ):
        return _capitals(before + after)
    words = words_before + len(starts) - first_after
    capitals = capital_words[words_before] + capital_words[-1] - capital_words[first_after]
    openers_before, openers_after = bisect_left(openers, start), bisect_left(openers, end)
    opening = openers_before + len(openers) - openers_after
    capital_opening = capital_openers[openers_before] + capital_openers[-1] - capital_openers[openers_after]
    # The first letter after the cut, past marks only: whether it opens a sentence depends on what precedes the cut.
    marks = len(after) - len(after.lstrip(_OPENING_MARKS))
    if marks < len(after) and _LETTER.match(after, marks):
        at = end + marks
        if openers_after < len(openers) and openers[openers_after] == at:
            opening, capital_opening = opening - 1, capital_opening - after[marks].isupper()
        joined = before.rstrip(_OPENING_MARKS)
        if not joined or _ANCHOR.match(joined[-1] + (before[len(joined) :] + after)[:1]):
            opening, capital_opening = opening + 1, capital_opening + after[marks].isupper()
    return (capitals - capital_opening) / max(words - opening, 1)


@lru_cache(maxsize=64)  # the lines of a batch's spans: `clear_caches` empties it after each batch
def _line_index(line: str) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """The words of `line` (`_WORD`): their starts, ends and the count of capitalised ones before each; its opening
    letters (`_OPENING_WORD`): their places and the count of capitals before each."""
    words = list(_WORD.finditer(line))
    openers = [m.start(1) for m in _OPENING_WORD.finditer(line)]
    return (
        [m.start() for m in words],
        [m.end() for m in words],
        [0, *accumulate(m.group()[:1].isupper() for m in words)],
        openers,
        [0, *accumulate(line[at].isupper() for at in openers)],
    )


# ADDRESS, HEALTH and EMPLOYER spans: one set of features, the label's own words read from the data files (its words
# inside the span, talk of it in its sentence).
SPAN_FEATURES = (
    "confidence",  # the student's mean token probability
    "words",  # words in the span, at most 8
    "chars",  # its length, at most 80 characters
    "digits",  # digits in it, at most 12
    "number_first",  # it opens with a digit ("12 Elm Street")
    "long_number",  # it holds a run of 4 digits or more (a postcode, a year, a model number)
    "capitals",  # share of its words that a capital opens
    "lowercase",  # it opens with a lowercase letter
    "all_caps",  # every letter a capital ("COVID")
    "sentence_start",  # nothing but marks before it in its sentence or line
    "line_capitals",  # share of the other words of its line, past each sentence's first, with a capital (titles)
    "text_capitals",  # share of the text's words, past each sentence's first, written with a capital
    "line_words",  # words on its line, at most 40 (a listing's short lines: "Ikea Kallax 4x4, weiß")
    "common",  # share of its words that are words of English (WordNet's lower-case lemmas, function words)
    "frequent",  # share that are frequent words of a language the text may be in (wordfreq, Zipf >= 3)
    "names",  # share that are given or family names of the name lexicon
    "place",  # it is a city, country or territory name (GeoNames, `public_names`)
    "brand",  # it is, or lies in, a brand's name or product (data/brands.txt)
    "public",  # it is, or lies in, a famous person's or place's name (data/public_names.txt)
    "inside",  # its label's words inside it: a street word (ADDRESS), a medical word or listed condition (HEALTH), a firm's
    "talk",  # its label's talk in its sentence: health care (HEALTH), work or study (EMPLOYER), a place's cue (ADDRESS)
    "personal",  # its sentence holds a personal word ("my", "ich", "nous": `personal_words`)
    "function_before",  # the word just before it is a function word of a language the text may be in
    "agreed",  # a pattern recognizer found a span of its type overlapping it
    "position",  # where it starts, as a share of the text's length
    "english",  # the text may be English
    *(f"lang_{code}" for code in sorted(OTHERS)),  # the text may be in that language
)
_NUMBER_FIRST = re.compile(r"\W*\d")
_LONG_NUMBER = re.compile(r"\d{4,}")
_PLACE_CUE_BEFORE = re.compile(rf"(?<!\w)(?i:{alternation('place_before')})\s+$")
# The lists of data/languages/<code>.yaml whose words in a span's sentence are its label's talk (beside the filters'
# patterns of data/pii-tagger/lexicons.yaml: `_talk`); the verified labels besides REAL_NAME.
_TALK_WORDS = {"EMPLOYER": ("work_words", "employer_cues"), "HEALTH": ("conditions",), "ADDRESS": ("street_types",)}


def span_features(
    label: str, text: str, start: int, end: int, confidence: float, languages: frozenset[str], agreed: bool
) -> list[float]:
    """The values of `SPAN_FEATURES` for the `label` span text[start:end] the tagger tagged with `confidence`, in a text
    that may be in any of `languages`; `agreed`: a pattern recognizer found a span of its type there too."""
    value = text[start:end]
    words = _WORD.findall(value) or [value]
    codes = _codes(languages)
    lexicon = name_lexicon()
    line_start, line_end = _line(text, start, end)
    opening = sentence_start(text, start)
    before = _WORD.findall(text[opening:start])
    sentence = sentence_around(text, start, end)
    sentence_words = set(_WORD.findall(sentence.casefold()))

    def share(test) -> float:
        return sum(bool(test(word)) for word in words) / len(words)

    return [
        confidence,
        min(len(words), 8),
        min(len(value), 80),
        min(sum(c.isdigit() for c in value), 12),
        float(_NUMBER_FIRST.match(value) is not None),
        float(_LONG_NUMBER.search(value) is not None),
        share(lambda word: word[:1].isupper()),
        float(value[:1].islower()),
        float(len(value) > 1 and value.isupper()),
        float(not text[opening:start].strip(_OPENING_MARKS)),
        _capitals(text[line_start:start] + text[end:line_end]),
        _capitals(text[:_TEXT_REACH]),
        sum(1 for _ in islice(_WORD.finditer(text, line_start, line_end), 40)),
        share(common_word),
        share(lambda word: any(frequent_in(word, code) for code in codes)),
        share(lambda word: lexicon.get(word.casefold(), 0) & (GIVEN | FAMILY)),
        float(_place(value)),
        float(brand(text, start, end)),
        float(public_name(text, start, end)),
        float(_inside(label, value, codes)),
        float(_talk(label, text, start, sentence, sentence_words, codes)),
        float(bool(sentence_words & _personal_words(codes))),
        float(bool(before) and before[-1].islower() and _function_word_of(before[-1].casefold(), codes)),
        float(agreed),
        start / max(len(text), 1),
        float(may_be_english(languages)),
        *(float(code in languages) for code in sorted(OTHERS)),
    ]


def _inside(label: str, value: str, codes: set[str]) -> bool:
    """Whether `value` holds its label's words: a street word, a medical word or a listed condition, a firm's word."""
    if label == "ADDRESS":
        return STREET.search(value) is not None
    if label == "EMPLOYER":
        return ORGANISATION.search(value) is not None
    key = condition_key(value)
    return (
        MEDICAL_WORD.search(value) is not None
        or key in learnt_conditions()
        or any(key in _language_words(code, "conditions") for code in codes)
    )


def _talk(label: str, text: str, start: int, sentence: str, words: set[str], codes: set[str]) -> bool:
    """Whether the span's sentence (`sentence`, its casefolded `words`) talks of its label: a place's cue just before an
    ADDRESS ("living in"), health care about HEALTH, work or study about an EMPLOYER; or holds the label's words of the
    six languages' files (`_TALK_WORDS`)."""
    if any(words & _language_words(code, key) for code in codes for key in _TALK_WORDS[label]):
        return True
    if label == "ADDRESS":
        return _PLACE_CUE_BEFORE.search(text, max(0, start - _REACH), start) is not None
    return (WORK if label == "EMPLOYER" else HEALTH_TALK).search(sentence) is not None


# FINANCE and CREDENTIAL spans (amounts, secrets): their shape as a value (digits, letters, classes of characters,
# entropy), money in it, and the label's cue before it and words in its sentence, read from the data files.
VALUE_FEATURES = (
    "confidence",  # the student's mean token probability
    "chars",  # its length, at most 64 characters
    "words",  # words and numbers in it, at most 8
    "digits",  # digits in it, at most 20
    "digit_share",  # share of its characters that are digits
    "letter_share",  # share that are letters
    "classes",  # kinds of characters in it: lower case, capitals, digits, others (0-4)
    "entropy",  # Shannon entropy of its characters, bits a character (a random token's is high)
    "long_number",  # it holds a run of 4 digits or more
    "money",  # a currency sign, code or word, or an income's shorthand in it ("$", "EUR", "72k": finance.MONEY)
    "amount",  # an amount in it (digits, "two million": finance.AMOUNT)
    "cue",  # its label's cue just before it: a secret word (`introduced_as_secret`, not a bare "the code"); money
    # someone has, earns or owes (finance.OWNED_MONEY, data/pii-tagger/lexicons.yaml) in the 40 characters before it
    "talk",  # its label's words in its sentence: a word of data/secret_words.yaml (CREDENTIAL), money someone has or
    # owes (FINANCE)
    "personal",  # its sentence holds a personal word ("my", "ich", "nous": `personal_words`)
    "sentence_start",  # nothing but marks before it in its sentence or line
    "line_words",  # words on its line, at most 40
    "agreed",  # a pattern recognizer found a span of its type overlapping it
    "position",  # where it starts, as a share of the text's length
    "english",  # the text may be English
    *(f"lang_{code}" for code in sorted(OTHERS)),  # the text may be in that language
)
_TOKEN = re.compile(r"\S+")
_SECRET_KINDS = ("password_words", "password_words_other_languages", "code_words", "code_words_other_languages",
                 "passphrase_words", "login_words")  # fmt: skip
_CUE_REACH = 40  # characters before an amount that its owner's money word may take ("my salary is now about")


def value_features(
    label: str, text: str, start: int, end: int, confidence: float, languages: frozenset[str], agreed: bool
) -> list[float]:
    """The values of `VALUE_FEATURES` for the `label` (FINANCE or CREDENTIAL) span text[start:end] the tagger tagged
    with `confidence`, in a text that may be in any of `languages`; `agreed`: a pattern recognizer found a span of its
    type there too."""
    value = text[start:end]
    length = max(len(value), 1)
    codes = _codes(languages)
    line_start, line_end = _line(text, start, end)
    opening = sentence_start(text, start)
    sentence = sentence_around(text, start, end)
    if label == "CREDENTIAL":
        cue = introduced_as_secret(text, start, end, bare_code=False)
        talk = _secret_word().search(sentence) is not None
    else:
        cue = OWNED_MONEY.search(text, max(0, start - _CUE_REACH), start) is not None
        talk = OWNED_MONEY.search(sentence) is not None
    return [
        confidence,
        min(len(value), 64),
        min(len(_TOKEN.findall(value)), 8),
        min(sum(c.isdigit() for c in value), 20),
        sum(c.isdigit() for c in value) / length,
        sum(c.isalpha() for c in value) / length,
        _classes(value),
        _entropy(value),
        float(_LONG_NUMBER.search(value) is not None),
        float(MONEY.search(value) is not None),
        float(AMOUNT.search(value) is not None),
        float(cue),
        float(talk),
        float(bool(set(_WORD.findall(sentence.casefold())) & _personal_words(codes))),
        float(not text[opening:start].strip(_OPENING_MARKS)),
        sum(1 for _ in islice(_WORD.finditer(text, line_start, line_end), 40)),
        float(agreed),
        start / max(len(text), 1),
        float(may_be_english(languages)),
        *(float(code in languages) for code in sorted(OTHERS)),
    ]


def _classes(value: str) -> int:
    """How many of lower case, capitals, digits and other characters `value` holds."""
    return (
        any(c.islower() for c in value)
        + any(c.isupper() for c in value)
        + any(c.isdigit() for c in value)
        + any(not c.isalnum() for c in value)
    )


def _entropy(value: str) -> float:
    """Shannon entropy of the characters of `value`, bits a character."""
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values()) if value else 0.0


@cache
def _secret_word() -> re.Pattern[str]:
    """Any word or phrase of data/secret_words.yaml that names a secret or a login."""
    words = {phrase for kind in _SECRET_KINDS for phrase in secret_words()[kind]}
    return re.compile(rf"(?<!\w)(?i:{entries_alternation(words)})(?!\w)")


KINDS = {
    "REAL_NAME": Kind(NAME_FEATURES, name_features, "name"),
    **{label: Kind(SPAN_FEATURES, partial(span_features, label), label.lower()) for label in _TALK_WORDS},
    "FINANCE": Kind(VALUE_FEATURES, partial(value_features, "FINANCE"), "finance"),
    # A secret that a pattern recognizer found too or that a secret word introduces stays: on the choice sets (n-r)
    # the fitted verifier dropped 3 right and 3 wrong spans of those, no gain.
    "CREDENTIAL": Kind(VALUE_FEATURES, partial(value_features, "CREDENTIAL"), "credential", ("agreed", "cue")),
}


@dataclass(frozen=True)
class Verifier:
    """A tree ensemble over its label's features (`KINDS`; gradient boosting: the log-odds `base` plus `rate` times the
    leaf each tree reaches) and the score a span must reach in a text read as English (`threshold`, the English
    student's) and in one of the six other languages (`threshold_others`, the multilingual student's). A tree is a
    tuple of nodes (feature, threshold, left, right, value): a node whose feature is negative is a leaf; else a span
    goes left when its feature's value is at most the threshold."""

    label: str
    trees: tuple[tuple[tuple[int, float, int, int, float], ...], ...]
    base: float
    rate: float
    threshold: float
    threshold_others: float
    reads = None  # every span of its label (context_model.ContextModel.reads)

    @property
    def kind(self) -> Kind:
        return KINDS[self.label]

    def judge_many(self, candidates: list[Candidate]) -> list[float | None]:
        """The score of each candidate (its label's features, `scores`); None for one its kind's `settling` features
        keep unscored."""
        rows = [self.kind.compute(*candidate) for candidate in candidates]
        settled = [settles(self.kind, row) for row in rows]
        scored = iter(self.scores([row for row, done in zip(rows, settled, strict=True) if not done]))
        return [None if done else next(scored) for done in settled]

    def scores(self, rows: list[list[float]]) -> list[float]:
        """The model's probability that each row of its features' values is a true span's: every tree walked for every
        row at once, one level a step."""
        roots, feature, threshold, left, right, value, depth = self._arrays
        x = np.asarray(rows, dtype=float).reshape(-1)
        # Flat indices (1-D takes cost less than indexing by (tree, node) pairs): row r's features start at r x width.
        firsts = np.arange(len(rows))[:, None] * len(self.kind.features)
        node = np.broadcast_to(roots, (len(rows), len(self.trees)))
        for _ in range(depth):
            at_left = x.take(firsts + feature.take(node)) <= threshold.take(node)
            node = np.where(at_left, left.take(node), right.take(node))
        z = self.base + self.rate * value.take(node).sum(axis=1)
        return (1.0 / (1.0 + np.exp(-z))).tolist()

    @cached_property
    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """The trees' nodes one after another in flat arrays (`width` places a tree: tree t's node n at t x width + n):
        each tree's root, then per node its feature, threshold, left and right (flat places too), value; a leaf leads to
        itself (feature 0, threshold infinite); and the deepest tree's depth."""
        width = max(len(tree) for tree in self.trees)
        feature = np.zeros((len(self.trees), width), dtype=np.intp)
        threshold = np.full((len(self.trees), width), np.inf)
        left = np.tile(np.arange(width), (len(self.trees), 1))
        right, value = left.copy(), np.zeros((len(self.trees), width))
        for t, tree in enumerate(self.trees):
            for n, (node_feature, node_threshold, node_left, node_right, node_value) in enumerate(tree):
                value[t, n] = node_value
                if node_feature >= 0:
                    feature[t, n], threshold[t, n], left[t, n], right[t, n] = (
                        node_feature, node_threshold, node_left, node_right
                    )  # fmt: skip
        roots = np.arange(len(self.trees)) * width
        left, right = left + roots[:, None], right + roots[:, None]
        flat = (array.ravel() for array in (feature, threshold, left, right, value))
        return roots, *flat, max(_depth(tree) for tree in self.trees)

    def least(self, languages: frozenset[str], reason: str = "") -> float:
        """The score a span must reach in a text that may be in any of `languages` (`threshold` where route.py sends
        it to the English student), whatever its `reason`."""
        return self.threshold if may_be_english(languages) else self.threshold_others

    def to_json(self, **about) -> dict:
        return {
            "features": list(self.kind.features),
            "base": self.base,
            "rate": self.rate,
            "threshold": self.threshold,
            "threshold_others": self.threshold_others,
            **about,
            "trees": [[list(node) for node in tree] for tree in self.trees],
        }


def settles(kind: Kind, row: list[float]) -> bool:
    """Whether a span whose features' values are `row` is kept unscored (`Kind.settling`)."""
    return any(row[kind.features.index(name)] for name in kind.settling)


def _depth(tree: tuple[tuple[int, float, int, int, float], ...], node: int = 0) -> int:
    feature, _, left, right, _ = tree[node]
    return 0 if feature < 0 else 1 + max(_depth(tree, left), _depth(tree, right))


def read_verifier(path: Path, label: str, kind: Kind | None = None, make: type[Verifier] | None = None) -> Verifier:
    """The `label` verifier stored at `path`; a ValueError when its features are not the label's (a model of another
    version). `kind` and `make`: another tree ensemble over the label's spans and its class (a name candidate judge)."""
    features = (kind or KINDS[label]).features
    stored = json.loads(path.read_text(encoding="utf-8"))
    if tuple(stored["features"]) != features:
        raise ValueError(f"{path}: its features {stored['features']} are not this version's {list(features)}")
    trees = tuple(tuple(tuple(node) for node in tree) for tree in stored["trees"])
    return (make or Verifier)(
        label, trees, stored["base"], stored["rate"], stored["threshold"], stored["threshold_others"]
    )


def clear_caches() -> None:
    """Forget the lines and texts read (no text stays in memory past its batch)."""
    _capitals.cache_clear()
    _line_index.cache_clear()


@cache
def shipped_verifiers() -> dict[str, Verifier]:
    """label -> the verifier shipped as data (`Kind.weights`), for each label that has one."""
    data = resource_dir("data")
    return {
        label: read_verifier(data / kind.weights, label)
        for label, kind in KINDS.items()
        if (data / kind.weights).exists()
    }
