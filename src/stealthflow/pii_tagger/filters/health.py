"""A HEALTH span: someone's condition that shows itself as one, not a topic of research, a risk or a question in general."""

from __future__ import annotations

import re

from stealthflow.pii_tagger.filters.unlisted import CONTEXT_DECIDES
from stealthflow.pii_tagger.lexicons import alternation, condition_key, learnt_conditions
from stealthflow.placeholders.recognizers.everyday_nouns import everyday_thing
from stealthflow.placeholders.recognizers.public_names import brand
from stealthflow.placeholders.recognizers.sentences import anothers_life, capitalises, question, sentence_around

# Health as a topic of research, charities or news, right next to the condition ("a new study links X
# to poor sleep", "money for X research", "a cure for X"), in a sentence that names no one: nobody's condition.
_TOPIC = r"stud(?:y|ies)|research\w*|scientists?|charit(?:y|ies)|fundrais\w*|awareness|trials?|vaccines?|vaccinations?|shots|jabs|cure"
_HEALTH_TOPIC_BEFORE = re.compile(rf"\b(?i:{_TOPIC})\s+(?:[\w'-]+\s+){{0,3}}$")
_HEALTH_TOPIC_AFTER = re.compile(
    rf"(?:'s)?(?:\s+(?!(?i:the|a|an|this|that)\b)[\w'-]+){{0,2}}\s+(?i:{_TOPIC})\b"
)  # past the rest of the condition's name
# Someone a condition can belong to: a pronoun or a relative (a possessive would be "Crohn's disease" too).
_ONESELF_OR_KIN = (
    r"i|i'm|i've|i'd|me|my|mine|we|(?-i:us|Us)|our|he|she|him|her|his|hers|they|them|their"  # not "the US"
    r"|mum|mom|dad|wife|husband|partner|son|daughter|brother|sister|grandma|grandpa|kids?|baby|friend|boss"
)
SOMEONE = re.compile(rf"\b(?i:{_ONESELF_OR_KIN}|you|your|{alternation('someone_other_languages')})\b")
# A medicine or condition asked about in general ("How long does amoxicillin stay in your body?", "Can you
# take ibuprofen and paracetamol together?"): a question naming no one but a generic "you". Whether
# something is normal is asked about the writer ("Is it normal to feel tired with migraines?"; not "a normal headache").
_SOMEONE_BUT_YOU = re.compile(rf"\b(?i:{_ONESELF_OR_KIN})\b")
# A condition as a risk anyone runs, in a sentence naming no one but a generic "you" ("Drink plenty of
# water to avoid kidney stones", "Smoking raises the risk of a stroke").
_RISK_BEFORE = re.compile(
    r"\b(?i:avoid\w*|prevent\w*|risks?\s+of|chances?\s+of|causes?|caused\s+by|leading\s+cause\s+of|protects?\s+against|ward\s+off)\s+(?:(?i:a|an|the)\s+)?$"
)
# A condition of people in general ("Is fasting safe for people with high blood pressure", "exercise
# for adults living with diabetes"), in a sentence naming no one.
_PEOPLE_WITH = re.compile(
    r"\b(?i:people|persons|patients|anyone|someone|those|adults|children|women|men|folks|sufferers|individuals|teens|teenagers|athletes|seniors"
    r"|the\s+elderly)\s+(?i:with|who\s+(?:have|has|had|get|suffer\s+from|live\s+with)|suffering\s+from|living\s+with|diagnosed\s+with)"
    r"\s+(?:(?i:a|an|mild|severe|chronic|high|low)\s+)?$"
    r"|\b(?i:if\s+you\s+(?:get|have|suffer\s+from|struggle\s+with))\s+$"  # advice to anyone: "keep windows shut if you get hay fever"
)
# Conditions compared as kinds ("the difference between asthma and COPD", "a virus vs bacteria"), in a sentence naming no one.
_COMPARED = re.compile(
    r"\b(?i:differences?\s+between|vs\.?|versus|compared?\s+(?:to|with)|(?:tell|told)\s+apart)(?!\w)"
)
_NORMAL = re.compile(r"\b(?i:(?:is|are)\s+(?:it|this|that)\s+normal|normal\s+(?:to|for))\b")


def impersonal_health(text: str, start: int, end: int) -> bool:
    """Whether the condition text[start:end] is a topic of research or charities (the word right
    next to it) in a sentence that names no one, a risk anyone runs (see _RISK_BEFORE), a kind
    compared with another (see _COMPARED) or asked about in general (see _SOMEONE_BUT_YOU)."""
    sentence = sentence_around(text, start, end)
    near_topic = _HEALTH_TOPIC_BEFORE.search(text[max(0, start - 48) : start]) or _HEALTH_TOPIC_AFTER.match(text, end)
    if near_topic is not None and SOMEONE.search(sentence) is None:
        return True
    if _RISK_BEFORE.search(text[max(0, start - 32) : start]) and _SOMEONE_BUT_YOU.search(sentence) is None:
        return True
    if _PEOPLE_WITH.search(text[max(0, start - 48) : start]) and _SOMEONE_BUT_YOU.search(sentence) is None:
        return True
    if capitalises(text, start) and _COMPARED.search(sentence) and _SOMEONE_BUT_YOU.search(sentence) is None:
        return True
    asked = question(text, start, end)
    return asked is not None and _SOMEONE_BUT_YOU.search(asked) is None and _NORMAL.search(asked) is None


