"""Which values of a session are specific enough to be masked wherever they appear again.

A session masks a value it already holds in every later text, whatever the words around it
(pipeline/protector.py `SessionValues`). That is right for an email, a card number, a key or a
person's name, and wrong for a word of the language: a false alarm ("the" taken once for a
condition) would then be masked in every later text of the session. So a value is found again
only when it is specific:
- it holds digits or symbols (an email, a phone or card number, a key, a street address) and at
  least `MIN_SYMBOLIC` letters and digits; a payment card's, only its number (`MIN_CARD_DIGITS`), not its expiry;
- or, written in words, one of its words is not a common word of English and has at least
  `MIN_LETTERS` letters ("Okafor", "Ozempic", "Priya Raghunathan"; not "the", "art", "nostalgia",
  "haha", "late-night"), or it is a name of several words each capitalised ("John Smith", "New York").
  For an employer (or school) and for a person's name written in lowercase, a frequent word of English
  counts as common too (`RELAXED_TYPES`): a false alarm on "uni" (as an EMPLOYER or a name) is not
  masked again, while "Kim" or "Singh" as names, and a password, place, username or condition that is
  a frequent word ("minecraft", "Chelsea", "covid"), still are. What a session then no longer masks
  again (it is still masked wherever detection finds it) is an employer of frequent words
  ("Facebook", "YouTube", "Honda") and a name written in lowercase ("kim"; matching is
  case-sensitive, so a value "Kim" is still masked again as "Kim").
A value that is not specific is still masked where detection finds it again; a secret that is a
word ("sunshine") too, but no longer wherever that word appears.
In a later text in German, French, Spanish, Italian, Dutch or Portuguese (the text's language guess), a word of an
employer or a name (`RELAXED_TYPES`) also counts as common when it is a frequent word of that language
(`data/languages/words-<code>.txt`: "Grüße", "Köln"), unless it is a word of a given or family name of any Faker
locale (the PII tagger's name lexicon, pii_tagger/names.py: "Schneider", "Marloes", "Wang" are frequent
German or Dutch words and names) below the Zipf ceiling `COMMON_ZIPF` in that language: a false alarm on a German word
is not masked again in later German texts (`common_in_language`), a name is masked again whatever language a later
text is guessed to be in; a name at or above the ceiling too where an occurrence is written as a name (`as_name`,
pipeline/protector.py: "O Paulo mora em Curitiba."). Measured with benchmarks/pii_session_languages.py, one session per language (annotated
values masked again where detection missed them / values masked again that are not annotated / texts without
personal data flagged only so), names of any Faker locale kept specific at every Zipf -> below the ceiling only:
the languages files of benchmarks/data/pii-heldout-{c,d,e,g} (1 260 texts, the ceiling chosen there) 29 / 53 / 22 ->
28 / 20 / 10; those of pii-heldout-{h,i,j,k} (1 440 texts, held out) 55 / 132 / 48 -> 52 / 110 / 46. With `as_name`
(chosen on c, d, e, g, where it changed nothing: 29 / 24 / 7 with the current students) h-k 52 / 99 / 44 -> 53 / 99 / 44.

Common words: `data/common_words.txt`, every one-word lemma WordNet 3.0 writes in lowercase (any
part of speech; "john" the toilet, not "Zurich") and the irregular forms of its exception lists,
read with WordNet's own suffix rules ("perks", "hustled"); built by `stealthflow tagger
common-words WORDNET_DIR` (Debian's wordnet-base: /usr/share/wordnet; licence: data/LICENSE-WordNet).
Function words (articles, pronouns, auxiliaries, chat words such as "lol", "yup"), which WordNet
does not hold: `data/function_words.txt`.
Frequent words: `data/frequent_words.txt`, the 9,779 words of wordfreq 3.1.1's English list at Zipf 3
or above (used at least once per million words: "uni", "guys", "facebook"; below it, names and
rarer brands: "priya" 2.9, "tiktok" 2.5) that WordNet neither holds in lowercase nor writes only
capitalised (places, people, organisations: "Zurich", "London" stay specific); built by `stealthflow tagger frequent-words
LARGE_EN_MSGPACK_GZ WORDNET_DIR` (licence: data/LICENSE-wordfreq).
Measured with benchmarks/pii_session_flags.py (one CLI session, the shipped tagger): the 1,969 comments
of data/test.jsonl, 146 flagged (65 only by re-masking "uni") with WordNet's words alone, 81 (4.1 %,
none only by re-masking) with the frequent words; the 910 posts of data/teacher-rewrites/negatives.txt,
54 flagged either way (13 only by re-masking, 11 of them "urlLink" as a name).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from stealthflow.placeholders.language import COVERED, ENGLISH, OTHERS, language_file
from stealthflow.resources import data_words, listed_words, resource_dir

COMMON_WORDS = "common_words.txt"
FREQUENT_WORDS = "frequent_words.txt"
# The types whose frequent words are common: an employer or school ("uni", "Facebook") and a person's name
# written in lowercase ("kim"). Every other type (a password, a place, a condition, a username...) and a
# name written with a capital ("Kim") count only WordNet's words and the function words as common.
RELAXED_TYPES = frozenset({"EMPLOYER", "REAL_NAME"})
NAME_TYPE = "REAL_NAME"
MIN_ZIPF = 3.0  # frequent_words.txt: words used at least once per million words of English
FUNCTION_WORDS = "function_words.txt"
LANGUAGE_WORDS = "languages/words-{code}.txt"  # the frequent words of each language but English
LANGUAGE_GIVEN = "languages/given-names.txt"  # the given names of Faker's locales of the six languages but English
LANGUAGE_COMMON = "languages/common-{code}.txt"  # its words at `COMMON_ZIPF` or above: common even when a name
# Zipf ceiling over the words of a name: at or above it, a word of the language is common even when some Faker locale
# lists it as a name ("Sie" 6.8, "Elle" 6.5, "dann" 6.4, "Mia" 6.0 in Italian, "Beste" 5.7 in Dutch); below it, a name
# stays specific ("Juan" 5.3, "Maria" 5.2, "Marco" 4.9). Chosen on the languages files of pii-heldout-{c,d,e,g}; on
# those of pii-heldout-{h,i,j,k}, values re-masked that are not annotated 132 -> 110, annotated 55 -> 52 (the module).
COMMON_ZIPF = 5.5
MIN_LETTERS = 3  # a one-word value shorter than this ("Jo", "Al") is no more specific than a word
MIN_SYMBOLIC = 4  # letters and digits of a value with digits or symbols ("$100", "2.5" are not specific)
# A payment card's value is specific as its number (13 to 19 digits): its expiry, masked as the card beside it ("card
# 4539 ... exp 09/28": cued.py's card_expiry), is a date any later text may hold ("the release is planned for 09/28").
CARD, MIN_CARD_DIGITS = "CREDIT_CARD", 13

_LETTERS = re.compile(r"[^\W\d_]+")
_WORDS = re.compile(r"[^\W\d_]+(?:['’.-][^\W\d_]+)*")  # a word, hyphenated or with an apostrophe: "late-night", "ain't"
# Words, with the spaces and marks they hold: a letter first, then letters, marks ("'’.-") and spaces
# (or "&"), a mark never right after a space. One character per step, so a match is linear in the value.
_WORDISH = re.compile(r"[\s&]*[^\W\d_](?:[^\W\d_]|['’.-]|[\s&](?!['’.-]))*")
# WordNet's detachment rules (its morphy): an inflected form -> the lemma it may come from.
_SUFFIXES = (
    ("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
    ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
    ("er", ""), ("est", ""), ("er", "e"), ("est", "e"),
)  # fmt: skip


def specific(value: str, type: str | None = None, code: str | None = ENGLISH, as_name: bool = False) -> bool:
    """Whether a value of `type` the session holds is masked wherever it appears again in a text in language `code`
    (see the module; None: a language the recognizers do not cover, judged as English); with no type, judged as
    strictly as a type can be (frequent words are not common); `as_name`: the occurrence is written as a name
    (`common_in_language`)."""
    if type == CARD:
        return sum(char.isdigit() for char in value) >= MIN_CARD_DIGITS
    if not _WORDISH.fullmatch(value):
        return sum(char.isalnum() for char in value) >= MIN_SYMBOLIC
    words = [word for word in _WORDS.findall(value) if not function_word(word)]
    if any(len(word) >= MIN_LETTERS and not _common_in(word, type, code, as_name) for word in words):
        return True
    return len(words) >= 2 and all(word[0].isupper() for word in words) and not value.isupper()


def of_language_words(value: str, code: str, as_name: bool = False) -> bool:
    """Whether `value` is written in words that are all common words of the covered language `code` (not English:
    `common_in_language`), as "Sie" and "Lehrerin" are of German."""
    words = _WORDS.findall(value) if _WORDISH.fullmatch(value) else []
    return bool(words) and all(common_in_language(word, code, as_name) for word in words)


def specific_part(word: str, code: str | None, as_name: bool, given: bool = False) -> bool:
    """Whether a word of a person's name the session holds ("Morel" of "Alain Morel"), found alone in a text in language
    `code`, is masked again: when it is a specific name by itself (`specific`), or a family name of any Faker locale
    (the tagger's name lexicon, pii_tagger/names.py) written as a name there (`as_name`: capitalised inside a sentence
    of a language that capitalises names alone, pipeline/protector.py `_written_as_name`): "Morel" is a WordNet word
    (a mushroom), "Est-ce que Morel peut ..." names the doctor. A word shorter than `MIN_LETTERS` letters never is, nor
    the name of a city of GeoNames (50 000 people or more: "Renata Lima", then "¿Alguien va a Lima?").
    A given name ("Gary" of "Gary Pemberton", `given`) only when specific by itself, however written: a common word of
    English or of the text's language, at the language's ceiling too ("Rose", "Grace", Italian "Mia"), never is; a
    city's name is ("Gary", "Florence": the full name said the word names the person)."""
    from stealthflow.pii_tagger.lexicons import name_lexicon  # numpy and the tagger's model code: only when asked
    from stealthflow.pii_tagger.names import FAMILY
    from stealthflow.placeholders.recognizers.public_names import city_names, name_key

    if len(word) < MIN_LETTERS or not _WORDISH.fullmatch(word):
        return False
    if given:
        return specific(word, NAME_TYPE, code)
    return name_key(word) not in city_names() and (
        specific(word, NAME_TYPE, code, as_name) or (as_name and bool(name_lexicon().get(word.casefold(), 0) & FAMILY))
    )


