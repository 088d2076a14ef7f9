"""Descriptive identifiers that a deterministic layer can only catch by their context: the
user's own name, relatives' names, employer, street address, diagnosis.
Public figures, famous places and numbers without such context are never flagged;
the LLM extractor covers what these patterns miss. The checks these patterns share with the PII
tagger's filters (whom a sentence is about, whether it names the writer) are in sentences.py.
"""

from __future__ import annotations

import re

from stealthflow.pii_tagger.lexicons import CALENDAR, RELATIVES, alternation, given_name, name_lexicon, words
from stealthflow.pii_tagger.names import FAMILY
from stealthflow.placeholders.common_words import common_word, english_function_words
from stealthflow.placeholders.language import ENGLISH, OTHERS, language_file
from stealthflow.placeholders.recognizers.base import ContextRecognizer, register_recognizer
from stealthflow.placeholders.recognizers.gate import skipping
from stealthflow.placeholders.recognizers.introductions import RELATIVES_OF_LANGUAGES
from stealthflow.placeholders.recognizers.languages import (
    any_function_word,
    name_end,
    named_explicitly,
    one_of,
    reads_as_name,
    stop_word_name,
)
from stealthflow.placeholders.recognizers.public_names import brand, public_name
from stealthflow.placeholders.recognizers.sentences import anothers_life, in_lowercase_where_shouted, landmark_address
from stealthflow.placeholders.titles import after_title
from stealthflow.placeholders.types import Span, merge_spans

_NAME = r"[A-Z][a-z]+(?:[-'][A-Z][a-z]+)?"
_LOWER_NAME = (
    r"[^\W\d_A-Z]+(?:[-'][^\W\d_A-Z]+)?"  # a name's word typed in lowercase: `languages.name_end` cuts the run
)


def _names(most: int, gap: str = "[ \t]+") -> str:
    """One to `most` words of a name, capitalised, or typed in lowercase."""
    return rf"(?:{_NAME}(?:{gap}{_NAME}){{0,{most - 1}}}|{_LOWER_NAME}(?:[ \t]+{_LOWER_NAME}){{0,{most - 1}}})"


_WORD = r"[A-Z][\w&'-]*(?:\.[\w&'-]+)*"  # "Acme", "AT&T", "Booking.com"; not a sentence's full stop
_PROPER = rf"{_WORD}(?:[ \t]+(?:&[ \t]+)?{_WORD}){{0,4}}"  # on one line: "Employer: Google\nPosition: ..." is Google


_INTRODUCTION = one_of(tuple(language_file(ENGLISH)["introductions"]), gap=r"\s+")


class _NameAfterCue(ContextRecognizer):
    """A name after an English cue, capitalised or typed in lowercase (`languages.name_end`)."""

    def value_end(self, match: re.Match[str]) -> int:
        return name_end(match.string, match.start("value"), match.end("value"), ENGLISH)

    def accept(self, match: re.Match[str]) -> bool:
        return self.value_end(match) > match.start("value")