# Where a condition shows itself as one: in its own words ("kidney disease", "-itis", a condition or
# medicine the tagger learnt, such as "ADHD"), in its sentence's words of health care, or right after
# "has", "with", "taking", "I'm", "my" unless it is an everyday thing (everyday_nouns.py); an acronym
# alone is no condition ("Lisa Su took over AMD"). The model alone tags everyday nouns in everyday
# messages as conditions ("for hemming trousers", "a toddler", "with density").
MEDICAL_WORD = re.compile(rf"(?i:\w+(?:{alternation('medical_suffixes')})\b|\b(?:{alternation('medical_words')})\b)")
_NEXT_WORDS = re.compile(r"(?:['’]s)?(?:[\s-]+[\w'’]+){0,2}")  # the model may tag "kidney" of "kidney disease"
HEALTH_TALK = re.compile(
    rf"\b(?i:{alternation('health_talk', 'health_talk_other_languages')}|health(?!y|ier|iest)\w*)\b"
)  # not "healthy"
_PAST_PARTICIPLE = re.compile(r"[a-z]{3,}ed|[a-z]*(?:done|gone|seen|eaten|taken|given|written)")
_HAVE_BEFORE = re.compile(r"\b(?i:have|has|had|['’]ve)\s+$")
_OBJECT_AFTER = re.compile(r"\s+(?i:it|this|that|them|everything)\b")
_HEALTH_BEFORE = re.compile(
    r"\b(?i:have|has|had|having|got|with|taking|takes|took|take|on|i'm|i\s+am|am|is|are|was|being|been|my|his|her|their|our"
    rf"|{alternation('health_before_other_languages')})\s+"
    r"(?:(?:a|an|mild|severe|bad|chronic|early|late|stage\s+\w+|type\s+\w+)\s+)?$"
)


def shows_as_health(text: str, start: int, end: int) -> str | None:
    """What shows text[start:end], tagged as a condition, to be one (see MEDICAL_WORD), None if nothing does: the words
    of `--explain`, so that a span kept for the word before it ("on Instagram") does not read as a medical word's."""
    value = text[start:end]
    if word := MEDICAL_WORD.search(value + _NEXT_WORDS.match(text, end)[0]):
        return f"a medical word in it ({word[0]!r})"
    if condition_key(value) in learnt_conditions():
        return "a condition the tagger learnt"
    if brand(text, start, end):
        return None  # a brand's name, not a medical word: no condition where its words are ("posted it on Instagram")
    if talk := HEALTH_TALK.search(sentence_around(text, start, end)):
        return f"a word of health care in its sentence ({talk[0]!r})"
    if (
        _PAST_PARTICIPLE.fullmatch(value)
        and _HAVE_BEFORE.search(text, max(0, start - 8), start)
        and _OBJECT_AFTER.match(text, end)
    ):
        return None  # "May have overdone it": "have" helps a verb (not "He has overdosed twice", "I've been depressed")
    before = _HEALTH_BEFORE.search(text[max(0, start - 40) : start])
    if before is None or everyday_thing(value.rsplit(None, 1)[-1]):  # not "with a pushchair", "I have extra courgettes"
        return None
    return (
        f"after {before[0].strip()!r}, as a condition is written ('with asthma', 'on insulin'), and no everyday thing"
    )


# A form's field name, not its value ("Condition(s): none").
_FIELD_NAME = re.compile(r"(?:\(s\))?:(?!\S)")  # not "a heart murmur :)"


def plausible(value: str) -> bool:
    """A condition holds a letter ("☔": the student reads an emoji after a word as one)."""
    return any(c.isalpha() for c in value)


def in_context(text: str, start: int, end: int, english: bool = True) -> str | None:
    """Why text[start:end] is kept as someone's condition (what shows it to be one: shows_as_health), None if it is
    not one: no one's where its sentence tells another's life (`anothers_life`: "Stephen Hawking lived with ALS", "Our
    cat has diabetes"); else it shows itself as a condition, is no topic, risk or question in general
    (impersonal_health) and no form's field name. In a text not read as English (`english` False), where nothing shows
    it to be a condition, its context model decides (`unlisted.CONTEXT_DECIDES`)."""
    if anothers_life(text, start, end):
        return None
    shown = shows_as_health(text, start, end) or (None if english else CONTEXT_DECIDES)
    if shown is None or impersonal_health(text, start, end) or _FIELD_NAME.match(text, end):
        return None
    return shown