def _common_in(word: str, type: str | None, code: str | None, as_name: bool = False) -> bool:
    """Whether every run of letters of `word` is a common word for a value of `type` in a text in language `code`: of
    English, a frequent word too only for the relaxed types, and in a person's name only when written in lowercase;
    or of the text's language other than English (`common_in_language`)."""
    strict = type not in RELAXED_TYPES or (type == NAME_TYPE and word[0].isupper())
    common = common_word if strict else frequent_word
    local = code in OTHERS and type in RELAXED_TYPES
    return all(common(run) or (local and common_in_language(run, code, as_name)) for run in _LETTERS.findall(word))


def common_in_language(word: str, code: str, as_name: bool = False) -> bool:
    """Whether `word` is a common word of the covered language `code` (not English) for a session's values: one of its
    words at Zipf `COMMON_ZIPF` or above (`data/languages/common-<code>.txt`: "Sie", "dann"), or one of its frequent
    words (`frequent_in`) and no word of a given or family name of any Faker locale (the tagger's name lexicon,
    pii_tagger/names.py: "Schneider", "Wang" are frequent German words and names). `as_name`: the word is written as
    a name (capitalised inside a sentence of a language that capitalises names alone: "O Paulo mora em Curitiba."),
    where a name of that lexicon stays specific at the ceiling too ("Paulo", "Mia")."""
    from stealthflow.pii_tagger.lexicons import name_lexicon  # numpy and the tagger's model code: only when asked

    if at_ceiling(word, code, as_name):
        return True
    return frequent_in(word, code) and word.casefold() not in name_lexicon()