@register_recognizer
class OwnNameRecognizer(_NameAfterCue):
    """The writer's own name after a self-introduction (`introductions` of data/languages/en.yaml: "my name is", "I'm")
    or a sign-off ("Regards, ..."), read as a name as the six languages' introduced names are (`reads_as_name`)."""

    name, type = "own_name", "REAL_NAME"
    # With the tagger, the English name reader reads it ("Hi, this is Riverside Family Dental calling", "Kind regards,
    # Customer Care" are left in clear): benchmarks/results/pii_name_reader_introductions.md
    read_by_reader = "REAL_NAME"
    triggers = ("name", "called", "call", "signed", "regards", "cheers", "i'm", "am", "this")
    pattern = re.compile(
        rf"(?i:\b(?:{_INTRODUCTION}|signed,?|regards,|cheers,)\s+)"
        rf"(?P<value>{_names(3)})"  # on one line: "Name: Esna\nEmployer: ..." is Esna
    )

    def value_end(self, match: re.Match[str]) -> int:
        """As `_NameAfterCue`'s, but a name typed in lowercase after a cue that may open a state ("I am", "I'm", "this
        is") is none when its first word is a common word of English (WordNet's), though some name holds it: "I am
        little late" (a family name "Little"); after an explicit one it is ("my name is rose": `named_explicitly`). No
        span changes on pii-heldout-u, v, w (1 800 texts) as written and lower-cased (pii_registers.py --case lower)."""
        text, start = match.string, match.start("value")
        end = super().value_end(match)
        if end > start and text[start].islower() and common_word(match["value"].split()[0]):
            return end if named_explicitly(text, start) else start
        return end

    def accept(self, match: re.Match[str]) -> bool:
        """Not a team signing off ("Kind regards, Customer Services"): its name ends on a word of `team_words`; and a
        name as the six languages' introduced names are (`reads_as_name`: "Regards, Accounts" is none). The latter, on
        benchmarks/data/pii-heldout-c..p (pii_registers.py --misses): 2 wrong spans fewer ("Regards, Accounts", "Kind
        regards, Outpatients"), one grown ("Ken" of a song's "I'm Just Ken"), no value lost; data/test.jsonl's comments
        (pii_session_flags.py) flagged 46 -> 45 of 1 969 ("Cheers, Houdini")."""
        text, start, end = match.string, match.start("value"), self.value_end(match)
        if end == start or stop_word_name(text[start:end]) != self.stop_word_names:
            return False
        # the words matched, not the name cut from them: "regards, early careers team" is a team's; a brand introducing
        # itself is no one's ("this is Canadian Tire Auto Service": benchmarks/results/pii_own_name_brands.md)
        return (
            _TEAM_WORD.fullmatch(match["value"].split()[-1]) is None
            and reads_as_name(text, start, end)
            and not brand(text, start, end)
        )

    stop_word_names = False  # `StopWordOwnNameRecognizer` takes those


@register_recognizer
class StopWordOwnNameRecognizer(OwnNameRecognizer):
    """`OwnNameRecognizer`'s names that the name lexicon leaves out as English stop words ("I'm Will", "Regards, May":
    `stop_word_names` of data/languages/en.yaml), masked unread: the English name reader scores "Regards, Will" 0.59
    and "I'm Will, the new tenant" 0.41, under its threshold (benchmarks/results/pii_name_reader_introductions.md)."""

    name = "stop_word_own_name"
    read_by_reader = None
    stop_word_names = True


@register_recognizer
class ContactNameRecognizer(_NameAfterCue):
    """Someone the writer is to call, text or email ("1. call Deborah", "remind me to text Sam Okafor").
    Not "X said": first names of the famous that are also people's names ("Jesus said", "Siri said")
    would be flagged, for 0.006 of validation name recall."""

    name, type = "contact_name", "REAL_NAME"
    triggers = ("call", "text", "email", "e-mail", "ring", "phone", "message")
    pattern = re.compile(rf"\b(?i:call|text|e-?mail|ring|phone|message)[ \t]+(?P<value>{_names(2)})\b")

    def accept(self, match: re.Match[str]) -> bool:
        """A given name of the tagger's name lexicon (names.py) opens the value, which is no famous
        person or brand ("call Tesco") and no day or month ("text Sunday"). A place that is also a
        given name ("call London") is taken for a person: the gazetteer leaves such words out."""
        text, start, end = match.string, match.start("value"), self.value_end(match)
        first = match["value"].split()[0]
        return (
            end > start
            and given_name(first)
            and _CALENDAR.fullmatch(first) is None
            and not public_name(text, start, end)
            and not brand(text, start, end)
        )


_CALENDAR = re.compile(rf"(?i:{CALENDAR})")
_TEAM_WORD = re.compile(rf"(?i:{alternation('team_words')})")


_RELATIVE_NAME = _names(2, gap=r"\s+")


@register_recognizer
class RelativeNameRecognizer(_NameAfterCue):
    name, type = "relative_name", "REAL_NAME"
    triggers = tuple(words("relatives"))
    pattern = re.compile(
        rf"(?i:\bmy\s+(?:(?:older|younger|little|big|best|late|ex-?)\s+)?(?:{RELATIVES})),?[ \t]+(?P<value>{_RELATIVE_NAME})"
    )


_TITLE = rf"(?i:{alternation('person_titles')})\.?"
_CAPITAL = r"[^\W\d_](?<=[^\W\d_a-zß])"
# a capital, then lowercase letters: "Müller", "Nwosu-Fletcher", a capital after an apostrophe: "O'Connor", "D'Amico";
# not a possessive's "'s" ("Mrs Okafor's son")
_SURNAME = rf"{_CAPITAL}(?:['’]{_CAPITAL})?[^\W\d_A-Z]+(?:-[^\W\d_]+|['’](?!s\b)[^\W\d_]+)*"


