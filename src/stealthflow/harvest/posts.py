"""Per-post training data for the local anonymizer, from the strong attacker's evidence spans.

A post (one comment) is short, so the 135M model only has to copy it with a few edits. Its
prompt names the phrases to remove (at training time the evidence spans DeepSeek-V3 quoted;
at run time the cue tagger's), so the model learns a conditioned, local edit:

    sft/   teacher rewrites of the train comments: a strong model's generalizing rewrites
           (`stealthflow.harvest.teacher_rewrites`; the phrases that give the author away replaced
           in place by truthful, coarser ones, the explanation naming each phrase and attribute),
           or without a teacher file the evidence spans deleted with a tidy sentence left; plus a
           minority of comments without cues copied unchanged; plus, given a `generate` run, the
           strong model's own rewrite of each comment (its last round) where it removed evidence;
           plus attack examples (the dual model): a profile's text -> the reference attacker's
           inference and top-3 guesses per labelled attribute
    grpo/  `prompt` + `source_text`, `evidence` (phrases), `evidence_attributes`, `labels`,
           `profile_id`, `comment_index` for the per-post reward
Only train-split profiles are accepted: test ids are refused.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from functools import cache
from pathlib import Path

from stealthflow.data import Profile, load_profiles
from stealthflow.data.evidence import EvidenceSpan, locate_evidence
from stealthflow.evaluation.evidence import span_survives
from stealthflow.harvest.examples import Row, anonymizer_answer, sft_row
from stealthflow.harvest.teacher_rewrites import TeacherRewrite
from stealthflow.llm import Message
from stealthflow.prompts import render
from stealthflow.resources import split_path
from stealthflow.workflow.trajectory import RoundRecord

NOTHING = "Nothing to change."
MIN_WORDS_LEFT = 3


def cue_list(phrases: list[str]) -> str:
    return "; ".join(f'"{p}"' for p in phrases) if phrases else "nothing"


def post_messages(post: str, cues: list[tuple[str, str]]) -> list[Message]:
    """The local anonymizer's prompt for one post; `cues` are (phrase, attribute) pairs."""
    attributes = sorted({attribute for _, attribute in cues})
    return [
        {
            "role": "user",
            "content": render(
                "local_anonymizer",
                attributes=", ".join(ATTRIBUTE_NAMES.get(a, a) for a in attributes)
                if attributes
                else "personal details",
                cues=cue_list(list(dict.fromkeys(phrase for phrase, _ in cues))),
                post=post,
            ),
        }
    ]


def explain(cues: list[tuple[str, str]]) -> str:
    if not cues:
        return NOTHING
    by_phrase: dict[str, list[str]] = {}
    for phrase, attribute in cues:
        by_phrase.setdefault(phrase, []).append(attribute)
    return "Removed " + "; ".join(f'"{p}" ({", ".join(dict.fromkeys(a))})' for p, a in by_phrase.items()) + "."


# A word left dangling in front of a deleted phrase ("my [life partner]", "for [unplugging]").
_DANGLING = re.compile(r"(?i)\b(?:my|our|your|his|her|a|an|the|for|from|in|at|of|as|to|with|about|since|being)\s*$")
ATTRIBUTE_NAMES = {"pobp": "place of birth", "married": "relationship status"}


