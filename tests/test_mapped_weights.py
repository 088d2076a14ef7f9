"""mapped_weights.map_safetensors against safetensors' own numpy loader: the same tensors, mapped from the file."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from stealthflow.mapped_weights import map_safetensors


def test_the_same_tensors_as_safetensors_reads(tmp_path):
    rng = np.random.default_rng(0)
    tensors = {
        "layer.weight": rng.standard_normal((7, 5)).astype(np.float32),
        "layer.half": rng.standard_normal((3, 4)).astype(np.float16),
        "positions": np.arange(6, dtype=np.int64).reshape(1, 6),
        "scalar": np.array(2.5, dtype=np.float32),
        "empty": np.zeros((0, 3), dtype=np.float32),
    }
    path = tmp_path / "w.safetensors"
    save_file(tensors, str(path), metadata={"format": "np"})
    mapped, expected = map_safetensors(path), load_file(str(path))
    assert mapped.keys() == expected.keys()
    for name, array in expected.items():
        assert mapped[name].dtype == array.dtype and mapped[name].shape == array.shape
        assert np.array_equal(mapped[name], array)
        assert not mapped[name].flags.writeable  # backed by the file: never written through


def test_a_type_it_does_not_map_is_refused(tmp_path):
    header = json.dumps({"w": {"dtype": "BF16", "shape": [2], "data_offsets": [0, 4]}}).encode()
    path = tmp_path / "bf16.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * 4)
    with pytest.raises(ValueError, match="BF16"):
        map_safetensors(path)


def test_a_truncated_file_names_the_tensor_it_cannot_map(tmp_path):
    path = tmp_path / "w.safetensors"
    save_file({"a": np.ones((4, 4), dtype=np.float32), "b": np.ones((8, 8), dtype=np.float32)}, str(path))
    path.write_bytes(path.read_bytes()[:-16])  # the last tensor loses four of its values
    with pytest.raises(ValueError, match="tensor b claims bytes"):
        map_safetensors(path)
