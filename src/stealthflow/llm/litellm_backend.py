"""Any provider litellm knows (DeepSeek, OpenAI, Anthropic, ...) or any OpenAI-compatible server.

Requests run on one long-lived event loop and complete independently under the backend's
concurrency limit: a new request starts as soon as a slot is free, and a slow one delays only its
own caller (no barrier per batch). Each has a timeout and a bounded number of retries (litellm's
own, on top of the client's retries). Each answer carries its cost from litellm's offline cost map.
`model: router` puts litellm's Router in front (`RouterBackend`); a call it refuses because the
endpoint it picked is full is routed again at once, not backed off.

Every backend of a process runs its calls on one event loop, in one daemon thread (`call_loop`):
litellm binds process-wide state to the loop that used it last (its logging worker's task, its cached
async HTTP clients), and a call on a second loop abandons the first loop's worker, still pending
("Task was destroyed but it is pending!"). At exit the loop's tasks are cancelled (the logging
worker runs what it still holds), litellm's clients closed and the loop closed, so nothing is left pending.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import os
import random
import sys
import threading

from stealthflow.llm.base import Admit, BackendInfo, ChatBackend, ChatRequest, Completion, Finish, Job
from stealthflow.llm.config import reach_directly

# Backoff between attempts: base * 2**attempt with full jitter, at most this long (Retry-After wins).
_BACKOFF_BASE_SECONDS = 0.5
_BACKOFF_MAX_SECONDS = 30.0
_RETRYABLE_STATUS = {408, 409, 429, 500, 502, 503, 504}

# How often the loop looks for newly submitted requests while others are in flight.
_ADMIT_POLL_SECONDS = 0.01

# The Router refuses a call for an endpoint whose slots are all taken with its own 429, before
# anything is sent: least-busy's counts trail the slots by a few awaits, so calls started together
# can pick the same full endpoint. The backend keeps at most the endpoints' summed slots in flight,
# so another endpoint has room: pick again after a tick rather than back off (bounded).
_REROUTES = 50
_REROUTE_PAUSE_SECONDS = 0.001

# How long the exit waits for the loop's pending tasks (litellm's logging worker flushing) and its clients to close.
_SHUTDOWN_SECONDS = 5.0

# Without this, importing litellm tries to download a model cost map from the internet.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


class LiteLLMBackend(ChatBackend):
    def __init__(
        self,
        model: str,
        api_base: str | None = None,
        api_key_env: str | None = None,
        concurrency: int = 8,
        timeout: float = 120.0,
        max_retries: int = 2,
        mock_response: str | None = None,
    ):
        self.model = model
        self.api_base = api_base
        reach_directly(api_base)
        self.api_key_env = api_key_env
        self.max_batch_size = concurrency
        self.timeout = timeout
        self.max_retries = max_retries
        # litellm's offline mock, for tests and dry runs.
        self.mock_response = mock_response

    @functools.cached_property
    def price_kwargs(self) -> dict:
        return zero_price_unless_priced(self.model)

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(
            model_id=self.model if not self.api_base else f"{self.model}@{self.api_base}",
            backend="litellm",
            settings={"api_base": self.api_base, "concurrency": self.max_batch_size, "timeout": self.timeout},
        )

    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        return asyncio.run_coroutine_threadsafe(self._generate_all(requests), call_loop()).result()

    def generate_admitting(self, jobs: list[Job], admit: Admit, finish: Finish) -> None:
        """Keep up to `concurrency` requests in flight, finishing each as it returns, admitting new ones as slots free."""
        asyncio.run_coroutine_threadsafe(self._stream(jobs, admit, finish), call_loop()).result()

    async def _stream(self, jobs: list[Job], admit: Admit, finish: Finish) -> None:
        in_flight = {asyncio.ensure_future(self._generate_one(job.request)): job for job in jobs}
        while in_flight:
            done, _ = await asyncio.wait(in_flight, timeout=_ADMIT_POLL_SECONDS, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                finish(in_flight.pop(task), task.result())
            # Any parameters: each request carries its own, so a judge call (8 tokens) does not wait
            # for the stream of other calls to drain (that wait was a barrier under a steady load).
            for job in admit(None, self.max_batch_size - len(in_flight)):
                in_flight[asyncio.ensure_future(self._generate_one(job.request))] = job

    async def _generate_all(self, requests: list[ChatRequest]) -> list[Completion]:
        limit = asyncio.Semaphore(self.max_batch_size)

        async def one(request: ChatRequest) -> Completion:
            async with limit:
                return await self._generate_one(request)

        return list(await asyncio.gather(*(one(r) for r in requests)))

    async def _acompletion(self, kwargs: dict):
        import litellm

        litellm.suppress_debug_info = (
            True  # no "Give Feedback / Get Help" banner per failed call: errors are reported once
        )
        return await litellm.acompletion(**kwargs)

    async def _generate_one(self, request: ChatRequest) -> Completion:
        kwargs = dict(
            model=self.model,
            messages=request.message_dicts,
            max_tokens=request.params.max_new_tokens,
            temperature=request.params.temperature,
            top_p=request.params.top_p,
            seed=request.params.seed,
            timeout=self.timeout,
            num_retries=0,  # retried below, honouring Retry-After
            **self.price_kwargs,
        )
        if self.api_base:
            kwargs["api_base"] = self.api_base
            kwargs["api_key"] = os.environ.get(self.api_key_env or "", "") or "not-needed"
        elif self.api_key_env:
            kwargs["api_key"] = os.environ.get(self.api_key_env)
        if self.mock_response is not None:
            kwargs["mock_response"] = self.mock_response
        for attempt in range(self.max_retries + 1):
            try:
                response = await self._acompletion(kwargs)
                break
            except Exception as exc:  # reported per request once the bounded retries are spent
                wait = retry_delay(exc, attempt)
                if wait is None or attempt == self.max_retries:
                    return Completion(text="", error=f"{type(exc).__name__}: {str(exc)[:300]}")
                await asyncio.sleep(wait)
        usage = getattr(response, "usage", None)
        return Completion(
            text=(response.choices[0].message.content or "").strip(),
            prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
            cost=response_cost(response),
        )


_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_loop_lock = threading.Lock()


def call_loop() -> asyncio.AbstractEventLoop:
    """The process's loop for litellm calls, in a daemon thread started on first use (again in a forked
    child, which has no copy of the thread), so connections outlive a batch; shut down at exit."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="litellm-loop", daemon=True)
            thread.start()
            atexit.register(_shut_down, loop, thread)
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def _shut_down(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    """Cancel the loop's tasks and close litellm's clients (bounded), then stop and close the loop."""
    if not thread.is_alive():
        return  # a forked child's copy of its parent's loop: nothing runs it here
    try:
        asyncio.run_coroutine_threadsafe(_wind_down(), loop).result(timeout=_SHUTDOWN_SECONDS)
    except TimeoutError:  # a callback or a connection that will not close does not hold up the exit
        pass
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=_SHUTDOWN_SECONDS)
    if not thread.is_alive():
        loop.close()