@register_recognizer
class TitledNameRecognizer(ContextRecognizer):
    """A run of titles of address and the surname after it, as one name ("Dr. Patel", "Herr Prof. Dr. Müller", "sig.ra Moretti",
    "Ms Ada Fenwick": a given name of the name lexicon may stand between), in every language the titles are listed
    for (`person_titles` of data/pii-tagger/lexicons.yaml). Not a famous person of the gazetteer nor a brand ("Dr Martens", "Mr Kipling").
    Development sets pii-heldout-c..k (benchmarks/pii_registers.py, shipped detector): it masks 65 of the 472 titled
    names that nothing masked before, and adds 23 spans on no one (17 on texts without PII, 4 of them flagged by
    nothing else: "Don Quijote", "Frau Holle", "Dr Who"; 6 roles such as "Sr. Director"). The run of titles, "doktor" and
    "professor", and the surname without a possessive's "'s" (written from a reviewer's texts), on the same sets
    (pii_recognizer_gain.py --before): 2 annotated names newly masked ("professor Sala"), "Professor Lin" whole (was
    "Lin"), "Mrs Abernathy" without "'s", no text without PII newly flagged. A capital after the surname's apostrophe
    ("Mr O'Connor", "Mme D'Amico", from a reviewer's texts): no span of the recognizer changes on pii-heldout-c..m."""

    name, type = "titled_name", "REAL_NAME"
    read_by_reader = "REAL_NAME"  # with the tagger, the name readers read it as they read the tagger's names
    languages = None
    # It scans the whole text: behind a look at a title's first letters (`skipping`), 0.084 -> 0.046 CPU ms per KB on
    # benchmarks/tagger_threads.py's 1 KB texts, the same matches.
    # At most five titles in a run: unbounded, a run without a surname after it ("dr dr dr ...") was read again from
    # each of its titles, quadratic time (16 KB took 7 s). Read possessively instead, a title would keep the first
    # letters of a name it starts ("Fr" of "Dr. Friederike Albers", "Pr" of "Miss Priya"): 14 of the titled names of
    # the stored held-back texts lost (benchmarks/span_equivalence.py --stored); bounded, none changes.
    pattern = skipping(
        re.compile(
            rf"(?<![\w.])(?P<value>{_TITLE}(?:[ \t]+{_TITLE}){{0,4}}[ \t]+(?P<first>{_SURNAME})(?:[ \t]+(?P<second>{_SURNAME}))?)"
        )
    )

    def find(self, text: str) -> list[Span]:
        spans = []
        for match in self.pattern.finditer(text):
            particle = match["first"].casefold() in _PARTICLES  # "mevrouw De Vries", "sig. Di Stefano"
            # A function word is no surname, but a particle before one: a title that ends a sentence ("Mein Vater ist
            # Dipl.-Ing. Meine Mutter ...", "Il est docteur. Mon frère ...") would take the next sentence's first word.
            # On pii-heldout-q, r, u (benchmarks/pii_registers.py --types, 1 800 texts): 1 text without personal data
            # less flagged ("Dr Who"), no annotated value lost; with the particle, 4 names whole ("mevrouw De …").
            end = (
                match.end("second")
                if match["second"] and (given_name(match["first"]) or particle)
                else match.end("first")
            )
            if _CAPS_TITLE.search(text, match.start(), match.start("first")) or (
                any_function_word(match["first"]) and not (particle and match["second"])
            ):
                continue
            if not public_name(text, match.start(), end) and not brand(text, match.start("first"), end):
                relative = _RELATIVE_BEFORE.search(text, max(0, match.start() - _RELATIVE_REACH), match.start("first"))
                start = match.start("first") if relative else match.start()
                spans.append(self.span(start, end))
        return merge_spans([*spans, *self._in_lowercase(text)], text)

    def _in_lowercase(self, text: str) -> list[Span]:
        """A title and surname both typed in lowercase ("my psychiatrist dr. patel put me on lithium"): the
        surname a family name of the name lexicon that is no common word of English (WordNet's: not "dr. house",
        "mr. right") nor a function word ("bij ing op"), after a title as `titles.after_title` reads one ("don
        rodrigo" is none). On pii-heldout-u, v, w lower-cased (benchmarks/pii_registers.py --case lower, 1 800 texts):
        23 annotated names more found ("dr. okafor", "sig.ra cattaneo"), no text without personal data flagged more;
        as written, no span changes."""
        return [
            self.span(*match.span("value"))
            for match in _LOWER_TITLED.finditer(text)
            if name_lexicon().get(match["surname"], 0) & FAMILY
            and not (common_word(match["surname"]) or any_function_word(match["surname"]))
            and after_title(text, match.start("surname"))  # a title that is a given name too only with its dot
        ]


