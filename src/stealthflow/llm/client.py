"""`LLM`: the client every node calls.

Nodes of many profiles run concurrently (threads of the LangGraph batch) and each asks for
one completion at a time. On a CPU, throughput comes only from batching, so `LLM.chat` does
not call the backend directly: it queues the request, and one worker thread gathers whatever
requests arrive within a short linger window (up to the backend's batch size) into one backend
run. A backend that decodes step by step also takes requests that arrive while it runs into
rows that have ended (`generate_admitting`), so a profile's next call need not wait for the
other profiles' answers. The same path adds the optional response cache, bounded retries and
token accounting.
"""

from __future__ import annotations

import copy
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, as_completed
from dataclasses import dataclass, field, replace

from stealthflow.llm.base import (
    BackendInfo,
    ChatBackend,
    ChatRequest,
    Completion,
    GenerationParams,
    Job,
    LLMCallError,
    Message,
)
from stealthflow.llm.cache import ResponseCache
from stealthflow.llm.usage import UsageMeter


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


_STOP = object()


class _Intake:
    """The batching thread and its queue of jobs, started on first use.

    Jobs a running batch could not take (other generation parameters) are held back and come
    first in the next batch, so arrival order is kept per parameter set.
    """

    def __init__(self, target):
        self.queue: queue.Queue = queue.Queue()
        self.held: deque[Job] = deque()  # touched only by the batching thread
        self.stopping = False
        self._target = target
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def put(self, job: Job) -> None:
        with self._lock:
            if self._thread is None:
                self.stopping = False
                self._thread = threading.Thread(target=self._target, name="llm-batcher", daemon=True)
                self._thread.start()
        self.queue.put(job)

    def stop(self) -> None:
        with self._lock:
            if self._thread is not None:
                self.queue.put(_STOP)
                self._thread.join()
                self._thread = None

    def _get(self, timeout: float | None) -> Job | None:
        """The next queued job; None when there is none in time or the stop mark came."""
        if self.stopping:
            return None
        try:
            item = self.queue.get(timeout=timeout) if timeout is None or timeout > 0 else self.queue.get_nowait()
        except queue.Empty:
            return None
        if item is _STOP:
            self.stopping = True
            return None
        return item

    def next_batch(self, size: int, linger: float) -> list[Job]:
        """Wait for a first job, then take what arrives within `linger` seconds, up to `size`.

        Empty once the stop mark has come and nothing is held back.
        """
        first = self.held.popleft() if self.held else self._get(timeout=None)
        if first is None:
            return []
        batch = [first]
        while self.held and len(batch) < size:
            batch.append(self.held.popleft())
        deadline = time.monotonic() + linger
        while len(batch) < size:
            job = self._get(timeout=deadline - time.monotonic())
            if job is None:
                break
            batch.append(job)
        return batch

    def more(self, params: GenerationParams | None, free: int) -> list[Job]:
        """Jobs already waiting with these parameters (None: any), for a run under way, without waiting."""
        taken: list[Job] = []
        for job in [j for j in self.held if params is None or j.request.params == params][:free]:
            self.held.remove(job)
            taken.append(job)
        while len(taken) < free:
            job = self._get(timeout=0)
            if job is None:
                break
            if params is None or job.request.params == params:
                taken.append(job)
            else:
                self.held.append(job)
        return taken


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
        self.meter: UsageMeter | None = None  # a role's meter (see `metered`); stats are per client
        # Shared by every view made with `with_params`: one queue, one worker, one batch.
        self._intake = _Intake(self._run)

    @property
    def info(self) -> BackendInfo:
        return self.backend.info

    def with_params(self, params: GenerationParams) -> "LLM":
        """A view with other default parameters, sharing backend, batches, cache and stats."""
        view = copy.copy(self)
        view.params = params
        return view

    def metered(self, meter: UsageMeter) -> "LLM":
        """A view that also counts its own answered calls into `meter` (tokens and cost of one role)."""
        view = copy.copy(self)
        view.meter = meter
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

    def chat_many(
        self, conversations: list[list[Message]], on_done: Callable[[int], None] | None = None, **overrides
    ) -> list[Completion]:
        """Many completions in one go; `on_done(1)` as each arrives (progress bars).

        All are queued at once, so a backend that decodes step by step keeps its rows full.
        Failed ones carry `error` instead of raising.
        """
        futures = [self.submit(messages, **overrides) for messages in conversations]
        if on_done is not None:
            for _ in as_completed(futures):
                on_done(1)
        return [f.result() for f in futures]

    def submit(self, messages: list[Message], **overrides) -> Future:
        request = ChatRequest.of(messages, self.params_with(**overrides))
        future: Future = Future()
        cached = self.cache.get(request.key(self.info.model_id)) if self.cache is not None else None
        if cached is not None:
            self.stats.record_cached(1)
            future.set_result(cached)
            return future
        if self.meter is not None:
            meter = self.meter
            future.add_done_callback(lambda done: meter.record(done.result()))
        self._intake.put(Job(request, future))
        return future

    def close(self) -> None:
        self._intake.stop()
        self.backend.close()

    # -- batching worker ----------------------------------------------------------------
    def _run(self) -> None:
        while batch := self._intake.next_batch(self.backend.max_batch_size, self.linger_seconds):
            started = list(batch)  # grows with the jobs the backend admits
            try:
                self._serve(batch, started)
            except BaseException as exc:  # never leave a caller waiting forever; the thread lives on
                for job in started:
                    if not job.ticket.done():
                        job.ticket.set_result(Completion(text="", error=f"{type(exc).__name__}: {exc}"))

    def _serve(self, batch: list[Job], started: list[Job]) -> None:
        """One backend run over `batch` and whatever it admits; failed jobs go to the retries."""
        answered: list[Completion] = []
        last_error = ""

        def admit(params: GenerationParams | None, free: int) -> list[Job]:
            jobs = self._intake.more(params, free)
            started.extend(jobs)
            return jobs

        def finish(job: Job, completion: Completion) -> None:
            nonlocal last_error
            if completion.error is None:
                answered.append(completion)
                self._resolve(job, completion)
            else:
                last_error = completion.error

        start = time.perf_counter()
        try:
            self.backend.generate_admitting(batch, admit, finish)
        except Exception as exc:  # the jobs it did not finish are retried
            last_error = f"{type(exc).__name__}: {exc}"
        if answered:
            self.stats.record_batch(answered, time.perf_counter() - start)
        unfinished = [job for job in started if not job.ticket.done()]
        if unfinished:
            completions = self._generate_with_retries([job.request for job in unfinished], self.max_retries, last_error)
            for job, completion in zip(unfinished, completions, strict=True):
                self._resolve(job, completion)

    def _resolve(self, job: Job, completion: Completion) -> None:
        if self.cache is not None:
            self.cache.put(job.request.key(self.info.model_id), completion)
        job.ticket.set_result(completion)

    def _generate_with_retries(self, requests: list[ChatRequest], attempts: int, last_error: str) -> list[Completion]:
        results: list[Completion | None] = [None] * len(requests)
        pending = list(range(len(requests)))
        for _attempt in range(attempts):
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
        failed = [
            Completion(text="", error=f"failed after {self.max_retries + 1} attempts: {last_error}") for _ in pending
        ]
        for index, completion in zip(pending, failed, strict=True):
            results[index] = completion
        self.stats.record_failed(len(pending))
        return [r for r in results if r is not None]