async def _wind_down() -> None:
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()  # litellm's logging worker runs its queued callbacks when cancelled
    await asyncio.gather(*tasks, return_exceptions=True)
    if (litellm := sys.modules.get("litellm")) is not None:  # not imported at exit: a fake backend's loop
        await litellm.close_litellm_async_clients()


def zero_price_unless_priced(model: str) -> dict:
    """Price a model litellm's cost map does not know (a local server's `openai/<name>`) at 0 explicitly.

    Its cost is 0 either way; declared, litellm skips the diagnosis it runs on every unpriced answer
    (a walk over its pricing table: a quarter of the event loop's CPU per routed call, cProfile).
    """
    import litellm

    try:
        info = litellm.get_model_info(model)
        if info.get("input_cost_per_token") or info.get("output_cost_per_token"):
            return {}
    except Exception:  # litellm raises for unmapped models
        pass
    return {"input_cost_per_token": 0.0, "output_cost_per_token": 0.0}


def response_cost(response) -> float:
    """USD for one answer from litellm's offline cost map; 0 for a model it does not price (a local server)."""
    import litellm

    cost = (getattr(response, "_hidden_params", None) or {}).get("response_cost")
    if cost is not None:  # litellm priced it already while logging the call
        return float(cost)
    try:
        return float(litellm.completion_cost(completion_response=response) or 0.0)
    except Exception:  # litellm raises for unmapped models (e.g. openai/<a vLLM model name>)
        return 0.0


