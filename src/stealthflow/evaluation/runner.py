"""Run an evaluation: attack the originals, anonymize with every method, score every round.

Each step persists per profile (see `records`) in chunks of `chunk_size`, and the response
cache holds every attacker/judge answer, so a killed run resumes where it stopped and
re-scoring a finished run costs no model call. The out dir remembers the settings it was
made with; resuming it with different models or attackers is refused (its numbers would mix).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

from stealthflow.anonymize import build_method
from stealthflow.attack import CorrectnessJudge
from stealthflow.attack.registry import build_attackers
from stealthflow.config import Settings
from stealthflow.data import Profile, load_labelled
from stealthflow.evaluation.config import EvaluationConfig
from stealthflow.evaluation.records import AnonymizedRecord, JsonlStore, OriginalRecord, ScoreRecord
from stealthflow.evaluation.scoring import Scorer
from stealthflow.llm.pool import LLMPool
from stealthflow.utility import UtilityJudge

RUN_FILE = "run.json"


class ProgressReporter(Protocol):
    def stage(self, description: str, total: int) -> Callable[[int], None]:
        """Start a stage of `total` profiles; returns the function that advances it."""


class _Silent:
    def stage(self, description: str, total: int) -> Callable[[int], None]:
        return lambda n: None


class EvaluationError(ValueError):
    """The out dir cannot be resumed with these settings."""


class Evaluation:
    """The persisted state of one evaluation out dir."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.failed: dict[str, set[str]] = {}  # step -> profiles left for the next run (calls kept failing)

    def record_failure(self, step: str, profile_id: str) -> None:
        self.failed.setdefault(step, set()).add(profile_id)

    def originals(self) -> JsonlStore[OriginalRecord]:
        return JsonlStore(self.out / "originals.jsonl", OriginalRecord)

    def anonymized(self, method: str) -> JsonlStore[AnonymizedRecord]:
        return JsonlStore(self.out / f"anonymized-{method}.jsonl", AnonymizedRecord)

    def scores(self, method: str) -> JsonlStore[ScoreRecord]:
        return JsonlStore(self.out / f"scores-{method}.jsonl", ScoreRecord)

    def methods_on_disk(self) -> list[str]:
        return sorted(p.stem.removeprefix("scores-") for p in self.out.glob("scores-*.jsonl"))


def run_evaluation(
    settings: Settings, pool: LLMPool, out: Path, progress: ProgressReporter | None = None
) -> Evaluation:
    config = settings.evaluation
    progress = progress or _Silent()
    evaluation = Evaluation(out)
    _check_resumable(evaluation.out, settings)
    profiles = labelled_profiles(config)
    scorer = Scorer(
        build_attackers(config.attackers, settings, pool),
        CorrectnessJudge(pool.get(settings.judge_model()) if config.llm_judge else None),
        UtilityJudge(pool.get(settings.judge_model())),
    )
    _attack_originals(evaluation, profiles, scorer, config.chunk_size, progress)
    for method in config.methods:
        _anonymize(evaluation, method, profiles, settings, pool, progress)
        _score(evaluation, method, profiles, scorer, config.chunk_size, progress)
    return evaluation


def labelled_profiles(config: EvaluationConfig) -> list[Profile]:
    return load_labelled(config.data, config.limit, config.sample_seed)


def _check_resumable(out: Path, settings: Settings) -> None:
    # Everything but the choice of methods and profiles decides the numbers already on disk.
    fingerprint = settings.model_dump(mode="json", exclude={"evaluation": {"methods", "limit", "chunk_size"}})
    path = out / RUN_FILE
    # Settings count once a result was written under them: a run that failed before that
    # (a typo, a missing key) leaves nothing to protect, and the corrected command goes on.
    has_results = any(p.stat().st_size > 0 for p in out.glob("*.jsonl"))
    if path.exists() and has_results:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved != fingerprint:
            changed = sorted(k for k in set(saved) | set(fingerprint) if saved.get(k) != fingerprint.get(k))
            raise EvaluationError(
                f"{out} was evaluated with other settings ({', '.join(changed)} differ); use a new --out or the same settings"
            )
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(fingerprint, indent=2) + "\n", encoding="utf-8")


