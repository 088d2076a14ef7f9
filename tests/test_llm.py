import threading
import time

import pytest
from fakes import FakeBackend

from stealthflow.config import load_settings
from stealthflow.llm import LLM, ChatBackend, Completion, GenerationParams, LLMCallError, ModelConfig, build_backend
from stealthflow.llm.base import BackendInfo, ChatRequest
from stealthflow.llm.cache import ResponseCache
from stealthflow.llm.pool import LLMPool

HELLO = [{"role": "user", "content": "hello"}]


def test_concurrent_calls_are_coalesced_into_batches():
    backend = FakeBackend(lambda m: m[-1]["content"].upper(), batch_size=8)
    llm = LLM(backend, linger_seconds=0.2)
    results = [None] * 8

    def call(i):
        results[i] = llm.chat([{"role": "user", "content": f"q{i}"}]).text

    threads = [threading.Thread(target=call, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [f"Q{i}" for i in range(8)]
    assert max(backend.batch_sizes) > 1  # not one call per request
    assert sum(backend.batch_sizes) == 8
    llm.close()


def test_chat_many_batches_up_to_backend_size():
    backend = FakeBackend("ok", batch_size=4)
    llm = LLM(backend, linger_seconds=0.05)
    assert [c.text for c in llm.chat_many([HELLO] * 10)] == ["ok"] * 10
    assert max(backend.batch_sizes) <= 4 and sum(backend.batch_sizes) == 10
    assert llm.stats.calls == 10 and llm.stats.completion_tokens == 10


def test_cache_repeats_no_finished_call(tmp_path):
    backend = FakeBackend("answer")
    cache = ResponseCache(tmp_path / "cache.sqlite")
    first = LLM(backend, cache=cache)
    assert first.chat(HELLO).text == "answer"
    second = LLM(backend, cache=ResponseCache(tmp_path / "cache.sqlite"))
    again = second.chat(HELLO)
    assert again.text == "answer" and again.cached
    assert len(backend.requests) == 1
    # other parameters are another key
    second.chat(HELLO, temperature=0.7)
    assert len(backend.requests) == 2


class CountingCache(ResponseCache):  # FAKE: counts how often the table's rows are counted
    counts = 0

    def __len__(self) -> int:
        self.counts += 1
        return super().__len__()


def test_a_call_looks_the_cache_up_without_counting_it(tmp_path):
    """Each call costs one keyed lookup and one insert: no scan of the whole table (an empty cache was falsy,
    so every call counted its rows), and no fsync per answer (they are written on the client's event loop)."""
    cache = CountingCache(tmp_path / "cache.sqlite")
    llm = LLM(FakeBackend("answer"), cache=cache)
    llm.chat_many([[{"role": "user", "content": f"hello {i}"}] for i in range(5)])
    assert cache.counts == 0 and len(cache) == 5
    assert cache._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: safe against kill -9 in WAL mode


class FlakyBackend(ChatBackend):
    max_batch_size = 4

    def __init__(self, failures: int):
        self.failures = failures
        self.attempts = 0

    @property
    def info(self):
        return BackendInfo(model_id="flaky", backend="test")

    def generate_batch(self, requests):
        self.attempts += 1
        if self.attempts <= self.failures:
            raise ConnectionError("boom")
        return [Completion(text="fine") for _ in requests]


def test_retries_are_bounded():
    recovering = FlakyBackend(failures=2)
    assert LLM(recovering, max_retries=2).chat(HELLO).text == "fine"
    broken = FlakyBackend(failures=100)
    llm = LLM(broken, max_retries=2)
    with pytest.raises(LLMCallError, match="failed after 3 attempts: ConnectionError: boom"):
        llm.chat(HELLO)
    assert broken.attempts == 3
    (failed,) = llm.chat_many([HELLO])
    assert failed.error and failed.text == ""
    assert llm.stats.failed == 2


def test_failures_are_not_cached(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    LLM(FlakyBackend(failures=100), max_retries=0, cache=cache).chat_many([HELLO])
    assert len(cache) == 0


def words(items) -> list[str]:
    return [(item.request if hasattr(item, "request") else item).messages[-1][1] for item in items]


class AdmittingBackend(ChatBackend):
    """Stand-in for a step-by-step batching backend (no model): answers each job with its prompt;
    once the test has queued more, asks `admit` for them; can crash once after some answers."""

    max_batch_size = 4

    def __init__(self, crash_after: int | None = None):
        self.started, self.queued = threading.Event(), threading.Event()
        self.runs: list[tuple[list[str], list[str]]] = []  # (jobs given, jobs admitted) per run
        self.batches: list[list[str]] = []  # plain generate_batch calls (the retries)
        self.crash_after = crash_after

    @property
    def info(self):
        return BackendInfo(model_id="admitting", backend="test")

    def generate_batch(self, requests):
        self.batches.append(words(requests))
        return [Completion(text=text) for text in words(requests)]

    def generate_admitting(self, jobs, admit, finish):
        self.started.set()
        assert self.queued.wait(5)
        admitted = admit(jobs[0].request.params, self.max_batch_size - len(jobs))
        self.runs.append((words(jobs), words(admitted)))
        for done, job in enumerate(jobs + admitted):
            if done == self.crash_after:
                self.crash_after = None
                raise RuntimeError("backend died")
            finish(job, Completion(text=words([job])[0]))


def say(word):
    return [{"role": "user", "content": word}]


def test_jobs_with_the_same_parameters_join_a_running_batch_others_wait():
    backend = AdmittingBackend()
    llm = LLM(backend, linger_seconds=0)
    first = llm.submit(say("a"))
    assert backend.started.wait(5)
    same, other = llm.submit(say("b")), llm.submit(say("c"), max_new_tokens=7)
    backend.queued.set()
    assert [f.result().text for f in (first, same, other)] == ["a", "b", "c"]
    assert backend.runs == [(["a"], ["b"]), (["c"], [])]
    assert llm.stats.calls == 3 and llm.stats.failed == 0 and not backend.batches


def test_jobs_a_crashed_run_did_not_finish_are_retried():
    backend = AdmittingBackend(crash_after=1)
    backend.queued.set()
    llm = LLM(backend, linger_seconds=0.2, max_retries=1)
    assert [c.text for c in llm.chat_many([say("a"), say("b")])] == ["a", "b"]
    assert backend.runs == [(["a", "b"], [])]
    assert backend.batches == [["b"]]  # "a" was answered before the crash; only "b" is retried


def test_with_params_shares_the_batcher_and_stats():
    backend = FakeBackend("x")
    llm = LLM(backend)
    view = llm.with_params(GenerationParams(max_new_tokens=7))
    view.chat(HELLO)
    assert backend.requests[-1].params.max_new_tokens == 7
    assert llm.stats.calls == 1


def test_litellm_backend_offline_with_mock_response():
    from stealthflow.llm.litellm_backend import LiteLLMBackend

    backend = LiteLLMBackend("openai/some-model", api_base="http://127.0.0.1:9/v1", mock_response="mocked!")
    llm = LLM(backend)
    assert [c.text for c in llm.chat_many([HELLO, HELLO])] == ["mocked!", "mocked!"]
    assert backend.info.model_id == "openai/some-model@http://127.0.0.1:9/v1"


def test_litellm_straggler_does_not_block_other_requests():
    """A slow request delays only itself: later requests start in free slots and finish first."""
    import asyncio

    from stealthflow.llm.litellm_backend import LiteLLMBackend

    class SlowFirstBackend(LiteLLMBackend):  # FAKE network: sleeps instead of calling a server
        async def _generate_one(self, request):
            text = request.message_dicts[-1]["content"]
            await asyncio.sleep(1.0 if text == "slow" else 0.02)
            return Completion(text=text)

    llm = LLM(SlowFirstBackend("openai/x", concurrency=4))
    try:
        slow = llm.submit([{"role": "user", "content": "slow"}])
        time.sleep(0.05)  # the straggler is in flight before the others arrive
        start = time.perf_counter()
        # half with other generation parameters (as the judge's 8-token calls): they join the running stream too
        fast = [
            llm.submit([{"role": "user", "content": f"fast {i}"}], max_new_tokens=8 if i % 2 else None)
            for i in range(12)
        ]
        assert [f.result(timeout=5).text for f in fast] == [f"fast {i}" for i in range(12)]
        assert time.perf_counter() - start < 0.8 and not slow.done()
        assert slow.result(timeout=5).text == "slow"
    finally:
        llm.close()


def test_litellm_unreachable_server_fails_cleanly():
    config = ModelConfig(model="openai/x", api_base="http://127.0.0.1:9/v1", timeout=2, max_retries=0)
    llm = LLM(build_backend(config), max_retries=1)
    with pytest.raises(LLMCallError):
        llm.chat(HELLO)


def test_model_spec_routing(tmp_path):
    with pytest.raises(FileNotFoundError, match="never downloaded"):
        build_backend(ModelConfig(model="hf:/no/such/dir"))
    assert type(build_backend(ModelConfig(model="deepseek/deepseek-chat"))).__name__ == "LiteLLMBackend"
    with pytest.raises(RuntimeError, match="stealthflow\\[vllm\\]"):
        build_backend(ModelConfig(model="vllm:meta-llama/Llama-3.1-8B-Instruct"))


def test_yaml_settings_and_one_line_switch(tmp_path, repo):
    default = load_settings(repo / "configs/default.yaml")
    assert default.model.model == "embedded" and default.attacker_model() == default.model
    deepseek = load_settings(repo / "configs/deepseek.yaml")
    assert deepseek.judge_model().model == "deepseek/deepseek-chat"
    server = load_settings(repo / "configs/vllm-server.yaml")
    assert server.model.api_base and server.attacker_model().model == "deepseek/deepseek-chat"
    override = load_settings(repo / "configs/default.yaml", model="hf:/x", adapter="/a")
    assert (override.model.model, override.model.adapter) == ("hf:/x", "/a")
    bad = tmp_path / "bad.yaml"
    bad.write_text("model:\n  modle: embedded\n")
    with pytest.raises(ValueError, match="modle"):
        load_settings(bad)


def test_pool_shares_weights_between_roles(monkeypatch):
    built = []
    monkeypatch.setattr(
        "stealthflow.llm.pool.build_llm", lambda config, cache: built.append(config) or LLM(FakeBackend("x"))
    )
    pool = LLMPool()
    a = pool.get(ModelConfig(model="fake:m", temperature=0.0))
    b = pool.get(ModelConfig(model="fake:m", temperature=0.5))
    assert len(built) == 1 and a.backend is b.backend and b.params.temperature == 0.5


def test_llamacpp_backend_with_a_stand_in_module(monkeypatch):
    """llama-cpp-python is an optional extra; a stand-in module checks the wiring only."""
    import sys
    import types

    calls = []

    class StandInLlama:  # FAKE llama_cpp.Llama
        def __init__(self, model_path, n_ctx, n_threads, verbose):
            self.model_path = model_path

        def create_chat_completion(self, messages, **kwargs):
            calls.append((messages, kwargs))
            return {
                "choices": [{"message": {"content": " hi "}}],
                "usage": {"prompt_tokens": 3, "completion_tokens": 1},
            }

    monkeypatch.setitem(sys.modules, "llama_cpp", types.SimpleNamespace(Llama=StandInLlama))
    backend = build_backend(ModelConfig(model="llamacpp:/models/x.gguf", max_new_tokens=5))
    (completion,) = LLM(backend).chat_many([HELLO], max_new_tokens=5)
    assert completion.text == "hi" and completion.completion_tokens == 1
    assert calls[0][0] == HELLO and calls[0][1]["max_tokens"] == 5
    assert backend.info.model_id == "/models/x.gguf"


@pytest.mark.parametrize(
    "spec",
    [
        "embedded",
        "router",
        "hf:/x",
        "vllm:meta-llama/Llama-3.1-8B-Instruct",
        "llamacpp:",
        "deepseek/deepseek-chat",
        "openai/gpt-4o-mini",
    ],
)
def test_model_specs_that_look_like_one_are_accepted(spec):
    endpoints = {"model_list": [{"model": "openai/x"}]} if spec == "router" else {}
    assert ModelConfig(model=spec, **endpoints).model == spec


@pytest.mark.parametrize("spec", ["stealht", "", "deepseek chat", "gpt 4"])
def test_a_bare_word_is_not_taken_for_a_litellm_model(spec):
    with pytest.raises(ValueError, match="not a model spec"):
        ModelConfig(model=spec)


def test_router_config_is_validated():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="needs a model_list"):
        ModelConfig(model="router")
    with pytest.raises(ValidationError, match="only read with model: router"):
        ModelConfig(model="openai/x", model_list=[{"model": "openai/x"}])
    with pytest.raises(ValidationError, match="routing_strategy"):
        ModelConfig(model="router", model_list=[{"model": "openai/x"}], routing_strategy="fastest")
    with pytest.raises(ValidationError, match="concurrency"):
        ModelConfig(model="router", model_list=[{"model": "openai/x", "concurrency": 0}])
    config = ModelConfig(
        model="router",
        model_list=[
            {"model": "openai/a", "api_base": "http://h1/v1", "concurrency": 3},
            {"model": "openai/a", "api_base": "http://h2/v1", "concurrency": 5},
        ],
    )
    backend = build_backend(config)
    assert type(backend).__name__ == "RouterBackend" and backend.max_batch_size == 8


def _openai_server(name: str, fail: bool = False, throttle: int = 0, retry_after: str = "0.4"):
    """A real loopback HTTP server speaking the OpenAI chat API; answers with its name.

    `fail`: every request gets a 500; `throttle`: the first N requests get a 429 with `Retry-After`.
    """
    import json as _json
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        hits = 0

        def do_POST(self):  # noqa: N802 - http.server's naming
            self.rfile.read(int(self.headers["Content-Length"]))
            Handler.hits += 1
            if fail or Handler.hits <= throttle:
                self.send_response(500 if fail else 429)
                self.send_header("Retry-After", retry_after)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = _json.dumps(
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "m",
                    "choices": [
                        {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": name}}
                    ],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4},
                }
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, Handler


def test_router_spreads_requests_and_fails_over_over_real_http():
    servers = [_openai_server("one"), _openai_server("two"), _openai_server("broken", fail=True)]
    try:
        endpoints = [
            {"model": "openai/m", "api_base": f"http://127.0.0.1:{s.server_port}/v1", "concurrency": 4}
            for s, _ in servers
        ]
        config = ModelConfig(model="router", model_list=endpoints, max_retries=3, timeout=10)
        llm = LLM(build_backend(config), max_retries=1)
        answers = [c.text for c in llm.chat_many([[{"role": "user", "content": f"q{i}"}] for i in range(24)])]
        assert set(answers) == {"one", "two"}  # every request answered; none by the broken server
        assert all(handler.hits > 0 for _, handler in servers[:2])
        llm.close()
    finally:
        for server, _ in servers:
            server.shutdown()


def test_router_picks_again_when_an_endpoint_is_full():
    """Two endpoints of one slot, two calls at once and no retries: least-busy sends both to the same
    endpoint, whose second slot the Router refuses itself; the call goes to the free one at once."""
    from stealthflow.testing.mock_openai import MockOpenAI

    with MockOpenAI(delay=0.3, max_concurrent=1) as one, MockOpenAI(delay=0.3, max_concurrent=1) as two:
        endpoints = [{"model": "openai/m", "api_base": s.base_url, "concurrency": 1} for s in (one, two)]
        backend = build_backend(ModelConfig(model="router", model_list=endpoints, max_retries=0, timeout=10))
        start = time.perf_counter()
        answers = backend.generate_batch(
            [ChatRequest.of([{"role": "user", "content": f"q{i}"}], GenerationParams()) for i in range(2)]
        )
        seconds = time.perf_counter() - start
        backend.close()
    assert [a.error for a in answers] == [None, None] and [a.text for a in answers] == ["q0", "q1"]
    assert len(one.received) == len(two.received) == 1  # one each, no 429 from a server
    assert seconds < 0.55  # side by side, not one after the other


def test_retries_honour_retry_after_and_stay_bounded():
    from stealthflow.llm.litellm_backend import LiteLLMBackend

    throttled, handler = _openai_server("ok", throttle=1, retry_after="1.0")
    always, always_handler = _openai_server("never", throttle=10**6, retry_after="0.05")
    try:
        backend = LiteLLMBackend(
            "openai/m", api_base=f"http://127.0.0.1:{throttled.server_port}/v1", timeout=10, max_retries=3
        )
        start = time.perf_counter()
        assert backend.generate_batch([ChatRequest.of(HELLO, GenerationParams())])[0].text == "ok"
        # one 429, waited the 1 s it asked for (the backoff alone waits at most 0.5 s on a first retry)
        assert handler.hits == 2 and time.perf_counter() - start >= 0.95
        backend = LiteLLMBackend(
            "openai/m", api_base=f"http://127.0.0.1:{always.server_port}/v1", timeout=10, max_retries=2
        )
        answer = backend.generate_batch([ChatRequest.of(HELLO, GenerationParams())])[0]
        assert (
            answer.error and "RateLimit" in answer.error and always_handler.hits == 3
        )  # 1 try + 2 retries, then it gives up
    finally:
        throttled.shutdown()
        always.shutdown()


@pytest.mark.parametrize("routed", [False, True])
def test_a_local_model_is_reached_directly_not_through_the_http_proxy(monkeypatch, routed):
    """rev28 F3: a model on a loopback address counts as local (the PII extractor sends it raw text), but the HTTP
    client went through `$HTTP_PROXY`, so the raw text left the machine. Real HTTP: the stand-in proxy gets nothing."""
    (proxy, proxy_hits), (model, model_hits) = _openai_server("proxy"), _openai_server("local")
    try:
        for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
            monkeypatch.setenv(name, f"http://127.0.0.1:{proxy.server_port}")
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.setenv(name, "")  # restored after the test: the client adds the loopback host to it
        endpoint = {"model": "openai/m", "api_base": f"http://127.0.0.1:{model.server_port}/v1"}
        config = ModelConfig(**({"model": "router", "model_list": [endpoint]} if routed else endpoint), max_retries=0)
        assert config.is_local()
        llm = LLM(build_backend(config), max_retries=0)
        assert llm.chat([{"role": "user", "content": "my email is anna.berg@mailbox.org"}]).text == "local"
        llm.close()
        assert proxy_hits.hits == 0 and model_hits.hits == 1
    finally:
        proxy.shutdown()
        model.shutdown()


def test_the_response_cache_is_readable_by_its_owner_only(tmp_path):
    """rev28 F4: the cache file, its WAL and shared memory were created with the umask (0644) and hold the answers in
    clear (the values the PII extractor found). Real SQLite files under umask 022: 0600, a new folder 0700, and a
    cache file left open to others by an earlier version is closed on open."""
    import os
    import stat

    def mode(path):
        return stat.S_IMODE(path.stat().st_mode)

    old = os.umask(0o022)
    try:
        path = tmp_path / "answers" / "cache.sqlite"
        cache = ResponseCache(path)
        cache.put("k", Completion(text='[{"type": "EMAIL", "value": "anna.berg@mailbox.org"}]'))
        files = sorted(tmp_path.rglob("cache.sqlite*"))
        assert [f.name for f in files] == ["cache.sqlite", "cache.sqlite-shm", "cache.sqlite-wal"]
        assert [mode(f) for f in files] == [0o600] * 3 and mode(path.parent) == 0o700
        cache.close()
        path.chmod(0o644)
        reopened = ResponseCache(path)
        assert mode(path) == 0o600 and reopened.get("k") is not None
        reopened.close()
    finally:
        os.umask(old)
