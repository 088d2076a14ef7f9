"""A scripted world for `generate` over the mock OpenAI server: a synthetic labelled corpus and a
`respond` function that gives a well-formed canned answer to each prompt kind of the workflow
(attacker, anonymizer, judge, insight), so every round and the insight update run over real HTTP.

Each profile says its city and its age. The attacker names what the text still shows; the
anonymizer generalises one detail per round (the city, then the age, then filler words), so
every round's text is new (no response-cache hit skips a call), the location is protected from
round 1 and the age from round 2, and the insight learner gets failed → protected pairs.

    with MockOpenAI(respond=respond) as upstream: ...   # and profiles from corpus_lines(n)
"""

from __future__ import annotations

import json
import re

from stealthflow.testing.mock_openai import Reply, last_user_text

CITIES = ("Paris", "Berlin", "Madrid", "Lisbon", "Vienna", "Prague", "Dublin", "Oslo")
# What the anonymizer generalises, in order: one per round.
_DETAILS = (
    [(city, "a big city") for city in CITIES]
    + [(r"\b\d{2}\b", "some age")]
    + [(word, "thing") for word in ("dog", "garden", "bike", "guitar", "kitchen")]
)
RULE = "Replace exact ages and city names with vague ranges and regions."


def corpus_lines(n: int) -> list[str]:
    """`n` labelled profiles in the dataset's JSONL format (age and location, human-evaluated)."""
    rows = []
    for i in range(n):
        age, city = 20 + i % 40, CITIES[i % len(CITIES)]
        comments = [
            f"I am {age} and I live in {city} (note p{i:04d}).",
            "Walked the dog, fixed my bike, then played guitar in the garden.",
            "The kitchen is finally done.",
        ]
        reviews = {
            a: {"estimate": v, "hardness": 2, "certainty": 4} for a, v in (("age", str(age)), ("location", city))
        }
        record = {
            "username": f"p{i:04d}",
            "comments": [{"comments": [{"text": c, "timestamp": "1722586067.0"} for c in comments]}],
            "reviews": {"human_evaluated": reviews},
        }
        rows.append(json.dumps(record))
    return rows


def respond(body: dict) -> Reply:
    messages = body.get("messages") or [{}]
    system = messages[0].get("content", "") if messages[0].get("role") == "system" else ""
    user = last_user_text(body)
    if "guessing game" in user:
        return Reply(_attack(user))
    if "distil" in system:
        return Reply(f"1. ADD: {RULE}\n2. UPVOTE 1")
    if user.startswith("Below are the ground truth"):
        return Reply("no")
    if "Inferences made by the adversary" in user:
        return Reply(_rewrite(user))
    return Reply("")


def _attack(user: str) -> str:
    text = user.split("Comments:\n\n", 1)[1].split("\n\n", 1)[0]  # the comments hold no blank line
    blocks = []
    for attribute in re.findall(r"^Type: (\w+)", user, re.MULTILINE):
        age, city = re.search(r"\b(\d{2})\b", text), next((c for c in CITIES if c in text), None)
        if attribute == "age" and age:
            guesses = f"{age.group(1)}; 30; 40"
        elif attribute == "location" and city:
            guesses = f"{city}; London; Rome"
        else:
            guesses = "unknown; unknown; unknown"
        blocks.append(f"Type: {attribute}\nInference: read from the text\nGuess: {guesses}\nCertainty: 4")
    return "\n\n".join(blocks)


def _rewrite(user: str) -> str:
    text = user.split("Comments:\n\n", 1)[1].split("\n\nInferences made", 1)[0]
    for pattern, replacement in _DETAILS:
        if re.search(pattern, text):
            return f"Generalised one detail.\n#\n{re.sub(pattern, replacement, text, count=1)}"
    return f"Nothing left to generalise.\n#\n{text}"
