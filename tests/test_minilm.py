"""The cue tagger in its numpy runtime (pii_tagger/minilm.py, `SpanTagger.load`) against the same tagger loaded
through transformers' BERT class (`SpanTagger.load(..., trainable=True)`): the shipped weights, real texts, the
same spans; and the load imports neither torch nor transformers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import numpy as np
import pytest

from stealthflow.anonymize.cues import load_cue_tagger, shipped_cue_tagger_dir
from stealthflow.pii_tagger.model import SpanTagger
from stealthflow.resources import resource_dir

TEXTS = [
    "Twelve years as an ER nurse and the rent here in Leeds keeps going up. Mail me: <EMAIL_1>",
    "My husband and I finally paid off the student loans from Penn State. Celebrating this weekend!",
    "Café crème à Zürich, naïve résumé [SEP] [CLS] " + "x" * 300 + " done.",
    "Turning 30 next month and my mom still asks when I'll settle down. 🙃",
    "",
]


@pytest.fixture(scope="module")
def taggers():
    return SpanTagger.load(shipped_cue_tagger_dir()), SpanTagger.load(shipped_cue_tagger_dir(), trainable=True)


def synthetic_posts(count: int) -> list[str]:
    path = resource_dir("data") / "teacher-rewrites" / "synthetic-posts-b.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()[:count]
    return [json.loads(line)["text"] for line in lines]


def test_the_same_spans_and_probabilities_as_through_transformers(taggers):
    ours, theirs = taggers
    texts = TEXTS + synthetic_posts(20)
    for (offsets, probs), (their_offsets, their_probs) in zip(
        ours.token_probabilities(texts), theirs.token_probabilities(texts), strict=True
    ):
        assert np.array_equal(offsets, their_offsets)
        assert np.allclose(probs, their_probs, atol=1e-5)
    for mine, reference in zip(ours.tag_many(texts), theirs.tag_many(texts), strict=True):
        assert [(s.start, s.end, s.label) for s in mine] == [(s.start, s.end, s.label) for s in reference]
        assert [s.score for s in mine] == pytest.approx([s.score for s in reference], abs=1e-5)


def test_the_tokenizer_gives_the_pieces_transformers_gives(taggers):
    ours, theirs = taggers
    for text in TEXTS:
        mine, reference = ours.windows([text]), theirs.windows([text])
        assert [(w[1].tolist(), w[2].tolist()) for w in mine] == [(w[1].tolist(), w[2].tolist()) for w in reference]


def test_the_shipped_cue_tagger_loads_and_tags_without_torch():
    probe = (
        "import sys; from stealthflow.anonymize.cues import load_cue_tagger, find_cues; "
        "print(len(find_cues(load_cue_tagger(), ['Twelve years as an ER nurse in Leeds.'])[0]) > 0, "
        "'transformers' in sys.modules, 'torch' in sys.modules, 'onnx' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True)
    # the encoder's graph is written without the onnx package (encoder_graph.py: its import costs ~0.9 s)
    assert out.stdout.split() == ["True", "False", "False", "False"]


def test_a_head_that_does_not_fit_the_labels_is_refused(tmp_path):
    copy = tmp_path / "tagger"
    shutil.copytree(shipped_cue_tagger_dir(), copy)
    card = json.loads((copy / "tagger.json").read_text(encoding="utf-8"))
    card["labels"] = card["labels"][:3]
    (copy / "tagger.json").write_text(json.dumps(card), encoding="utf-8")
    with pytest.raises(ValueError, match="does not match the labels"):
        load_cue_tagger(str(copy))


def test_a_saved_layer_of_another_shape_is_refused_when_loaded(tmp_path):
    from safetensors.numpy import load_file, save_file

    copy = tmp_path / "tagger"
    shutil.copytree(shipped_cue_tagger_dir(), copy)
    weights = load_file(str(copy / "tagger.safetensors"))
    name = next(key for key in weights if not key.startswith("classifier."))
    weights[name] = weights[name][..., :-1].copy()  # one column short
    save_file(weights, str(copy / "tagger.safetensors"))
    with pytest.raises(ValueError, match="another shape"):
        load_cue_tagger(str(copy))


def test_sentence_vectors_are_the_ones_sentence_transformers_pooling_gives():
    """`minilm.embed` (numpy, padded batches) and the SentenceEmbedder over it against transformers' MiniLM with
    sentence-transformers' pooling (mean over tokens, L2 norm), truncated to 256 pieces."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    from stealthflow.attack.embeddings import SentenceEmbedder
    from stealthflow.pii_tagger.minilm import embed, model_dir

    texts = [*TEXTS[:4], "curators", "here in Leeds", "word " * 400]
    tokenizer, model = AutoTokenizer.from_pretrained(model_dir()), AutoModel.from_pretrained(model_dir()).eval()
    batch = tokenizer(texts, padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.inference_mode():
        tokens = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).to(tokens.dtype)
    theirs = torch.nn.functional.normalize((tokens * mask).sum(1) / mask.sum(1), dim=-1).numpy()
    ours = embed(texts)
    assert ours.shape == theirs.shape == (len(texts), 384)
    assert np.allclose(ours, theirs, atol=1e-4)
    assert np.allclose(embed(texts[-2:-1]), ours[-2:-1], atol=1e-5)  # alone or padded in a batch: the same vector
    assert np.allclose(SentenceEmbedder(batch_size=2).embed_lines(texts), ours, atol=1e-5)
