"""Names of no one the writer deals with, shown by the words next to them: feasts, saints, animals,
things people name, storms, AI assistants, sayings.
"""

from __future__ import annotations

import re

from stealthflow.pii_tagger.filters.public import OWNED, PERSONAL_AFTER
from stealthflow.pii_tagger.lexicons import ANIMALS, KEEPERS, THINGS, alternation, words
from stealthflow.placeholders.recognizers.sentences import capitalises, sentence_around, sentence_start

# A feast or a saint
# ("St. Patrick's Day", "Burns Night", "St. Mary's Church"); an animal or a thing people name (ANIMALS: "our
# dog Biscuit", "Pepper the hamster", "Bella, our beagle", "the robot vacuum we call Dusty"); a
# storm ("Storm Ciarán", "hurricane Milton"). Not the people who look after them ("our dog walker Sarah").
_STORMS = r"storm|hurricane|typhoon|cyclone|tornado|tropical\s+(?:storm|depression)"
_NAMED_KIND_BEFORE = re.compile(
    rf"\b(?i:{ANIMALS}|{THINGS}|{_STORMS})(?P<called>\s+(?:(?i:is|was|we|i)\s+)?(?i:called|call|named))?(?P<comma>,)?\s+$"
)
_NAMED_KIND_AFTER = re.compile(
    rf",?\s+(?i:(?:my|our|the|his|her|their|a|an)\s+(?:[\w-]+\s+)?(?:{ANIMALS}|{THINGS}))\b(?!['’]s|\s+(?i:{KEEPERS})\b)"
)
_STORM_OPENS = re.compile(rf"(?i:{_STORMS})\s")
SAINT_OPENS = re.compile(r"(?:St|Ste|Saint|Sainte)\b\.?(?:\s|$)", re.IGNORECASE)
_FEAST = re.compile(r"(?:['’]s)?\s+(?:Day|Eve|Night)\b")


# AI and voice assistants: a name of no one where the sentence talks of AI, code or a device, or of
# another assistant ("Is Claude better than Gemini for coding?", "Alexa, set a timer"); elsewhere
# a person may carry it ("Claude said he'd be late"). Names no one has are never a person's.
_OWNED_BEFORE = re.compile(rf"(?i:{OWNED})")  # the tie of _PERSONAL_BEFORE without its greetings
_ASSISTANTS = frozenset(words("assistants"))
_ASSISTANTS_ONLY = frozenset(words("assistants_only"))
_AI_TALK = re.compile(
    r"\b(?i:ai|a\.i\.|chat\s*bots?|bots?|assistants?|llms?|models?|prompts?|openai|anthropic|google|amazon|apple|microsoft|echo|speaker|"
    r"coding|regex|python|javascript|sql|timer|alarm|thermostat|playlist|set\s+a|remind\s+me|turn\s+(?:on|off)|"  # not "code": "Tell Alexa the code for the gate"
    + "|".join(sorted(_ASSISTANTS | _ASSISTANTS_ONLY))
    + r")\b"
)


