"""Trajectories -> training rows (trl's conversational format).

Three kinds of rows:
- anonymization examples: the anonymizer turns that led to a profile's best round (privacy
  gained x utility kept), with the exact messages shown then (so the insights are those
  actually shown, not the final memory);
- attack examples: a text and an attacker answer, restricted to the attributes whose top-1
  guess was correct (or every answered attribute with `keep="all"`), from the run's own
  attacks and from the reference answers shipped with the corpus;
- GRPO prompts: each anonymizer prompt plus the ground truth and the texts the reward needs.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from stealthflow.attack import CorrectnessJudge, attack_messages, top1_correct
from stealthflow.attack.reading import shorten
from stealthflow.attack.types import AttributeGuess, Verdict
from stealthflow.data import ATTRIBUTES, Profile
from stealthflow.llm import Message
from stealthflow.workflow.trajectory import RoundRecord

AttackKeep = Literal["correct", "all"]
Row = dict[str, Any]


def sft_row(
    kind: str, source: str, profile_id: str, round_: int, attributes: list[str], messages: list[Message], **meta: Any
) -> Row:
    return {
        "messages": [{"role": m["role"], "content": m["content"]} for m in messages],
        "kind": kind,
        "source": source,
        "profile_id": profile_id,
        "round": round_,
        "attributes": attributes,
        "meta": json.dumps(meta, ensure_ascii=False, sort_keys=True),
    }


# --- anonymization -------------------------------------------------------------------------


def privacy_gained(record: RoundRecord) -> float:
    """Share of the labelled attributes protected at this round."""
    attributes = list(record.labels) or list(record.protected)
    if not attributes:
        return 0.0
    return sum(record.protected.get(a, False) for a in attributes) / len(attributes)


def round_score(record: RoundRecord) -> float:
    return privacy_gained(record) * record.utility.get("mean", 0.0)


def best_round(rounds: list[RoundRecord]) -> RoundRecord | None:
    """The anonymized round with the highest privacy x utility (the earliest on ties); None if nothing was gained."""
    candidates = [r for r in rounds if r.round > 0 and r.anonymizer is not None]
    best = max(candidates, key=lambda r: (round_score(r), -r.round), default=None)
    return best if best is not None and round_score(best) > 0 else None


def anonymizer_answer(explanation: str, text: str) -> str:
    """The answer format the anonymizer prompt asks for (and `parse_rewrite` reads)."""
    return f"{explanation.strip()}\n#\n{text}" if explanation.strip() else f"#\n{text}"


def anonymizer_row(record: RoundRecord, source: str, explanation: str, text: str, **meta: Any) -> Row:
    """`record`'s anonymizer turn answered with (explanation, text), with what was shown then."""
    turn = record.anonymizer
    return sft_row(
        "anonymize",
        source,
        record.profile_id,
        record.round,
        [a for a in ATTRIBUTES if a in record.labels],
        [*turn.messages, {"role": "assistant", "content": anonymizer_answer(explanation, text)}],
        insights_shown=turn.insights_shown,
        insight_version=turn.insight_version,
        utility_warning=turn.utility_warning,
        **meta,
    )


def anonymization_examples(rounds: list[RoundRecord]) -> list[Row]:
    best = best_round(rounds)
    if best is None:
        return []
    return [
        anonymizer_row(
            record,
            f"trajectory:{record.run_id}",
            record.anonymizer.explanation,
            record.text,
            best_round=best.round,
            privacy=privacy_gained(best),
            utility=best.utility.get("mean", 0.0),
        )
        for record in rounds
        if 0 < record.round <= best.round and record.anonymizer is not None and record.anonymizer.parsed
    ]


# --- attack ---------------------------------------------------------------------------------


def format_attack_answer(guesses: list[AttributeGuess], inference_words: int | None = None) -> str:
    """An answer in the attacker prompt's `Type / Inference / Guess / Certainty` format."""
    blocks = []
    for guess in guesses:
        certainty = guess.certainty if guess.certainty is not None else 1
        blocks.append(
            f"Type: {guess.attribute}\nInference: {shorten(guess.inference, inference_words)}\n"
            f"Guess: {'; '.join(guess.guesses)}\nCertainty: {certainty}"
        )
    return "\n\n".join(blocks)


def kept_attributes(
    guesses: dict[str, AttributeGuess], verdicts: dict[str, list[Verdict]], keep: AttackKeep
) -> list[str]:
    kept = []
    for attribute in ATTRIBUTES:
        guess = guesses.get(attribute)
        if guess is None or not guess.guesses or not guess.inference.strip():
            continue  # nothing worth imitating
        if keep == "all" or top1_correct(verdicts.get(attribute, [])):
            kept.append(attribute)
    return kept


def attack_example(
    text: str,
    guesses: dict[str, AttributeGuess],
    attributes: list[str],
    source: str,
    profile_id: str,
    round_: int,
    inference_words: int | None = None,
    **meta: Any,
) -> Row:
    answer = {"role": "assistant", "content": format_attack_answer([guesses[a] for a in attributes], inference_words)}
    return sft_row(
        "attack", source, profile_id, round_, attributes, [*attack_messages(text, attributes), answer], **meta
    )


