"""The one interface every node uses: batched chat generation.

A backend turns a list of chat requests into completions (`generate_batch`). Everything
else — caching, retries, coalescing concurrent calls into batches, token accounting — lives
in `stealthflow.llm.client.LLM`, so a backend stays a small class.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field

Message = dict[str, str]


@dataclass(frozen=True)
class GenerationParams:
    max_new_tokens: int = 384
    temperature: float = 0.0
    top_p: float = 1.0
    seed: int = 0
    repetition_penalty: float = 1.0


@dataclass(frozen=True)
class ChatRequest:
    messages: tuple[tuple[str, str], ...]
    params: GenerationParams

    @classmethod
    def of(cls, messages: list[Message], params: GenerationParams) -> "ChatRequest":
        return cls(tuple((m["role"], m["content"]) for m in messages), params)

    @property
    def message_dicts(self) -> list[Message]:
        return [{"role": role, "content": content} for role, content in self.messages]

    def key(self, model_id: str) -> str:
        """Cache key: model + messages + parameters."""
        payload = json.dumps([model_id, self.messages, asdict(self.params)], ensure_ascii=False)
        return hashlib.sha256(payload.encode()).hexdigest()


@dataclass
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    error: str | None = None  # set when every retry failed; `text` is then empty


@dataclass
class BackendInfo:
    """What trajectories record about the model that produced an answer."""

    model_id: str
    backend: str
    settings: dict = field(default_factory=dict)


class LLMCallError(RuntimeError):
    """A call that still failed after its bounded retries."""


class ChatBackend(ABC):
    #: how many requests one `generate_batch` call should receive at most
    max_batch_size: int = 1

    @property
    @abstractmethod
    def info(self) -> BackendInfo: ...

    @abstractmethod
    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        """Answer every request, in order. A failed request yields a Completion with `error`."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release model memory or connections."""
