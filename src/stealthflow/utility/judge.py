"""LLM utility judge: readability (1-10), meaning (1-10), hallucination (0/1).

A score the parser cannot read is missing (None), never a best score.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel

from stealthflow import prompts
from stealthflow.llm import LLM, Message


class JudgedUtility(BaseModel):
    readability: float | None = None
    meaning: float | None = None
    hallucination: int | None = None
    raw: str = ""
    error: str | None = None  # the model call failed after its retries (scores are then missing)


def judge_messages(original: str, adapted: str) -> list[Message]:
    return [{"role": "user", "content": prompts.render("utility_judge", original=original, adapted=adapted)}]


def parse_judgement(raw: str) -> JudgedUtility:
    values: dict[str, float] = {}
    match = re.search(r"\{.*?\}", raw, re.DOTALL)
    if match:
        try:
            loaded = json.loads(match.group())
            if isinstance(loaded, dict):
                values = {k.lower(): v for k, v in loaded.items()}
        except json.JSONDecodeError:
            pass
    for key in ("readability", "meaning", "hallucination"):
        if key not in values:  # "Readability: 7" style answers
            found = re.search(rf"{key}\W{{0,5}}(\d+(?:\.\d+)?)", raw, re.IGNORECASE)
            if found:
                values[key] = float(found.group(1))
    return JudgedUtility(
        readability=_score(values.get("readability"), 1, 10),
        meaning=_score(values.get("meaning"), 1, 10),
        hallucination=_flag(values.get("hallucination")),
        raw=raw,
    )


def _score(value, low: float, high: float) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if low <= number <= high else None


def _flag(value) -> int | None:
    if isinstance(value, bool):
        return int(value)
    number = _score(value, 0, 1)
    return None if number is None else int(round(number))


class UtilityJudge:
    def __init__(self, llm: LLM):
        self.llm = llm

    def judge_many(self, pairs: list[tuple[str, str]]) -> list[JudgedUtility]:
        answers = self.llm.chat_many([judge_messages(o, a) for o, a in pairs], max_new_tokens=64)
        return [parse_judgement(a.text).model_copy(update={"error": a.error}) for a in answers]