def at_ceiling(word: str, code: str, as_name: bool = False) -> bool:
    """Whether `word` is one of the most frequent words of the covered language `code` (not English: Zipf `COMMON_ZIPF`
    or above, `data/languages/common-<code>.txt`), and, when written as a name (`as_name`), no word of the tagger's
    name lexicon ("Paulo", "Mia" inside a sentence)."""
    from stealthflow.pii_tagger.lexicons import name_lexicon  # numpy and the tagger's model code: only when asked

    folded = word.casefold()
    return folded in _word_list(LANGUAGE_COMMON.format(code=code)) and not (as_name and folded in name_lexicon())


def job_word(word: str, code: str) -> bool:
    """Whether `word` names a trade in the covered language `code` (`work_words` of data/languages/<code>.yaml:
    "Erzieherin", "Lehrer") and is no word of the tagger's name lexicon ("Koch", "Fahrer" are family names too)."""
    from stealthflow.pii_tagger.lexicons import name_lexicon  # numpy and the tagger's model code: only when asked

    folded = word.casefold()
    return folded in _work_words(code) and folded not in name_lexicon()


@cache
def _work_words(code: str) -> frozenset[str]:
    return frozenset(word.casefold() for word in language_file(code).get("work_words", ()))


def function_word(word: str) -> bool:
    return word.casefold() in english_function_words()


def common_word(word: str) -> bool:
    """Whether `word` is a word of English: a function word, or a common word of WordNet as it is or
    once WordNet's suffix rules take an inflection off ("perks", "hustled", "paychecks")."""
    word = word.casefold()
    if word in english_function_words() or word in _common_words():
        return True
    return any(
        word.endswith(suffix) and word[: len(word) - len(suffix)] + ending in _common_words()
        for suffix, ending in _SUFFIXES
    )


