"""A safetensors file's tensors as read-only numpy arrays mapped from the file, not copied.

safetensors' numpy loader copies every tensor into memory: for the embedded SmolLM2 (538 MB of float32)
that cost a cold start ~0.3 s of CPU more than mapping the file, whose pages the OS then reads (or
finds in its cache) as the forward pass first touches them. The format is an 8-byte little-endian
header length, a JSON header (name -> dtype, shape, byte offsets into the data) and the data.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64, "I64": np.int64, "I32": np.int32}


def map_safetensors(path: str | Path) -> dict[str, np.ndarray]:
    """name -> tensor (read-only, backed by the file) of the safetensors file at `path`."""
    with open(path, "rb") as file:
        (length,) = struct.unpack("<Q", file.read(8))
        header = json.loads(file.read(length))
    header.pop("__metadata__", None)
    unknown = sorted({entry["dtype"] for entry in header.values()} - set(DTYPES))
    if unknown:
        raise ValueError(f"{path}: tensors of type {', '.join(unknown)}, which this reader does not map")
    if not header:
        return {}
    data = np.memmap(path, dtype=np.uint8, mode="r", offset=8 + length)
    return {name: _tensor(data, name, entry, path) for name, entry in header.items()}


def _tensor(data: np.ndarray, name: str, entry: dict, path: str | Path) -> np.ndarray:
    """The tensor `entry` describes, after checking its byte range against the file and its shape."""
    start, end = entry["data_offsets"]
    dtype = np.dtype(DTYPES[entry["dtype"]])
    size = int(np.prod(entry["shape"], dtype=np.int64)) * dtype.itemsize
    if not 0 <= start <= end <= data.size or end - start != size:
        raise ValueError(f"{path}: tensor {name} claims bytes {start}-{end} for shape {entry['shape']} ({size} bytes)")
    return data[start:end].view(dtype).reshape(entry["shape"])
