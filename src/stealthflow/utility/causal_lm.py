"""The embedded SmolLM2 as a scorer: each token's log-probability, from a Llama decoder's forward pass
in numpy.

Scoring needs the forward pass only. Importing torch costs a cold CLI ~2 s, and transformers' model classes
seconds more; this reads the same converted checkpoint (`config.json`, `model.safetensors` mapped into
memory, `tokenizer.json`) and does the same arithmetic: RMS norms, rotary
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

import numpy as np

Cache = list[tuple[np.ndarray, np.ndarray]]  # per layer: keys, values [kv heads, positions, head dim]


class CausalLM:
    def __init__(self, path: str | Path, max_tokens: int = 1024):
        from tokenizers import Tokenizer

        from stealthflow.mapped_weights import map_safetensors

        path = Path(path)
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        if config.get("model_type") != "llama":
            raise ValueError(f"{path}: a {config.get('model_type')} model; this scorer reads Llama decoders only")
        unsupported = [key for key in ("rope_scaling", "attention_bias", "mlp_bias") if config.get(key)]
        if unsupported:
            raise ValueError(f"{path}: {', '.join(unsupported)} set in its config, which this scorer does not apply")
        self.heads = config["num_attention_heads"]
        self.kv_heads = config.get("num_key_value_heads", self.heads)
        self.head_dim = config.get("head_dim") or config["hidden_size"] // self.heads
        self.eps = config["rms_norm_eps"]
        theta = (config.get("rope_parameters") or {}).get("rope_theta", config.get("rope_theta", 10000.0))
        self.inv_freq = 1.0 / np.float32(theta) ** (np.arange(0, self.head_dim, 2, dtype=np.float32) / self.head_dim)
        weights = {
            name: array.astype(np.float32, copy=False)  # a float32 checkpoint stays mapped, not copied
            for name, array in map_safetensors(path / "model.safetensors").items()
        }
        self.embed = weights["model.embed_tokens.weight"]
        if "lm_head.weight" not in weights and not config.get("tie_word_embeddings", True):
            raise ValueError(f"{path}: no lm_head.weight, and its embeddings are not tied to the output")
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
        roots = [i for i, base in enumerate(bases) if base is None and (wanted_sets[i] or i in followers)]
        # a base is read as far as any of its followers shares it, and up to its own last wanted token
        ends = {
            i: max([*wanted_sets[i][-1:], *(_shared(sequences[i], sequences[j]) for j in followers[i])]) for i in roots
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
        owner_a, prefix_a = np.array(owner, dtype=np.int64), np.array(prefix_owner, dtype=np.int64)
        order = np.arange(len(ids))
        visible = np.concatenate(
            (
                prefix_a[None, :] == owner_a[:, None],
                (owner_a[None, :] == owner_a[:, None]) & (order[None, :] <= order[:, None]),
            ),
            axis=1,
        )
        prefix = _packed_prefix(rows, len(self.layers)) if prefix_owner else None
        hidden, cache = self._forward(np.array(ids, dtype=np.int64), np.array(positions), visible, prefix)
        where, targets, owners, offset = [], [], [], 0
        for i, start, end, _ in rows:
            for position in wanted[i]:
                where.append(offset + position - 1 - start)  # the output before a token predicts it
                targets.append(sequences[i][position])
                owners.append((i, position))
            offset += end - start
        if where:
            logits = _product(_rms_norm(hidden[where], self.norm, self.eps), self.output)
            logits -= logits.max(axis=-1, keepdims=True)
            chosen = logits[np.arange(len(targets)), targets]
            values = (chosen - np.log(np.exp(logits).sum(axis=-1))).tolist()  # log-softmax at the targets
            for (i, position), value in zip(owners, values, strict=True):
                results[i][position] = value
        own: dict[int, Cache] = {}
        offset = 0
        for i, start, end, _ in rows:
            own[i] = [(k[:, offset : offset + end - start], v[:, offset : offset + end - start]) for k, v in cache]
            offset += end - start
        return own

    def _forward(
        self, ids: np.ndarray, positions: np.ndarray, visible: np.ndarray, prefix: Cache | None
    ) -> tuple[np.ndarray, Cache]:
        """Hidden states of the packed tokens `ids` at their `positions`; `visible[t, key]` says which of the
        prefix keys and values (then the packed tokens' own) token t attends to."""
        width = len(ids)
        angles = positions[:, None].astype(np.float32) * self.inv_freq
        angles = np.concatenate((angles, angles), axis=-1)  # [tokens, head dim]
        cos, sin = np.cos(angles), np.sin(angles)
        repeat = self.heads // self.kv_heads  # each key/value head serves this many query heads
        blocked = np.where(visible, np.float32(0), np.float32(-np.inf))  # added to the scores: -inf where not visible
        scale = np.float32(1 / np.sqrt(self.head_dim))
        hidden = self.embed[ids]
        cache: Cache = []
        for number, layer in enumerate(self.layers):
            x = _rms_norm(hidden, layer["input_norm"], self.eps)
            q = _product(x, layer["q"]).reshape(width, self.heads, self.head_dim).transpose(1, 0, 2)
            k = _product(x, layer["k"]).reshape(width, self.kv_heads, self.head_dim).transpose(1, 0, 2)
            v = _product(x, layer["v"]).reshape(width, self.kv_heads, self.head_dim).transpose(1, 0, 2)
            q, k = q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin
            cache.append((k, v))
            if prefix:
                k = np.concatenate((prefix[number][0], k), axis=1)
                v = np.concatenate((prefix[number][1], v), axis=1)
            # the query heads of one key/value head side by side: [kv heads, repeat x tokens, head dim]
            scores = q.reshape(self.kv_heads, repeat * width, self.head_dim) @ k.transpose(0, 2, 1)
            scores *= scale
            scores = scores.reshape(self.kv_heads, repeat, width, -1)
            scores += blocked
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(axis=-1, keepdims=True)
            attended = scores.reshape(self.kv_heads, repeat * width, -1) @ v  # [kv heads, repeat x tokens, dim]
            attended = attended.reshape(self.heads, width, self.head_dim).transpose(1, 0, 2).reshape(width, -1)
            hidden = hidden + _product(attended, layer["o"])
            x = _rms_norm(hidden, layer["post_norm"], self.eps)
            gate = _product(x, layer["gate"])
            hidden = hidden + _product(gate / (1 + np.exp(-gate)) * _product(x, layer["up"]), layer["down"])  # SiLU
        return hidden, cache


def _product(x: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """x @ weight.T, as (weight @ x.T).T: OpenBLAS multiplies a few rows by a transposed view of a mapped matrix
    up to 2x slower than it multiplies the matrix by the rows' transpose (and a transposed copy of the weights
    would double the model's memory)."""
    return (weight @ x.T).T


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


def _rms_norm(x: np.ndarray, weight: np.ndarray, eps: float) -> np.ndarray:
    return weight * (x / np.sqrt(np.square(x).mean(-1, keepdims=True) + np.float32(eps)))


def _rotate_half(x: np.ndarray) -> np.ndarray:
    half = x.shape[-1] // 2
    return np.concatenate((-x[..., half:], x[..., :half]), axis=-1)


def _packed_prefix(rows, layers: int) -> Cache:
    """Per layer, the keys and values each row starts from (its cache's first `start` positions), one
    row after the other, as the packed tokens are."""
    return [
        (
            np.concatenate([cache[number][0][:, :start] for _, start, _, cache in rows if cache], axis=1),
            np.concatenate([cache[number][1][:, :start] for _, start, _, cache in rows if cache], axis=1),
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
