"""Evaluation settings (the `evaluation:` section of a recipe); the CLI flags override them."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from stealthflow.resources import split_path


class EvaluationConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    methods: list[str] = Field(default_factory=lambda: ["ner-mask", "standard", "aa", "stealth"])
    data: Path = Field(default_factory=lambda: split_path("test"))
    limit: int | None = Field(None, ge=1)
    sample_seed: int | None = (
        None  # with `limit`: a seeded random sample of labelled profiles instead of the first ones
    )
    # Evaluation attackers (names from `stealthflow.attack.registry`); their models come from
    # `attacker:`/`judge:` of the settings, independent of the anonymizer's `model:`.
    attackers: list[str] = Field(default_factory=lambda: ["llm"])
    insights: Path | None = None  # frozen insight memory for `stealth` (JSON from `generate`)
    llm_judge: bool = True  # the judge model decides the correctness verdicts the rules leave open
    chunk_size: int = Field(10, ge=1)  # profiles finished (and saved) per step: the resume granularity
