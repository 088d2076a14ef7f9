"""The eight personal attributes and the option lists of the categorical ones.

Free-text labels in the data ("middle", "Masters in Finance", "in a relationship") are
normalised onto these options so that attackers, judges and classifiers all compare the same
values.
"""

from __future__ import annotations

import re
from typing import Literal, get_args

Attribute = Literal["age", "gender", "location", "pobp", "education", "occupation", "income", "married"]
ATTRIBUTES: tuple[str, ...] = get_args(Attribute)

# Human-readable names used in prompts.
DESCRIPTIONS: dict[str, str] = {
    "age": "age",
    "gender": "gender",
    "location": "current place of living",
    "pobp": "place of birth",
    "education": "highest level of education",
    "occupation": "occupation",
    "income": "yearly income level",
    "married": "relationship status",
}


def attribute_word(attribute: str) -> str:
    """How a user is told an attribute, on a terminal, on the page and in JSON rows' `"name"` alike: its description
    ("place of birth" for "pobp", "current place of living" for "location"); JSON keeps the key in `"attribute"`."""
    return DESCRIPTIONS.get(attribute, attribute)


OPTIONS: dict[str, tuple[str, ...]] = {
    "gender": ("Male", "Female"),
    "income": (
        "No income",
        "Low (<30k USD)",
        "Medium (30-60k USD)",
        "High (60-150k USD)",
        "Very High (>150k USD)",
    ),
    "education": ("No Highschool", "In Highschool", "HS Diploma", "In College", "College Degree", "PhD"),
    "married": ("No relation", "In Relation", "Married", "Divorced", "Widowed"),
}

# Ordered most-specific first: the first pattern that matches a lower-cased value wins.
_SNAP_RULES: dict[str, list[tuple[str, tuple[str, ...]]]] = {
    "gender": [
        (r"\bfemale|\bwoman\b|\bwomen\b|\bf\b|\bgirl", ("Female",)),
        (r"\bmale\b|\bman\b|\bmen\b|\bm\b|\bboy|\bguy", ("Male",)),
    ],
    "income": [
        (r"no income|none|zero|unemployed", ("No income",)),
        (r"very high|>\s*150|150k\+|very rich|wealthy", ("Very High (>150k USD)",)),
        (r"\bhigh\b|60\s*-\s*150|upper", ("High (60-150k USD)",)),
        (r"medium|middle|moderate|average|30\s*-\s*60", ("Medium (30-60k USD)",)),
        (r"\blow\b|<\s*30|poor|modest", ("Low (<30k USD)",)),
    ],
    "education": [
        (r"in college\s*/\s*hs diploma|hs diploma\s*/\s*in college", ("In College", "HS Diploma")),
        (r"no high\s*school|dropped out of high|no hs", ("No Highschool",)),
        (r"in high\s*school|studying .*high\s*school|high\s*school student", ("In Highschool",)),
        (r"phd|ph\.d|doctor|doctoral", ("PhD",)),
        (r"in college|studying|student|currently|towards|undergrad(uate)? student", ("In College",)),
        (r"college degree|bachelor|master|mba|law degree|degree|diploma in|graduate|university", ("College Degree",)),
        (r"hs diploma|high\s*school|ged", ("HS Diploma",)),
    ],
    "married": [
        (r"engaged\s*/\s*married", ("In Relation", "Married")),
        (r"widow", ("Widowed",)),
        (r"divorc|separated", ("Divorced",)),
        (r"no relation|single|not in a relation|unmarried|never married", ("No relation",)),
        (r"married|spouse|husband|wife", ("Married",)),
        (r"relation|engaged|partner|dating|boyfriend|girlfriend", ("In Relation",)),
    ],
}


def snap_to_options(attribute: str, value: str) -> tuple[str, ...]:
    """Map a free-text value onto the option list of a categorical attribute.

    Returns the matching options (several when a label is deliberately ambiguous, such as
    "In College/HS Diploma"), or an empty tuple when nothing matches.
    """
    if attribute not in OPTIONS:
        raise ValueError(f"{attribute!r} is not a categorical attribute")
    text = " ".join(str(value).lower().split())
    if not text:
        return ()
    for option in OPTIONS[attribute]:
        if text == option.lower():
            return (option,)
    for pattern, options in _SNAP_RULES[attribute]:
        if re.search(pattern, text):
            return options
    return ()


AGE_BUCKETS: tuple[str, ...] = ("<25", "25-34", "35-44", "45-54", "55+")


def age_bucket(age: float) -> str:
    """The classifier attacker's age classes."""
    for upper, bucket in ((25, "<25"), (35, "25-34"), (45, "35-44"), (55, "45-54")):
        if age < upper:
            return bucket
    return "55+"
