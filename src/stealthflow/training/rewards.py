"""The GRPO reward: λ·R_anonymity + (1 − λ)·R_utility, with the frozen attacker in the loop.

- A completion `parse_rewrite` cannot read (empty, garbled, no `#` line) earns 0 overall:
  no reward for output that is not an anonymized text.
- An unchanged copy of the input earns no privacy credit (R_anonymity = 0); its utility is 1.
- A rewrite that keeps almost nothing of the input (R_utility below `min_utility`) is garbled
  text after a `#` line, not an anonymized version of it: 0 overall, and it is not attacked
  (an attacker fails on noise, which would otherwise pay half the reward for it).
- Otherwise the attacker attacks the new text for the profile's labelled attributes.
  R_anonymity = share of the attributes it answered whose top-1 guess is wrong. An attribute
  the attacker gave no guess for is unknown, not a privacy win; if it answered none, 0.
- R_utility = mean(BLEU, ROUGE-1, ROUGE-L) against the text being anonymized.

Per post (the local anonymizer), `EvidenceReward` measures privacy as the strong attacker's
evidence removed, and `SelfAttackReward` adds the dual model's own attack half on the rewrite
and the fluency gate's credit inside utility.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path

from stealthflow.anonymize.local import MODEL_FLOOR
from stealthflow.anonymize.output import parse_rewrite
from stealthflow.attack import CorrectnessJudge, top1_correct
from stealthflow.attack.types import Attacker, AttackResult
from stealthflow.utility import lexical_utility


@dataclass(frozen=True)
class RewardParts:
    reward: float
    anonymity: float
    utility: float
    parsed: bool
    copied: bool
    garbled: bool = False  # parsed, but kept less than min_utility of the input
    attacked: int = 0  # attributes the attacker answered
    attacker_correct: int = 0


def completion_text(completion) -> str:
    """trl passes conversational completions as `[{"role": "assistant", "content": ...}]`."""
    if isinstance(completion, list):
        return "".join(m.get("content", "") for m in completion if m.get("role", "assistant") == "assistant")
    return str(completion)


def same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


def labels_dict(labels) -> dict[str, str]:
    """The GRPO `labels` column: a list of {attribute, estimate}."""
    return {item["attribute"]: item["estimate"] for item in labels}


class AnonymizationReward:
    """Callable in trl's reward signature; keeps the parts of every call for logging."""

    __name__ = "anonymization"  # trl names the logged reward after this

    def __init__(
        self,
        attacker: Attacker,
        reward_lambda: float = 0.5,
        judge: CorrectnessJudge | None = None,
        log_path: Path | None = None,
        min_utility: float = 0.1,
    ):
        self.attacker = attacker
        self.reward_lambda = reward_lambda
        self.min_utility = min_utility
        self.judge = judge or CorrectnessJudge()
        self.log_path = log_path
        self.step = 0  # set by the trainer callback, for the log

    def screen(
        self, texts: list[str], source_texts: list[str]
    ) -> tuple[list, list[RewardParts | None], dict[int, float]]:
        """Parse each completion; settle the unreadable (0), copies (no privacy credit) and the
        garbled (0). Returns (rewrites, parts with None where privacy is still to be measured,
        utility of those)."""
        rewrites = [parse_rewrite(t, s) for t, s in zip(texts, source_texts, strict=True)]
        parts: list[RewardParts | None] = [None] * len(texts)
        utilities: dict[int, float] = {}
        for i, (rewrite, source) in enumerate(zip(rewrites, source_texts, strict=True)):
            if not rewrite.parsed:
                parts[i] = RewardParts(0.0, 0.0, 0.0, parsed=False, copied=False)
            elif same_text(rewrite.text, source):
                parts[i] = self._combine(0.0, 1.0, copied=True)
            elif (utility := lexical_utility(source, rewrite.text).mean) < self.min_utility:
                parts[i] = RewardParts(0.0, 0.0, utility, parsed=True, copied=False, garbled=True)
            else:
                utilities[i] = utility
        return rewrites, parts, utilities

    def score(self, texts: list[str], source_texts: list[str], labels: list[dict[str, str]]) -> list[RewardParts]:
        rewrites, parts, utilities = self.screen(texts, source_texts)
        to_attack = list(utilities)
        results = self.attacker.attack_many([rewrites[i].text for i in to_attack], [list(labels[i]) for i in to_attack])
        for i, result in zip(to_attack, results, strict=True):
            answered, correct = self._attack_outcome(result, labels[i])
            anonymity = (answered - correct) / answered if answered else 0.0
            parts[i] = self._combine(anonymity, utilities[i], copied=False, attacked=answered, attacker_correct=correct)
        return [p for p in parts if p is not None]

    def _combine(self, anonymity: float, utility: float, **facts) -> RewardParts:
        reward = self.reward_lambda * anonymity + (1 - self.reward_lambda) * utility
        return RewardParts(reward, anonymity, utility, parsed=True, **facts)

    def _attack_outcome(self, result: AttackResult, labels: dict[str, str]) -> tuple[int, int]:
        answered = correct = 0
        for attribute, truth in labels.items():
            guess = result.guesses.get(attribute)
            if guess is None or not guess.guesses:
                continue
            answered += 1
            correct += top1_correct(self.judge.verdicts(attribute, truth, guess.guesses))
        return answered, correct

    def __call__(self, prompts, completions, completion_ids=None, *, labels, source_text, **_columns) -> list[float]:
        parts = self.score(
            [completion_text(c) for c in completions], list(source_text), [labels_dict(x) for x in labels]
        )
        self._log(parts)
        return [p.reward for p in parts]

    def _log(self, parts: list[RewardParts], group_size: int | None = None, **extra: float | None) -> None:
        if self.log_path is None or not parts:
            return
        rewards = [p.reward for p in parts]
        if group_size:  # trl lays out each prompt's completions next to each other
            groups = [rewards[i : i + group_size] for i in range(0, len(rewards), group_size)]
            extra["zero_variance_groups"] = statistics.fmean(max(g) == min(g) for g in groups)
        attacked = sum(p.attacked for p in parts)
        record = {
            "step": self.step,
            "completions": len(parts),
            "reward_mean": statistics.fmean(rewards),
            "reward_std": statistics.pstdev(rewards),
            "anonymity_mean": statistics.fmean(p.anonymity for p in parts),
            "utility_mean": statistics.fmean(p.utility for p in parts),
            "attacker_accuracy": sum(p.attacker_correct for p in parts) / attacked if attacked else None,
            "parsed_share": statistics.fmean(p.parsed for p in parts),
            "copied_share": statistics.fmean(p.copied for p in parts),
            "garbled_share": statistics.fmean(p.garbled for p in parts),
            **extra,
        }
        with self.log_path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")


