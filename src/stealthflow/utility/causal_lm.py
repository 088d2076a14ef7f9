"""The embedded SmolLM2 as a scorer: each token's log-probability, from a Llama decoder's forward pass
in plain torch.

Scoring needs the forward pass only. transformers' model classes cost seconds of imports on a cold CLI
(torch's compiler and distributed packages come with them); this reads the same converted checkpoint
(`config.json`, `model.safetensors`, `tokenizer.json`) and does the same arithmetic: RMS norms, rotary
positions, grouped-query attention, a SwiGLU MLP and the output embeddings. Two savings on top:

- a sequence may start from another one's cached keys and values: a candidate rewrite shares its
  sentence's opening with the original, which is then read once;
- a sequence is read only up to the last token asked for, and the output distribution (49 152 words
  wide) is computed only where a token's log-probability is asked for.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import torch
from torch.nn import functional

MAX_TOKENS = 1024  # token slots (rows x width) a batch holds at most
Cache = list[tuple[torch.Tensor, torch.Tensor]]  # per layer: keys, values [batch, kv heads, positions, head dim]


class CausalLM:
    def __init__(self, path: str | Path, batch_size: int = 64):
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        path = Path(path)
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "llama":
            raise ValueError(f"{path}: a {config.get('model_type')} model; this scorer reads Llama decoders only")
        self.heads = config["num_attention_heads"]
        self.kv_heads = config.get("num_key_value_heads", self.heads)
        self.head_dim = config.get("head_dim") or config["hidden_size"] // self.heads
        self.eps = config["rms_norm_eps"]
        theta = (config.get("rope_parameters") or {}).get("rope_theta", config.get("rope_theta", 10000.0))
        self.inv_freq = 1.0 / theta ** (torch.arange(0, self.head_dim, 2, dtype=torch.int64).float() / self.head_dim)
        weights = {name: tensor.float() for name, tensor in load_file(str(path / "model.safetensors")).items()}
        self.embed = weights["model.embed_tokens.weight"]
        self.output = weights.get("lm_head.weight", self.embed)  # tied to the input embeddings unless stored
        self.norm = weights["model.norm.weight"]
        self.layers = [
            {part: weights[f"model.layers.{i}.{name}.weight"] for part, name in _LAYER.items()}
            for i in range(config["num_hidden_layers"])
        ]
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.batch_size = batch_size

    def encode(self, text: str) -> list[int]:
        return self.tokenizer.encode(text, add_special_tokens=False).ids

    def logprobs(
        self, sequences: list[list[int]], wanted: list[Iterable[int]], bases: list[int | None] | None = None
    ) -> list[dict[int, float]]:
        """Per sequence, {position: log-probability of its token there} for the `wanted` positions (each
        >= 1: the first token has no context). `bases[i]`, when given, is a sequence (with no base of its
        own) whose keys and values sequence i reuses, as far as the two agree."""
        wanted_sets = [sorted(set(w)) for w in wanted]
        bases = bases or [None] * len(sequences)
        followers: dict[int, list[int]] = defaultdict(list)
        for i, base in enumerate(bases):
            if base is not None and wanted_sets[i]:
                followers[base].append(i)
        results: list[dict[int, float]] = [{} for _ in sequences]
        with torch.inference_mode():
            roots = [i for i, base in enumerate(bases) if base is None and (wanted_sets[i] or i in followers)]
            # a base is read as far as any of its followers shares it, and up to its own last wanted token
            ends = {
                i: max([*wanted_sets[i][-1:], *(_shared(sequences[i], sequences[j]) for j in followers[i])])
                for i in roots
            }
            for batch in self._batches(roots, ends):
                cache = self._run(batch, {i: 0 for i in batch}, ends, sequences, wanted_sets, results)
                row_of = {i: row for row, i in enumerate(batch)}
                mine = [j for i in batch for j in followers.get(i, [])]
                # a follower starts where it departs from its base, or before its first wanted token
                starts = {j: min(_shared(sequences[j], sequences[bases[j]]), wanted_sets[j][0] - 1) for j in mine}
                for group in self._batches(mine, {j: wanted_sets[j][-1] - starts[j] for j in mine}):
                    rows = torch.tensor([row_of[bases[j]] for j in group])
                    width = max(starts[j] for j in group)
                    prefix = [(k[rows, :, :width], v[rows, :, :width]) for k, v in cache]
                    ends_of = {j: wanted_sets[j][-1] for j in group}
                    self._run(group, starts, ends_of, sequences, wanted_sets, results, prefix)
        return results

    def _batches(self, indices: list[int], lengths: dict[int, int]) -> list[list[int]]:
        """`indices` in batches of similar lengths (little padding), at most `batch_size` rows or
        MAX_TOKENS token slots each."""
        batches: list[list[int]] = []
        for i in sorted(indices, key=lambda i: lengths[i]):
            if batches and len(batches[-1]) < self.batch_size and (len(batches[-1]) + 1) * lengths[i] <= MAX_TOKENS:
                batches[-1].append(i)
            else:
                batches.append([i])
        return batches

    def _run(self, batch, starts, ends, sequences, wanted, results, prefix: Cache | None = None) -> Cache:
        """Read positions [starts[i], ends[i]) of each sequence i of `batch` (right-padded: a token
        never attends to the padding after it), each row on top of its `prefix` row (keys and values
        of its positions < starts[i]); store the wanted log-probabilities; return the keys and values."""
        width = max(max(ends[i] - starts[i] for i in batch), 1)
        ids = torch.zeros((len(batch), width), dtype=torch.int64)
        for row, i in enumerate(batch):
            tokens = sequences[i][starts[i] : ends[i]]
            ids[row, : len(tokens)] = torch.tensor(tokens, dtype=torch.int64)
        row_starts = torch.tensor([starts[i] for i in batch])
        hidden, cache = self._forward(ids, row_starts, prefix)
        rows, columns, targets, owners = [], [], [], []
        for row, i in enumerate(batch):
            for position in wanted[i]:
                rows.append(row)
                columns.append(position - 1 - starts[i])  # the output before a token predicts it
                targets.append(sequences[i][position])
                owners.append((i, position))
        if rows:
            states = _rms_norm(hidden[rows, columns], self.norm, self.eps)
            logits = states @ self.output.T
            values = torch.log_softmax(logits, dim=-1).gather(1, torch.tensor(targets)[:, None])[:, 0].tolist()
            for (i, position), value in zip(owners, values, strict=True):
                results[i][position] = value
        return cache

    def _forward(self, ids: torch.Tensor, starts: torch.Tensor, prefix: Cache | None) -> tuple[torch.Tensor, Cache]:
        """Hidden states of `ids` [batch, width]; row r's tokens stand at positions starts[r]... and see
        the first starts[r] keys and values of its `prefix` row (padded to one width across rows)."""
        batch, width = ids.shape
        past = prefix[0][0].shape[2] if prefix else 0
        positions = starts[:, None] + torch.arange(width)[None, :]  # [batch, width]
        angles = positions[..., None].float() * self.inv_freq
        angles = torch.cat((angles, angles), dim=-1)[:, None]  # [batch, 1, width, head dim]
        cos, sin = angles.cos(), angles.sin()
        own = torch.arange(width)[None, :] <= torch.arange(width)[:, None]  # causal among the new tokens
        before = torch.arange(past)[None, :] < starts[:, None]  # [batch, past]: each row's own prefix
        visible = torch.cat((before[:, None, :].expand(batch, width, past), own.expand(batch, width, width)), dim=-1)
        visible = visible[:, None]  # [batch, 1, width, past + width]
        hidden = self.embed[ids]
        cache: Cache = []
        for number, layer in enumerate(self.layers):
            x = _rms_norm(hidden, layer["input_norm"], self.eps)
            q = (x @ layer["q"].T).view(batch, width, self.heads, self.head_dim).transpose(1, 2)
            k = (x @ layer["k"].T).view(batch, width, self.kv_heads, self.head_dim).transpose(1, 2)
            v = (x @ layer["v"].T).view(batch, width, self.kv_heads, self.head_dim).transpose(1, 2)
            q, k = q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin
            if prefix:
                k = torch.cat((prefix[number][0], k), dim=2)
                v = torch.cat((prefix[number][1], v), dim=2)
            cache.append((k, v))
            repeat = self.heads // self.kv_heads  # each key/value head serves this many query heads
            attended = functional.scaled_dot_product_attention(
                q, k.repeat_interleave(repeat, dim=1), v.repeat_interleave(repeat, dim=1), attn_mask=visible
            )
            hidden = hidden + attended.transpose(1, 2).reshape(batch, width, -1) @ layer["o"].T
            x = _rms_norm(hidden, layer["post_norm"], self.eps)
            hidden = hidden + (functional.silu(x @ layer["gate"].T) * (x @ layer["up"].T)) @ layer["down"].T
        return hidden, cache


_LAYER = {
    "input_norm": "input_layernorm",
    "post_norm": "post_attention_layernorm",
    "q": "self_attn.q_proj",
    "k": "self_attn.k_proj",
    "v": "self_attn.v_proj",
    "o": "self_attn.o_proj",
    "gate": "mlp.gate_proj",
    "up": "mlp.up_proj",
    "down": "mlp.down_proj",
}


def _rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
    return weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps))


def _rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


def _shared(a: list[int], b: list[int]) -> int:
    """How many leading tokens two sequences share."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count
