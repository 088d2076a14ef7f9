"""FAKE LLM backend for unit tests only: scripted answers, no model.

Every real-model behaviour is covered separately by tests marked `real_model`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from stealthflow.llm import LLM, ChatBackend, ChatRequest, Completion, GenerationParams, Message
from stealthflow.llm.base import BackendInfo

Responder = Callable[[list[Message]], str]


class FakeBackend(ChatBackend):
    """Answers each request with `responder(messages)`; records every request it saw."""

    def __init__(self, responder: Responder | str = "", batch_size: int = 8, model_id: str = "fake-model"):
        self.responder = responder if callable(responder) else (lambda _messages: responder)
        self.max_batch_size = batch_size
        self.model_id = model_id
        self.requests: list[ChatRequest] = []
        self.batch_sizes: list[int] = []
        self._lock = threading.Lock()

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(model_id=self.model_id, backend="fake")

    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        with self._lock:
            self.requests.extend(requests)
            self.batch_sizes.append(len(requests))
        completions = []
        for request in requests:
            text = self.responder(request.message_dicts)
            completions.append(Completion(text=text, prompt_tokens=10, completion_tokens=len(text.split())))
        return completions


def fake_llm(responder: Responder | str = "", **kwargs) -> LLM:
    return LLM(FakeBackend(responder, **kwargs), GenerationParams(), linger_seconds=0.01)
