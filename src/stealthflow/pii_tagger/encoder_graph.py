"""MiniLM's encoder layers as an ONNX graph, run by onnxruntime on one thread.

The readers multiply a sentence's few word pieces (3-80 rows) by each layer's weights. numpy's BLAS packs the weights
anew for every product, which costs as much for 3 rows as for 40; onnxruntime packs them once, when the session is made
(a reader's products about 2.4x as fast at 3 rows, 1.6x at 40: benchmarks/results/minilm_onnxruntime.md). The
arithmetic is transformers' `BertLayer` in float32 (post-norm self-attention, exact GELU): the same figures up to float
rounding (tests/test_minilm.py checks them against transformers). The readers' graphs (`quantized`) multiply in
integers instead: 8-bit rows by 7-bit weights, each row and each weight column on its own scale; a piece's
probability moves by about 0.006 on average, and the integer sums are the same on every CPU
(benchmarks/results/minilm_int8_readers.md).

The graph is written here with a few lines of protobuf (the wire format of the ONNX messages it needs: a model, its
graph, nodes, attributes, tensors, typed inputs and outputs) rather than with the `onnx` package, whose import alone
costs about 0.9 s of a cold start. Its weights stay the numpy arrays given: the graph names them as external data and
the session reads them from those arrays (in the graph's bytes, onnxruntime held three copies of each, 3.4x their
size; so, two: the arrays and the packed copy).
"""

from __future__ import annotations

import struct

import numpy as np

OPSET = 17  # LayerNormalization's first opset
IR_VERSION = 8
_FLOAT, _UINT8, _INT8, _INT64 = 1, 2, 3, 7  # TensorProto.DataType
_ATTRIBUTE_FLOAT, _ATTRIBUTE_INT, _ATTRIBUTE_INTS = 1, 2, 7  # AttributeProto.AttributeType
_TYPES = {
    np.dtype(np.float32): _FLOAT,
    np.dtype(np.uint8): _UINT8,
    np.dtype(np.int8): _INT8,
    np.dtype(np.int64): _INT64,
}
# int8 products (`quantized`): weights in 7 bits per output column, so that no sum of two products of a row's 8-bit
# piece and a weight overflows 16 bits (AVX2's VPMADDUBSW saturates there; with 7 bits every CPU sums exactly)
_WEIGHT_LEVELS = 63
_ROW_LEVELS = 127  # a row of activations in 8 bits around 128, on its own scale


# The field numbers are onnx.proto's. ModelProto: ir_version 1, graph 7, opset_import 8 (OperatorSetIdProto: domain 1,
# version 2). GraphProto: node 1, name 2, initializer 5, input 11, output 12. NodeProto: input 1, output 2, op_type 4,
# attribute 5. AttributeProto: name 1, f 2, i 3, ints 8, type 20. TensorProto: dims 1, data_type 2, name 8, raw_data 9,
# external_data 13 (key 1, value 2), data_location 14. ValueInfoProto: name 1, type 2 (TypeProto: tensor_type 1, which
# holds elem_type 1 and shape 2; TensorShapeProto: dim 1, each dim_value 1 or dim_param 2).


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1  # a negative int64 as its two's complement
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _number(field: int, n: int) -> bytes:
    return _varint(field << 3) + _varint(n)


def _field(field: int, payload: bytes | str) -> bytes:
    data = payload.encode("utf-8") if isinstance(payload, str) else payload
    return _varint(field << 3 | 2) + _varint(len(data)) + data


def _tensor(name: str, array: np.ndarray, external: bool = False) -> bytes:
    """A TensorProto of `array`, its data in it or, `external`, outside the model (data_location EXTERNAL: the session
    is given the array, `add_external_initializers`)."""
    head = b"".join(_number(1, d) for d in array.shape) + _number(2, _TYPES[array.dtype]) + _field(8, name)
    if external:
        return head + _field(13, _field(1, "location") + _field(2, name)) + _number(14, 1)
    return head + _field(9, array.tobytes())