class EvidenceReward(AnonymizationReward):
    """The per-post reward: λ·privacy + (1 − λ)·utility on one comment.

    privacy = (1 − w)·(share of the comment's evidence spans that no longer survive, see
    `stealthflow.evaluation.evidence`) + w·(relative drop of the classifier attacker's
    probability for the true class when this comment is replaced in its profile), w =
    `classifier_weight` (the evidence term alone where the classifier covers no labelled
    attribute). Unreadable, garbled and copied completions are settled as in the parent.
    """

    __name__ = "evidence"

    def __init__(
        self,
        classifier_drop: "ClassifierDrop | None",
        reward_lambda: float = 0.5,
        classifier_weight: float = 0.5,
        group_size: int | None = None,
        log_path: Path | None = None,
        min_utility: float = 0.1,
    ):
        super().__init__(attacker=None, reward_lambda=reward_lambda, log_path=log_path, min_utility=min_utility)
        self.classifier_drop = classifier_drop
        self.classifier_weight = classifier_weight if classifier_drop is not None else 0.0
        self.group_size = group_size

    def score_posts(
        self, texts: list[str], sources: list[str], evidence: list[list[str]], where: list[tuple[str, int]]
    ) -> list[tuple[RewardParts, float, float | None]]:
        from stealthflow.evaluation.evidence import evidence_survival

        rewrites, parts, utilities = self.screen(texts, sources)
        scored = []
        for i, part in enumerate(parts):
            if part is not None:
                scored.append((part, 0.0, None))
                continue
            removed = 1.0 - (evidence_survival(evidence[i], rewrites[i].text) or 0.0)
            drop = self.classifier_drop.drop(*where[i], rewrites[i].text) if self.classifier_drop else None
            privacy = (
                removed if drop is None else (1 - self.classifier_weight) * removed + self.classifier_weight * drop
            )
            scored.append((self._combine(privacy, utilities[i], copied=False), removed, drop))
        return scored

    def __call__(
        self, prompts, completions, completion_ids=None, *, source_text, evidence, profile_id, comment_index, **_columns
    ) -> list[float]:
        scored = self.score_posts(
            [completion_text(c) for c in completions],
            list(source_text),
            list(evidence),
            list(zip(profile_id, comment_index)),
        )
        drops = [d for _, _, d in scored if d is not None]
        self._log(
            [p for p, _, _ in scored],
            self.group_size,
            evidence_removed_mean=statistics.fmean(r for _, r, _ in scored),
            classifier_drop_mean=statistics.fmean(drops) if drops else None,
        )
        return [p.reward for p, _, _ in scored]


#: fluency below the gate (local.MODEL_FLOOR) loses credit linearly: none left this far below it. Cutting a
#: comment's cues out scores median -2.72, the teacher's rewrites -0.03 (benchmarks/fluency_floor.py).
FLUENCY_SPAN = 2.0


def fluency_credit(score: float, floor: float = MODEL_FLOOR, span: float = FLUENCY_SPAN) -> float:
    """1 for a rewrite that passes the local anonymizer's fluency gate, falling to 0 at `span` below it."""
    return min(1.0, max(0.0, 1.0 + (score - floor) / span))


class SelfAttackReward(AnonymizationReward):
    """The dual model's per-post reward: λ·privacy + (1 − λ)·utility on one comment.

    privacy = (1 − w)·(share of the comment's evidence spans removed) + w·(mean over the attributes
    the comment carries evidence for, labelled with one option, of 1 − the choice attacker's
    probability of the true option given only the rewrite: dense, in [0, 1]), w = `attack_weight`
    (the evidence term alone for a comment with no such attribute: the open ones, location, place
    of birth and occupation, have no options). utility = (1 − f)·mean BLEU/ROUGE + f·`fluency_credit`
    of the rewrite against its original, f = `fluency_weight`. Unreadable, garbled and copied
    completions are settled as in the parent (a copy reads as its original: full utility, no privacy).
    """

    __name__ = "self_attack"

    def __init__(
        self,
        attacker,  # a ChoiceAttacker (anything with its `choose_many`)
        fluency,  # a FluencyScorer (anything with its `compare`)
        reward_lambda: float = 0.5,
        attack_weight: float = 0.5,
        fluency_weight: float = 0.5,
        group_size: int | None = None,
        log_path: Path | None = None,
        min_utility: float = 0.1,
    ):
        super().__init__(attacker, reward_lambda, log_path=log_path, min_utility=min_utility)
        self.fluency = fluency
        self.attack_weight = attack_weight
        self.fluency_weight = fluency_weight
        self.group_size = group_size

    def score_posts(
        self,
        texts: list[str],
        sources: list[str],
        evidence: list[list[str]],
        attributes: list[list[str]],
        labels: list[dict[str, str]],
    ) -> list[tuple[RewardParts, dict[str, float | None]]]:
        """Each completion's parts and the terms behind them (evidence removed, self-attack anonymity, fluency)."""
        from stealthflow.evaluation.evidence import evidence_survival

        rewrites, parts, lexical = self.screen(texts, sources)
        todo = list(lexical)
        if not todo:
            return [(part, {"evidence_removed": 0.0, "self_anonymity": None, "fluency": None}) for part in parts]
        fluencies = self.fluency.compare([sources[i] for i in todo], [rewrites[i].text for i in todo])
        fluencies = dict(zip(todo, fluencies, strict=True))
        targets = {i: choice_targets(attributes[i], labels[i]) for i in todo}
        attacked = [i for i in todo if targets[i]]
        texts_attacked = [rewrites[i].text for i in attacked]
        choices = self.attacker.choose_many(texts_attacked, [list(targets[i]) for i in attacked]) if attacked else []
        outcomes = {i: choice_outcome(c, targets[i]) for i, c in zip(attacked, choices, strict=True)}
        scored = []
        for i, part in enumerate(parts):
            if part is not None:
                scored.append((part, {"evidence_removed": 0.0, "self_anonymity": None, "fluency": None}))
                continue
            removed = 1.0 - (evidence_survival(evidence[i], rewrites[i].text) or 0.0)
            answered, correct, anonymity = outcomes.get(i, (0, 0, 0.0))
            w = self.attack_weight if i in outcomes else 0.0
            credit = fluency_credit(fluencies[i].score)
            utility = (1 - self.fluency_weight) * lexical[i] + self.fluency_weight * credit
            part = self._combine(
                (1 - w) * removed + w * anonymity, utility, copied=False, attacked=answered, attacker_correct=correct
            )
            logged = anonymity if i in outcomes else None  # the log averages it over attacked rewrites only
            scored.append((part, {"evidence_removed": removed, "self_anonymity": logged, "fluency": credit}))
        return scored

    def __call__(
        self,
        prompts,
        completions,
        completion_ids=None,
        *,
        source_text,
        evidence,
        evidence_attributes,
        labels,
        **_columns,
    ) -> list[float]:
        scored = self.score_posts(
            [completion_text(c) for c in completions],
            list(source_text),
            list(evidence),
            list(evidence_attributes),
            [labels_dict(x) for x in labels],
        )
        terms = [t for _, t in scored]
        self._log(
            [p for p, _ in scored],
            self.group_size,
            evidence_removed_mean=statistics.fmean(t["evidence_removed"] for t in terms),
            **{f"{key}_mean": _mean_of(terms, key) for key in ("self_anonymity", "fluency")},
        )
        return [p.reward for p, _ in scored]


def choice_targets(attributes: list[str], labels: dict[str, str]) -> dict[str, str]:
    """The true option of each attribute in `attributes` asked by choice and labelled with one option."""
    from stealthflow.attack.choice import CHOICE_ATTRIBUTES
    from stealthflow.attack.classifier import normalise_label

    targets = {}
    for attribute in dict.fromkeys(attributes):
        if attribute in CHOICE_ATTRIBUTES and attribute in labels:
            option = normalise_label(attribute, labels[attribute])
            if option is not None:
                targets[attribute] = option
    return targets


def choice_outcome(choices: dict, targets: dict[str, str]) -> tuple[int, int, float]:
    """(attributes asked, top-1 right, mean of 1 − p(true option)) of one rewrite's choices."""
    right = sum(choices[a].answer == truth for a, truth in targets.items())
    privacy = statistics.fmean(1 - choices[a].probability(truth) for a, truth in targets.items())
    return len(targets), right, privacy


def _mean_of(rows: list[dict[str, float | None]], key: str) -> float | None:
    values = [row[key] for row in rows if row[key] is not None]
    return statistics.fmean(values) if values else None


class ClassifierDrop:
    """How much replacing one comment lowers the classifier attacker's probability of the truth."""

    def __init__(self, classifier, embedder, profiles: dict):
        self.classifier = classifier
        self.embedder = embedder
        self.profiles = profiles  # id -> Profile (the train split)
        self._lines: dict[str, object] = {}

    def drop(self, profile_id: str, comment_index: int, new_comment: str) -> float | None:
        import numpy as np

        from stealthflow.attack.classifier import classes_for, normalise_label

        profile = self.profiles[profile_id]
        if profile_id not in self._lines:
            self._lines[profile_id] = self.embedder.embed_lines([c.text for c in profile.comments])
        lines = self._lines[profile_id]
        replaced = lines.copy()
        replaced[comment_index] = self.embedder.embed_lines([new_comment])[0]
        comments = [c.text for c in profile.comments]
        new_text = "\n".join(comments[:comment_index] + [new_comment] + comments[comment_index + 1 :])
        before = self.classifier.features([lines], ["\n".join(comments)])
        after = self.classifier.features([replaced], [new_text])
        drops = []
        for attribute, label in profile.labelled().items():
            cls = normalise_label(attribute, label.estimate) if attribute in self.classifier.attributes else None
            if cls is None:
                continue
            column = classes_for(attribute).index(cls)
            p_before = self.classifier.probabilities(attribute, before)[0, column]
            p_after = self.classifier.probabilities(attribute, after)[0, column]
            drops.append(float(np.clip((p_before - p_after) / max(p_before, 1e-6), 0.0, 1.0)))
        return sum(drops) / len(drops) if drops else None