def frequent_word(word: str) -> bool:
    """Whether `word` is a common word of English or one of its frequent words (`data/frequent_words.txt`)."""
    return common_word(word) or word.casefold() in _word_list(FREQUENT_WORDS)


def frequent_in(word: str, code: str) -> bool:
    """Whether `word` is a frequent word of the covered language `code` ("en": `frequent_word`; another:
    `data/languages/words-<code>.txt`, the words of wordfreq's list of that language at Zipf 3 or above)."""
    if code == ENGLISH:
        return frequent_word(word)
    return word.casefold() in _word_list(LANGUAGE_WORDS.format(code=code))


def given_in_languages(word: str) -> bool:
    """Whether `word` is a word of a given name of the six covered languages other than English
    (`data/languages/given-names.txt`, the given names of Faker's locales of them: "juan", "sofia"; not "toma", a
    Romanian name)."""
    return word.casefold() in _word_list(LANGUAGE_GIVEN)


def frequent_in_any(word: str) -> bool:
    """Whether `word` is a frequent word of any covered language ("unbekannt", "inconnu", "failed")."""
    return any(frequent_in(word, code) for code in COVERED)


def _common_words() -> frozenset[str]:
    return _word_list(COMMON_WORDS)


@cache
def _word_list(name: str) -> frozenset[str]:
    return data_words(name)


@cache
def english_function_words() -> frozenset[str]:
    """English's function words (data/function_words.txt), casefolded."""
    return frozenset(word.casefold() for word in listed_words(resource_dir("data") / FUNCTION_WORDS))


def common_words(wordnet_dir: Path) -> list[str]:
    """The one-word lemmas that WordNet 3.0 (data.noun, data.verb, data.adj, data.adv in
    `wordnet_dir`) writes in lowercase in some synset, and the irregular forms its exception lists
    (noun.exc, verb.exc, adj.exc, adv.exc) give for them ("children", "went")."""
    from stealthflow.data import DataError

    parts = ("noun", "verb", "adj", "adv")
    words = {word for word in _lemmas(wordnet_dir) if word.islower()}
    forms = set()
    for part in parts:
        exceptions = wordnet_dir / f"{part}.exc"
        for number, line in enumerate(exceptions.read_text(encoding="latin-1").splitlines(), 1):
            fields = line.split()
            if len(fields) < 2:
                raise DataError(
                    f"{exceptions}:{number}: not a line of a WordNet exception list (a form, then its lemmas)"
                )
            if fields[0].isalpha() and any(lemma in words for lemma in fields[1:]):
                forms.add(fields[0])
    return sorted(words | forms)


def _lemmas(wordnet_dir: Path) -> set[str]:
    """The one-word lemmas of WordNet 3.0's data files, as written ("john", "Zurich")."""
    from stealthflow.placeholders.recognizers.wordnet import synsets

    return {
        word
        for part in ("noun", "verb", "adj", "adv")
        for synset in synsets(wordnet_dir / f"data.{part}")
        for word in synset.words
        if word.isalpha()
    }


def frequent_words(wordfreq_file: Path, wordnet_dir: Path, min_zipf: float = MIN_ZIPF) -> list[str]:
    """The words of wordfreq's English list (`large_en.msgpack.gz` of the PyPI package wordfreq) at
    Zipf `min_zipf` or above, made of letters, that WordNet 3.0 (`wordnet_dir`) neither holds as a
    common word (`common_words`) nor writes only capitalised, as it writes places, people and
    organisations WordNet knows ("London", "Google" are not taken; "uni", "facebook", "guys" are, and so are names WordNet does not hold: "obama", "kevin")."""
    known = set(common_words(wordnet_dir)) | {word.casefold() for word in _lemmas(wordnet_dir)}
    return sorted(word for word in wordfreq_words(wordfreq_file, min_zipf) if word not in known)


def wordfreq_words(wordfreq_file: Path, min_zipf: float = MIN_ZIPF) -> list[str]:
    """The words made of letters of a wordfreq list (`wordfreq/data/*.msgpack.gz` of the PyPI package wordfreq)
    at Zipf `min_zipf` or above, sorted."""
    import gzip

    import msgpack  # the test extra (requirements-lock.txt pins it); wordfreq itself is not needed

    from stealthflow.data import DataError

    with gzip.open(wordfreq_file) as handle:
        header, *buckets = msgpack.unpack(handle, raw=False)
    if header != {"format": "cB", "version": 1}:
        raise DataError(f"{wordfreq_file}: not a wordfreq word list (cB format, version 1)")
    # bucket i holds the words of frequency 10^(-i/100): Zipf (log10 of uses per billion words) 9 - i/100
    return sorted(
        {word for i, bucket in enumerate(buckets) if 9 - i / 100 >= min_zipf for word in bucket if word.isalpha()}
    )
