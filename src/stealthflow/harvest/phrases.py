"""Training rows for the phrase generalizer: the local model suggests a stand-in for one marked phrase.

One row per teacher cue (`data/teacher-rewrites`): the prompt names the phrase, the attribute it gives
away and the sentence holding it (not the whole post); the completion is the teacher's generalization
of that phrase, only the phrase ("Twelve years as an ER nurse" -> "Years in my job"). A cue the teacher
dropped (empty generalization) makes no row: the generalizer tries dropping a phrase on its own. A seeded
share of the posts (by id, never split between the two) is held back as validation.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

from stealthflow.anonymize.generalize import sentence_bounds
from stealthflow.harvest.examples import Row
from stealthflow.harvest.posts import ATTRIBUTE_NAMES, refuse_test_profiles
from stealthflow.harvest.teacher_rewrites import TeacherRewrite
from stealthflow.llm import Message
from stealthflow.prompts import render

KIND = "phrase"


def phrase_messages(sentence: str, phrase: str, attribute: str) -> list[Message]:
    """The generalizer's prompt for one phrase in its sentence."""
    content = render(
        "phrase_generalizer",
        attribute=ATTRIBUTE_NAMES.get(attribute, attribute),
        sentence=sentence.strip(),
        phrase=phrase,
    )
    return [{"role": "user", "content": content}]


def cue_rows(rewrite: TeacherRewrite) -> list[Row]:
    """One row per cue of a teacher rewrite with a generalization (the sentence of its first occurrence)."""
    rows = []
    for cue in rewrite.cues:
        generalized = cue.generalized.strip()
        start = rewrite.text.find(cue.phrase)
        if not generalized or start < 0:
            continue
        first, last = sentence_bounds(rewrite.text, start, start + len(cue.phrase))
        messages = phrase_messages(rewrite.text[first:last], cue.phrase, cue.attribute)
        rows.append(
            {
                "kind": KIND,
                "post_id": rewrite.id,
                "attribute": cue.attribute,
                "phrase": cue.phrase,
                "generalized": generalized,
                "messages": [*messages, {"role": "assistant", "content": generalized}],
            }
        )
    return rows


def split_posts(ids: list[str], validation_share: float, seed: int) -> set[str]:
    """The ids held back for validation: a seeded `validation_share` of them."""
    ordered = sorted(set(ids))
    return set(random.Random(seed).sample(ordered, round(len(ordered) * validation_share)))


def phrase_rows(
    teacher: dict[str, TeacherRewrite], validation_share: float = 0.1, seed: int = 0
) -> tuple[list[Row], list[Row]]:
    """(train rows, validation rows) from the teacher rewrites of posts holding cues; test profiles refused."""
    refuse_test_profiles([], teacher=teacher)
    with_cues = [rewrite for rewrite in teacher.values() if rewrite.cues]
    held = split_posts([rewrite.id for rewrite in with_cues], validation_share, seed)
    train, validation = [], []
    for rewrite in with_cues:
        (validation if rewrite.id in held else train).extend(cue_rows(rewrite))
    return train, validation


def harvest_phrases(
    teacher: dict[str, TeacherRewrite], out: Path, validation_share: float = 0.1, seed: int = 0
) -> dict:
    """Write `out/sft` (a datasets folder `stealthflow train sft` reads) and `out/validation.jsonl`; returns counts."""
    from datasets import Dataset

    train, validation = phrase_rows(teacher, validation_share, seed)
    if not train:
        raise ValueError("no teacher cue with a generalization: nothing to train on")
    out.mkdir(parents=True, exist_ok=True)
    Dataset.from_list(train).save_to_disk(str(out / "sft"))
    (out / "validation.jsonl").write_text("".join(json.dumps(row) + "\n" for row in validation), encoding="utf-8")
    summary = {
        "train_rows": len(train),
        "validation_rows": len(validation),
        "train_posts": len({row["post_id"] for row in train}),
        "validation_posts": len({row["post_id"] for row in validation}),
        "attributes": dict(Counter(row["attribute"] for row in train).most_common()),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary
