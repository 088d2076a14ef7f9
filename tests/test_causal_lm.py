"""The fluency scorer's own Llama forward pass (utility/causal_lm.py) against transformers' model on the
same checkpoint: a tiny random Llama built here (tests/tiny_llama.py), so every token's log-probability
can be compared exactly, with and without the reuse of a base sequence's keys and values."""

from __future__ import annotations

import json
import shutil

import pytest
from tiny_llama import build_tiny_llama

from stealthflow.utility.causal_lm import CausalLM
from stealthflow.utility.fluency import FluencyScorer, edit_fluency

CORPUS = [
    "Twelve years as an ER nurse and the rent here in Leeds keeps going up.",
    "My husband and I moved to Toronto in 2019 for a desk job.",
    "Post: Any tips for surviving freshman year at Penn State?",
] * 30


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build_tiny_llama(tmp_path_factory.mktemp("tiny"), CORPUS, vocab_size=400)


def reference_logprobs(path, sequences: list[list[int]]) -> list[list[float]]:
    """transformers' log-probability of every token after the first, one sequence at a time."""
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(path), dtype=torch.float32).eval()
    out = []
    with torch.inference_mode():
        for ids in sequences:
            logits = model(input_ids=torch.tensor([ids])).logits[0]
            out.append(torch.log_softmax(logits[:-1], -1).gather(1, torch.tensor(ids[1:])[:, None])[:, 0].tolist())
    return out


def test_every_token_logprob_matches_transformers(tiny):
    model = CausalLM(tiny)
    texts = [CORPUS[0], CORPUS[1], "Twelve years as a professional and the rent keeps going up.", "We moved."]
    sequences = [model.encode(t) for t in texts]
    expected = reference_logprobs(tiny, sequences)
    got = model.logprobs(sequences, [range(1, len(s)) for s in sequences])  # batched, right-padded
    for want, have in zip(expected, got, strict=True):
        assert [have[p] for p in range(1, len(want) + 1)] == pytest.approx(want, abs=1e-4)


def test_a_sequence_reusing_its_bases_keys_reads_the_same(tiny):
    model = CausalLM(tiny)
    original = model.encode(CORPUS[0])
    candidates = [model.encode(CORPUS[0].replace("Leeds", city)) for city in ("my city", "the north", "York")]
    sequences = [original, *candidates]
    wanted = [range(1, len(s)) for s in sequences]
    alone = model.logprobs(sequences, wanted)
    shared = model.logprobs(sequences, wanted, bases=[None, 0, 0, 0])
    for a, b in zip(alone, shared, strict=True):
        assert a.keys() == b.keys()
        assert [b[p] for p in a] == pytest.approx(list(a.values()), abs=1e-4)
    # only the wanted positions are computed, and a follower may start past its shared opening
    late = model.logprobs(sequences, [[len(s) - 1] for s in sequences], bases=[None, 0, 0, 0])
    assert [late[i][len(s) - 1] for i, s in enumerate(sequences)] == pytest.approx(
        [alone[i][len(s) - 1] for i, s in enumerate(sequences)], abs=1e-4
    )


def test_a_base_read_for_nothing_and_followers_sharing_nothing(tiny):
    model = CausalLM(tiny, max_tokens=8)  # small passes: a sequence longer than that is read alone
    base = model.encode(CORPUS[1])
    other = model.encode(CORPUS[2])  # shares no opening token with the base
    alone = model.logprobs([base, other], [[], range(1, len(other))])
    shared = model.logprobs([base, other], [[], range(1, len(other))], bases=[None, 0])
    assert shared[0] == {} and shared[1].keys() == alone[1].keys()
    assert [shared[1][p] for p in alone[1]] == pytest.approx(list(alone[1].values()), abs=1e-4)


def test_fluency_scores_match_the_full_forward_pass(tiny):
    """The scorer reads only the edited stretches; its scores equal those of scoring every token of
    both texts with transformers (the scorer before this runtime)."""
    scorer = FluencyScorer(tiny)
    originals = [CORPUS[0]] * 3 + [CORPUS[1]] * 2 + [CORPUS[0]]
    rewrites = [
        CORPUS[0].replace("an ER nurse", "a professional"),
        CORPUS[0].replace(" here in Leeds", ""),
        CORPUS[0].replace("Twelve years as an ER nurse", "My line of work"),
        CORPUS[1].replace("Toronto", "a colder place"),
        "We moved.",
        CORPUS[0],
    ]
    prefix = scorer.model.encode("Post: ")
    texts = list(dict.fromkeys([*originals, *rewrites]))
    ids = {t: scorer.model.encode(t) for t in texts}
    full = dict(zip(texts, reference_logprobs(tiny, [prefix + ids[t] for t in texts]), strict=True))
    expected = [
        edit_fluency((ids[a], full[a][len(prefix) - 1 :]), (ids[b], full[b][len(prefix) - 1 :]))
        for a, b in zip(originals, rewrites, strict=True)
    ]
    got = scorer.compare(originals, rewrites)
    assert [g.score for g in got] == pytest.approx([e.score for e in expected], abs=1e-4)
    assert [g.worst for g in got] == pytest.approx([e.worst for e in expected], abs=1e-4)
    assert got[-1].score == 0.0


def test_a_checkpoint_of_another_architecture_is_refused(tmp_path):
    (tmp_path / "config.json").write_text('{"model_type": "gpt2"}', encoding="utf-8")
    with pytest.raises(ValueError, match="Llama decoders only"):
        CausalLM(tmp_path)


def test_a_config_the_scorer_does_not_apply_is_refused(tiny, tmp_path):
    copy = tmp_path / "scaled"
    shutil.copytree(tiny, copy)
    config = json.loads((copy / "config.json").read_text(encoding="utf-8"))
    (copy / "config.json").write_text(json.dumps({**config, "rope_scaling": {"rope_type": "linear", "factor": 2.0}}))
    with pytest.raises(ValueError, match="rope_scaling"):
        CausalLM(copy)
