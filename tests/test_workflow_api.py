"""`generate` against a model behind real HTTP: the mock OpenAI server on loopback, through litellm.

The mock answers each prompt kind with the scripted world of `stealthflow.testing.workflow_world`
(no model), and reports its own usage, so the run's per-role token counts and litellm's cost can be
checked against what the server saw.
"""

from __future__ import annotations

import json
import subprocess
import time

import litellm
import pytest
from trajectory_fixtures import generate_args
from typer.testing import CliRunner

from stealthflow.cli import app
from stealthflow.insights import InsightMemory
from stealthflow.llm import LLM, ModelConfig, build_backend
from stealthflow.llm.litellm_backend import zero_price_unless_priced
from stealthflow.testing.loopback import cli_command
from stealthflow.testing.mock_openai import MockOpenAI, lognormal_delay
from stealthflow.testing.workflow_world import RULE, corpus_lines, respond

cli = CliRunner()


def _tokens(text: str) -> int:  # the mock's own count (4 characters a token)
    return max(1, len(text) // 4)


def test_generate_over_http_records_trajectories_tokens_and_litellm_cost(tmp_path):
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(corpus_lines(4)) + "\n")
    with MockOpenAI(respond=respond, model_ids=("gpt-4o-mini",)) as upstream:
        config = tmp_path / "api.yaml"
        # gpt-4o-mini is priced in litellm's offline cost map; the requests go to the mock all the same
        config.write_text(
            f"model: {{model: openai/gpt-4o-mini, api_base: '{upstream.base_url}', concurrency: 8, max_retries: 0}}\n"
            "workflow: {rounds: 2, batch_size: 2, max_concurrency: 4, insight_lag: 1}\n"
        )
        args = generate_args(data, tmp_path / "run", "--config", str(config), insights_out=tmp_path / "ins.json")
        result = cli.invoke(app, args)
        received = list(upstream.received)
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in (tmp_path / "run/trajectories.jsonl").read_text().splitlines()]
    assert sorted((r["profile_id"], r["round"]) for r in rows) == [(f"p{i:04d}", k) for i in range(4) for k in range(3)]
    final = [r for r in rows if r["round"] == 2]
    assert all(r["protected"] == {"age": True, "location": True} for r in final)
    assert all(r["anonymizer"]["raw"].startswith("Generalised one detail.") for r in rows if r["round"])
    assert all(r["attacks"][0]["model"].startswith("openai/gpt-4o-mini@http://127.0.0.1") for r in rows)
    assert all(
        r["attacks"][0]["guesses"]["location"]["guesses"][0] == r["labels"]["location"] for r in rows if r["round"] == 0
    )
    assert InsightMemory.load(tmp_path / "run/insights.json").rules_for("age") == [RULE]

    usage = json.loads((tmp_path / "run/progress.json").read_text())["usage"]
    assert usage["anonymizer"]["calls"] == 8 and usage["attacker"]["calls"] == 12 and usage["insight"]["calls"] >= 2
    assert sum(u["calls"] for u in usage.values()) == len(received)  # every request the server saw, counted once
    prompt_tokens = sum(_tokens(json.dumps(m["content"])) for body in received for m in body["messages"])
    assert sum(u["prompt_tokens"] for u in usage.values()) == prompt_tokens
    price = litellm.model_cost["gpt-4o-mini"]
    expected = sum(
        u["prompt_tokens"] * price["input_cost_per_token"] + u["completion_tokens"] * price["output_cost_per_token"]
        for u in usage.values()
    )
    summary = json.loads((tmp_path / "run/summary.json").read_text())
    assert expected > 0 and summary["cost_usd"] == pytest.approx(expected, rel=1e-6)


def test_an_unpriced_model_costs_nothing_and_still_counts_tokens():
    with MockOpenAI(respond=respond) as upstream:
        llm = LLM(build_backend(ModelConfig(model="openai/mock-model", api_base=upstream.base_url)))
        answer = llm.chat([{"role": "user", "content": "Below are the ground truth and a prediction"}])
        llm.close()
    assert answer.text == "no" and answer.cost == 0.0 and answer.prompt_tokens > 0 and answer.completion_tokens == 1
    # priced at 0 explicitly (litellm then skips its per-call zero-cost diagnosis); a priced model keeps its price
    assert zero_price_unless_priced("openai/mock-model") == {"input_cost_per_token": 0.0, "output_cost_per_token": 0.0}
    assert zero_price_unless_priced("openai/gpt-4o-mini") == {}


def test_mock_server_limits_concurrency_like_a_provider():
    """Over `max_concurrent` a request gets a 429 with Retry-After (the client retries it), or waits its turn."""
    import httpx

    def burst(upstream: MockOpenAI, n: int) -> list[int]:
        import concurrent.futures

        body = {"model": "mock-model", "messages": [{"role": "user", "content": "hi"}]}
        with concurrent.futures.ThreadPoolExecutor(n) as pool:
            return list(
                pool.map(
                    lambda _: httpx.post(f"{upstream.base_url}/chat/completions", json=body, timeout=10).status_code,
                    range(n),
                )
            )

    # A second per request: the six threads reach the server long before the first two answers, even on a loaded machine.
    with MockOpenAI(delay=1.0, max_concurrent=2) as upstream:
        statuses = burst(upstream, 6)
    assert statuses.count(200) == 2 and statuses.count(429) == 4 and upstream.peak_in_flight == 2
    with MockOpenAI(delay=0.2, max_concurrent=2, queue_when_busy=True) as upstream:
        start = time.perf_counter()
        assert burst(upstream, 6) == [200] * 6
        assert time.perf_counter() - start >= 0.55 and upstream.peak_in_flight == 2  # three turns of two
        # Time served, not time queued (queued, the six would add 1.2 s more); a loaded machine only lengthens it.
        assert 6 * 0.2 * 0.9 <= upstream.request_seconds < 6 * 0.2 + 1.0


