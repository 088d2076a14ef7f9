"""The student's numpy runtime (pii_tagger/runtime.py) against its torch module (student.py): the same
probabilities within float tolerance and the same spans, and detection that imports neither torch nor
transformers."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import torch

from stealthflow.data.loader import load_profiles
from stealthflow.pii_tagger.model import SpanTagger, shipped_pii_tagger_dir
from stealthflow.pii_tagger.runtime import ConvRuntime, _gelu
from stealthflow.pii_tagger.shape import StudentShape
from stealthflow.pii_tagger.student import ConvTagger

DATA = Path(__file__).resolve().parent.parent / "data"


def _random_student(shape: StudentShape, vocabulary: int = 50, labels: int = 5) -> ConvTagger:
    """A student with random weights on a random word table (no training, no MiniLM)."""
    torch.manual_seed(0)
    table = torch.nn.Embedding.from_pretrained(torch.randn(vocabulary, 24), freeze=True, padding_idx=0)
    model = ConvTagger(table, labels, shape)
    with torch.no_grad():
        for parameter in model.parameters():
            if parameter.requires_grad:
                parameter.add_(torch.randn_like(parameter) * 0.3)  # LayerNorm's ones and zeros alone test little
    return model.eval()


def _runtime(model: ConvTagger) -> ConvRuntime:
    state = {name: p.detach().numpy() for name, p in model.named_parameters() if p.requires_grad}
    return ConvRuntime(model.shape, state, model.embeddings.weight.numpy())


@pytest.mark.parametrize(
    "shape",
    [
        StudentShape(width=32, dilations=[1, 2, 8], separable=True),
        StudentShape(width=32, dilations=[1, 4], separable=False, kernel=5),
        StudentShape(width=32, dilations=[2, 1], case=False),
    ],
)
def test_the_runtime_gives_each_window_of_a_batch_the_torch_modules_probabilities_for_it_alone(shape):
    model, rng = _random_student(shape), np.random.default_rng(1)
    windows = []
    for length in (1, 3, 40, 17, 9):  # windows shorter than a tap's reach, and of different lengths in one pass
        ids = rng.integers(1, 50, size=length)
        windows.append((ids, rng.integers(0, 7, size=length) if shape.case else None))
    found = _runtime(model).probabilities(windows)
    for (ids, cases), probabilities in zip(windows, found, strict=True):
        inputs = {"input_ids": torch.from_numpy(ids)[None]}
        if cases is not None:
            inputs["case_ids"] = torch.from_numpy(cases)[None]
        with torch.no_grad():
            expected = torch.softmax(model(**inputs).logits[0], dim=-1).numpy()
        assert probabilities.shape == expected.shape
        assert np.abs(probabilities - expected).max() < 1e-4


def test_the_runtimes_gelu_is_torchs_exact_gelu():
    x = np.linspace(-12, 12, 200_001, dtype=np.float32)
    work = [np.empty_like(x) for _ in range(3)]
    expected = torch.nn.functional.gelu(torch.from_numpy(x)).numpy()
    assert np.abs(_gelu(x.copy(), work) - expected).max() < 1e-5


def test_the_runtimes_gelu_of_halved_inputs_is_its_gelu_to_the_bit():
    """The runtime holds what feeds a GELU at half its size (one step fewer): the same float32 results, not close ones."""
    x = np.linspace(-40, 40, 200_001, dtype=np.float32)
    work = [np.empty_like(x) for _ in range(2)]
    expected = _gelu(x.copy(), work).copy()
    assert np.array_equal(_gelu(x * np.float32(0.5), work, halved=True), expected)


def test_the_runtimes_gelu_of_large_values_is_their_own_or_zero_without_overflow_warnings():
    """Past |x| ~ 19 the erf formula's power overflows float32: its tail is then 0, GELU(x) = max(x, 0)."""
    x = np.array([-1e30, -1e6, -40.0, -19.5, 19.5, 40.0, 1e6, 1e30], dtype=np.float32)
    work = [np.empty_like(x) for _ in range(2)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = _gelu(x.copy(), work)
    assert np.array_equal(found, np.maximum(x, 0))


def test_weights_of_another_shape_are_a_clear_error():
    model = _random_student(StudentShape(width=32, dilations=[1, 2], separable=True))
    state = {name: p.detach().numpy() for name, p in model.named_parameters() if p.requires_grad}
    with pytest.raises(ValueError, match=r"missing \['depthwise.2'"):
        ConvRuntime(StudentShape(width=32, dilations=[1, 2, 4], separable=True), state, np.zeros((50, 24)))


def _corpus() -> list[str]:
    """Messages with PII (data/pii_test.jsonl), natural comments without (data/test.jsonl), and long texts
    of both (several windows each)."""
    messages = [json.loads(line)["text"] for line in (DATA / "pii_test.jsonl").read_text(encoding="utf-8").splitlines()]
    comments = [
        comment.text for profile in load_profiles(DATA / "test.jsonl", limit=12) for comment in profile.comments
    ]
    return messages + comments + [" ".join(messages[:120]), "\n".join(comments[:60])]


@pytest.mark.real_model
def test_the_shipped_student_tags_a_corpus_alike_in_numpy_and_in_torch():
    torch.set_num_threads(1)
    texts = _corpus()
    numpy_tagger = SpanTagger.load(shipped_pii_tagger_dir())
    torch_tagger = SpanTagger.load(shipped_pii_tagger_dir(), trainable=True)
    assert isinstance(numpy_tagger.model, ConvRuntime) and isinstance(torch_tagger.model, torch.nn.Module)
    ours, theirs = numpy_tagger.token_probabilities(texts), torch_tagger.token_probabilities(texts)
    differences = []
    for (offsets, probabilities), (expected_offsets, expected) in zip(ours, theirs, strict=True):
        assert np.array_equal(offsets, expected_offsets)
        differences.append(np.abs(probabilities - expected).ravel())
    # torch's float32 kernels round differently on each CPU kind (the difference moves with its instruction set): on
    # an Intel Xeon with AVX-512 FP16 the largest is 0.010 and the mean 3e-5, and two of the 664 texts' spans differ
    # at a token near a threshold. A wrong layer would move them by far more.
    differences = np.concatenate(differences)
    assert differences.max() < 0.05 and differences.mean() < 1e-3
    spans = [[(s.start, s.end, s.label) for s in found] for found in numpy_tagger.tag_many(texts)]
    expected_spans = [[(s.start, s.end, s.label) for s in found] for found in torch_tagger.tag_many(texts)]
    assert sum(mine == theirs for mine, theirs in zip(spans, expected_spans, strict=True)) >= 0.99 * len(texts)
    assert sum(map(len, spans)) > 300  # the corpus gives the tagger something to find


@pytest.mark.real_model
@pytest.mark.parametrize("student", ["pii-tagger-student", "pii-tagger-student-multilingual"])
def test_the_shipped_tagger_loads_and_tags_without_importing_torch_or_transformers(student):
    """A fresh interpreter: each shipped student loads and finds a name."""
    script = (
        "import sys\n"
        "from stealthflow.pii_tagger.model import load_pii_tagger\n"
        f"found = load_pii_tagger({student!r}).tag_many(['Please write a thank-you note to Siosaia Fifita for the flowers.'])\n"
        "print([(s.start, s.end, s.label) for s in found[0]])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    spans, heavy = done.stdout.strip().splitlines()
    assert spans == "[(33, 47, 'REAL_NAME')]"
    assert heavy == "[]"


def test_shaping_a_lowercase_name_imports_no_sklearn():
    """The function words trimmed off a lowercase name's ends come from data/function_words.txt: importing
    sklearn for its stop words cost seconds the first time a text held one (12 s on a busy machine)."""
    script = (
        "import sys\n"
        "from stealthflow.pii_tagger.spans import person_within\n"
        "text = 'pls text kofi mensah on 07700 900123'\n"
        "print(person_within(text, 9, 23))\n"  # "kofi mensah on"
        "print('sklearn' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.split() == ["(9,", "20)", "False"]  # "kofi mensah", without "on"
