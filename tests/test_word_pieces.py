"""WordPieces (pii_tagger/pieces.py) finds most word pieces in Python: it must give exactly the ids and
offsets of MiniLM's tokenizer over the whole text (transformers' own, as training encodes), and the shapes
`word_shapes` gives (real MiniLM tokenizer, packaged offline). WordPieces reads the tokenizer's file itself
(minilm.py), without transformers."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stealthflow.pii_tagger.minilm import vocabulary
from stealthflow.pii_tagger.model import base_model, bio_labels
from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.pii_tagger.pieces import WordPieces, word_shapes

LEXICON = {
    "anna": GIVEN,
    "smith": FAMILY,
    "grace": GIVEN | FAMILY,
    "müller": FAMILY,
    "anna_smith": FAMILY,
}  # "anna" in "anna_smith" is FAMILY: the lexicon reads "\\w" words


@cache
def _tokenizer():
    return base_model(len(bio_labels(["name"])))[1]


@cache
def _rust_tokenizer():
    from tokenizers import Tokenizer

    rust = Tokenizer.from_str(_tokenizer().backend_tokenizer.to_str())
    rust.no_truncation()
    rust.no_padding()
    return rust


@cache
def _shaped_pieces():
    return WordPieces(vocabulary(), shaped=True, lexicon=LEXICON)


def _tokenizer_alone(text: str):
    encoding = _rust_tokenizer().encode(text, add_special_tokens=False)
    return encoding.ids, [tuple(pair) for pair in encoding.offsets], word_shapes(text, encoding.offsets, LEXICON)


def _word_pieces(text: str):
    ids, offsets, shapes = _shaped_pieces()(text)
    return ids.tolist(), [tuple(pair) for pair in offsets.tolist()], shapes.tolist()


CASES = [
    "Hi, I'm Anna Smith; call GRACE at 5pm!",
    "Anna Müller lives at Straße 5 — 中文名字 李雷, café ☕ and naïve résumé",
    "anna_smith wrote [SEP] and [CLS]x and [unk] in a_b__c",
    "Xiomara Oyindasola met Nnamani in Zürich\u00a0today\u200b.",
    "tab\there\nnew\rline \x0bvertical \x00null \x7fdel \x85next \u2028line",
    "a" * 150 + " " + "Bb" * 60 + " 12345678901234567890",
    "iPhone McDonald's O'Neil e-mail x@y.z #tag $5 {json: [1, 2]}",
    "",
    "   \n\t ",
    "ǅemal İstanbul ﬁne Ⅻ ¹ ΣΑΣ 😀😀 e\u0301t\u0301e",
    # words the vocabulary splits (WordPiece's longest pieces first, in Python): names, codes, a word no piece ends
    "Siosaia Fifita, NNAMDI Okonkwo-Xiomara; ref 7Q9ZX4K2 and XJ9-44b at 221b, qqqqqqq zzzxq unbelievableness",
]


def test_known_texts_split_exactly_as_the_tokenizer_splits_them():
    for text in CASES:
        assert _word_pieces(text) == _tokenizer_alone(text), text


ALPHABET = st.sampled_from(
    [
        *"aAzZ09 _-.,'!?()[]@#$%&*+/:;<=>^`{|}~\t\n\r",
        "Anna",
        "smith",
        "Grace",
        "é",
        "Ü",
        "ß",
        "\u0301",
        "\u00a0",
        "\x0b",
        "\x85",
        "中",
        "😀",
        "\x00",
        "İ",
        "ﬁ",
        "\u200b",
        "[SEP]",
        "[MASK]",
        "zzqx",
        "unbelievably",
        "Fifita",
        "ing",
        "7Q9",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ALPHABET, max_size=40).map("".join))
def test_any_text_splits_exactly_as_the_tokenizer_splits_it(text):
    assert _word_pieces(text) == _tokenizer_alone(text)


def test_a_tagger_without_word_shapes_gets_none():
    ids, offsets, shapes = WordPieces(vocabulary())("Anna Smith")
    assert shapes is None and offsets.shape == (len(ids), 2) and ids.dtype == np.int64


def test_the_vocabulary_read_from_the_tokenizers_file_is_the_one_transformers_loads():
    words, tokenizer = vocabulary(), _tokenizer()
    assert (words.cls, words.sep, words.unknown) == (
        tokenizer.cls_token_id,
        tokenizer.sep_token_id,
        tokenizer.unk_token_id,
    )
    assert sorted(words.specials) == sorted(tokenizer.all_special_tokens)
    assert words.tokenizer.get_vocab() == tokenizer.get_vocab()