def names_an_assistant(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is an AI or voice assistant's name in talk of AI, code or devices (_ASSISTANTS)."""
    key = text[start:end].casefold()
    if key in _ASSISTANTS_ONLY:
        return True
    if (
        key not in _ASSISTANTS
        or _OWNED_BEFORE.search(text[max(0, start - 48) : start])
        or PERSONAL_AFTER.match(text, end)
    ):
        return False  # "my friend Claude", "Gemini and I"; "Hey Siri" greets the assistant
    sentence = sentence_around(text, start, end)
    offset = sentence_start(text, start)
    return any(not (offset + m.start() == start and offset + m.end() == end) for m in _AI_TALK.finditer(sentence))


# Sayings, stand-in names and figures of folklore that hold a name of no one ("Bob's your uncle",
# "every Tom, Dick and Harry", "rob Peter to pay Paul", "fill it in as John Doe", "Santa Claus").
_SAYINGS = re.compile(
    r"\b(?i:bob['’]?s\s+your\s+uncle|simon\s+says|lady\s+luck|doubting\s+thomas|peeping\s+tom|jack\s+of\s+all\s+trades|"
    r"tom,?\s+dick,?\s+(?:and|&)\s+harry|smart\s+alec|nosy\s+parker|jack\s+the\s+lad|uncle\s+sam|mother\s+nature|father\s+time|"
    r"father\s+christmas|john\s+bull|average\s+joe|plain\s+jane|dear\s+john|johnny[-\s]come[-\s]lately|even\s+stevens|for\s+pete['’]?s\s+sake|"
    r"happy\s+as\s+larry|john\s+doe|jane\s+doe|richard\s+roe|joe\s+bloggs|jane\s+bloggs|joe\s+schmoe|john\s+q\.?\s+public|"
    r"max\s+mustermann|erika\s+mustermann|fulano\s+de\s+tal|peter\s+to\s+pay\s+paul|achilles['’]?\s+(?:heel|tendon)|romeo\s+and\s+juliet|"
    r"santa\s+claus|jack\s+frost|elementary,?\s+my\s+dear\s+watson|faith,?\s+hope,?\s+(?:and|&)\s+charity|grace\s+before\s+meals|say(?:ing|s)?\s+grace)\b"
)
_SAYING_REACH = 32  # characters around a name: a saying is at most this long


def in_a_saying(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies inside a saying or a stand-in name (_SAYINGS)."""
    left = max(0, start - _SAYING_REACH)
    return any(
        left + m.start() <= start and end <= left + m.end() for m in _SAYINGS.finditer(text[left : end + _SAYING_REACH])
    )


def names_a_feast(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] names a feast or a day ("St. Patrick" of "St. Patrick's Day", "Burns Night"),
    by its capitals: in lowercase chat a name before "day" is a person's as often ("tom day off")."""
    if not capitalises(text, start):
        return False
    inside = _FEAST.search(text, start, end)  # the model's span took the day in ("St. Nicholas Day")
    return _FEAST.match(text, end) is not None or (inside is not None and inside.end() == end)


_FESTIVAL = re.compile(rf"(?i:{alternation('festivals')})")
_KEPT_AFTER = re.compile(
    r"\s+(?:(?i:is|are|was|were)\s+)?(?i:observed|celebrated)\b(?!\s+(?i:his|her|their|the|a|an|my|our|its)\b)"
)  # "How is Ramadan observed?", not "Ramadan celebrated his birthday"
_WHEN_BEFORE = re.compile(
    r"\b(?i:during|throughout|celebrat\w*|observ\w*|over|before|after|until|till|since|this|last|next|happy)\s+$"
)  # not "for": a gift for Ramadan may be for a person
# A breed or an animal as the name itself ("Our Border Collie is bored"), chat shorthand ("brb", "tbh"),
# a programming language's literal ("returns [None, None]"), a monarch or a pope by their number ("Henry VIII").
WORD_OF_NO_ONE = re.compile(
    rf"(?i:{ANIMALS}|{alternation('chat_shorthand')})"
    r"|None|True|False|Null|NaN|Undefined|[A-Z][a-z]+\s+(?:II|III|IV|VII|VIII|IX|XI|XII|XIII|XIV|XV|XVI)"  # not "VI", "V", "X": initials too
)


def no_person(text: str, start: int, end: int) -> bool:
    """Whether the words next to a name show it is a feast's, a saint's, an animal's, a thing's, a
    storm's (see ANIMALS), an assistant's or a saying's: no one the writer deals with, even after
    "my" ("my dog Biscuit")."""
    if names_a_feast(text, start, end) or SAINT_OPENS.match(text, start, end) or _STORM_OPENS.match(text, start, end):
        return True
    if _FESTIVAL.fullmatch(text, start, end) and (
        _WHEN_BEFORE.search(text[max(0, start - 24) : start]) or _KEPT_AFTER.match(text, end)
    ):
        return True  # "during Ramadan", "until Diwali", "How is Eid celebrated" (a person may be called Ramadan)
    if WORD_OF_NO_ONE.fullmatch(text, start, end):
        return True  # "Our Border Collie", "brb grabbing food", "[None, None]", "Henry VIII"
    if names_an_assistant(text, start, end) or in_a_saying(text, start, end):
        return True
    kind = _NAMED_KIND_BEFORE.search(text[max(0, start - 40) : start])
    # "the cat, Smokey, sleeps", not "feed the cat, Tom"; in lowercase chat only "called" or "named" says
    # it ("fixing my bike tobias foody and ..." runs sentences together)
    if kind and (not kind["comma"] or text.startswith(",", end)) and (capitalises(text, start) or kind["called"]):
        return True
    return _NAMED_KIND_AFTER.match(text, end) is not None