def _attribute(name: str, value: float | int | list[int]) -> bytes:
    if isinstance(value, float):
        return _field(1, name) + _varint(2 << 3 | 5) + struct.pack("<f", value) + _number(20, _ATTRIBUTE_FLOAT)
    if isinstance(value, int):
        return _field(1, name) + _number(3, value) + _number(20, _ATTRIBUTE_INT)
    return _field(1, name) + b"".join(_number(8, v) for v in value) + _number(20, _ATTRIBUTE_INTS)


def _value_info(name: str, dims: list[int | str]) -> bytes:
    shape = b"".join(_field(1, _number(1, d) if isinstance(d, int) else _field(2, d)) for d in dims)
    return _field(1, name) + _field(2, _field(1, _number(1, _FLOAT) + _field(2, shape)))


class _Graph:
    """Nodes, constants (small, in the graph: shapes and scalars, which shape inference reads) and weights (external
    data, their arrays by name), each node's output named after its place."""

    def __init__(self, quantized: bool = False):
        self.nodes: list[bytes] = []
        self.constants: list[bytes] = []
        self.weights: dict[str, np.ndarray] = {}
        self.quantized = quantized
        if quantized:
            self.constant("row_step", np.array(1 / _ROW_LEVELS, np.float32))
            self.constant("least_step", np.array(1e-12, np.float32))  # a row of zeros
            self.constant("middle", np.array(_ROW_LEVELS + 1, np.float32))
            self.constant("middle_u8", np.array(_ROW_LEVELS + 1, np.uint8))
            self.constant("zero_i8", np.array(0, np.int8))

    def constant(self, name: str, array: np.ndarray) -> str:
        self.constants.append(_field(5, _tensor(name, array)))
        return name

    def weight(self, name: str, array: np.ndarray) -> str:
        self.weights[name] = np.ascontiguousarray(array)
        return name

    def node(self, op: str, *inputs: str, **attributes) -> str:
        output = f"{op}_{len(self.nodes)}"
        body = b"".join(_field(1, i) for i in inputs) + _field(2, output) + _field(4, op)
        body += b"".join(_field(5, _attribute(k, v)) for k, v in attributes.items())
        self.nodes.append(_field(1, body))
        return output

    def linear(self, x: str, weight: tuple[np.ndarray, np.ndarray], name: str) -> str:
        """x @ weight[0] + weight[1] (the weight [in, out], as `MiniLMRuntime` holds it); `quantized`, in integers:
        each column of the weight on its own scale in 7 bits, each row of x (one word piece of one window) on its own
        in 8 bits around 128, so that no other window read with it changes a window's figures."""
        w, bias = weight
        if not self.quantized:
            return self.node("Add", self.node("MatMul", x, self.weight(f"{name}.w", w)), self.weight(f"{name}.b", bias))
        column_scale = np.abs(w).max(axis=0) / _WEIGHT_LEVELS
        column_scale = np.where(column_scale > 0, column_scale, 1).astype(np.float32)
        levels = np.round(w / column_scale).astype(np.int8)
        largest = self.node("ReduceMax", self.node("Abs", x), axes=[-1], keepdims=1)
        row_scale = self.node("Max", self.node("Mul", largest, "row_step"), "least_step")
        rows = self.node(
            "Cast", self.node("Add", self.node("Round", self.node("Div", x, row_scale)), "middle"), to=_UINT8
        )
        product = self.node("MatMulInteger", rows, self.weight(f"{name}.levels", levels), "middle_u8", "zero_i8")
        scaled = self.node("Mul", self.node("Cast", product, to=_FLOAT), self.weight(f"{name}.scale", column_scale))
        return self.node("Add", self.node("Mul", scaled, row_scale), self.weight(f"{name}.b", bias))

    def norm(self, x: str, weight: tuple[np.ndarray, np.ndarray], name: str, eps: float) -> str:
        gain, bias = self.weight(f"{name}.g", weight[0]), self.weight(f"{name}.b", weight[1])
        return self.node("LayerNormalization", x, gain, bias, axis=-1, epsilon=eps)


