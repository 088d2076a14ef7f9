"""`harvest(run, out)`: write the SFT and GRPO datasets of a run, with a card.

Layout of `out/`:
    sft/        datasets.Dataset (`messages` + kind, source, profile_id, round, attributes, meta)
    grpo/       datasets.Dataset (`prompt` + profile_id, round, labels, source_text, original_text)
    README.md   the card: counts per kind and attribute, settings, library versions
    harvest.json the same numbers, machine-readable
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from stealthflow.attack import CorrectnessJudge
from stealthflow.data import ATTRIBUTES, Profile
from stealthflow.harvest.examples import (
    AttackKeep,
    Row,
    anonymization_examples,
    grpo_prompts,
    reference_attack_examples,
    trajectory_attack_examples,
)
from stealthflow.harvest.teacher import Teacher, teacher_examples
from stealthflow.harvest.trajectories import load_trajectories
from stealthflow.workflow.trajectory import RoundRecord

REFERENCE_MODEL = "deepseek-ai/DeepSeek-V3"


class HarvestConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    attack_keep: AttackKeep = "correct"
    reference_model: str | None = REFERENCE_MODEL  # None: no reference attack examples
    # "run": reference answers of the run's profiles only; "all": of every profile passed in.
    reference_scope: Literal["run", "all"] = "run"
    # Attack answers keep at most this many words of each inference (whole sentences first):
    # a small model learns the answer format from fewer tokens of prose. None: keep it all.
    inference_words: int | None = Field(None, ge=1)
    # Answer the anonymizer turns the model left unreadable with a rule-based teacher (see
    # harvest/teacher.py): anonymization examples for a model that cannot write the format yet.
    teacher: Teacher | None = None


def collect(
    trajectories: dict[str, list[RoundRecord]],
    profiles: list[Profile],
    config: HarvestConfig,
    judge: CorrectnessJudge | None = None,
) -> tuple[list[Row], list[Row]]:
    """(SFT rows, GRPO rows) in a stable order."""
    judge = judge or CorrectnessJudge()
    sft: list[Row] = []
    grpo: list[Row] = []
    for rounds in trajectories.values():
        sft += anonymization_examples(rounds)
        if config.teacher == "quoted-lines":
            sft += teacher_examples(rounds)
        sft += trajectory_attack_examples(rounds, config.attack_keep, config.inference_words)
        grpo += grpo_prompts(rounds)
    if config.reference_model:
        chosen = profiles if config.reference_scope == "all" else [p for p in profiles if p.id in trajectories]
        for profile in chosen:
            sft += reference_attack_examples(
                profile, config.reference_model, judge, config.attack_keep, config.inference_words
            )
    return sft, grpo


def attribute_counts(rows: list[Row], column: str) -> dict[str, Counter]:
    """Per kind, how many rows cover each attribute."""
    counts: dict[str, Counter] = {}
    for row in rows:
        kind = row.get("kind", "grpo")
        attributes = row[column] if column == "attributes" else [label["attribute"] for label in row[column]]
        counts.setdefault(kind, Counter()).update(attributes)
    return counts


def harvest(
    run: str | Path,
    out: str | Path,
    profiles: list[Profile],
    config: HarvestConfig | None = None,
    judge: CorrectnessJudge | None = None,
) -> dict:
    """Build and save the datasets; returns the summary written to `harvest.json`."""
    from datasets import Dataset

    from stealthflow.training.repro import library_versions

    config = config or HarvestConfig()
    trajectories = load_trajectories(run)
    sft, grpo = collect(trajectories, profiles, config, judge)
    if not sft and not grpo:
        raise ValueError(f"{run}: the trajectories yield no training rows (no anonymized rounds, no correct attacks)")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    if sft:
        Dataset.from_list(sft).save_to_disk(str(out / "sft"))
    if grpo:
        Dataset.from_list(grpo).save_to_disk(str(out / "grpo"))
    counts = {**attribute_counts(sft, "attributes"), **attribute_counts(grpo, "labels")}
    summary = {
        "run": str(run),
        "profiles": len(trajectories),
        "rows": {kind: sum(1 for r in sft if r["kind"] == kind) for kind in ("anonymize", "attack")}
        | {"grpo": len(grpo)},
        "sources": dict(Counter(r["source"] for r in sft)),
        "attribute_counts": {kind: dict(c) for kind, c in counts.items()},
        "config": config.model_dump(),
        "versions": library_versions(),
    }
    (out / "harvest.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    (out / "README.md").write_text(dataset_card(summary), encoding="utf-8")
    return summary


def dataset_card(summary: dict) -> str:
    kinds = [k for k in ("anonymize", "attack", "grpo") if k in summary["attribute_counts"]]
    header = "| attribute | " + " | ".join(kinds) + " |\n|---|" + "---|" * len(kinds)
    lines = [
        f"| {a} | " + " | ".join(str(summary["attribute_counts"][k].get(a, 0)) for k in kinds) + " |"
        for a in ATTRIBUTES
    ]
    sources = "\n".join(f"- `{s}`: {n}" for s, n in sorted(summary["sources"].items()))
    return f"""# Harvested training data

From `{summary["run"]}` ({summary["profiles"]} profiles). Settings: `{json.dumps(summary["config"])}`.

- `sft/` (trl conversational `messages`; loss goes on the final assistant turn only):
  {summary["rows"]["anonymize"]} anonymization examples, {summary["rows"]["attack"]} attack examples.
- `grpo/` (`prompt` + `labels`, `source_text`, `original_text`): {summary["rows"]["grpo"]} prompts.

Rows per source:
{sources}

Rows covering each attribute (anonymize: attributes labelled for that profile; attack:
attributes in the answer; grpo: labelled attributes):

{header}
{chr(10).join(lines)}

Load with `datasets.load_from_disk("<this dir>/sft")`. Texts are training data from the
corpus: treat this directory like the corpus itself.
"""
