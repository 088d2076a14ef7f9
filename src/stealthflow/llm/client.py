"""`LLM`: the client every node calls.

Nodes of many profiles run concurrently (threads of the LangGraph batch) and each asks for
one completion at a time. On a CPU, throughput comes only from batching, so `LLM.chat` does
not call the backend directly: it queues the request, and one worker thread gathers whatever
requests arrive within a short linger window (up to the backend's batch size) into a single
`generate_batch` call. The same path adds the optional response cache, bounded retries and
token accounting.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field, replace

from stealthflow.llm.base import (
    BackendInfo,
    ChatBackend,
    ChatRequest,
    Completion,
    GenerationParams,
    LLMCallError,
    Message,
)
from stealthflow.llm.cache import ResponseCache


@dataclass
class UsageStats:
    calls: int = 0
    cached: int = 0
    failed: int = 0
    batches: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    generation_seconds: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def record_batch(self, completions: list[Completion], seconds: float) -> None:
        with self._lock:
            self.batches += 1
            self.generation_seconds += seconds
            for c in completions:
                self.calls += 1
                self.prompt_tokens += c.prompt_tokens
                self.completion_tokens += c.completion_tokens

    def record_failed(self, n: int) -> None:
        with self._lock:
            self.calls += n
            self.failed += n

    def record_cached(self, n: int) -> None:
        with self._lock:
            self.calls += n
            self.cached += n

    @property
    def tokens_per_second(self) -> float:
        return self.completion_tokens / self.generation_seconds if self.generation_seconds else 0.0


_STOP = object()


class _Worker:
    """The batching thread and its queue, started on first use."""

    def __init__(self, target):
        self.queue: queue.Queue = queue.Queue()
        self._target = target
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, item) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._target, args=(self.queue,), name="llm-batcher", daemon=True)
                self._thread.start()
        self.queue.put(item)

    def stop(self) -> None:
        with self._lock:
            if self._thread is not None:
                self.queue.put(_STOP)
                self._thread.join()
                self._thread = None


class LLM:
    def __init__(
        self,
        backend: ChatBackend,
        params: GenerationParams | None = None,
        cache: ResponseCache | None = None,
        max_retries: int = 2,
        linger_seconds: float = 0.05,
    ):
        self.backend = backend
        self.params = params or GenerationParams()
        self.cache = cache
        self.max_retries = max_retries
        self.linger_seconds = linger_seconds
        self.stats = UsageStats()
        # Shared by every view made with `with_params`: one queue, one worker, one batch.
        self._shared = _Worker(self._run)

    @property
    def info(self) -> BackendInfo:
        return self.backend.info

    def with_params(self, params: GenerationParams) -> "LLM":
        """A view with other default parameters, sharing backend, batches, cache and stats."""
        view = copy.copy(self)
        view.params = params
        return view

    def params_with(self, **overrides) -> GenerationParams:
        return replace(self.params, **{k: v for k, v in overrides.items() if v is not None})

    # -- public API -------------------------------------------------------------------
    def chat(self, messages: list[Message], **overrides) -> Completion:
        """One completion; raises `LLMCallError` once the bounded retries are spent."""
        completion = self.submit(messages, **overrides).result()
        if completion.error is not None:
            raise LLMCallError(completion.error)
        return completion

    def chat_many(self, conversations: list[list[Message]], **overrides) -> list[Completion]:
        """Many completions in one go. Failed ones carry `error` instead of raising."""
        futures = [self.submit(messages, **overrides) for messages in conversations]
        return [f.result() for f in futures]

    def submit(self, messages: list[Message], **overrides) -> Future:
        request = ChatRequest.of(messages, self.params_with(**overrides))
        future: Future = Future()
        cached = self.cache.get(request.key(self.info.model_id)) if self.cache else None
        if cached is not None:
            self.stats.record_cached(1)
            future.set_result(cached)
            return future
        self._shared.put((request, future))
        return future

    def close(self) -> None:
        self._shared.stop()
        self.backend.close()

    # -- batching worker ----------------------------------------------------------------
    def _run(self, requests: queue.Queue) -> None:
        while True:
            first = requests.get()
            if first is _STOP:
                return
            batch = [first]
            deadline = time.monotonic() + self.linger_seconds
            stop_after = False
            while len(batch) < self.backend.max_batch_size:
                remaining = deadline - time.monotonic()
                try:
                    item = requests.get(timeout=remaining) if remaining > 0 else requests.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stop_after = True
                    break
                batch.append(item)
            self._process(batch)
            if stop_after:
                return

    def _process(self, batch: list[tuple[ChatRequest, Future]]) -> None:
        requests = [request for request, _ in batch]
        try:
            completions = self._generate_with_retries(requests)
        except BaseException as exc:  # never leave a caller waiting forever
            completions = [Completion(text="", error=f"{type(exc).__name__}: {exc}") for _ in requests]
        for (request, future), completion in zip(batch, completions, strict=True):
            if self.cache is not None:
                self.cache.put(request.key(self.info.model_id), completion)
            future.set_result(completion)

    def _generate_with_retries(self, requests: list[ChatRequest]) -> list[Completion]:
        results: list[Completion | None] = [None] * len(requests)
        pending = list(range(len(requests)))
        last_error = ""
        for _attempt in range(self.max_retries + 1):
            if not pending:
                break
            start = time.perf_counter()
            try:
                answers = self.backend.generate_batch([requests[i] for i in pending])
            except Exception as exc:  # a crashed batch is retried whole
                last_error = f"{type(exc).__name__}: {exc}"
                continue
            self.stats.record_batch([a for a in answers if a.error is None], time.perf_counter() - start)
            still_failing = []
            for index, answer in zip(pending, answers, strict=True):
                if answer.error is None:
                    results[index] = answer
                else:
                    last_error = answer.error
                    still_failing.append(index)
            pending = still_failing
        failed = [Completion(text="", error=f"failed after {self.max_retries + 1} attempts: {last_error}") for _ in pending]
        for index, completion in zip(pending, failed, strict=True):
            results[index] = completion
        self.stats.record_failed(len(pending))
        return [r for r in results if r is not None]