def test_mock_server_in_its_own_process_reports_its_counters():
    """The benchmark's servers run in other processes (not on the client's GIL); their counters come back over HTTP."""
    import os

    import httpx

    from stealthflow.testing.mock_process import MockOpenAIProcess

    body = {
        "model": "mock-model",
        "messages": [{"role": "user", "content": "Below are the ground truth and a prediction"}],
    }
    with MockOpenAIProcess(
        respond="stealthflow.testing.workflow_world:respond", median=0.05, max_concurrent=1
    ) as upstream:
        reply = httpx.post(f"{upstream.base_url}/chat/completions", json=body, timeout=10).json()
        stats = upstream.stats()
        child = upstream._process
        assert child.pid != os.getpid() and child.poll() is None
    assert reply["choices"][0]["message"]["content"] == "no"  # workflow_world's judge answer
    assert stats["requests"] == 1 and stats["peak_in_flight"] == 1 and stats["request_seconds"] > 0
    assert child.poll() is not None  # stopped with the context


def test_lognormal_delay_is_seeded_and_heavy_tailed():
    first, again = lognormal_delay(seed=3), lognormal_delay(seed=3)
    assert [first() for _ in range(5)] == [again() for _ in range(5)]  # same seed, same latencies
    draw = lognormal_delay(median=1.0, p99=6.0, seed=4)
    sample = sorted(draw() for _ in range(20000))
    assert 0.95 < sample[10000] < 1.05 and 5.0 < sample[19800] < 7.2  # median 1 s, p99 ~6 s


def test_generate_keeps_the_api_busy(tmp_path):
    """32 profiles against a server with room for 32 requests, 1 s each (real HTTP; the server in its own process).

    Only `max_concurrency` is set: the default insight lag must admit enough batches to fill it (a lag of
    1 admits 2 batches of 4: at most 8 profiles and their batches' insight calls), and no local work
    between a profile's calls may stall the others. Ideally ~20 in flight over the API window (32
    profiles of 3 calls at once, then the last batches' insight calls); ~15 measured on a loaded 2-core
    machine, 5.3 (peak 8) with a lag of 1.
    """
    from stealthflow.testing.mock_openai import in_flight_over
    from stealthflow.testing.mock_process import MockOpenAIProcess

    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(corpus_lines(32)) + "\n")
    with MockOpenAIProcess(
        respond="stealthflow.testing.workflow_world:respond", median=1.0, p99=1.0, max_concurrent=32
    ) as upstream:
        config = tmp_path / "api.yaml"
        config.write_text(
            f"model: {{model: openai/mock-model, api_base: '{upstream.base_url}', concurrency: 32, max_retries: 4}}\n"
            "workflow: {rounds: 1, batch_size: 4, max_concurrency: 32}\n"
        )
        result = cli.invoke(app, generate_args(data, tmp_path / "run", "--config", str(config)))
        stats = upstream.stats()
    assert result.exit_code == 0, result.output
    spans = sorted(stats["spans"])
    first, last = spans[0][0], max(end for _, end in spans)
    mean = in_flight_over(spans, first, last)  # from the first request to the last answer
    assert stats["requests"] >= 3 * 32 and stats["peak_in_flight"] >= 24 and mean >= 12, (mean, stats["peak_in_flight"])


def test_generate_cli_exits_without_pending_litellm_tasks(tmp_path):
    """The real CLI in a process of its own, against the mock server on loopback, with two models (the
    attacker's its own): two backends, each call on the process's one litellm loop, so litellm's logging
    worker is never abandoned pending on another loop, and the exit shuts the loop down with nothing pending."""
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(corpus_lines(2)) + "\n")
    with MockOpenAI(respond=respond) as upstream:
        endpoint = f"api_base: '{upstream.base_url}', concurrency: 4, max_retries: 0"
        config = tmp_path / "api.yaml"
        config.write_text(
            f"model: {{model: openai/gpt-4o-mini, {endpoint}}}\n"
            f"attacker: {{model: openai/mock-model, {endpoint}}}\n"
            "workflow: {rounds: 1, batch_size: 2, max_concurrency: 2, insight_lag: 1}\n"
        )
        args = generate_args(data, tmp_path / "run", "--config", str(config))
        done = subprocess.run(
            cli_command(*args),
            capture_output=True,
            text=True,
            timeout=300,
        )
        models = {body["model"] for body in upstream.received}
    assert done.returncode == 0, done.stderr[-2000:]
    assert models == {"gpt-4o-mini", "mock-model"}  # both backends called the server
    assert "Task was destroyed" not in done.stderr and "was never awaited" not in done.stderr, done.stderr[-2000:]


def test_mock_server_answers_400_to_a_body_that_is_no_json_object():
    """Real HTTP to the mock on loopback: malformed JSON and JSON that is no object are the client's error."""
    import httpx

    with MockOpenAI() as upstream:
        for path in ("/chat/completions", "/embeddings"):
            for body in (b"{not json", b"[]", b"null"):
                answer = httpx.post(upstream.base_url + path, content=body, timeout=10)
                assert answer.status_code == 400, (path, body, answer.status_code)
        assert upstream.received == [] and upstream.embedded == []
