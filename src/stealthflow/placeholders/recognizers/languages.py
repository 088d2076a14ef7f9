"""Personal data in German, French, Spanish, Italian, Dutch and Portuguese text, found by the shape
of each country's formats and by a few cues of each language: a name after a self-introduction or a
relative, an employer after "work at", a street with its number, postcode and city, a health
condition in a sentence about the writer or their people, a phone number in the national format.

The words are data (`data/languages/<code>.yaml`, README there); each recognizer class below is
registered once per language (`introduced_name_de`, `street_address_fr`, ...) and reads texts in
that language only. No value runs across a clause: a name or a street holds no comma, colon, full
stop or line break, and an address's comma is the one before its postcode and city.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import ClassVar

import regex

from stealthflow.pii_tagger.lexicons import condition_key, given_name, name_lexicon
from stealthflow.placeholders.common_words import (
    at_ceiling,
    common_word,
    english_function_words,
    frequent_in,
    function_word,
    given_in_languages,
)
from stealthflow.placeholders.language import ENGLISH, OTHERS, function_word_of_covered, language_file
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.gate import WordStarts, matches_at
from stealthflow.placeholders.recognizers.public_names import brand, public_name, text_words
from stealthflow.placeholders.recognizers.sentences import (
    SENTENCE_REACH,
    anothers_life,
    in_lowercase_where_shouted,
    sentence_end,
    sentence_start,
)
from stealthflow.placeholders.recognizers.structured import PhoneRecognizer
from stealthflow.placeholders.types import Span, merge_spans

_CAPITALISED = r"\p{Lu}\p{L}*(?:['’-]\p{L}+)*"  # "Jürgen", "Jan-Ole", "D'Angelo"
_INITIALS = r"\p{Lu}\.(?:-?\p{Lu}\.)*"  # "P.", "J.-P.", "A.B.": a name's initials
LOWERCASE_WORD = r"\p{Ll}+(?:['’-]\p{L}+)*"  # "jürgen", "jan-ole": a name's word typed without capitals
_STREET_WORD = 60  # letters and hyphens a street word ("Konrad-Adenauer-Str.") may have between its first and suffix
_GAP = r"[ \t]+"  # words of one value are on one line, with no punctuation between them
_WORK_GAP = 4  # words between a word of work and its preposition ("arbeite seit 12 Jahren bei")


@dataclass(frozen=True)
class Vocabulary:
    code: str
    regions: tuple[str, ...]
    introductions: tuple[str, ...]
    relatives: tuple[str, ...]
    employer_cues: tuple[str, ...]
    work_words: tuple[str, ...]
    work_prepositions: tuple[str, ...]
    workplaces: tuple[str, ...]
    articles: tuple[str, ...]
    name_particles: tuple[str, ...]
    call_openings: tuple[str, ...]
    street_types: tuple[str, ...]
    street_suffixes: tuple[str, ...]
    number_first: bool
    street_particles: tuple[str, ...]
    postcode: str
    unit_words: tuple[str, ...]
    company_forms: tuple[str, ...]
    id_names: tuple[str, ...]


# read by language.py, structured.py, pipeline/protector.py, introductions.py
_READ_ELSEWHERE = (
    "alphabet",
    "elisions",
    "function_words",
    "number_kinds",
    "number_signs",
    "capitalises_nouns",
    "greetings",
    "addressee_cues",  # by `AddresseeNameRecognizer` (`listed`)
    "office_titles",  # by `OfficeNameRecognizer` (`listed`)
    "kin_titles",  # by `KinTitledNameRecognizer` (`listed`)
    "conditions",  # and these three by `listed` (ConditionRecognizer), English's too
    "condition_abbreviations",
    "personal_words",
    "writer_words",  # by the readers (pii_tagger/verifier.py `given_as_own`)
    "name_introductions",  # by `named_explicitly`
    "name_labels",  # by `LabelledNameRecognizer` (`listed`), and with these two by tables.py
    "address_labels",
    "health_labels",
    "place_labels",  # by tables.py alone
)


@cache
def vocabulary(code: str) -> Vocabulary:
    data = {key: value for key, value in language_file(code).items() if key not in _READ_ELSEWHERE}
    return Vocabulary(
        code=code, **{key: tuple(value) if isinstance(value, list) else value for key, value in data.items()}
    )


@cache
def listed(code: str, key: str) -> tuple[str, ...]:
    """One list of `data/languages/<code>.yaml` (English's too, which holds no whole `Vocabulary`)."""
    return tuple(language_file(code)[key])


@cache  # each recognizer instance builds its patterns from the same few word lists
def one_of(words: tuple[str, ...], gap: str = _GAP) -> str:
    """An alternation of literal words or phrases, the longer of two with a common start tried first, a space
    matching `gap` (any run of spaces; `re` and `regex` read it alike). Factored on common starts ("pin",
    "pin code", "puk": p(?:in(?:GAP code)?|uk)): a flat alternation of the 26 code words of secret_words.yaml
    made the password pattern 1.5 times as slow."""
    trie: dict = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return _alternation(trie, gap)


def _alternation(node: dict, gap: str) -> str:
    """The regex of a trie node of `one_of`: its branches, optional where a word ends here."""
    branches = [
        (gap if char == " " else regex.escape(char)) + _alternation(child, gap) for char, child in node.items() if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


_WORD_CHARACTER = regex.compile(r"[\p{L}\d]")
_ASCII_WORD_CHARACTERS = frozenset(c for c in map(chr, range(128)) if _WORD_CHARACTER.match(c))


def word_initial(text: str, starts: list[int]) -> list[int]:
    """The `starts` that open a word (no letter or digit right before): the only places a `cue_pattern` may match. In
    an ASCII text (most) a set of `_WORD_CHARACTER`'s ASCII characters tells, not a regex call per start (the cue
    recognizers ask of ~100 starts a 1 KB text: 5 % of detection's CPU with the tagger on; the same starts)."""
    if text.isascii():
        return [start for start in starts if start == 0 or text[start - 1] not in _ASCII_WORD_CHARACTERS]
    return [start for start in starts if start == 0 or not _WORD_CHARACTER.match(text, start - 1)]


@cache
def lowercase_word(code: str) -> str:
    """A word typed in lowercase that is no function word of the language `code` (`function_words` of its file): a
    street's or a town's in an address typed without capitals ("rue de la paix, 75002 paris et ..." ends at "paris")."""
    return rf"{no_function_word(code)}{LOWERCASE_WORD}"


def no_function_word(code: str) -> str:
    """A lookahead: no function word of the language `code` (`function_words` of its file) starts here."""
    return rf"(?!(?i:{one_of(listed(code, 'function_words'))})(?![\p{{L}}'’]))"


def cue_pattern(words: tuple[str, ...]) -> str:
    """The cue words, case-insensitive, as whole words (an apostrophe may end one: "l'")."""
    return rf"(?<![\p{{L}}\d])(?i:{one_of(words)})(?:(?<=['’])|(?![\p{{L}}\d]))"


def name_pattern(name_particles: tuple[str, ...]) -> str:
    """One to four capitalised words, lowercase particles (`name_particles`) between them ("Sanne de Vries"), maybe
    after initials ("P. de Vries", "J.-P. Martin"); or one to four lowercase words, which `name_end` cuts where the name
    ends ("sanne de vries is ziek")."""
    particles = rf"(?:(?:{one_of(name_particles)}){_GAP})*" if name_particles else ""
    initials = rf"(?:{_INITIALS}{_GAP}{particles})?"
    capitalised = rf"{initials}{_CAPITALISED}(?:{_GAP}{particles}{_CAPITALISED}){{0,3}}"
    return rf"(?:{capitalised}|{LOWERCASE_WORD}(?:{_GAP}{LOWERCASE_WORD}){{0,3}})"


class LanguageRecognizer(Recognizer):
    """A recognizer of one language; `for_language` makes and registers its class for each.

    `cues`: the vocabulary's list of phrases of which one starts every match; the pattern is then
    tried only where one may start (the case-insensitive scan of a long token for the phrases cost
    a tenth of a second per MB and recognizer). None: the whole text is scanned."""

    language: ClassVar[str]
    cues: ClassVar[str | None] = None
    any_language: ClassVar[bool] = False  # read in every text, whatever its language guess (a form's label, a greeting)

    @classmethod
    def for_language(cls, code: str) -> type[LanguageRecognizer]:
        languages = None if cls.any_language else frozenset({code})
        return register_recognizer(
            type(
                f"{cls.__name__}_{code}",
                (cls,),
                {"name": f"{cls.name}_{code}", "language": code, "languages": languages},
            )
        )

    @property
    def vocab(self) -> Vocabulary:
        return vocabulary(self.language)

    @cached_property
    def pattern(self) -> regex.Pattern:
        return regex.compile(self.expression())

    def expression(self) -> str:
        raise NotImplementedError

    def cue_phrases(self) -> tuple[str, ...]:
        return listed(self.language, self.cues)

    @cached_property
    def _cue_starts(self) -> WordStarts:
        """Where a cue phrase may start: its first word, and a space or tab after it when more follow (`_GAP`)."""
        starts = set()
        for phrase in self.cue_phrases():
            first, space, _ = phrase.partition(" ")
            starts.update((first + " ", first + "\t") if space else (first,))
        return WordStarts(tuple(sorted(starts)))

    def starts(self, text: str) -> list[int] | None:
        """Where a match may start, in order (None: anywhere): where a cue phrase may. Every cue pattern opens with a
        look-behind for no letter or digit (`cue_pattern`, the condition's): a start inside a word matches nothing, so
        it is not tried (a long token holds many, since an abbreviation such as "MS" is two letters)."""
        return word_initial(text, self._cue_starts(text)) if self.cues else None

    def find(self, text: str) -> list[Span]:
        starts = self.starts(text)
        matches = self.pattern.finditer(text) if starts is None else matches_at(self.pattern, text, starts)
        return [self.span(m.start("value"), self.value_end(m)) for m in matches if self.accept(m)]

    def accept(self, match: regex.Match) -> bool:
        return True


def reads_as_name(text: str, start: int, end: int) -> bool:
    """text[start:end], after a cue of a name, as one: two or more words, or a given name of the name lexicon (Faker's,
    every locale): "ich bin Lehrerin", "ich bin Mitte 30" (German capitalises its nouns) are no names. A famous name of
    the gazetteer (public_names.py) is one only when it opens with a given name: the cue introduces a person, who may
    share a footballer's name ("ich heiße Thomas Müller", "soy David Silva"), not a place or a firm ("das ist New
    York"). On 33 009 texts (benchmarks/data/pii-heldout-c..p, data/tagger-natural/, data/train.jsonl and test.jsonl)
    no match of the introduced- or relative-name recognizers is a gazetteer name: the narrowed veto changes no span
    there."""
    words = text[start:end].split()
    if len(words) == 1 and any_function_word(words[0]) and words[0].casefold() not in _stop_word_names():
        return False  # "Ich heiße Sie willkommen": a function word, which some name holds
    given = given_or_dropped(words[0].split("-")[0])
    named = words[0][:1].isupper() and named_explicitly(text, start)
    return (len(words) > 1 or given or named) and (given or not public_name(text, start, end))


def given_or_dropped(word: str) -> bool:
    """A given name of the name lexicon, or one it leaves out as an English stop word (`stop_word_names` of
    data/languages/en.yaml: "I'm Will", "this is May from accounts")."""
    return given_name(word) or word.casefold() in _stop_word_names()


def stop_word_name(value: str) -> bool:
    """Whether `value` is one word the name lexicon leaves out as an English stop word ("Will", "may")."""
    return value.casefold() in _stop_word_names()


@cache
def _stop_word_names() -> frozenset[str]:
    return frozenset(listed(ENGLISH, "stop_word_names"))


def any_function_word(word: str) -> bool:
    """A function word of a covered language or of English (data/function_words.txt)."""
    return function_word_of_covered(word) or function_word(word)


def named_explicitly(text: str, start: int) -> bool:
    """Whether text[start:] follows an explicit introduction of a covered language (`name_introductions` of
    data/languages/<code>.yaml: "my name is", "ich heiße", "chamo-me"), which makes a capitalised word a name though it
    is a common word ("my name is Will", "Ich heiße Will")."""
    return _naming().search(text, max(0, start - _NAMING_REACH), start) is not None


_NAMING_REACH = 40  # characters before a name its explicit introduction may take ("o meu nome completo é")


@cache
def _naming() -> regex.Pattern:
    cues = tuple(word for code in (ENGLISH, *OTHERS) for word in listed(code, "name_introductions"))
    return regex.compile(rf"(?<![\p{{L}}\d])(?i:{one_of(cues)})[ \t]*,?[ \t]*$")


_WORD_OF_NAME = regex.compile(r"\p{L}+(?:['’-]\p{L}+)*")


def name_end(text: str, start: int, end: int, code: str) -> int:
    """Where the name that text[start:end] opens ends, after a cue of a name. A name written with a capital runs to
    `end`. One typed in lowercase ("ich heiße jürgen schäfer und suche", "ik heet pieter de vries en") runs as far as
    its words read as a name's: the first a given name of the name lexicon (names.py) that is no common word of the
    language (`_common`: "ich bin müde", "i'm sure" are none), each next one a name's word of the lexicon that is no
    common word, or no frequent word of the language at all ("okafor"), a particle of `name_particles` between two;
    `start` where the first is none. With the name recognizers' lowercase words, on pii-heldout-u, v, w lower-cased
    (benchmarks/pii_registers.py --case lower, 1 800 texts): REAL_NAME found 166 -> 174 of 339 (English), 419 -> 424 of
    674 (six languages); one text without PII newly flagged ("i'm aria", a chatbot's name, flagged in original case
    too); the original files: no span changes."""
    if not text[start:end][:1].islower():
        return end
    words = list(_WORD_OF_NAME.finditer(text, start, end))
    if not words or not given_name(words[0][0]) or _common(words[0][0], code) or not _own_given(words[0][0], code):
        return start
    particles = {word for phrase in language_file(code).get("name_particles", ()) for word in phrase.split()}
    last = words[0].end()
    for word in words[1:]:
        if word[0] in particles:
            continue
        if not _name_part(word[0], code):
            break
        last = word.end()
    return last


def _common(word: str, code: str) -> bool:
    """A word of every day in `code`, not a name's: a function word of a covered language or of English
    (data/function_words.txt); in English also a word of WordNet that no name holds ("lives"; "beth", "lee" are names),
    in the other languages one of the language's ceiling (`at_ceiling`)."""
    if function_word_of_covered(word) or word.casefold() in english_function_words():
        return True
    if code == ENGLISH:
        return common_word(word) and word.casefold() not in name_lexicon()
    return at_ceiling(word, code)


def _own_given(word: str, code: str) -> bool:
    """A given name in lowercase that no frequent word of the language `code` hides: English's, or none of the language's
    frequent words (`frequent_in`), or a given name of the six languages' countries (`given_in_languages`: "mi hijo
    juan"; not the verbs of "mi hijo toma", "mi hija bebe", given names of other countries). On pii-heldout-u, v, w
    (1 080 texts of the six languages, benchmarks/pii_registers.py --by lang --types): as written, no span lost and none
    added ("tia Cida" -> "Cida", the aunt's name without "tia"); lower-cased (--case lower), values found, spans and texts
    without PII flagged unchanged."""
    return code == ENGLISH or not frequent_in(word, code) or given_in_languages(word)


def _name_part(word: str, code: str) -> bool:
    known = word.casefold() in name_lexicon()
    return not _common(word, code) and (known or not frequent_in(word, code))


class NameAfterCue(LanguageRecognizer):
    """A name after a cue (`name_pattern`), capitalised or typed in lowercase (`name_end`), that reads as one."""

    def value_end(self, match: regex.Match) -> int:
        return name_end(match.string, match.start("value"), match.end("value"), self.language)

    def accept(self, match: regex.Match) -> bool:
        end = self.value_end(match)
        return end > match.start("value") and reads_as_name(match.string, match.start("value"), end)


class IntroducedNameRecognizer(NameAfterCue):
    """The writer's own name after a self-introduction: "ich bin Jürgen Weißmann", "me llamo Javier"; or after the word
    a phone call is answered with (`call_openings`), where it opens a line or follows a greeting and its comma: "Met
    Jan van den Berg.", "Hallo, met Anna de Boer." (a name with particles the tagger cut at them, ux24b); not "ik ga met
    Jan"."""

    name, type = "introduced_name", "REAL_NAME"
    cues = "introductions"

    def cue_phrases(self) -> tuple[str, ...]:
        return (*self.vocab.introductions, *self.vocab.call_openings)

    def expression(self) -> str:
        cue = cue_pattern(self.vocab.introductions)
        if self.vocab.call_openings:
            greeting = rf"(?i:{one_of(listed(self.language, 'greetings'))}),[ \t]*"
            opened = rf"(?<=(?:^|\n)[ \t]*|{greeting})(?P<call>{cue_pattern(self.vocab.call_openings)})"
            cue = rf"(?:{cue}|{opened})"
        return rf"{cue}{_GAP}(?P<value>{name_pattern(self.vocab.name_particles)})"

    def accept(self, match: regex.Match) -> bool:
        """Read as a name (`NameAfterCue`), and after a call's opening no brand ("Met Google Maps vond ik het")."""
        call = self.vocab.call_openings and match.group("call")
        return super().accept(match) and not (call and brand(match.string, match.start("value"), self.value_end(match)))


class LabelledNameRecognizer(NameAfterCue):
    """A name after a form's label and its colon (`name_labels`): "Nombre: lucía fernández", "Naam: pieter de vries",
    "Nachname: Krause". In every text, whatever its language guess (`any_language`): a form's few words are too short
    to tell ("Nom : julien moreau" reads as English); its words read as the label's language's. Registered for English
    too ("Last name: Pemberton"; `name_labels` and `name_particles` of data/languages/en.yaml)."""

    name, type = "labelled_name", "REAL_NAME"
    cues = "name_labels"

    any_language = True

    def expression(self) -> str:
        label = cue_pattern(listed(self.language, "name_labels"))
        # a value ends where a word does: "Name: Report Q3" masked "Report Q" and left "3" (ux25b)
        return rf"{label}[ \t]*:[ \t]*(?P<value>{name_pattern(listed(self.language, 'name_particles'))}[\p{{L}}\d]*)"

    def accept(self, match: regex.Match) -> bool:
        """Read as a name (`NameAfterCue`), or one capitalised word that reads as a surname (`labelled_surname`)."""
        end = self.value_end(match)
        return super().accept(match) or (
            end > match.start("value") and labelled_surname(match.string[match.start("value") : end], self.language)
        )


def labelled_surname(value: str, code: str) -> bool:
    """Whether `value`, after a label of a name, is a surname alone ("Nachname: Krause", "Cognome: Russo", "Last name:
    Pemberton"; `reads_as_name` takes one word after a cue only when it is a given name): one word, capitalised but not
    in capitals, no function word; a famous namesake's or a place's too (a label names a person: "Pemberton" is a
    town); a name of the name lexicon (which knows most surnames, though they are frequent words
    too: "Russo", "Carvalho"), or no frequent word of the label's language and no common word of English ("Name:
    Vertrag", "name: Deploy" are none). On pii-heldout-u, v, w (benchmarks/pii_registers.py --types, 1 800 texts): no
    span changes."""
    if " " in value or not value[:1].isupper() or value.isupper() or any_function_word(value):
        return False
    return value.casefold() in name_lexicon() or not (frequent_in(value, code) or common_word(value))


def name_label(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a form's label of a name before its colon (`name_labels` of any language's file:
    "Apellido:", "Nom de famille :"): the PII tagger took it for a name ("Apellido: Navarro" went out as
    "<REAL_NAME_3>: Navarro", ux25's report H2)."""
    return _labels().fullmatch(text, start, end) is not None and _COLON.match(text, end) is not None


@cache
def _labels() -> regex.Pattern:
    return regex.compile(
        rf"(?i:{one_of(tuple(word for code in (ENGLISH, *OTHERS) for word in listed(code, 'name_labels')))})"
    )


_COLON = regex.compile(r"[ \t]*:")


_LINE_OPENING = regex.compile(r"(?m)^[ \t]*")


class GreetedNameRecognizer(NameAfterCue):
    """A given name after a salutation's greeting (`greetings`) that opens a line, before a comma or the line's end:
    "Lieber Florian,", "Caro Rui,", "Querida Pilar". In every text, whatever its language guess (`any_language`): a
    letter's greeting may open a paragraph in another language than the rest ("Lieber Florian, bis bald." in a file of
    six languages' signatures was left in clear, ux25's report LOW). Its first word a given name of the name lexicon
    ("Hallo Frau Müller", "Hallo zusammen" are none here). On pii-heldout-u, v, w (benchmarks/pii_registers.py --types,
    the languages files, 1 080 texts): REAL_NAME found 547 -> 551 of 662, texts without personal data flagged 73 -> 73
    of 540; on q and r (720 texts) 1 found more, and "Servus Oma," before `_own_given` was read."""

    name, type = "greeted_name", "REAL_NAME"

    any_language = True

    def starts(self, text: str) -> list[int]:
        """Where the pattern's look-behind holds: a line's start and the spaces and tabs after it (a text holds a few
        lines). Tried there, not after a scan for the greetings' words (six recognizers, one per language, each read
        every text): on benchmarks/tagger_threads.py's 40 English 1 KB texts 0.039 -> 0.022 ms per KB for the six."""
        return [
            place for opening in _LINE_OPENING.finditer(text) for place in range(opening.start(), opening.end() + 1)
        ]

    def expression(self) -> str:
        greeting = cue_pattern(listed(self.language, "greetings"))
        name = name_pattern(listed(self.language, "name_particles"))
        return rf"(?<=(?:^|\n)[ \t]*){greeting}{_GAP}(?P<value>{name})(?=[ \t]*(?:,|\n|$))"

    def accept(self, match: regex.Match) -> bool:
        """Its first word a given name that no frequent word of the language hides (`_own_given`: "Servus Oma," is
        none; "Oma" is a given name elsewhere), and read as a name (`NameAfterCue`)."""
        first = match["value"].split()[0].split("-")[0]
        return given_or_dropped(first) and _own_given(first, self.language) and super().accept(match)


class AddresseeNameRecognizer(NameAfterCue):
    """A payee's or an addressee's name after the words that name them (`addressee_cues`: "t.n.v.", "z. Hd.", "à
    l'attention de", "attn"): "Overmaken naar NL87 RABO 2760 1895 55 t.n.v. P. de Vries" left "P. de" in clear (ux25's
    report M5: the surname alone was masked, as a part of the name "Pieter de Vries" found before it)."""

    name, type = "addressee_name", "REAL_NAME"
    cues = "addressee_cues"

    def expression(self) -> str:
        cue = cue_pattern(listed(self.language, self.cues))
        return rf"{cue}[ \t]*[:,]?[ \t]*(?P<value>{name_pattern(listed(self.language, 'name_particles'))})"


class OfficeNameRecognizer(AddresseeNameRecognizer):
    """A person's name after a title of office (`office_titles`: "CEO", "CFO", "Geschäftsführerin", "PDG",
    "amministratore delegato"): "their CFO Daniel Kruger", "Our CEO Jane Whitfield" were sent in clear (ux27's report
    H3; "My manager Tom Reed" was masked by the PII tagger)."""

    name = "office_name"
    cues = "office_titles"

    def value_end(self, match: regex.Match) -> int:
        """A capitalised name only: a word in lowercase after a title is the sentence's ("Our CEO said no": "Said" is a
        given name too)."""
        return match.end("value") if match["value"][:1].isupper() else match.start("value")


class KinTitledNameRecognizer(NameAfterCue):
    """A relative's name after a kinship word written as a title, without "my" (`kin_titles`: "Oma Resi", "Nonna
    Pina", "opa Kees", "Tonton Gérard", "aunty bev"): the relative-name recognizers need a possessive, and 120 of the
    1 201 names so written in the annotated sets were masked by nothing (benchmarks/results/pii_kin_titled_names.md).
    The name is a relative's though a famous person has it ("Onkel Zizou hat angerufen"); not when the title and the
    name are one listed name ("Uncle Sam", `public_name`), nor a word of every day after the title ("tía buena")."""

    name, type = "kin_titled_name", "REAL_NAME"
    cues = "kin_titles"

    def expression(self) -> str:
        cue = cue_pattern(listed(self.language, self.cues))
        return rf"{cue}{_GAP}(?P<value>{name_pattern(listed(self.language, 'name_particles'))})"

    def accept(self, match: regex.Match) -> bool:
        text, start, end = match.string, match.start("value"), self.value_end(match)
        return (
            end > start
            and not _common(text[start:end].split()[0], self.language)
            and not public_name(text, match.start(), end)
        )


class RelativeNameRecognizer(NameAfterCue):
    """A relative's or close person's name after them: "meine Frau Katrin", "mon fils, Hugo"."""

    name, type = "relative_name", "REAL_NAME"
    cues = "relatives"

    def expression(self) -> str:
        return rf"{cue_pattern(self.vocab.relatives)},?{_GAP}(?P<value>{name_pattern(self.vocab.name_particles)})"


class EmployerCueRecognizer(LanguageRecognizer):
    """An employer after a cue of work: "arbeitet bei Siemens", "trabajo en el Banco Santander"; or after a word of work
    (a verb or a trade: `work_words`), up to `_WORK_GAP` words, and a preposition (`work_prepositions`): "arbeite seit 12
    Jahren bei der Migros", "Krankenschwester an der Charité", "Empiezo el lunes en Mercadona"."""

    name, type = "employer_cue", "EMPLOYER"
    cues = "employer_cues"

    def cue_phrases(self) -> tuple[str, ...]:
        return (*self.vocab.employer_cues, *self.vocab.work_words)

    def expression(self) -> str:
        vocab = self.vocab
        article = rf"(?:(?i:{one_of(vocab.articles)})(?:(?<=['’])|{_GAP}))?"
        word = rf"(?:{one_of(vocab.company_forms)})(?![\p{{L}}\d])|{_CAPITALISED}"  # "Söding GmbH & Co. KGaA", "Pinho Lda."
        workplace = rf"(?:(?i:{one_of(vocab.workplaces)}){_GAP})?"  # "l'hôpital Necker", "basisschool De Regenboog"
        organisation = rf"{workplace}{_CAPITALISED}(?:{_GAP}(?:&{_GAP})?(?:{word})){{0,4}}"
        gap = (
            rf"(?:{_GAP}(?:\d{{1,2}}\.|[^\s,.;:!?()\[\]\"“”«»]+)){{0,{_WORK_GAP}}}?"  # "seit 12 Jahren", "am 1. April"
        )
        work = rf"{cue_pattern(vocab.work_words)}{gap}{_GAP}{cue_pattern(vocab.work_prepositions)}"
        return rf"(?:{cue_pattern(vocab.employer_cues)}|{work})(?:(?<=['’])|{_GAP}){article}(?P<value>{organisation})"

    def accept(self, match: regex.Match) -> bool:
        """Not a famous place ("trabajo en Madrid")."""
        return not public_name(match.string, match.start("value"), match.end("value"))


class StreetAddressRecognizer(LanguageRecognizer):
    """A street with its house number, and the postcode and city written right after it:
    "Schillerstraße 12, 80336 München", "14 rue de la Paix", "Calle Mayor 5, Madrid"; or all typed in lowercase
    (`lowercase`: "via roma 12, 10121 torino", "hauptstraße 5")."""

    name, type = "street_address", "ADDRESS"
    read_by_reader = "ADDRESS"  # with the tagger, the address reader leaves a sample or a shop's address in clear

    def expression(self) -> str:
        return self._address(capitalised=True)

    @cached_property
    def lowercase(self) -> regex.Pattern:
        """The address typed in lowercase: its words no function words of the language (`lowercase_word`), a street
        named before its number ("via roma 12") only with the postcode or city or a comma after it ("piazza maggiore alle
        7" is no address). pii-heldout-u, v, w's six languages' files lower-cased (benchmarks/pii_registers.py --case
        lower, 1 080 texts): ADDRESS found 56 -> 84 of 89; texts without PII flagged 83 -> 86 of 540, each an example
        address the original-case file flags too ("1 rue de la Paix, 75002 Paris"); the original files: no span
        changes. Without the place or comma a street named first took "piazza maggiore alle 7" (ADDRESS 84, flagged 90)."""
        return regex.compile(self._address(capitalised=False))

    def find(self, text: str) -> list[Span]:
        lowercase = [
            self.span(*match.span("value")) for match in self.lowercase.finditer(in_lowercase_where_shouted(text))
        ]
        return merge_spans([*super().find(text), *lowercase], text)

    def _address(self, capitalised: bool) -> str:
        """The address whose street's and city's words are capitalised, or lowercase (`lowercase`)."""
        vocab = self.vocab
        word, initial = (_CAPITALISED, r"\p{Lu}") if capitalised else (lowercase_word(self.language), r"\p{Ll}")
        # what makes a word at `initial` a `word`, without reading the word to its end: read at every word of a run
        # ("A'A'A'...", "a-a-a-..."), the whole of `word` took quadratic time
        opening = "" if capitalised else no_function_word(self.language)
        particles = rf"(?:(?i:{one_of(vocab.street_particles)})(?:(?<=['’])|{_GAP}))*"
        words = rf"{particles}(?:{word}|\d{{1,2}}(?={_GAP}\p{{L}}))"  # "de la Paix", "do Carmo", "Jean Jaurès", "5 de Octubre"
        named = rf"(?:{_GAP}{words}){{0,4}}"
        # "12a", "14 bis", "9-11", "8/9", "s/n" (no number); not "20h" (a time); then a flat's "Piso 3", "Apt. 58"
        number = r"(?:\d{1,4}(?:[-/]\d{1,4})?(?:[ \t]?(?:bis|ter|[a-gA-G])(?![\p{L}\d]))?|(?i:s/n))"
        number += rf"(?:,?{_GAP}(?i:{one_of(vocab.unit_words)}){_GAP}?\d{{1,4}}[a-zA-Z]?)?"
        city = rf"{word}(?:[ \t-](?:{word}|(?:sur|am|an|de|del|di|do|da|im|aan|den)(?=[ \t-]{initial}))){{0,3}}"
        place = rf"(?:[ \t]*,?{_GAP}(?i:{vocab.postcode}){_GAP}{city}|,{_GAP}{city}(?=\s*(?:[.;!?)]|$)))"
        alternatives = []
        if vocab.street_types:
            street = rf"(?i:{one_of(vocab.street_types)})(?![\p{{L}}\d]){named}"
            if vocab.number_first:
                alternatives.append(rf"{number},?{_GAP}{street}{place}?")
            else:
                after = rf"{place}?" if capitalised else rf"(?:{place}|(?=[ \t]*,))"
                alternatives.append(rf"{street},?{_GAP}(?:n[º°.o]+{_GAP}?)?{number}{after}")
        if vocab.street_suffixes:
            # "Schillerstraße", "Konrad-Adenauer-Str.", "Berliner Straße": an adjective of a place may stand before
            # the street word at most `_STREET_WORD` letters and hyphens before its suffix: unbounded, a run of them
            # ("a-a-a-...") was read back to each of its letters from each of its words, quadratic time (16 KB: 6 s)
            suffixed = rf"{initial}[\p{{L}}-]{{0,{_STREET_WORD}}}(?i:{one_of(vocab.street_suffixes)})"
            alternatives.append(rf"(?:{opening}{initial}\p{{L}}*er{_GAP})?{suffixed}{_GAP}{number}{place}?")
        return rf"(?<![\p{{L}}\d])(?P<value>{'|'.join(alternatives)})(?![\p{{L}}\d])"


class ConditionRecognizer(LanguageRecognizer):
    """A health condition of the language's list, in a sentence about the writer or their people
    (a first-person word or possessive: "Tengo diabetes tipo 2", "meine Tochter hat Asthma"; in English
    also a third-person one: "my chemo schedule", "her insulin");
    "Diabetes ist eine Volkskrankheit" is not about anyone. Registered for English too (`conditions`,
    `personal_words` of data/languages/en.yaml: `EnglishConditionRecognizer`)."""

    name, type = "condition", "HEALTH"
    cues = "conditions"

    def conditions(self) -> tuple[str, ...]:
        """The language's conditions, treatments and medicines (`conditions`)."""
        return listed(self.language, "conditions")

    def abbreviations(self) -> tuple[str, ...]:
        """The language's `condition_abbreviations`, read only as written."""
        return listed(self.language, "condition_abbreviations")

    def cue_phrases(self) -> tuple[str, ...]:
        return (*self.conditions(), *self.abbreviations())

    def expression(self) -> str:
        """A condition of the list in any case; an abbreviation (`condition_abbreviations`) only as written ("MS", not
        "ms"), and not before a capitalised word or a model number, which make it part of a name ("MS Teams", "ALS
        Association", "SM-A536B")."""
        words = one_of(self.conditions())
        abbreviations = rf"(?:{one_of(self.abbreviations())})(?![ \t]+\p{{Lu}}|-?\p{{Lu}}?\d)"
        return rf"(?<![\p{{L}}\d])(?P<value>(?i:{words})|{abbreviations})(?![\p{{L}}\d])"

    @cached_property
    def personal(self) -> regex.Pattern:
        return regex.compile(cue_pattern(listed(self.language, "personal_words")))

    def accept(self, match: regex.Match) -> bool:
        text = match.string
        stop = sentence_end(text, match.end())
        end = stop.start() if stop else match.end() + SENTENCE_REACH
        return text_words(text).holds_match(
            self.personal, sentence_start(text, match.start()), end
        )  # the text's personal words, found once


class EnglishConditionRecognizer(ConditionRecognizer):
    """English's: also not said of the pet, thing or famous person its sentence opens with (`anothers_life`, as the PII
    tagger's HEALTH filter: "Our cat has diabetes and needs insulin"). On pii-heldout-k..r,u's English texts it changes no
    value and no flag; on the six languages' texts (whose sentences it cannot read) it lost 3 HEALTH values. A personal
    word opening a report of what the writer read or heard (`hearsay` of data/languages/en.yaml: "Chemo is expensive in
    general, I read") is none: on pii-heldout-k..r,u's English texts in one session (benchmarks/pii_registers.py
    --session) and on c..j's no span changes (HEALTH 268 of 363 and 227 of 319 found, before and after). With the
    tagger, its matches are read by the health reader (detector.py)."""

    read_by_reader = "HEALTH"

    def conditions(self) -> tuple[str, ...]:
        """`conditions`, and the medicines and treatments the PII tagger learnt (`tagger_medications`, without their
        article: "an inhaler" is "inhaler"), English's one vocabulary of medicines: "I take Keppra", "My son takes
        Keppra" went out in clear (ux25's report M6). On pii-heldout-u, v, w (benchmarks/pii_registers.py --types,
        1 800 texts): no value found more or lost; read in any case, "PrEP" took "prep" of "I meal prep" (hence
        `abbreviations`)."""
        learnt = (condition_key(medicine) for medicine in _learnt_medicines() if not _abbreviation(medicine))
        return tuple(dict.fromkeys((*super().conditions(), *learnt)))

    def abbreviations(self) -> tuple[str, ...]:
        """`condition_abbreviations`, and the learnt medicines written with a capital after their first letter ("PrEP",
        "HRT", "IVF"), read only as written too."""
        return (*super().abbreviations(), *(medicine for medicine in _learnt_medicines() if _abbreviation(medicine)))

    @cached_property
    def personal(self) -> regex.Pattern:
        hearsay = rf"(?i:{one_of(listed(self.language, 'hearsay'))})(?![\p{{L}}\d])"
        return regex.compile(rf"(?!{hearsay}){cue_pattern(listed(self.language, 'personal_words'))}")

    def accept(self, match: regex.Match) -> bool:
        return super().accept(match) and not anothers_life(match.string, match.start("value"), match.end("value"))


def _learnt_medicines() -> tuple[str, ...]:
    return listed(ENGLISH, "tagger_medications")


def _abbreviation(word: str) -> bool:
    """Written with a capital after its first letter ("PrEP", "HRT"): an abbreviation, which may be a word in any case
    ("meal prep")."""
    return any(char.isupper() for char in word[1:])


class NationalPhoneRecognizer(LanguageRecognizer, PhoneRecognizer):
    """Phone numbers valid in one of the language's countries, in its national format ("612 345 678" in Spanish,
    "(11) 98765-4321" in Brazilian Portuguese)."""

    name, type = "national_phone", "PHONE"

    @property
    def regions(self) -> tuple[str, ...]:
        return self.vocab.regions

    home_regions = regions  # every region of the language is the text's

    def find(self, text: str) -> list[Span]:
        return PhoneRecognizer.find(self, text)


for _code in OTHERS:
    for _kind in (
        IntroducedNameRecognizer,
        RelativeNameRecognizer,
        EmployerCueRecognizer,
        StreetAddressRecognizer,
        ConditionRecognizer,
        NationalPhoneRecognizer,
    ):
        _kind.for_language(_code)
for _code in (ENGLISH, *OTHERS):
    LabelledNameRecognizer.for_language(_code)
    AddresseeNameRecognizer.for_language(_code)
    OfficeNameRecognizer.for_language(_code)
    KinTitledNameRecognizer.for_language(_code)
for _code in OTHERS:
    GreetedNameRecognizer.for_language(_code)
EnglishConditionRecognizer.for_language(ENGLISH)