def delete_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` without the spans, tidied: no dangling article, doubled spaces or punctuation."""
    kept, last = [], 0
    for start, end in sorted(spans):
        if start < last:  # overlapping spans: extend the cut
            last = max(last, end)
            continue
        kept.append(_DANGLING.sub("", text[last:start]))
        last = end
    kept.append(text[last:])
    return tidy("".join(kept))


def tidy(text: str) -> str:
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\(\s*\)|\"\s*\"|'\s*'", "", text)
    text = re.sub(r" +([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;:])(\s*[,;:.!?])+", r"\2", text)
    text = re.sub(r"^[\s,;:.\-]+", "", text, flags=re.M)
    text = re.sub(r"[ \t]+", " ", text)
    return text.strip()


def teacher_rewrite(text: str, spans: list[EvidenceSpan]) -> str | None:
    """The comment with its evidence deleted, or None when too little readable text is left."""
    rewritten = delete_spans(text, [(s.start, s.end) for s in spans])
    return rewritten if len(re.findall(r"\w+", rewritten)) >= MIN_WORDS_LEFT else None


def refuse_test_profiles(
    profiles: list[Profile], test_split: Path | None = None, teacher: dict[str, TeacherRewrite] | None = None
) -> None:
    """Refuse to train on a test profile, given as a profile or as the source of a teacher rewrite, or on a teacher
    rewrite of a test comment's text (whatever its id)."""
    test_ids, test_texts = test_split_keys(test_split or split_path("test"))
    rewrites = (teacher or {}).values()
    ids = {p.id for p in profiles} | {t.profile_id for t in rewrites if t.profile_id}
    if leaked := sorted(ids & test_ids):
        raise ValueError(f"refusing to train on test profiles: {_first_five(leaked)}")
    if copied := sorted(t.id for t in rewrites if t.text.strip() in test_texts):
        raise ValueError(f"refusing to train on test profiles' comments: teacher rows {_first_five(copied)}")


def _first_five(names: list[str]) -> str:
    return ", ".join(names[:5]) + (" ..." if len(names) > 5 else "")


@cache
def test_split_keys(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """(profile ids, comment texts, stripped) of the test split at `path`, read once."""
    profiles = load_profiles(path)
    return frozenset(p.id for p in profiles), frozenset(c.text.strip() for p in profiles for c in p.comments)


def post_rows(
    profiles: list[Profile],
    copy_share: float = 0.2,
    seed: int = 0,
    max_words: int = 120,
    teacher: dict[str, TeacherRewrite] | None = None,
) -> tuple[list[Row], list[Row]]:
    """(SFT rows, GRPO rows); `copy_share` of the SFT rows are harmless posts copied unchanged.
    With `teacher` (id -> rewrite), the SFT rows are its rewrites and copies (comments it did not
    see are left out); without, the evidence spans deleted."""
    rng = random.Random(seed)
    edits: list[Row] = []
    copies: list[Row] = []
    grpo: list[Row] = []
    for profile in profiles:
        evidence = locate_evidence(profile)
        labels = [{"attribute": a, "estimate": label.estimate} for a, label in profile.labelled().items()]
        for index, comment in enumerate(profile.comments):
            if len(comment.text.split()) > max_words:
                continue
            spans = evidence.in_comment(index)
            if teacher is not None:
                row = teacher_row(teacher.get(f"{profile.id}#{index}"), comment.text, profile.id, index)
                if row is not None:
                    (edits if row["source"] != "copy" else copies).append(row)
            elif spans:
                cues = [(s.text, s.attribute) for s in spans]
                rewritten = teacher_rewrite(comment.text, spans)
                if rewritten is not None:
                    answer = anonymizer_answer(explain(cues), rewritten)
                    messages = [*post_messages(comment.text, cues), {"role": "assistant", "content": answer}]
                    edits.append(
                        sft_row(
                            "anonymize",
                            "teacher:evidence",
                            profile.id,
                            0,
                            sorted({a for _, a in cues}),
                            messages,
                            comment_index=index,
                        )
                    )
            else:
                copies.append(copy_row(comment.text, profile.id, index))
            if spans:
                grpo.append(
                    {
                        "prompt": post_messages(comment.text, [(s.text, s.attribute) for s in spans]),
                        "source_text": comment.text,
                        "evidence": [s.text for s in spans],
                        "evidence_attributes": [s.attribute for s in spans],
                        "labels": labels,
                        "profile_id": profile.id,
                        "comment_index": index,
                    }
                )
    for rewrite in (teacher or {}).values():  # standalone posts (not comments of a profile)
        if rewrite.profile_id is None and len(rewrite.text.split()) <= max_words:
            row = teacher_row(rewrite, rewrite.text, "standalone", 0)
            (edits if row["source"] != "copy" else copies).append(row)
    rng.shuffle(copies)
    wanted = round(len(edits) * copy_share / (1 - copy_share)) if copy_share < 1 else len(copies)
    sft = edits + copies[:wanted]
    rng.shuffle(sft)
    return sft, grpo


def copy_row(text: str, profile_id: str, index: int) -> Row:
    messages = [*post_messages(text, []), {"role": "assistant", "content": anonymizer_answer(NOTHING, text)}]
    return sft_row("anonymize", "copy", profile_id, 0, [], messages, comment_index=index)


def teacher_row(rewrite: TeacherRewrite | None, text: str, profile_id: str, index: int) -> Row | None:
    """The teacher's rewrite of one comment as an SFT row (a copy when it found nothing)."""
    if rewrite is None or rewrite.text != text:
        return None
    if not rewrite.cues:
        return copy_row(text, profile_id, index)
    cues = [(c.phrase, c.attribute) for c in rewrite.cues]
    messages = [
        *post_messages(text, cues),
        {"role": "assistant", "content": anonymizer_answer(rewrite.explanation, rewrite.rewrite or text)},
    ]
    return sft_row(
        "anonymize", "teacher:generalize", profile_id, 0, sorted({a for _, a in cues}), messages, comment_index=index
    )


def attack_rows(
    profiles: list[Profile], max_words: int = 100, inference_words: int = 25, style: str = "answer"
) -> list[Row]:
    """The dual model's attack examples. `answer`: each profile's text (up to `max_words`) -> the reference
    attacker's inference and top-3 guesses for every labelled attribute it answered. `choice`: every
    profile's text (its first `max_words` words) -> one option per attribute (`choice_attack_examples`)."""
    from stealthflow.attack import CorrectnessJudge
    from stealthflow.data.evidence import REFERENCE_MODEL
    from stealthflow.harvest.examples import choice_attack_examples, reference_attack_examples

    if style == "choice":
        return [row for profile in profiles for row in choice_attack_examples(profile, REFERENCE_MODEL, max_words)]
    judge = CorrectnessJudge(None)
    rows = []
    for profile in profiles:
        if len(profile.text.split()) <= max_words:
            rows += reference_attack_examples(
                profile, REFERENCE_MODEL, judge, keep="all", inference_words=inference_words
            )
    return rows


def workflow_post_rows(
    profiles: list[Profile], trajectories: dict[str, list[RoundRecord]], min_utility: float = 0.5
) -> list[Row]:
    """The strong model's rewrites, comment by comment: from each profile's last round (one line
    per comment, as the workflow writes them) the comments holding evidence whose rewrite removed
    some of it and kept `min_utility` of the profile's text; the explanation names what went."""
    by_id = {profile.id: profile for profile in profiles}
    rows: list[Row] = []
    for profile_id, rounds in trajectories.items():
        profile, last = by_id.get(profile_id), rounds[-1]
        if profile is None or last.round == 0 or last.utility.get("mean", 0.0) < min_utility:
            continue
        lines = [line for line in last.text.split("\n") if line.strip()]
        if len(lines) != len(profile.comments):  # comments merged or split: no reliable pairing
            continue
        evidence = locate_evidence(profile)
        model = str((last.params.get("anonymizer") or {}).get("model") or "strong model")
        for index, (comment, rewritten) in enumerate(zip(profile.comments, lines, strict=True)):
            cues = [(s.text, s.attribute) for s in evidence.in_comment(index)]
            removed = [(phrase, attribute) for phrase, attribute in cues if not span_survives(phrase, rewritten)]
            if not removed or rewritten.strip() == comment.text.strip():
                continue
            answer = anonymizer_answer(explain(removed), rewritten.strip())
            messages = [*post_messages(comment.text, cues), {"role": "assistant", "content": answer}]
            rows.append(
                sft_row(
                    "anonymize",
                    f"workflow:{model}",
                    profile.id,
                    last.round,
                    sorted({a for _, a in removed}),
                    messages,
                    comment_index=index,
                )
            )
    return rows


def harvest_posts(
    profiles: list[Profile],
    out: str | Path,
    copy_share: float = 0.2,
    seed: int = 0,
    trajectories: dict[str, list[RoundRecord]] | None = None,
    teacher: dict[str, TeacherRewrite] | None = None,
    attack: bool = True,
    attack_words: int = 100,
    attack_style: str = "answer",
) -> dict:
    """Write `out/sft`, `out/grpo` and a card; returns the summary (also `harvest.json`).
    `trajectories` (a `generate` run's, by profile) add the strong model's per-comment rewrites;
    `teacher` (id -> rewrite) replaces deletion as the teacher; `attack` adds the dual model's attack rows
    in `attack_style` (see `attack_rows`)."""
    from datasets import Dataset

    refuse_test_profiles(profiles, teacher=teacher)
    sft, grpo = post_rows(profiles, copy_share, seed, teacher=teacher)
    if trajectories:
        sft += workflow_post_rows(profiles, trajectories)
    if attack:
        sft += attack_rows(profiles, max_words=attack_words, style=attack_style)
    random.Random(seed).shuffle(sft)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    Dataset.from_list(sft).save_to_disk(str(out / "sft"))
    Dataset.from_list(grpo).save_to_disk(str(out / "grpo"))
    summary = {
        "profiles": len(profiles),
        "sft": dict(Counter(row["source"] for row in sft)),
        "grpo_prompts": len(grpo),
        "evidence_per_attribute": dict(Counter(a for row in grpo for a in row["evidence_attributes"])),
        "copy_share": copy_share,
        "attack_words": attack_words if attack else None,
        "attack_style": attack_style if attack else None,
        "seed": seed,
    }
    (out / "harvest.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    (out / "README.md").write_text(
        "# Per-post training data for the local anonymizer\n\n"
        f"From {len(profiles)} train profiles (`stealthflow harvest-posts`). SFT rows by source: {summary['sft']}; "
        f"{len(grpo)} GRPO prompts (comments holding evidence). Evidence spans per attribute: {summary['evidence_per_attribute']}.\n"
        "Texts are training data from the corpus (see data/README.md for its licence): treat this directory like the corpus.\n",
        encoding="utf-8",
    )
    return summary
