"""End to end on the real embedded SmolLM2-135M-Instruct (no fake anywhere)."""

import shutil

import pytest
from short_profile import shortest_labelled

from stealthflow.anonymize import StandardAnonymizer
from stealthflow.attack import CorrectnessJudge, LLMAttacker
from stealthflow.utility import lexical_utility

pytestmark = pytest.mark.real_model


@pytest.fixture(scope="module")
def short_profile(repo):
    return shortest_labelled(repo / "data/test.jsonl")[0]


def test_attack_and_standard_anonymize_on_one_profile(embedded_llm, short_profile):
    attributes = list(short_profile.labelled())
    (result,) = LLMAttacker(embedded_llm).attack_many([short_profile.text], [attributes])
    assert result.error is None
    assert result.raw.strip(), "the model produced no text"
    assert result.attacker == "SmolLM2-135M-Instruct"
    assert set(result.guesses) == set(attributes)  # parsed into the typed structure, whatever it said
    verdicts = CorrectnessJudge().score(result, short_profile.labelled())
    assert set(verdicts) == set(attributes)

    (rewrite,) = StandardAnonymizer(embedded_llm).rewrite_many([short_profile.text])
    assert rewrite.raw.strip()
    assert rewrite.text.strip()
    if rewrite.parsed:
        assert rewrite.text != rewrite.raw  # the explanation was split off
    else:
        assert rewrite.text == short_profile.text  # unreadable answer: previous text kept, failure recorded
    utility = lexical_utility(short_profile.text, rewrite.text)
    assert 0.0 <= utility.mean <= 1.0
    assert embedded_llm.stats.completion_tokens > 0


def test_generation_is_deterministic_with_a_seed(embedded_llm):
    messages = [{"role": "user", "content": "Name a colour."}]
    first = embedded_llm.chat(messages, max_new_tokens=12, temperature=0.7, seed=3).text
    # the cache is off: this is a second real generation with the same seed
    second = embedded_llm.chat(messages, max_new_tokens=12, temperature=0.7, seed=3).text
    assert first == second and first


def test_the_first_use_converts_the_packaged_gguf_into_an_empty_cache_once(tmp_path, monkeypatch):
    """A new user's first run: the GGUF becomes a float checkpoint in the cache (the other tests share one, conftest's
    STEALTHFLOW_CACHE_DIR), whole (no staging folder left), loadable, and a second use converts nothing."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from stealthflow.llm.embedded import MODEL_ID, converted_model_path

    monkeypatch.setenv("STEALTHFLOW_CACHE_DIR", str(tmp_path))
    path = converted_model_path()
    assert path == tmp_path / "models" / MODEL_ID and (path / "config.json").exists()
    assert [p.name for p in path.parent.iterdir()] == [MODEL_ID]  # renamed into place, no ".convert-" left
    written = (path / "model.safetensors").stat().st_mtime_ns
    assert converted_model_path() == path and (path / "model.safetensors").stat().st_mtime_ns == written
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    with torch.no_grad():
        logits = model(**tokenizer("Hello", return_tensors="pt")).logits
    assert logits.shape[-1] >= len(tokenizer) and torch.isfinite(logits).all()
    shutil.rmtree(path)  # 0.5 GB: not kept among pytest's last three runs' temp dirs
