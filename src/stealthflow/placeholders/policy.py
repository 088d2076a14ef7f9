"""What gets masked: the `protect:` section of the settings YAML (see configs/protect*.yaml).

Default: PL2 + PL3 + PL4. Per-type overrides either force a decision (`mask` / `keep`) or
move a type to another level. PL4 (credentials) is always masked whatever the config says.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from stealthflow.placeholders.styles import TOKEN_CHARS
from stealthflow.placeholders.types import STRUCTURED_IDS, TYPE_LEVELS, Level

Override = Literal["mask", "keep", "PL1", "PL2", "PL3", "PL4"]


class ProtectConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    levels: list[Level] = Field(default_factory=lambda: [Level.PL2, Level.PL3, Level.PL4])
    overrides: dict[str, Override] = Field(default_factory=dict)  # TYPE -> mask | keep | PLn
    style: Literal["indexed", "hmac"] = "indexed"
    hmac_chars: int = Field(TOKEN_CHARS, ge=TOKEN_CHARS, le=32)  # hex chars of the HMAC token
    recognizers: list[str] | None = None  # None = every registered recognizer
    # The offline PII span tagger (names, addresses, employers, health, income; models/pii-tagger-student and
    # models/pii-tagger-student-multilingual, each text to its language's: pii_tagger/route.py).
    # STEALTHFLOW_TAGGER=0 changes the default for a whole process (the test suite uses it).
    tagger: bool = Field(default_factory=lambda: os.environ.get("STEALTHFLOW_TAGGER", "1") != "0")
    # One tagger for every text: a directory, or the name of a shipped one (pii-tagger: the MiniLM teacher, ~7x the
    # cost per KB; pii-tagger-student: the English student, no multilingual one; docs/pii-tagger.md). None = the route.
    tagger_model: str | None = None
    # Health and money told in a clause ("I'm three months behind on rent"), which the students seldom tag, marked by
    # the clause tagger (models/pii-clause-tagger: MiniLM reading the sentences the student finds suspect; more CPU per
    # text: docs/pii-tagger.md#configuration). Off by default.
    clause_tagger: bool = False
    # Refuse texts with sentences in no covered language (placeholders/language.py), where only structured identifiers
    # are looked for, instead of protecting them with a warning: `UncoveredText`, a 422 from the proxy and the service.
    refuse_uncovered: bool = False
    # Run the MemPrivacy-style LLM extractor on `model`: it reads every text raw, before protect.
    # None = only when `model` runs on this machine (in process or on a loopback address) and is not
    # the embedded 135M, which finds nothing the recognizers miss and costs ~20 s per text; true on
    # a model elsewhere sends every raw text there (warned once).
    llm_extractor: bool | None = None
    # Helper processes the servers (proxy, serve) share long texts' pattern recognizers with
    # (placeholders/helpers.py). None: one on a machine with 2 or more cores; 0: none.
    detection_helpers: int | None = Field(None, ge=0, le=16)
    user: str = "default"
    vault_path: Path | None = None  # None = the user data dir
    key_source: Literal["auto", "env", "keyring", "file"] = "auto"
    key_file: Path | None = None  # None = the user config dir

    @field_validator("levels", mode="before")
    @classmethod
    def _parse_levels(cls, value: object) -> object:
        if isinstance(value, str):
            value = [part for part in value.split(",") if part.strip()]
        return [Level.parse(v) for v in value] if isinstance(value, list | tuple) else value

    @field_validator("overrides")
    @classmethod
    def _known_types(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = sorted(set(value) - set(TYPE_LEVELS))
        if unknown:
            raise ValueError(f"unknown type(s) {', '.join(unknown)}; known: {', '.join(TYPE_LEVELS)}")
        return value

    def server_detection_helpers(self) -> int:
        return self.detection_helpers if self.detection_helpers is not None else int((os.cpu_count() or 1) >= 2)

    def uses_llm_extractor(self, model: str, local: bool) -> bool:
        """`local`: whether `model` runs on this machine (`ModelConfig.is_local`)."""
        return self.llm_extractor if self.llm_extractor is not None else local and model != "embedded"

    def level_of(self, span_type: str, detected: Level) -> Level:
        override = self.overrides.get(span_type, "")
        return Level.parse(override) if override.startswith("PL") else detected

    def secret_types(self) -> frozenset[str]:
        """The types treated as secrets (PL4), by default or by an override."""
        return frozenset(t for t, level in TYPE_LEVELS.items() if Level.PL4 in (level, self.level_of(t, level)))

    def guarded_types(self) -> frozenset[str]:
        """The types a reply may not have restored into a URL or tool call: secrets and `STRUCTURED_IDS`."""
        return self.secret_types() | STRUCTURED_IDS

    def masks(self, span_type: str, level: Level) -> bool:
        effective = self.level_of(span_type, level)
        if Level.PL4 in (level, effective):
            return True
        override = self.overrides.get(span_type)
        if override in ("mask", "keep"):
            return override == "mask"
        return effective in self.levels