_LOWER_TITLED = skipping(
    re.compile(rf"(?<![\w.])(?P<value>(?=[a-z]){_TITLE}[ \t]+(?P<surname>[^\W\d_A-Z]{{2,}}))(?![\w'’-])")
)


# A title written in capitals, two letters or more, is a firm's or a product's name ("bij ING. Mijn collega's": ING the
# bank, not "Ing." the engineer, with the next sentence's first word for a surname, ux20's report M2; "MS Teams"). The
# 157 titles before a capitalised word in pii-heldout-q, r, u include no such title (only French "M.", one letter).
_CAPS_TITLE = re.compile(r"(?<!\w)[A-Z]{2,}\b")


# The one-word name particles of the six languages (`name_particles` of data/languages/<code>.yaml), which open a surname
# when capitalised ("De Vries", "Di Stefano").
_PARTICLES = frozenset(
    word for code in OTHERS for word in language_file(code)["name_particles"] if " " not in word and "'" not in word
)


# "meine Frau Katrin": a relative (`relatives` of data/languages/<code>.yaml) whose word is also a title is
# kept out of the name, which alone is masked.
_RELATIVE_BEFORE = re.compile(rf"(?<!\w)(?i:{RELATIVES_OF_LANGUAGES})[ \t]+$")
# A relative word before a surname ends where the run of titles does, so it starts at most this far before the run: searched
# from the text's start instead, a text of many titled names took quadratic time (64 KB of "Dr Dr ..." 2.4 s).
_RELATIVE_REACH = max(len(word) for code in OTHERS for word in language_file(code)["relatives"])


@register_recognizer
class EmployerRecognizer(ContextRecognizer):
    name, type = "employer", "EMPLOYER"
    triggers = (
        "work",
        "employ",
        "joined",
        "engineer",
        "manager",
        "nurse",
        "analyst",
        "developer",
        "teacher",
        "designer",
        "accountant",
    )
    pattern = re.compile(
        r"(?i:\b(?:i\s+(?:currently\s+)?work(?:ed)?\s+(?:at|for)|i'm\s+(?:employed|working)\s+(?:at|by|for)|i\s+am\s+(?:employed|working)\s+(?:at|by|for)|"
        r"my\s+employer(?:\s+is|,)?|employer\s*:|i\s+joined|(?:engineer|manager|nurse|analyst|developer|teacher|designer|accountant)\s+at)\s+(?:the\s+)?)"
        rf"(?P<value>{_PROPER})"
    )

    def accept(self, match: re.Match[str]) -> bool:
        return match["value"].split()[0] not in {"I", "My", "The", "A", "Home"}


@register_recognizer
class NationalIdRecognizer(ContextRecognizer):
    """An SSN or SIN named as one ("SSN: 123456789", "social insurance number 527 384 910"), also in the undashed forms
    the SSN pattern (`structured.py`) leaves out. A UK National Insurance number is `national_ids.py`'s."""

    name, type = "national_id", "NATIONAL_ID"
    triggers = ("ssn", "social", "sin", "insurance", "tax id")
    pattern = re.compile(
        r"(?i:\b(?:ssn|social(?:\s+security)?|sin|(?:national\s+)?insurance|tax\s+id)(?:\s+(?:number|no\.?|#))?\s*(?:is|was|:|#)?\s*)"
        r"(?P<value>\d{3}[- ]?\d{2,3}[- ]?\d{3,4})\b"
    )


_ENGLISH_WORDS = language_file(ENGLISH)
_BANK_WORD = one_of((*_ENGLISH_WORDS["sort_code_names"], *_ENGLISH_WORDS["account_names"]))


def _named_by(key: str) -> str:
    """A word of the list `key` of en.yaml naming the number after it, with "is" or ":" ("account number is ")."""
    return rf"(?:{one_of(tuple(_ENGLISH_WORDS[key]))})(?:\s+is|\s*:)?\s*"


