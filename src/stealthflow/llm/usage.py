"""Tokens and money spent, per role of a run (anonymizer, attacker, judge, insight).

A `UsageMeter` sums the answers a role's `LLM` view received from a backend; answers from the
response cache and failed calls cost nothing and are not counted. The cost is what litellm
computes from its offline cost map (0 for local backends and for models it does not price).
"""

from __future__ import annotations

import threading

from pydantic import BaseModel

from stealthflow.llm.base import Completion


class TokenUsage(BaseModel):
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            calls=self.calls + other.calls,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
        )


class UsageMeter:
    """Running totals for one role; `record` is called from the LLM client's worker threads."""

    def __init__(self) -> None:
        self._usage = TokenUsage()
        self._lock = threading.Lock()

    def record(self, completion: Completion) -> None:
        if completion.cached or completion.error is not None:
            return
        with self._lock:
            self._usage = self._usage + TokenUsage(
                calls=1,
                prompt_tokens=completion.prompt_tokens,
                completion_tokens=completion.completion_tokens,
                cost_usd=completion.cost,
            )

    def total(self) -> TokenUsage:
        with self._lock:
            return self._usage.model_copy()