def retry_delay(exc: Exception, attempt: int) -> float | None:
    """Seconds to wait before retrying after `exc` (None: not worth retrying).

    A server's Retry-After (on 429/503) is honoured, capped; otherwise jittered exponential backoff.
    """
    status = getattr(exc, "status_code", None)
    if status is not None and status not in _RETRYABLE_STATUS:
        return None  # a bad request or a wrong key does not get better by retrying
    # litellm keeps the provider's headers here (its `response` may be a stand-in without them)
    headers = (
        getattr(exc, "litellm_response_headers", None) or getattr(getattr(exc, "response", None), "headers", None) or {}
    )
    retry_after = headers.get("retry-after") if hasattr(headers, "get") else None
    try:
        if retry_after is not None:
            return min(float(retry_after), _BACKOFF_MAX_SECONDS)
    except ValueError:  # an HTTP date: fall back to backoff
        pass
    return random.uniform(0, min(_BACKOFF_MAX_SECONDS, _BACKOFF_BASE_SECONDS * 2**attempt))


class RouterBackend(LiteLLMBackend):
    """Spreads requests over several endpoints with litellm's Router (per-endpoint limits, failover)."""

    GROUP = "stealthflow"

    def __init__(self, endpoints: list, routing_strategy: str, timeout: float, max_retries: int):
        super().__init__(
            self.GROUP, concurrency=sum(e.concurrency for e in endpoints), timeout=timeout, max_retries=max_retries
        )
        self.endpoints = endpoints
        for endpoint in endpoints:
            reach_directly(endpoint.api_base)
        self.routing_strategy = routing_strategy
        self._router = None

    @functools.cached_property
    def price_kwargs(self) -> dict:
        return {}  # each endpoint's own, in the Router's model_list

    @property
    def info(self) -> BackendInfo:
        names = sorted({e.model for e in self.endpoints})
        return BackendInfo(
            model_id="router:" + ",".join(names),
            backend="router",
            settings={
                "endpoints": [e.api_base or e.model for e in self.endpoints],
                "routing_strategy": self.routing_strategy,
            },
        )

    async def _acompletion(self, kwargs: dict):
        if self._router is None:  # built on the event loop that uses it
            self._router = self._build_router()
        for _ in range(_REROUTES):
            try:
                return await self._router.acompletion(**kwargs)
            except Exception as exc:
                if not endpoint_full(exc):
                    raise
                await asyncio.sleep(_REROUTE_PAUSE_SECONDS)  # lets finished calls release their counts
        return await self._router.acompletion(**kwargs)

    def _build_router(self):
        from litellm import Router

        deployments = []
        for endpoint in self.endpoints:
            params = {
                "model": endpoint.model,
                "max_parallel_requests": endpoint.concurrency,
                **zero_price_unless_priced(endpoint.model),
            }
            if endpoint.api_base:
                params["api_base"] = endpoint.api_base
                params["api_key"] = os.environ.get(endpoint.api_key_env or "", "") or "not-needed"
            elif endpoint.api_key_env:
                params["api_key"] = os.environ.get(endpoint.api_key_env)
            deployments.append({"model_name": self.GROUP, "litellm_params": params})
        return Router(
            model_list=deployments,
            routing_strategy=self.routing_strategy,
            num_retries=self.max_retries,
            timeout=self.timeout,
            allowed_fails=1,  # a failing endpoint cools down; the next request goes elsewhere
        )


def endpoint_full(exc: Exception) -> bool:
    """The Router's own refusal of an endpoint at its `max_parallel_requests` (not a server's 429)."""
    return (
        getattr(exc, "category", None) == "litellm_rate_limit"
        and getattr(exc, "rate_limit_type", None) == "concurrent_requests"
    )