_ACCOUNT_WORD, _SORT_WORD = _named_by("account_names"), _named_by("sort_code_names")
_SORT_CODE, _ACCOUNT_NUMBER = r"\d{2}-\d{2}-\d{2}", r"\d{8}"


@register_recognizer
class BankDetailsRecognizer(ContextRecognizer):
    """A UK sort code and account number after a word naming them (`sort_code_names`, `account_names` of
    data/languages/en.yaml): "sort code 20-32-53, account 74061952", "my account 40-11-62 71934028", "account number
    is 40318826 and my sort code is 20-45-77"; masked from the first number to the last, as FINANCE (the development
    sets' convention). A sort code without an account number, or an NN-NN-NN without its name (a date), stays.
    pii-heldout-c..n, English, full detector (benchmarks/pii_registers.py): FINANCE found 207 -> 231 of 283 and set
    c's sort code and account (CREDENTIAL there) 72 -> 74 of 90, no span added on no value, texts without PII flagged
    456 of 1 560 both; data/tagger-natural/validation*/en.txt (benchmarks/pii_marked.py): FINANCE 34 -> 37 of 43."""

    name, type = "bank_details", "FINANCE"
    triggers = ("sort", "acc", "a/c")
    pattern = re.compile(
        rf"(?i:\b(?:{_BANK_WORD})(?:\s*/\s*(?:{_BANK_WORD}))?(?:\s+is|\s*:)?\s*)"
        rf"(?P<value>{_SORT_CODE}[\s,;/]*(?i:{_ACCOUNT_WORD})?{_ACCOUNT_NUMBER}"
        rf"|{_ACCOUNT_NUMBER}(?:,|\s+and)?\s+(?i:my\s+)?(?i:{_SORT_WORD}){_SORT_CODE})(?![\d-])"
    )


@register_recognizer
class SortCodeAccountRecognizer(ContextRecognizer):
    """A UK sort code and an account number side by side, no word naming them: "Lloyds, 30-94-57 41836290" (ux26 M9: a
    PHONE). The pair is the shape of bank details alone; a date's NN-NN-NN is followed by no 8-digit number. No span
    changes on pii-heldout-zc, zd (benchmarks/pii_registers.py, both files): none holds such a pair without its words."""

    name, type = "sort_code_account", "FINANCE"
    # one optional separator group: a run of blanks is read once (rev27b L1: `[ \t]*[,;/]?[ \t]*` took 40 KB 8 s)
    pattern = re.compile(rf"(?<![\w-])(?P<value>{_SORT_CODE}[ \t]*(?:[,;/][ \t]*)?{_ACCOUNT_NUMBER})(?![\w-])")


@register_recognizer
class RoutingAccountRecognizer(ContextRecognizer):
    """A US bank routing number (ABA: nine digits whose weighted sum 3-7-1 is a multiple of ten) after a word naming it
    (`routing_names` of data/languages/en.yaml) and the account number after it: "Routing 021000021 account
    483920175." (ux27's report H9: left in clear), "routing 021000021, acct 483920175"; masked from the first number
    to the last, as FINANCE, as a UK sort code and account are (`BankDetailsRecognizer`). A routing number alone names a
    bank, no person: it stays."""

    name, type = "routing_account", "FINANCE"
    triggers = ("routing", "aba", "rtn")
    pattern = re.compile(
        rf"(?i:\b(?:{one_of(tuple(_ENGLISH_WORDS['routing_names']))})(?:\s+is|\s*:)?\s*)"
        rf"(?P<value>(?P<routing>\d{{9}})[\s,;/]*(?i:and\s+)?(?i:my\s+)?(?i:{_ACCOUNT_WORD})\d{{4,17}})(?![\d-])"
    )

    def accept(self, match: re.Match[str]) -> bool:
        digits = [int(d) for d in match["routing"]]
        return sum(weight * digit for weight, digit in zip((3, 7, 1) * 3, digits)) % 10 == 0


# After the street's name, capitalised: "12 Baker Street", "5 Berliner Straße" (an ending as a word of its own); or
# typed in lowercase, as every word of the address then is ("14 crane lane").
_STREET_WORDS = alternation("street_types", "street_endings")
_UNIT_WORDS = alternation("address_units")
_FUNCTION_WORD = rf"(?:{one_of(tuple(sorted(english_function_words())))})\b"  # data/function_words.txt


