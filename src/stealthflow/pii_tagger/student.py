"""A small, fast span tagger: MiniLM's word-piece embeddings (frozen, not shipped) projected to a
narrow width, a stack of dilated residual 1-D convolutions, and the same BIO head.

Why: MiniLM layers cost ~3.5 MFLOP per token each, about 2.6 GFLOP per KB for three of them;
this stack costs ~1 MFLOP per token (a third of that with depthwise-separable convolutions, the
shipped shape), has no attention (cost linear in the window, so windows can be long) and sees
~37 word pieces around each token (dilations 1, 2, 4, 8, 1, 2). It learns from the
gold BIO tags and from a trained MiniLM tagger's token probabilities (distillation, train.py).
It uses MiniLM's tokenizer, so offsets map back to the text exactly as the MiniLM tagger's do.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import torch
from torch import nn
from transformers.modeling_outputs import TokenClassifierOutput

from stealthflow.pii_tagger.embedding_source import embedding_source
from stealthflow.pii_tagger.names import STUDENT_FLAGS
from stealthflow.pii_tagger.pieces import CASES
from stealthflow.pii_tagger.shape import STUDENT_WINDOW, StudentShape

LOW_PRECISION_ROWS = 64  # below this many word pieces a pass, a bf16 product's set-up costs more than it saves
# Inference runs its layers over a multiple of this many positions (zero past the text, dropped at the
# end): the CPU's matrix kernels are built per shape (~0.3 ms each in fp32, ~2 ms in bf16), so texts
# of every length reuse a few of them.
LENGTH_STEP = 16


def frozen_embeddings(shape: StudentShape):
    """The word-piece table of the student's `embeddings` (frozen, float32: MiniLM's 47 MB, the multilingual
    262 MB) and its transformers tokenizer, for training."""
    source = embedding_source(shape.embeddings)
    words = source.table()
    table = torch.from_numpy(words[np.arange(len(words))])  # a writable float32 copy (MiniLM's array is read-only)
    embeddings = torch.nn.Embedding.from_pretrained(table, freeze=True, padding_idx=0)
    return embeddings, source.training_tokenizer()


def student_model(num_labels: int, shape: StudentShape) -> tuple[ConvTagger, object]:
    embeddings, tokenizer = frozen_embeddings(shape)
    return ConvTagger(embeddings, num_labels, shape), tokenizer


class ConvTagger(nn.Module):
    window = STUDENT_WINDOW

    def __init__(self, embeddings: nn.Embedding, num_labels: int, shape: StudentShape):
        super().__init__()
        self.shape = shape
        self.embeddings = embeddings  # frozen; loaded from the packaged table (shape.embeddings), never saved
        self.project = nn.Linear(embeddings.embedding_dim, shape.width)
        # A dilated convolution written as one matrix product over the shifted copies of the
        # sequence (`shifted_copies`): on CPU a plain GEMM is faster than conv1d and needs no per-shape set-up.
        mixed_inputs = shape.width if shape.separable else shape.kernel * shape.width
        self.mixes = nn.ModuleList(nn.Linear(mixed_inputs, shape.width) for _ in shape.dilations)
        # A separable layer's per-channel taps; initialised as nn.Conv1d(groups=width) would be.
        self.depthwise = (
            nn.ParameterList(
                nn.Parameter(torch.empty(shape.kernel, shape.width).uniform_(-(shape.kernel**-0.5), shape.kernel**-0.5))
                for _ in shape.dilations
            )
            if shape.separable
            else None
        )
        self.norms = nn.ModuleList(nn.LayerNorm(shape.width) for _ in shape.dilations)
        self.classifier = nn.Linear(shape.width, num_labels)
        self.uses_case = shape.case
        self.cases = nn.Embedding(CASES * (STUDENT_FLAGS if shape.lexicon else 1), shape.width) if shape.case else None
        self._table = None
        self._low_precision = None
        self._plain_layers = None
        self.inference_dtype = torch.bfloat16 if native_bf16() else torch.float32  # see _low_precision_mixes

    def train(self, mode: bool = True):
        self._table = self._low_precision = self._plain_layers = (
            None  # weights may change: rebuilt on the next eval pass
        )
        return super().train(mode)

    def token_vectors(self, input_ids):
        if self.training:
            return nn.functional.gelu(self.project(self.embeddings(input_ids)))
        if self._table is None or self._table.dtype != self.project.weight.dtype:
            # Embeddings are frozen and the projection is per token: project the whole vocabulary
            # once (~40 ms), then a token costs a row lookup instead of a 384-wide product.
            with torch.no_grad():
                self._table = nn.functional.gelu(self.project(self.embeddings.weight.to(self.project.weight.dtype)))
        return nn.functional.embedding(input_ids, self._table)

    def forward(self, input_ids, attention_mask=None, case_ids=None, **_):
        if attention_mask is None:
            attention_mask = input_ids != 0
        mask = None  # one text, or texts of one length: no padding to zero
        if attention_mask.shape[0] > 1 and not bool(
            attention_mask.all()
        ):  # padding stays zero, so a text's tags do not depend on what it was batched with
            mask = attention_mask.unsqueeze(-1).to(self.project.weight.dtype)
        x = self.token_vectors(input_ids)
        if self.cases is not None:
            x = x + nn.functional.embedding(case_ids, self.cases.weight)
        # Layers as plain functions: module calls were a third of a short window's time.
        low_precision = self._low_precision_mixes(x.shape[0] * x.shape[1])
        dtype = torch.float32 if low_precision is None else self.inference_dtype
        length = x.shape[1]
        if not self.training:  # the layers run over a multiple of LENGTH_STEP positions, zero past the text
            past_text = (0, 0, 0, -(-length // LENGTH_STEP) * LENGTH_STEP - length)
            x, mask = nn.functional.pad(x, past_text), None if mask is None else nn.functional.pad(mask, past_text)
        for layer, (dilation, depthwise, mix, norm_weight, norm_bias) in enumerate(self._layer_weights()):
            mix = mix if low_precision is None else low_precision[layer]
            if mask is not None:
                x = x * mask
            elif x.shape[1] > length:
                x[:, length:] = 0  # a tap past the text sees zero, as at its start
            taps = (
                shifted_copies(x, dilation, self.shape.kernel, dtype)
                if depthwise is None
                else depthwise_taps(x, depthwise, dilation).to(dtype)
            )
            x = nn.functional.layer_norm(
                x + mix(taps), (self.shape.width,), norm_weight, norm_bias
            )  # a bf16 product is widened in the addition
        x = x[:, :length]
        if mask is not None:
            x = x * mask[:, :length]
        return TokenClassifierOutput(logits=nn.functional.linear(x, self.classifier.weight, self.classifier.bias))

    def _layer_weights(self) -> list[tuple]:
        """Per layer: (dilation, depthwise taps or None, its fp32 product `taps -> gelu(taps @ W.T + b)`,
        norm weight, norm bias); kept for inference (module and parameter-list look-ups were ~0.1 ms of a pass)."""
        if self._plain_layers is not None:
            return self._plain_layers
        depthwise = self.depthwise if self.depthwise is not None else [None] * len(self.norms)
        layers = [
            (dilation, taps, partial(_linear_gelu, weight=mix.weight, bias=mix.bias), norm.weight, norm.bias)
            for dilation, taps, mix, norm in zip(self.shape.dilations, depthwise, self.mixes, self.norms, strict=True)
        ]
        if not self.training:
            self._plain_layers = layers
        return layers

    def _low_precision_mixes(self, rows: int) -> list | None:
        """Each layer's product in `inference_dtype` for inference on a CPU with AMX (`native_bf16`), in
        passes of LOW_PRECISION_ROWS word pieces or more: bf16, weights prepacked for oneDNN with the
        GELU fused into the product (1 KB of text: 6 x 167 -> 6 x 95 us); None where the layers' fp32
        products run (elsewhere, and in training)."""
        if self.training or rows < LOW_PRECISION_ROWS or self.inference_dtype == torch.float32:
            return None
        if self._low_precision is None:
            self._low_precision = [
                _packed_linear_gelu(
                    mix.weight.detach().to(self.inference_dtype), mix.bias.detach().to(self.inference_dtype)
                )
                for mix in self.mixes
            ]
        return self._low_precision


def _linear_gelu(taps, weight, bias):
    return nn.functional.gelu(nn.functional.linear(taps, weight, bias))


def _packed_linear_gelu(weight, bias):
    """oneDNN's fused product + GELU (the op torch's own compiler emits on CPU), or the plain pair
    where this torch build or CPU lacks it (tried once here on one row)."""

    def fused(taps):
        return torch.ops.mkldnn._linear_pointwise(taps, packed, bias, "gelu", [], "none")

    try:
        packed = torch.ops.mkldnn._reorder_linear_weight(weight)
        fused(torch.zeros((1, weight.shape[1]), dtype=weight.dtype))
    except (AttributeError, RuntimeError):
        return partial(_linear_gelu, weight=weight, bias=bias)
    return fused


def native_bf16() -> bool:
    """Whether this CPU multiplies bf16 matrices faster than fp32: only with AMX tiles. On a Xeon
    whose VM shows AVX512-BF16 but not AMX (as AMD Zen 4 has it), oneDNN's bf16 product was slower
    than fp32's (1 KB: 411 against 267 us a layer on 2 threads); without either, bf16 is emulated."""
    return bool(getattr(torch.cpu, "_is_amx_tile_supported", lambda: False)())


