"""The transformers backend: a batch (prompts prefilled one by one, decoded together) answers
exactly as the same prompts one at a time would."""

from __future__ import annotations

import pytest
from tiny_llama import build_tiny_llama

from stealthflow.llm import ChatRequest, GenerationParams
from stealthflow.llm.transformers_backend import TransformersBackend, resolve_dtype

PROMPTS = [
    "short",
    "a somewhat longer prompt about gardens, bikes and the price of coffee in town",
    "medium length question about work",
    "x " * 60,
]


def requests(params: GenerationParams) -> list[ChatRequest]:
    return [ChatRequest.of([{"role": "user", "content": p}], params) for p in PROMPTS]


def assert_batch_equals_single(backend: TransformersBackend, params: GenerationParams) -> None:
    batched = backend.generate_batch(requests(params))
    single = [backend.generate_batch([r])[0] for r in requests(params)]
    assert [c.text for c in batched] == [c.text for c in single]
    assert [c.prompt_tokens for c in batched] == [c.prompt_tokens for c in single]
    assert all(c.completion_tokens > 0 for c in batched)


@pytest.fixture(scope="module")
def tiny_backend(tmp_path_factory):
    path = build_tiny_llama(tmp_path_factory.mktemp("tiny"), PROMPTS * 20)
    return TransformersBackend(path, dtype="float32", batch_size=8)


def test_batched_generation_equals_one_prompt_at_a_time(tiny_backend):
    assert tiny_backend._ragged_prefill  # the path under test
    assert_batch_equals_single(tiny_backend, GenerationParams(max_new_tokens=12))
    assert_batch_equals_single(tiny_backend, GenerationParams(max_new_tokens=12, repetition_penalty=1.3))


def test_decoding_matches_transformers_generate(tiny_backend, monkeypatch):
    params = GenerationParams(max_new_tokens=12, repetition_penalty=1.3)
    ours = [c.text for c in tiny_backend.generate_batch(requests(params))]
    monkeypatch.setattr(tiny_backend, "_ragged_prefill", False)  # the model.generate() path
    assert ours == [c.text for c in tiny_backend.generate_batch(requests(params))]


def test_rows_that_end_leave_the_batch_and_the_rest_answer_unchanged(tiny_backend, monkeypatch):
    params = GenerationParams(max_new_tokens=12)
    torch = tiny_backend._torch
    prompt = tiny_backend.encode(requests(params)[0])
    with torch.inference_mode():
        cache = tiny_backend._prefill([prompt], len(prompt), params.max_new_tokens)
        first_tokens = tiny_backend._decode(torch.tensor([prompt]), torch.ones(1, len(prompt), dtype=torch.long), cache, params)[0]
    # Make the first prompt's third answer token an end token: that row stops early.
    monkeypatch.setattr(tiny_backend, "_eos_ids", torch.tensor([first_tokens[2]]))
    reorders = []
    original = type(tiny_backend)._decode

    def counting_decode(self, input_ids, attention_mask, cache, params):
        reorder = cache.reorder_cache
        cache.reorder_cache = lambda live: (reorders.append(len(live)), reorder(live))
        return original(self, input_ids, attention_mask, cache, params)

    monkeypatch.setattr(type(tiny_backend), "_decode", counting_decode)
    assert_batch_equals_single(tiny_backend, params)
    lengths = [c.completion_tokens for c in tiny_backend.generate_batch(requests(params))]
    assert min(lengths) < max(lengths)  # some rows ended early ...
    assert reorders  # ... and were dropped from the batch


def test_batches_are_split_at_the_backend_batch_size(tiny_backend, monkeypatch):
    sizes = []
    generate = tiny_backend._generate
    monkeypatch.setattr(tiny_backend, "_generate", lambda prompts, params: sizes.append(len(prompts)) or generate(prompts, params))
    monkeypatch.setattr(tiny_backend, "max_batch_size", 3)
    assert len(tiny_backend.generate_batch(requests(GenerationParams(max_new_tokens=4)))) == 4
    assert sizes == [3, 1]


def test_auto_dtype_is_float32_on_a_cpu_without_bf16(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.ops.mkldnn, "_is_mkldnn_bf16_supported", lambda: False)
    assert resolve_dtype("auto") == "float32"
    assert resolve_dtype("bfloat16") == "bfloat16"


@pytest.mark.real_model
def test_embedded_model_batch_equals_one_at_a_time(embedded_llm):
    assert_batch_equals_single(embedded_llm.backend, GenerationParams(max_new_tokens=16))