def encoder_model(
    layers: list[dict[str, tuple[np.ndarray, np.ndarray]]], heads: int, eps: float, quantized: bool = False
) -> tuple[bytes, dict[str, np.ndarray]]:
    """The ONNX model (serialised) of MiniLM's encoder `layers` (`MiniLMRuntime`'s parts: "query", ..., "output_norm")
    and its weights by name (external data): inputs "x" (the embeddings after their norm, [windows, pieces, width]) and
    "padding" (0 for a real piece, -1e9 for padding, [windows, 1, 1, pieces]); one output, the last layer's states
    ([windows, pieces, width])."""
    g = _Graph(quantized)
    width = layers[0]["query"][0].shape[0]
    size = width // heads
    split = g.constant("split_heads", np.array([0, 0, heads, size], np.int64))
    join = g.constant("join_heads", np.array([0, 0, width], np.int64))
    scale = g.constant("scale", np.array(1 / np.sqrt(size), np.float32))
    half, one = g.constant("half", np.array(0.5, np.float32)), g.constant("one", np.array(1.0, np.float32))
    root_half = g.constant("root_half", np.array(1 / np.sqrt(2), np.float32))
    x = "x"
    for number, layer in enumerate(layers):
        name = f"layer{number}"

        def heads_of(part: str, perm: list[int]) -> str:
            return g.node("Transpose", g.node("Reshape", g.linear(x, layer[part], f"{name}.{part}"), split), perm=perm)

        q, k, v = heads_of("query", [0, 2, 1, 3]), heads_of("key", [0, 2, 3, 1]), heads_of("value", [0, 2, 1, 3])
        scores = g.node("Add", g.node("Mul", g.node("MatMul", q, k), scale), "padding")
        attended = g.node("MatMul", g.node("Softmax", scores, axis=-1), v)
        attended = g.node("Reshape", g.node("Transpose", attended, perm=[0, 2, 1, 3]), join)
        out = g.linear(attended, layer["attention_out"], f"{name}.attention_out")
        x = g.norm(g.node("Add", out, x), layer["attention_norm"], f"{name}.attention_norm", eps)
        inner = g.linear(x, layer["intermediate"], f"{name}.intermediate")
        erf = g.node("Erf", g.node("Mul", inner, root_half))
        gelu = g.node("Mul", g.node("Mul", inner, half), g.node("Add", erf, one))  # exact GELU
        out = g.linear(gelu, layer["output"], f"{name}.output")
        x = g.norm(g.node("Add", out, x), layer["output_norm"], f"{name}.output_norm", eps)
    initializers = b"".join(_field(5, _tensor(name, array, external=True)) for name, array in g.weights.items())
    graph = b"".join(g.nodes) + _field(2, "minilm_encoder") + b"".join(g.constants) + initializers
    graph += _field(11, _value_info("x", ["windows", "pieces", width]))
    graph += _field(11, _value_info("padding", ["windows", 1, 1, "pieces"]))
    graph += _field(12, _value_info(x, ["windows", "pieces", width]))  # the last norm's output
    model = _number(1, IR_VERSION) + _field(7, graph) + _field(8, _field(1, "") + _number(2, OPSET))
    return model, g.weights


class Encoder:
    """MiniLM's encoder `layers` in an onnxruntime session on one thread (as the BLAS products were: the detector runs
    one text per thread; no memory arena per session: 13 readers would each keep one). Called with "x" and "padding"
    (`encoder_model`), it gives the last layer's states. Thread-safe, as a session's runs are."""

    def __init__(
        self, layers: list[dict[str, tuple[np.ndarray, np.ndarray]]], heads: int, eps: float, quantized: bool = False
    ):
        import onnxruntime

        model, weights = encoder_model(layers, heads, eps, quantized)
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 3  # errors only
        # the session reads the arrays where they are: they must live as long as it does
        self._values = [onnxruntime.OrtValue.ortvalue_from_numpy(array) for array in weights.values()]
        options.add_external_initializers(list(weights), self._values)
        self._session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        self._output = self._session.get_outputs()[0].name

    def __call__(self, x: np.ndarray, padding: np.ndarray) -> np.ndarray:
        return self._session.run([self._output], {"x": x, "padding": padding})[0]