def trajectory_attack_examples(
    rounds: list[RoundRecord], keep: AttackKeep = "correct", inference_words: int | None = None
) -> list[Row]:
    """The run's LLM attacker answers at every round (classifier attackers have no reasoning to imitate)."""
    rows = []
    for record in rounds:
        for attack in record.attacks:
            if not attack.messages:
                continue
            attributes = kept_attributes(attack.guesses, attack.verdicts, keep)
            if attributes:
                rows.append(
                    attack_example(
                        record.text,
                        attack.guesses,
                        attributes,
                        f"trajectory:{record.run_id}:{attack.model}",
                        record.profile_id,
                        record.round,
                        inference_words,
                        verdicts={a: attack.verdicts.get(a, []) for a in attributes},
                    )
                )
    return rows


def reference_guesses(prediction: dict[str, Any]) -> dict[str, AttributeGuess]:
    """The corpus' stored answer (`{attr: {inference, guess, certainty}, full_answer}`) as guesses."""
    guesses = {}
    for attribute in ATTRIBUTES:
        entry = prediction.get(attribute)
        if not isinstance(entry, dict):
            continue
        listed = entry.get("guess") or []
        listed = [listed] if isinstance(listed, str) else listed
        certainty = re.search(r"[1-5]", str(entry.get("certainty", "")))
        guesses[attribute] = AttributeGuess(
            attribute=attribute,
            inference=str(entry.get("inference", "")),
            guesses=[str(g).strip() for g in listed if str(g).strip()][:3],
            certainty=int(certainty.group()) if certainty else None,
        )
    return guesses


def reference_attack_examples(
    profile: Profile,
    model: str,
    judge: CorrectnessJudge,
    keep: AttackKeep = "correct",
    inference_words: int | None = None,
) -> list[Row]:
    """The strong model's answer on the original text, judged against the labels."""
    prediction = profile.reference_predictions.get(model)
    if not prediction:
        return []
    labels = profile.labelled()
    guesses = {a: g for a, g in reference_guesses(prediction).items() if a in labels}
    verdicts = {a: judge.verdicts(a, labels[a].estimate, g.guesses) for a, g in guesses.items()}
    attributes = kept_attributes(guesses, verdicts, keep)
    if not attributes:
        return []
    return [
        attack_example(
            profile.text,
            guesses,
            attributes,
            f"reference:{model}",
            profile.id,
            0,
            inference_words,
            verdicts={a: verdicts[a] for a in attributes},
        )
    ]


def choice_attack_examples(profile: Profile, model: str, max_words: int | None = None) -> list[Row]:
    """One row per attribute asked by choice (`choice_messages` -> the option): the profile's label, kept
    where the strong model's top-1 guess maps to the same option. Rows where it guessed another option or
    none are left out: there the text may carry no cue, and the answer would teach the label's prior."""
    from stealthflow.attack.choice import CHOICE_ATTRIBUTES, choice_messages
    from stealthflow.attack.classifier import normalise_label

    guesses = reference_guesses(profile.reference_predictions.get(model) or {})
    text = shorten(profile.text, max_words)
    rows = []
    for attribute, label in profile.labelled().items():
        guess = guesses.get(attribute)
        if attribute not in CHOICE_ATTRIBUTES or guess is None or not guess.guesses:
            continue
        truth = normalise_label(attribute, label.estimate)
        if truth is None or normalise_label(attribute, guess.guesses[0]) != truth:
            continue
        answer = {"role": "assistant", "content": truth}
        rows.append(
            sft_row(
                "attack",
                f"reference-choice:{model}",
                profile.id,
                0,
                [attribute],
                [*choice_messages(text, attribute), answer],
            )
        )
    return rows


# --- GRPO -----------------------------------------------------------------------------------


def prompt_key(messages: list[dict[str, Any]]) -> str:
    """Identity of an anonymizer prompt: a round that changed nothing repeats its predecessor's."""
    return json.dumps(messages, sort_keys=True)


def grpo_prompts(rounds: list[RoundRecord]) -> list[Row]:
    """Every distinct anonymizer prompt of the profile, with what the reward needs as extra columns."""
    by_round = {r.round: r for r in rounds}
    original = by_round.get(0)
    rows = []
    seen: set[str] = set()
    for record in rounds:
        turn = record.anonymizer
        source = by_round.get(record.round - 1)
        if turn is None or source is None or original is None or not record.labels:
            continue
        key = prompt_key(turn.messages)
        if key in seen:
            continue
        seen.add(key)
        rows.append(
            {
                "prompt": [{"role": m["role"], "content": m["content"]} for m in turn.messages],
                "profile_id": record.profile_id,
                "round": record.round,
                "labels": [{"attribute": a, "estimate": record.labels[a]} for a in ATTRIBUTES if a in record.labels],
                "source_text": source.text,
                "original_text": original.text,
            }
        )
    return rows