def _chunks(items: list, size: int) -> Iterator[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _attack_originals(
    evaluation: Evaluation, profiles: list[Profile], scorer: Scorer, chunk_size: int, progress: ProgressReporter
) -> None:
    store = evaluation.originals()
    done = store.load()
    todo = [p for p in profiles if p.id not in done]
    advance = progress.stage("attacking originals", len(profiles))
    advance(len(profiles) - len(todo))
    for chunk in _chunks(todo, chunk_size):
        records = []
        for profile, score in zip(chunk, scorer.score_originals(chunk), strict=True):
            if score is None:
                evaluation.record_failure("attacking originals", profile.id)
                continue
            labels = {a: label.estimate for a, label in profile.labelled().items()}
            records.append(OriginalRecord(profile_id=profile.id, labels=labels, score=score))
        store.append(records)
        advance(len(chunk))


def _anonymize(
    evaluation: Evaluation,
    method: str,
    profiles: list[Profile],
    settings: Settings,
    pool: LLMPool,
    progress: ProgressReporter,
) -> None:
    store = evaluation.anonymized(method)
    done = store.load()
    todo = [p for p in profiles if p.id not in done]
    advance = progress.stage(f"anonymizing ({method})", len(profiles))
    advance(len(profiles) - len(todo))
    if not todo:
        return
    options = {"insights": str(settings.evaluation.insights)} if settings.evaluation.insights else {}
    anonymizer = build_method(method, settings, pool, options)
    for chunk in _chunks(todo, settings.evaluation.chunk_size):
        results = anonymizer.anonymize_many(chunk, on_progress=advance)
        for result in results:
            if "error" in result.details:  # the method gave up on this profile: retry next run
                evaluation.record_failure(f"anonymizing ({method})", result.profile_id)
        store.append(
            [
                AnonymizedRecord(profile_id=r.profile_id, text=r.text, rounds=r.rounds or [r.text], parsed=r.parsed)
                for r in results
                if "error" not in r.details
            ]
        )


def _score(
    evaluation: Evaluation,
    method: str,
    profiles: list[Profile],
    scorer: Scorer,
    chunk_size: int,
    progress: ProgressReporter,
) -> None:
    anonymized = evaluation.anonymized(method).load()
    store = evaluation.scores(method)
    done = store.load()
    originals = evaluation.originals().load()
    todo = [p for p in profiles if p.id not in done and p.id in anonymized and p.id in originals]
    advance = progress.stage(f"scoring ({method})", len(profiles))
    advance(len(profiles) - len(todo))
    for chunk in _chunks(todo, chunk_size):
        # Score each distinct round text once (a loop that stops changing repeats its text).
        jobs = [(p, text, k) for p in chunk for text, k in _first_rounds(anonymized[p.id].rounds).items()]
        scored = scorer.score_rewrites([p for p, _, _ in jobs], [t for _, t, _ in jobs], [k for _, _, k in jobs])
        by_text = {(p.id, t): s for (p, t, _), s in zip(jobs, scored, strict=True)}
        records = []
        for profile in chunk:
            result = anonymized[profile.id]
            if any(by_text[(profile.id, t)] is None for t in result.rounds):
                evaluation.record_failure(f"scoring ({method})", profile.id)
                continue
            rounds = [
                by_text[(profile.id, t)].model_copy(update={"round": k}) for k, t in enumerate(result.rounds, start=1)
            ]
            records.append(ScoreRecord(profile_id=profile.id, method=method, parsed=result.parsed, rounds=rounds))
        store.append(records)
        advance(len(chunk))


def _first_rounds(texts: list[str]) -> dict[str, int]:
    """Each distinct text with the first round (1-based) that produced it."""
    first: dict[str, int] = {}
    for k, text in enumerate(texts, start=1):
        first.setdefault(text, k)
    return first
