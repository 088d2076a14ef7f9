"""The embedded SmolLM2 as a scorer: each token's log-probability, from a Llama decoder's forward pass
in plain torch.

Scoring needs the forward pass only. transformers' model classes cost seconds of imports on a cold CLI
(torch's compiler and distributed packages come with them); this reads the same converted checkpoint
(`config.json`, `model.safetensors`, `tokenizer.json`) and does the same arithmetic: RMS norms, rotary
positions, grouped-query attention, a SwiGLU MLP and the output embeddings. Three savings on top:

- a sequence may start from another one's cached keys and values: a candidate rewrite shares its
  sentence's opening with the original, which is then read once;
- a sequence is read only up to the last token asked for, and the output distribution (49 152 words
  wide) is computed only where a token's log-probability is asked for;
- the sequences of a pass are packed one after the other, without padding (a token attends to its own
  sequence only).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import torch
from torch.nn import functional

Cache = list[tuple[torch.Tensor, torch.Tensor]]  # per layer: keys, values [kv heads, positions, head dim]


class CausalLM:
    def __init__(self, path: str | Path, max_tokens: int = 1024):
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
        self.max_tokens = max_tokens  # tokens read in one pass at most (the attention mask grows with its square)

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
            for chunk in self._chunks(roots, ends):
                caches = self._run([(i, 0, ends[i], None) for i in chunk], sequences, wanted_sets, results)
                mine = [j for i in chunk for j in followers.get(i, [])]
                # a follower starts where it departs from its base, or before its first wanted token
                starts = {j: min(_shared(sequences[j], sequences[bases[j]]), wanted_sets[j][0] - 1) for j in mine}
                for group in self._chunks(mine, {j: wanted_sets[j][-1] - starts[j] for j in mine}):
                    rows = [(j, starts[j], wanted_sets[j][-1], caches[bases[j]]) for j in group]
                    self._run(rows, sequences, wanted_sets, results)
        return results

    def _chunks(self, indices: list[int], lengths: dict[int, int]) -> list[list[int]]:
        """`indices` in chunks of at most `max_tokens` tokens to read (a longer sequence alone)."""
        chunks: list[list[int]] = []
        total = 0
        for i in indices:
            if chunks and total + lengths[i] <= self.max_tokens:
                chunks[-1].append(i)
                total += lengths[i]
            else:
                chunks.append([i])
                total = lengths[i]
        return chunks

    def _run(self, rows, sequences, wanted, results) -> dict[int, Cache]:
        """Read positions [start, end) of each row's sequence, all rows packed into one stretch with no
        padding (a token attends only to its own row: its earlier tokens, and the first `start` keys and
        values of the row's prefix cache); store the wanted log-probabilities; return each row's keys
        and values of the positions it read."""
        ids, positions, owner, prefix_owner = [], [], [], []
        if all(end <= start for _, start, end, _ in rows):
            return {i: [] for i, *_ in rows}  # nothing to read (a base its followers share nothing with)
        for row, (i, start, end, prefix) in enumerate(rows):
            ids += sequences[i][start:end]
            positions += range(start, end)
            owner += [row] * (end - start)
            prefix_owner += [row] * (start if prefix else 0)
        owner_t, prefix_t = torch.tensor(owner, dtype=torch.int64), torch.tensor(prefix_owner, dtype=torch.int64)
        order = torch.arange(len(ids))
        visible = torch.cat(
            (
                prefix_t[None, :] == owner_t[:, None],
                (owner_t[None, :] == owner_t[:, None]) & (order[None, :] <= order[:, None]),
            ),
            dim=1,
        )
        prefix = _packed_prefix(rows, len(self.layers)) if prefix_owner else None
        hidden, cache = self._forward(torch.tensor(ids, dtype=torch.int64), torch.tensor(positions), visible, prefix)
        where, targets, owners, offset = [], [], [], 0
        for i, start, end, _ in rows:
            for position in wanted[i]:
                where.append(offset + position - 1 - start)  # the output before a token predicts it
                targets.append(sequences[i][position])
                owners.append((i, position))
            offset += end - start
        if where:
            logits = _rms_norm(hidden[where], self.norm, self.eps) @ self.output.T
            values = torch.log_softmax(logits, dim=-1).gather(1, torch.tensor(targets)[:, None])[:, 0].tolist()
            for (i, position), value in zip(owners, values, strict=True):
                results[i][position] = value
        own: dict[int, Cache] = {}
        offset = 0
        for i, start, end, _ in rows:
            own[i] = [(k[:, offset : offset + end - start], v[:, offset : offset + end - start]) for k, v in cache]
            offset += end - start
        return own

    def _forward(
        self, ids: torch.Tensor, positions: torch.Tensor, visible: torch.Tensor, prefix: Cache | None
    ) -> tuple[torch.Tensor, Cache]:
        """Hidden states of the packed tokens `ids` at their `positions`; `visible[t, key]` says which of the
        prefix keys and values (then the packed tokens' own) token t attends to."""
        width = len(ids)
        angles = positions[:, None].float() * self.inv_freq
        angles = torch.cat((angles, angles), dim=-1)  # [tokens, head dim]
        cos, sin = angles.cos(), angles.sin()
        repeat = self.heads // self.kv_heads  # each key/value head serves this many query heads
        hidden = self.embed[ids]
        cache: Cache = []
        for number, layer in enumerate(self.layers):
            x = _rms_norm(hidden, layer["input_norm"], self.eps)
            q = (x @ layer["q"].T).view(width, self.heads, self.head_dim).transpose(0, 1)
            k = (x @ layer["k"].T).view(width, self.kv_heads, self.head_dim).transpose(0, 1)
            v = (x @ layer["v"].T).view(width, self.kv_heads, self.head_dim).transpose(0, 1)
            q, k = q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin
            cache.append((k, v))
            if prefix:
                k, v = torch.cat((prefix[number][0], k), dim=1), torch.cat((prefix[number][1], v), dim=1)
            attended = functional.scaled_dot_product_attention(
                q, k.repeat_interleave(repeat, dim=0), v.repeat_interleave(repeat, dim=0), attn_mask=visible
            )
            hidden = hidden + attended.transpose(0, 1).reshape(width, -1) @ layer["o"].T
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


def _packed_prefix(rows, layers: int) -> Cache:
    """Per layer, the keys and values each row starts from (its cache's first `start` positions), one
    row after the other, as the packed tokens are."""
    return [
        (
            torch.cat([cache[number][0][:, :start] for _, start, _, cache in rows if cache], dim=1),
            torch.cat([cache[number][1][:, :start] for _, start, _, cache in rows if cache], dim=1),
        )
        for number in range(layers)
    ]


def _shared(a: list[int], b: list[int]) -> int:
    """How many leading tokens two sequences share."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count
