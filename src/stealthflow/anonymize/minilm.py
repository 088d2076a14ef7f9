"""The cue tagger's MiniLM, loaded without transformers: a BERT encoder and token-classification head
in plain torch, and MiniLM's word-piece tokenizer read straight from its `tokenizer.json`.

transformers' Auto* classes cost seconds of imports on a cold CLI (torch's compiler and distributed
packages come with the BERT model class). A cue tagger stores only the layers training changed
(`pii_tagger.model.SpanTagger.save`); they go on top of the packaged MiniLM, as `SpanTagger.load`
does, and the result is the same `SpanTagger` (same windows, same spans) with the same arithmetic:
embeddings, post-norm self-attention layers with exact GELU, the linear head.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import torch
from torch.nn import functional

from stealthflow.pii_tagger.model import CARD_DATA, WEIGHTS, SpanTagger, bio_labels


class WordPieceTokenizer:
    """What `SpanTagger` and `WordPieces` ask of a tokenizer, from the Rust tokenizer alone."""

    def __init__(self, directory: Path):
        from tokenizers import Tokenizer

        self.backend_tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        config = json.loads((directory / "tokenizer_config.json").read_text(encoding="utf-8"))
        roles = ("unk", "sep", "pad", "cls", "mask")
        self.all_special_tokens = [config[f"{role}_token"] for role in roles if config.get(f"{role}_token")]
        for role in roles:
            setattr(self, f"{role}_token_id", self.backend_tokenizer.token_to_id(config.get(f"{role}_token", "")))

    def get_vocab(self) -> dict[str, int]:
        return self.backend_tokenizer.get_vocab(with_added_tokens=True)


class MiniLMTokenTagger:
    """MiniLM (BERT) with a token-classification head, for inference: `model(input_ids=, attention_mask=)`
    gives `.logits` [batch, tokens, tags], as transformers' `BertForTokenClassification` does."""

    def __init__(self, state: dict[str, torch.Tensor], config: dict, layers: int):
        self.config = SimpleNamespace(num_hidden_layers=layers)
        self.state = state
        self.heads = config["num_attention_heads"]
        self.eps = config["layer_norm_eps"]
        if (
            config.get("hidden_act", "gelu") != "gelu"
            or config.get("position_embedding_type", "absolute") != "absolute"
        ):
            raise ValueError("a MiniLM with exact GELU and absolute positions was expected")

    def eval(self) -> MiniLMTokenTagger:
        return self

    def named_parameters(self):
        return iter(self.state.items())

    def __call__(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> SimpleNamespace:
        w = self.state
        batch, width = input_ids.shape
        hidden = (
            w["bert.embeddings.word_embeddings.weight"][input_ids]
            + w["bert.embeddings.position_embeddings.weight"][:width]
            + w["bert.embeddings.token_type_embeddings.weight"][0]
        )
        hidden = self._norm(hidden, "bert.embeddings.LayerNorm")
        visible = attention_mask.bool()[:, None, None, :]  # [batch, 1, 1, keys]: padding is never attended
        size = hidden.shape[-1] // self.heads
        for number in range(self.config.num_hidden_layers):
            layer = f"bert.encoder.layer.{number}."

            def heads(name: str) -> torch.Tensor:
                return self._linear(hidden, layer + name).view(batch, width, self.heads, size).transpose(1, 2)

            q, k, v = heads("attention.self.query"), heads("attention.self.key"), heads("attention.self.value")
            attended = functional.scaled_dot_product_attention(q, k, v, attn_mask=visible)
            attended = self._linear(
                attended.transpose(1, 2).reshape(batch, width, -1), layer + "attention.output.dense"
            )
            hidden = self._norm(attended + hidden, layer + "attention.output.LayerNorm")
            inner = functional.gelu(self._linear(hidden, layer + "intermediate.dense"))
            hidden = self._norm(self._linear(inner, layer + "output.dense") + hidden, layer + "output.LayerNorm")
        return SimpleNamespace(logits=self._linear(hidden, "classifier"))

    def _linear(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return functional.linear(x, self.state[f"{name}.weight"], self.state[f"{name}.bias"])

    def _norm(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return functional.layer_norm(
            x, x.shape[-1:], self.state[f"{name}.weight"], self.state[f"{name}.bias"], self.eps
        )


def load_minilm_tagger(directory: Path) -> SpanTagger:
    """A MiniLM span tagger saved by `SpanTagger.save` (not a convolutional student), on the packaged MiniLM."""
    from safetensors.torch import load_file

    from stealthflow.attack.embeddings import model_dir

    meta = json.loads((directory / CARD_DATA).read_text(encoding="utf-8"))
    if "student" in meta:
        raise ValueError(f"{directory}: a student tagger, not a MiniLM one")
    base = model_dir()
    config = json.loads((base / "config.json").read_text(encoding="utf-8"))
    layers = meta.get("layers") or config["num_hidden_layers"]
    state = {f"bert.{name}": tensor.float() for name, tensor in load_file(str(base / "model.safetensors")).items()}
    trained = {name: tensor.float() for name, tensor in load_file(str(directory / WEIGHTS)).items()}
    head = {"classifier.weight", "classifier.bias"}
    unknown = sorted(set(trained) - set(state) - head)
    if unknown or head - set(trained):
        raise ValueError(f"{directory}: weights this model does not have, or no head: {unknown[:3]}")
    state.update(trained)
    if state["classifier.weight"].shape[0] != len(bio_labels(meta["labels"])):
        raise ValueError(f"{directory}: the head does not match the labels of {CARD_DATA}")
    model = MiniLMTokenTagger(state, config, layers)
    return SpanTagger(
        model,
        WordPieceTokenizer(base),
        meta["labels"],
        meta.get("threshold", 0.5),
        trained=set(trained),
        span_thresholds=meta.get("span_thresholds"),
    )
