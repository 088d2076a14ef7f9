"""The one interface every node uses: batched chat generation.

A backend turns a list of chat requests into completions (`generate_batch`). A backend that
can take new requests into a batch that is already decoding also overrides `generate_admitting`.
Everything else — caching, retries, coalescing concurrent calls into batches, token accounting — lives
in `stealthflow.llm.client.LLM`, so a backend stays a small class.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
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


@dataclass(eq=False)
class Job:
    """A request on its way through a backend; `ticket` belongs to the caller (opaque here)."""

    request: ChatRequest
    ticket: object = None


#: `admit(params, free)`: up to `free` more jobs with exactly these parameters (none: nothing waiting);
#: `params` None takes jobs with any parameters (a remote backend sends each request with its own)
Admit = Callable[[GenerationParams | None, int], list[Job]]
Finish = Callable[[Job, "Completion"], None]


@dataclass
class Completion:
    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    cost: float = 0.0  # USD, from litellm's offline cost map (0: a local backend or an unpriced model)
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

    def generate_admitting(self, jobs: list[Job], admit: Admit, finish: Finish) -> None:
        """Answer `jobs`, calling `finish(job, completion)` for each.

        A backend that batches step by step (see the transformers backend) overrides this to
        call `finish` as soon as a row ends and to fill its free rows from `admit` while the
        others are still decoding. This default answers `jobs` as one batch and admits nothing.
        """
        for job, completion in zip(jobs, self.generate_batch([job.request for job in jobs]), strict=True):
            finish(job, completion)

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release model memory or connections."""
