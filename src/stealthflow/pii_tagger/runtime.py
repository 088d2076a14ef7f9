"""The convolutional student's forward pass (student.py) in numpy: what detection runs.

Torch trains the student; inference needs none of it. The weights are the student's own file
(`tagger.safetensors`, the parameter names of student.py) on top of MiniLM's word-piece table
(minilm.py), so a fine-tuned file drops in. The layers are few and narrow: a window's pass is a
handful of matrix products, which numpy hands to its BLAS like torch does, while importing torch and
transformers cost a cold start seconds.

The products run on one BLAS thread: a window's are small, and OpenBLAS's threads wait for each other
spinning (on 2 busy cores, 2 threads cost ~4x the CPU time of one at 1 KB); a server's concurrent
requests share the cores instead.

Every window of a batch goes into one sequence, windows apart by zeros as wide as the widest
tap reaches, and the positions between windows are set back to zero before each layer: each
window is tagged as it is alone, and a batch is one matrix product a layer.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from stealthflow.pii_tagger.shape import STUDENT_WINDOW, StudentShape

_NORM_EPSILON = 1e-5  # torch's LayerNorm default, as trained
# erf(z) = 1 - 1 / poly(z)^16 for z >= 0 within 3e-7 (Abramowitz and Stegun, formula 7.1.28): an exact GELU in
# plain arithmetic (no exp, no scipy). Here z = |x| / sqrt 2, folded into the coefficients, which run from x's power 1.
_POLY = tuple(
    np.float32(a / math.sqrt(2) ** power)
    for power, a in enumerate((0.0705230784, 0.0422820123, 0.0092705272, 0.0001520143, 0.0002765672, 0.0000430638), 1)
)
# The same polynomial of 2|x| (`_gelu`'s `halved`): each coefficient times 2 ** power, exactly (a power of two).
_POLY_OF_DOUBLE = tuple(a * np.float32(2**power) for power, a in enumerate(_POLY, 1))


class ConvRuntime:
    """A trained student for inference: `probabilities(windows)` -> each window's tag probabilities."""

    window = STUDENT_WINDOW

    def __init__(
        self, shape: StudentShape, state: dict[str, np.ndarray], words: np.ndarray, source: object = "weights"
    ):
        """`state`: the student's saved parameters (student.py's names); `words`: MiniLM's word-piece table;
        `source`: where the weights came from, for errors."""
        names = _parameter_names(shape)
        if set(state) != names:
            raise ValueError(
                f"{source}: not the parameters of a student of this shape: missing {sorted(names - set(state))[:3]},"
                f" unknown {sorted(set(state) - names)[:3]}"
            )
        weight = {name: np.asarray(value, dtype=np.float32) for name, value in state.items()}
        # What feeds a GELU is held at half its size: `_gelu(halved=True)` then saves its last step (x 0.5), and the
        # results are the same to the bit (halving a float32 is exact, and so is every product and sum of halves).
        half = np.float32(0.5)
        self.shape = shape
        self.uses_case = shape.case
        self._words = words
        self._project = (np.ascontiguousarray(weight["project.weight"].T) * half, weight["project.bias"] * half)
        # Words are projected once, when first seen (the projection is per word piece and the table frozen).
        self._table = np.zeros((len(words), shape.width), dtype=np.float32)
        self._projected = np.zeros(len(words), dtype=bool)
        self._cases = weight["cases.weight"] if shape.case else None
        self._layers = [
            (
                dilation,
                weight[f"depthwise.{layer}"] if shape.separable else None,
                np.ascontiguousarray(weight[f"mixes.{layer}.weight"].T) * half,
                weight[f"mixes.{layer}.bias"] * half,
                weight[f"norms.{layer}.weight"],
                weight[f"norms.{layer}.bias"],
            )
            for layer, dilation in enumerate(shape.dilations)
        ]
        self._classifier = (np.ascontiguousarray(weight["classifier.weight"].T), weight["classifier.bias"])
        self._gap = max(shape.dilations) * (shape.kernel // 2)  # zeros between windows: no tap reaches across

    def probabilities(self, windows: list[tuple[np.ndarray, np.ndarray | None]]) -> list[np.ndarray]:
        """Per window (word-piece ids, word shapes or None): probabilities[pieces, tags] (float32)."""
        if not windows:
            return []
        with _blas().limit(limits=1, user_api="blas"):
            return self._probabilities(windows)

    def _probabilities(self, windows: list[tuple[np.ndarray, np.ndarray | None]]) -> list[np.ndarray]:
        gap, lengths = self._gap, [len(ids) for ids, _ in windows]
        starts = np.cumsum([gap] + [length + gap for length in lengths[:-1]]).tolist()
        places = [slice(start, start + length) for start, length in zip(starts, lengths, strict=True)]
        x = np.zeros((places[-1].stop + gap, self.shape.width), dtype=np.float32)
        vectors = self._token_vectors(np.concatenate([ids for ids, _ in windows]))
        if self._cases is not None:
            vectors += self._cases[np.concatenate([shapes for _, shapes in windows])]
        for place, first in zip(places, np.cumsum([0] + lengths[:-1]).tolist(), strict=True):
            x[place] = vectors[first : first + place.stop - place.start]
        # The layers compute the rows from the first window's to the last one's: the gaps before and after them
        # only give the taps their zeros (a text of one window: 16 of its ~350 rows).
        rows, between = slice(gap, len(x) - gap), [slice(a.stop, b.start) for a, b in zip(places, places[1:])]
        inner = x[rows]
        # The layers write into these (a fresh array per step cost more in page faults than the arithmetic).
        mixed, *work = (np.empty_like(inner) for _ in range(3))
        for dilation, depthwise, mix, mix_bias, norm_weight, norm_bias in self._layers:
            for zeros in between:
                x[zeros] = 0.0  # a tap past a window's ends sees zero, as it does alone
            if depthwise is None:
                taps = _shifted_copies(x, dilation, self.shape.kernel)[rows]
            else:
                taps = _depthwise(x, depthwise, dilation, gap, *work[:2])
            np.matmul(taps, mix, out=mixed)
            mixed += mix_bias
            inner += _gelu(mixed, work, halved=True)
            _layer_norm(inner, norm_weight, norm_bias, work[0])
        logits = inner @ self._classifier[0]  # the rows between windows too: fewer steps than picking them out
        logits += self._classifier[1]
        logits -= logits.max(axis=1, keepdims=True)
        np.exp(logits, out=logits)
        logits /= logits.sum(axis=1, keepdims=True)
        return [logits[place.start - gap : place.stop - gap] for place in places]

    def _token_vectors(self, ids: np.ndarray) -> np.ndarray:
        new = np.unique(ids[~self._projected[ids]])  # most texts' pieces were all seen before: nothing to sort
        if len(new):
            projected = self._words[new] @ self._project[0]
            projected += self._project[1]
            self._table[new] = _gelu(projected, [np.empty_like(projected) for _ in range(2)], halved=True)
            self._projected[new] = True
        return self._table[ids]


@cache
def _blas():
    """numpy's BLAS libraries, to limit their threads (threadpoolctl; looked up once)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _parameter_names(shape: StudentShape) -> set[str]:
    """The names student.py's ConvTagger gives its trained parameters (the embedding table is MiniLM's, not saved)."""
    per_layer = ["mixes.{}.weight", "mixes.{}.bias", "norms.{}.weight", "norms.{}.bias"]
    per_layer += ["depthwise.{}"] if shape.separable else []
    return {
        "project.weight",
        "project.bias",
        "classifier.weight",
        "classifier.bias",
        *(["cases.weight"] if shape.case else []),
        *(name.format(layer) for layer in range(len(shape.dilations)) for name in per_layer),
    }


def _depthwise(
    x: np.ndarray, weight: np.ndarray, dilation: int, edge: int, out: np.ndarray, scratch: np.ndarray
) -> np.ndarray:
    """(positions, width): each channel's taps (`weight`: kernel x width), `dilation` apart, at the positions of `x`
    but its first and last `edge` (rows of zeros at least as wide as the taps reach), written into `out`."""
    centre, rows = len(weight) // 2, len(x) - 2 * edge
    np.multiply(x[edge : edge + rows], weight[centre], out=out)
    for tap in range(len(weight)):
        offset = (tap - centre) * dilation  # position t sees x[t + offset]
        if offset:
            np.multiply(x[edge + offset : edge + offset + rows], weight[tap], out=scratch)
            out += scratch
    return out


def _shifted_copies(x: np.ndarray, dilation: int, kernel: int) -> np.ndarray:
    """(positions, kernel x width): a full convolution's input, each tap's shifted sequence side by side."""
    reach = (kernel // 2) * dilation
    padded = np.pad(x, ((reach, reach), (0, 0)))
    return np.concatenate([padded[tap * dilation : tap * dilation + len(x)] for tap in range(kernel)], axis=1)


def _gelu(x: np.ndarray, work: list[np.ndarray], halved: bool = False) -> np.ndarray:
    """GELU with the exact erf, as torch's, in place of `x` (two arrays of its shape in `work` for the steps);
    `halved`: `x` holds half of GELU's input. x erf(x / sqrt 2) is even, so
    GELU(x) = 0.5 (x + |x| erf(|x| / sqrt 2)) = 0.5 (x + |x| - |x| / poly(|x|)^16), and GELU(2h) = h + |h| - |h| /
    poly(2|h|)^16: 20 whole-array steps of plain arithmetic (19 halved), no branch (np.where cost more than the rest
    together), no exp (one costs about what the other steps do together) and no np.maximum (three times an addition's
    time). A poly(|x|)^16 past float32's range is inf, |x| / inf 0, as it is (for |x| under 1e38, half the range)."""
    size, power = work[0], work[1]
    poly = _POLY_OF_DOUBLE if halved else _POLY
    np.abs(x, out=size)
    with np.errstate(over="ignore"):
        np.multiply(size, poly[-1], out=power)
        for a in poly[-2::-1]:
            power += a
            power *= size
        power += 1
        for _ in range(4):
            np.multiply(power, power, out=power)  # np.square's float32 loop is not vectorised: 1.6x the instructions
    np.divide(size, power, out=power)
    x += size
    x -= power
    if not halved:
        x *= np.float32(0.5)
    return x


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """torch's LayerNorm over each row, in place of `x` (`scratch`: an array of its shape). The means are a
    matrix-vector product (a quarter of `mean`'s time), each row's scale and the weight one table."""
    x -= x @ _averaging(x.shape[1])
    scale = np.einsum("ij,ij->i", x, x)
    scale /= np.float32(x.shape[1])
    scale += np.float32(_NORM_EPSILON)
    np.sqrt(scale, out=scale)
    np.divide(np.float32(1), scale, out=scale)
    np.multiply(scale[:, None], weight, out=scratch)
    x *= scratch
    x += bias
    return x


@cache
def _averaging(width: int) -> np.ndarray:
    """(width, 1): a product with it is each row's mean."""
    return np.full((width, 1), 1 / width, dtype=np.float32)