def _street_address(capitalised: bool) -> re.Pattern[str]:
    """An English street address (`StreetAddressRecognizer`), capitalised ("17 Larkspur Close, Reading RG1 4QT"), or
    typed in lowercase ("14 crane lane, bristol bs1 4dj"): its words no function words ("walked 2 miles down the
    road" is none), its town only before a postcode or the sentence's end ("38 elm road, leeds please": the street).
    Lowercase, on pii-heldout-u, v, w's English files lower-cased (benchmarks/pii_registers.py --case lower, 720 texts):
    ADDRESS found 24 -> 37 of 43, texts without PII flagged 47 -> 49 of 360 (an example's "123 main street", which the
    original-case file flags too); the original files: no span changes. Words in capitals are read in lowercase
    (`in_lowercase_where_shouted`; measured when only a text all in capitals was): upper-cased, ADDRESS 24 -> 37 of 43 beside the tagger reading it so, texts without PII
    flagged 48 -> 50 of 360 ("123 MAIN STREET")."""
    case = "(?=[A-Z])" if capitalised else ""
    word = r"[A-Z][a-z]+" if capitalised else rf"(?!{_FUNCTION_WORD})[a-z]+"
    state = r"[A-Z]{2}(?!\w)" if capitalised else r"[a-z]{2}(?!\w)"
    postcode = _ENGLISH_WORDS["postcode"] if capitalised else f"(?i:{_ENGLISH_WORDS['postcode']})"
    town = rf",\s+{word}(?:[^\S\n]+{word}){{0,2}}"  # on one line: "Springfield\nTomorrow I..." is no town (ux24b)
    after_town = (
        rf"(?:,?\s+{state})?(?:,?\s+(?:{postcode}))?"
        if capitalised
        else rf"(?:(?:,?\s+{state})?,?\s+(?:{postcode})|(?=\s*(?:[.;!?)]|$)))"
    )
    return re.compile(
        rf"(?P<value>\b\d{{1,5}}[A-Za-z]?\s+(?:{word}\s+){{1,3}}{case}(?i:{_STREET_WORDS})\b\.?"
        rf"(?:,?\s+{case}(?i:{_UNIT_WORDS})\.?\s*#?\w+)?"
        rf"(?:{town}{after_town})?)(?!\w)"
    )


@register_recognizer
class StreetAddressRecognizer(ContextRecognizer):
    """A street with its house number, and the town, state and postcode after it ("17 Larkspur Close, Reading RG1
    4QT", "1815 Maple Avenue, Springfield, IL 62704"), capitalised or typed in lowercase (`_street_address`); it ends
    at a word's end, never inside a postcode (a state's two capitals were taken from "RG1": "<ADDRESS_1>1 4QT")."""

    name, type = "street_address", "ADDRESS"
    read_by_reader = "ADDRESS"  # with the tagger, the address reader leaves a shop's or clinic's address in clear
    pattern = _street_address(capitalised=True)
    lowercase = _street_address(capitalised=False)

    def find(self, text: str) -> list[Span]:
        matches = [*self.pattern.finditer(text), *self.lowercase.finditer(in_lowercase_where_shouted(text))]
        return merge_spans([self.span(*m.span("value")) for m in matches if self.accept(m)], text)

    def accept(self, match: re.Match[str]) -> bool:
        return not landmark_address(match.string, match.start("value"))


@register_recognizer
class DiagnosisRecognizer(ContextRecognizer):
    name, type = "diagnosis", "HEALTH"
    read_by_reader = "HEALTH"
    triggers = ("diagnos", "suffer", "treated", "prescribed")
    pattern = re.compile(
        r"(?i:\b(?:diagnosed\s+with|diagnosis\s+(?:is|of|was)|suffer(?:s|ing)?\s+from|i\s+have\s+been\s+treated\s+for|prescribed)\s+)"
        r"(?P<value>(?:(?:stage|type)\s+\w+\s+)?[a-z][\w'-]*(?:\s+(?!and\b|but\b|in\b|last\b|since\b|after\b|when\b|so\b|two\b|three\b|a\b)[a-z][\w'-]*){0,3})"
    )

    def accept(self, match: re.Match[str]) -> bool:
        return not anothers_life(
            match.string, match.start("value"), match.end("value")
        )  # not "Bruce Willis was diagnosed with aphasia"