def depthwise_taps(x, weight, dilation: int):
    """(batch, length, width): each channel's kernel (`weight`: kernel x width) over the sequence,
    taps `dilation` apart, zero past the ends: shifted multiply-adds, no copy of the taps."""
    length, centre = x.shape[1], weight.shape[0] // 2
    out = x * weight[centre]
    for tap in range(weight.shape[0]):
        offset = (tap - centre) * dilation  # position t sees x[t + offset]
        if offset > 0 and offset < length:
            out[:, : length - offset].addcmul_(x[:, offset:], weight[tap])
        elif offset < 0 and -offset < length:
            out[:, -offset:].addcmul_(x[:, : length + offset], weight[tap])
    return out


def shifted_copies(x, dilation: int, kernel: int, dtype=None):
    """(batch, length, kernel x width): for each kernel tap, the sequence shifted by its offset,
    zero past the ends: a strided view of the zero-padded sequence, copied once into the
    matrix product's input (a copy per tap cost as much as the matrix products)."""
    batch, length, width = x.shape
    reach = (kernel // 2) * dilation
    if dtype is not None:
        x = x.to(dtype)  # cast before the copies: a strided copy that also casts took twice as long
    padded = nn.functional.pad(x, (0, 0, reach, reach))  # position t sees padded[t + tap * dilation]
    taps = padded.as_strided((batch, length, kernel, width), (padded.stride(0), width, dilation * width, 1))
    return taps.reshape(batch, length, kernel * width)  # the taps overlap: reshape copies them, once
