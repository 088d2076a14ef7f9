"""The LLM extractor (MemPrivacy-style): the model lists private spans as JSON
`[{original_text, privacy_type, privacy_level}]`; we locate each one in the text.

Model answers are untrusted: text that does not occur in the message is dropped (a weak
model often repeats the prompt's examples), unknown types fall back by level, a missing or
lower level than the type's default becomes the default ("when unsure, the higher level").

The extractor reads each text raw, before anything is protected: it is on by default only for a
model on this machine (`ProtectConfig.uses_llm_extractor`), and turned on for one elsewhere it is
warned about once per process and model (`warn_if_remote`).
"""

from __future__ import annotations

import json
import logging
import re
from typing import TYPE_CHECKING, Any

from stealthflow import prompts
from stealthflow.llm import LLM, Message
from stealthflow.placeholders.types import TYPE_LEVELS, Level, Span

if TYPE_CHECKING:
    from stealthflow.llm.config import ModelConfig

log = logging.getLogger("stealthflow.extractor")
_WARNED: set[tuple[str, str | None]] = set()  # (model, endpoint) already warned about


def warn_if_remote(model: ModelConfig) -> None:
    """Warn (once per model and endpoint) that the extractor will send every raw text off the machine."""
    endpoint = model.endpoint()
    if model.is_local() or (model.model, endpoint) in _WARNED:
        return
    _WARNED.add((model.model, endpoint))
    log.warning(
        "the LLM PII extractor is on with %s, which is not on this machine: every text is sent there "
        "raw, before it is protected; use --no-llm (protect.llm_extractor: false) or a local model to avoid it",
        model.where(),
    )


_SYNONYMS = {
    "NAME": "REAL_NAME",
    "PERSON": "REAL_NAME",
    "FULL_NAME": "REAL_NAME",
    "PERSON_NAME": "REAL_NAME",
    "EMAIL_ADDRESS": "EMAIL",
    "PHONE_NUMBER": "PHONE",
    "TELEPHONE": "PHONE",
    "MOBILE": "PHONE",
    "HOME_ADDRESS": "ADDRESS",
    "STREET_ADDRESS": "ADDRESS",
    "COMPANY": "EMPLOYER",
    "ORGANIZATION": "EMPLOYER",
    "WORKPLACE": "EMPLOYER",
    "SCHOOL": "EMPLOYER",
    "JOB": "EMPLOYER",
    "DIAGNOSIS": "HEALTH",
    "MEDICAL": "HEALTH",
    "CONDITION": "HEALTH",
    "DISEASE": "HEALTH",
    "MEDICATION": "HEALTH",
    "SALARY": "FINANCE",
    "INCOME": "FINANCE",
    "MONEY": "FINANCE",
    "BANK_ACCOUNT": "IBAN",
    "CARD": "CREDIT_CARD",
    "CARD_NUMBER": "CREDIT_CARD",
    "SSN": "NATIONAL_ID",
    "ID_NUMBER": "NATIONAL_ID",
    "PASSPORT_NUMBER": "PASSPORT",
    "TOKEN": "API_KEY",
    "SECRET": "API_KEY",
    "KEY": "API_KEY",
    "CODE": "OTP",
    "IP": "IP_ADDRESS",
    "WEBSITE": "URL",
}
_FALLBACK_BY_LEVEL = {Level.PL2: "PERSONAL", Level.PL3: "SENSITIVE", Level.PL4: "CREDENTIAL"}
_JSON_LIST = re.compile(r"\[.*\]", re.DOTALL)
_JSON_OBJECT = re.compile(r"\{[^{}]*\}")


def extractor_messages(text: str) -> list[Message]:
    return [{"role": "user", "content": prompts.render("pii_extractor", text=text)}]


def parse_extraction(raw: str) -> list[dict[str, Any]]:
    """The list of objects in the answer; objects are salvaged one by one from broken JSON."""
    match = _JSON_LIST.search(raw or "")
    if match:
        try:
            items = json.loads(match.group(0))
            if isinstance(items, list):
                return [item for item in items if isinstance(item, dict)]
        except json.JSONDecodeError:
            pass
    items = []
    for fragment in _JSON_OBJECT.findall(raw or ""):
        try:
            items.append(json.loads(fragment))
        except json.JSONDecodeError:
            continue
    return [item for item in items if isinstance(item, dict)]


def classify(privacy_type: object, privacy_level: object) -> tuple[str, Level] | None:
    """(our type, level) for the model's labels; None for PL1 (never masked)."""
    name = re.sub(r"[^A-Z0-9]+", "_", str(privacy_type or "").upper()).strip("_")
    name = _SYNONYMS.get(name, name)
    try:
        level = Level.parse(privacy_level)
    except ValueError:
        level = TYPE_LEVELS.get(name, Level.PL2)
    if name in TYPE_LEVELS:
        level = max(level, TYPE_LEVELS[name])
    if level == Level.PL1:
        return None
    return (name if name in TYPE_LEVELS else _FALLBACK_BY_LEVEL[level]), level


def locate(text: str, item: dict[str, Any]) -> list[Span]:
    """Every occurrence of the item's text (word-bounded), or [] when it is not usable."""
    value = str(item.get("original_text") or "").strip()
    labels = classify(item.get("privacy_type"), item.get("privacy_level"))
    if labels is None or len(value) < 3 or len(value) > 200 or value == text.strip():
        return []
    span_type, level = labels
    distinctive = any(c.isdigit() or c.isupper() or c in "@/:" for c in value) or " " in value or level >= Level.PL3
    if not distinctive:  # a lone lowercase word at PL2 is nearly always a false hit
        return []
    pattern = re.compile(rf"(?<!\w){re.escape(value)}(?!\w)")
    matches = list(pattern.finditer(text)) or list(re.compile(pattern.pattern, re.IGNORECASE).finditer(text))
    return [Span(m.start(), m.end(), span_type, level, "llm", 0.5) for m in matches]


class LLMExtractor:
    def __init__(self, llm: LLM):
        self.llm = llm

    def extract_many(self, texts: list[str]) -> list[list[Span]]:
        # An LLMCallError propagates: silently protecting less than configured would be worse.
        answers = [a.text for a in self.llm.chat_many([extractor_messages(t) for t in texts])]
        return [
            [span for item in parse_extraction(raw) for span in locate(text, item)]
            for text, raw in zip(texts, answers, strict=True)
        ]
