"""The loop as anonymization methods: `aa` (Staab et al.) and `stealth` (frozen insights).

Both run the same graph without a checkpointer and write nothing to disk (the input is a
user's private text). Without labels, the attackers' confident round-0 guesses stand in for
the truth. `Anonymized.rounds` holds the text after every round; a profile that stopped
early repeats its last text, so every profile has one text per round.

    aa       attacker feedback only: no insight rules, no utility warning (Staab et al. 2024)
    stealth  the workflow: insight rules from a frozen memory (`insights` option) + warnings
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stealthflow.anonymize.methods import Anonymized, ProgressCallback, register_method
from stealthflow.attack import CorrectnessJudge
from stealthflow.attack.registry import build_attackers
from stealthflow.config import Settings
from stealthflow.data.schema import Profile
from stealthflow.insights.agentstealth import shipped_memory_path
from stealthflow.insights.memory import InsightMemory
from stealthflow.llm.pool import LLMPool
from stealthflow.workflow.graph import build_graph
from stealthflow.workflow.nodes import Steps
from stealthflow.workflow.runner import Outcome, run_profiles
from stealthflow.workflow.trajectory import RoundRecord


class LoopMethod:
    def __init__(self, name: str, steps: Steps):
        self.name = name
        self.steps = steps
        self.graph = build_graph(steps)

    def anonymize_many(self, profiles: list[Profile], on_progress: ProgressCallback | None = None) -> list[Anonymized]:
        config = self.steps.config
        step = config.concurrency
        self.steps.prepare()
        results = []
        for start in range(0, len(profiles), step):
            chunk = profiles[start : start + step]
            outcomes = run_profiles(self.graph, chunk, step, config.rounds)
            results += [anonymized(p, o, config.rounds) for p, o in zip(chunk, outcomes, strict=True)]
            if on_progress:
                on_progress(len(chunk))
        return results


def anonymized(profile: Profile, outcome: Outcome, rounds: int) -> Anonymized:
    if isinstance(outcome, BaseException):
        error = f"{type(outcome).__name__}: {outcome}"
        return Anonymized(profile.id, profile.text, [profile.text] * rounds, parsed=False, details={"error": error})
    records: list[RoundRecord] = outcome["records"]
    texts = [r.text for r in records[1:]]
    texts += [records[-1].text] * (rounds - len(texts))
    return Anonymized(
        profile_id=profile.id,
        text=texts[-1],
        rounds=texts,
        parsed=all(r.anonymizer.parsed for r in records[1:] if r.anonymizer),
        details={
            "risk": risk_report(records[0], records[-1]),
            "utility": [r.utility.get("mean", 0.0) for r in records],
            "protected": [r.protected for r in records],
            "labels_source": records[0].labels_source,
        },
    )


def risk_report(before: RoundRecord, after: RoundRecord) -> dict[str, dict[str, Any]]:
    """Per attribute: what each attacker guessed before and after, and whether it is protected."""
    attributes = list(dict.fromkeys(a for attack in before.attacks for a in attack.guesses))
    return {
        a: {
            "truth": before.labels.get(a),
            "before": before.guess_summary(a),
            "after": after.guess_summary(a),
            "protected": after.protected.get(a),  # None: nothing confident to protect
        }
        for a in attributes
    }


def _steps(settings: Settings, pool: LLMPool, options: dict[str, Any], **overrides: Any) -> Steps:
    tunable = {
        k: options[k] for k in ("rounds", "attackers", "early_stop", "max_concurrency") if options.get(k) is not None
    }
    config = settings.workflow.model_copy(update={**tunable, **overrides})
    attackers = build_attackers(config.attackers, settings, pool)
    judge = CorrectnessJudge(pool.get(settings.judge_model()) if config.llm_judge else None)
    memory = frozen_memory(options.get("insights"))
    return Steps(pool.get(settings.model), attackers, judge, config, memory=memory, use_labels=False)


def frozen_memory(insights: str | Path | None) -> InsightMemory:
    """The memory a loop method reads: a file, `none` (no rules), or by default the shipped
    memory AgentStealth learned with DeepSeek-V3 (`insights/agentstealth-deepseek-v3.json`)."""
    if insights is not None and str(insights) == "none":
        return InsightMemory()
    return InsightMemory.load(insights or shipped_memory_path())


def _aa(settings: Settings, pool: LLMPool, options: dict[str, Any]) -> LoopMethod:
    return LoopMethod("aa", _steps(settings, pool, options, use_insights=False, utility_warnings=False))


def _stealth(settings: Settings, pool: LLMPool, options: dict[str, Any]) -> LoopMethod:
    return LoopMethod("stealth", _steps(settings, pool, options))


register_method("aa", _aa)
register_method("stealth", _stealth)
