"""The insight memory AgentStealth learned with DeepSeek-V3, as a ready frozen memory.

The reference workflow writes `{attribute: {"insights": [rule, ...], "scores": [int, ...]}}`
with rules wrapped in `<...>` and unbounded counters as scores (56-128 for a top rule). The
conversion drops the wrappers and maps each attribute's scores onto the bounded scale of
`InsightMemory` (1..score_cap, proportional to that attribute's top score), keeping the order.
`insights/agentstealth-deepseek-v3.json` is the shipped result; it is the default frozen memory
of `--method stealth` (`--insights none` runs without rules).
"""

from __future__ import annotations

from pathlib import Path

from stealthflow.insights.memory import InsightMemory, Rule, Version
from stealthflow.resources import resource_dir

SHIPPED = "agentstealth-deepseek-v3.json"


def convert(reference: dict, score_cap: int = 10, max_rules: int = 5) -> InsightMemory:
    rules: dict[str, list[Rule]] = {}
    for attribute, entry in reference.items():
        texts, scores = entry["insights"], entry["scores"]
        if len(texts) != len(scores):
            raise ValueError(f"{attribute}: {len(texts)} rules but {len(scores)} scores")
        top = max(scores, default=1) or 1
        ranked = sorted(zip(texts, scores), key=lambda pair: -pair[1])[:max_rules]
        rules[attribute] = [
            Rule(
                text=text.strip().removeprefix("<").removesuffix(">").strip(),
                score=max(1, round(score_cap * score / top)),
            )
            for text, score in ranked
        ]
    note = "converted from AgentStealth's insights_570.json (DeepSeek-V3, 575 train profiles)"
    return InsightMemory(
        version=1,
        max_rules=max_rules,
        score_cap=score_cap,
        rules=rules,
        history=[Version(version=1, note=note, rules=rules)],
    )


def shipped_memory_path() -> Path:
    return resource_dir("insights") / SHIPPED
