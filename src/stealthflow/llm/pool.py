"""One `LLM` per distinct model config, so roles that share a model share its weights."""

from __future__ import annotations

import copy
from pathlib import Path

from stealthflow.llm.client import LLM
from stealthflow.llm.config import ModelConfig
from stealthflow.llm.registry import build_llm
from stealthflow.llm.usage import UsageMeter


class LLMPool:
    def __init__(self, cache_path: str | Path | None = None):
        self.cache_path = cache_path
        self._clients: dict[str, LLM] = {}
        self.meter: UsageMeter | None = None

    def metered(self, meter: UsageMeter) -> "LLMPool":
        """A view of the pool (same clients) whose `get` counts calls into `meter`, for one role."""
        view = copy.copy(self)
        view.meter = meter
        return view

    def get(self, config: ModelConfig) -> LLM:
        # Generation parameters live per request, so only the weights decide sharing.
        key = config.model_dump_json(include={"model", "adapter", "api_base", "dtype", "batch_size", "threads"})
        if key not in self._clients:
            self._clients[key] = build_llm(config, self.cache_path)
        client = self._clients[key]
        if client.params != config.generation_params():
            client = client.with_params(config.generation_params())
        return client.metered(self.meter) if self.meter is not None else client

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()
