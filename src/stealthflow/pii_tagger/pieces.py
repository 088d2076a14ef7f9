"""MiniLM's word pieces of a text (and a student's word shapes), most of them found without the
Rust tokenizer.

Why: the Rust tokenizer spent ~0.6 ms on 1 KB of text (its normaliser tracks each character's
alignment) and the word shapes another ~0.25 in a loop over every piece: together a fifth of the
student tagger's cost. Most words need neither. A run of printable ASCII splits the way BERT's
pre-tokenizer splits it (at whitespace, each punctuation mark alone), and a word the vocabulary
holds whole is one piece whose case and lexicon flag are known right there; one it splits is split
here as WordPiece splits it (`ascii_pieces`: 1 KB texts' pieces cost 0.75x the CPU they did with the
Rust tokenizer splitting such words). The rest (a chunk between whitespace holding any other character or a special
token's text) goes through the Rust tokenizer, in one call per text: BERT's normaliser changes
characters one at a time, so a chunk alone gives the pieces it gives in context. Same ids, offsets
and shapes as the tokenizer and `word_shapes` over the whole text (tests/test_word_pieces.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from stealthflow.pii_tagger.minilm import Vocabulary
from stealthflow.pii_tagger.names import name_flag

ASCII_PIECE = re.compile(r"[A-Za-z0-9]+|[!-/:-@\[-`{-~]")  # BERT's words and punctuation marks within printable ASCII
ASCII_SPACE = re.compile(r"[ \t\n\r]")


CASES = 7  # see word_shapes


def word_shapes(text: str, offsets, lexicon: dict[str, int] | None = None) -> list[int]:
    """Per word piece: 0 special or padding, 1 the rest of a word, 2 lowercase, 3 Capitalised,
    4 UPPERCASE, 5 digits, 6 anything else (a student's extra input: case is a strong name cue
    that MiniLM's lowercase vocabulary drops). With a name `lexicon` (names.py), each piece's
    shape also carries its word's flag: shape + CASES x flag."""
    shapes, flag = [], 0
    offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    for start, end in zip(offsets[:, 0].tolist(), offsets[:, 1].tolist(), strict=True):
        if end <= start:
            shapes.append(0)
            continue
        if start > 0 and text[start].isalnum() and text[start - 1].isalnum():
            shapes.append(1 + CASES * flag)  # the rest of the word: its first piece's flag
            continue
        flag = name_flag(text, start, lexicon) if lexicon else 0
        shapes.append(case_shape(text[start:end]) + CASES * flag)
    return shapes


def ascii_pieces(word: str, vocabulary: Vocabulary, reach: int) -> list[tuple[int, int, int]] | None:
    """WordPiece's split of a lowercase ASCII word, as the Rust tokenizer gives it: (id, start, end) per piece, each the
    longest the vocabulary holds at its start (a word's first among the whole pieces, the rest among the `continued`
    ones; `reach`: the longest piece); None where the tokenizer gives one unknown piece (a word longer than the
    vocabulary's `longest_word`, or one a part of which no piece begins)."""
    if len(word) > vocabulary.longest_word:
        return None
    pieces, start, table = [], 0, vocabulary.whole
    while start < len(word):
        for end in range(min(len(word), start + reach), start, -1):
            piece = table.get(word[start:end])
            if piece is not None:
                break
        else:
            return None
        pieces.append((piece, start, end))
        start, table = end, vocabulary.continued
    return pieces


def case_shape(piece: str) -> int:
    """A word's first piece: 2 lowercase, 3 Capitalised, 4 UPPERCASE, 5 digits, 6 anything else."""
    first = piece[0]
    if first.isdigit():
        return 5
    if not first.isalpha():
        return 6
    if first.islower():
        return 2
    return 4 if len(piece) > 1 and piece.isupper() else 3


class LongRunPieces:
    """What a text's pieces share, whichever vocabulary cuts them: the vocabulary's Rust tokenizer and unknown id, the
    shape input, and the split of the text at its long runs without spaces (`stretches`)."""

    def __init__(
        self,
        vocabulary: Vocabulary,
        shaped: bool = False,
        lexicon: dict[str, int] | None = None,
        longest: int | None = None,
    ):
        """`vocabulary`: MiniLM's (minilm.py) or the multilingual table's (multilingual.py). `shaped`: also each
        piece's `word_shapes` (a student's case input), with `lexicon`'s flags. `longest`: a run without spaces longer
        than this is one unknown piece (as the tokenizer reads a word over 100 characters), not the pieces of its
        letters and marks: a megabyte-long token or base64 blob costs the model one piece, not a hundred thousand
        (None: every run piece by piece)."""
        self._rust = vocabulary.tokenizer
        self._unknown = vocabulary.unknown
        self._shaped = shaped
        self._lexicon = lexicon or {}
        self._long = re.compile(rf"\S{{{longest + 1},}}") if longest else None

    def stretches(self, text: str) -> Iterator[tuple[int, int, re.Match[str] | None]]:
        """(start, end, the long run after it or None at the text's end): the text cut at its long runs, in order."""
        position = 0
        for run in self._long.finditer(text) if self._long else ():
            yield position, run.start(), run
            position = run.end()
        yield position, len(text), None


class WordPieces(LongRunPieces):
    """`pieces(text)` -> (ids, offsets[pieces, 2], shapes or None), without [CLS] and [SEP] (`vocabulary`: MiniLM's;
    the `options` shaped, lexicon and longest: `LongRunPieces`)."""

    def __init__(self, vocabulary: Vocabulary, **options) -> None:
        super().__init__(vocabulary, **options)
        self._vocabulary = vocabulary  # its pieces shared by every tagger's WordPieces (built once: ~0.05 s)
        self._reach = max(map(len, [*vocabulary.whole, *vocabulary.continued]))
        # The vocabulary's whole ASCII words as people write them (lowercase, Capitalised, UPPERCASE)
        # -> (piece, shape), each kept when first met: most words of a text cost one look-up (built up
        # front, the 66 000 forms cost a cold start ~0.5 s).
        self._known: dict[str, tuple[int, int]] = {}
        # Where the Rust tokenizer must read the chunk: a character BERT's normaliser may change
        # (accents, other scripts, control and other space characters) or a special token's text
        # ("[SEP]" in a text is that token).
        specials = sorted(vocabulary.specials, key=len, reverse=True)
        self._foreign = re.compile("|".join(["[^!-~ \\t\\n\\r]", *map(re.escape, specials)]))

    def __call__(self, text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        ids: list[int] = []
        starts: list[int] = []
        ends: list[int] = []
        shapes: list[int] = []
        rare: list[tuple[int, int, int]] = []  # (where in the pieces, start, end): chunks for the Rust tokenizer
        underscores = "_" in text  # the lexicon's word runs on over an underscore ("\w"): see _ascii
        for start, end, run in self.stretches(text):
            self._pieces(text, start, end, underscores, ids, starts, ends, shapes, rare)
            if run:
                ids.append(self._unknown)
                starts.append(run.start())
                ends.append(run.end())
                if self._shaped:
                    shapes.append(case_shape(run[0]))
        if rare:
            ids, starts, ends, shapes = self._with_rare(text, rare, ids, starts, ends, shapes)
        offsets = np.empty((len(ids), 2), dtype=np.int64)
        offsets[:, 0], offsets[:, 1] = starts, ends
        return np.asarray(ids, dtype=np.int64), offsets, np.asarray(shapes, dtype=np.int64) if self._shaped else None

    def _pieces(self, text: str, begin: int, stop: int, underscores: bool, ids, starts, ends, shapes, rare) -> None:
        """The pieces of text[begin:stop] (which starts and ends at a space or the text's ends)."""
        position = begin
        for match in self._foreign.finditer(text, begin, stop):
            if match.start() < position:
                continue  # within the chunk already taken
            start = max(text.rfind(space, position, match.start()) for space in " \t\n\r") + 1
            space = ASCII_SPACE.search(text, match.end(), stop)
            end = space.start() if space else stop
            self._ascii(text, position, start, underscores, ids, starts, ends, shapes)
            rare.append((len(ids), start, end))
            position = end
        self._ascii(text, position, stop, underscores, ids, starts, ends, shapes)

    def _ascii(self, text: str, start: int, end: int, underscores: bool, ids, starts, ends, shapes) -> None:
        known, whole, lexicon, shaped = self._known, self._vocabulary.whole, self._lexicon, self._shaped
        for match in ASCII_PIECE.finditer(text, start, end):
            word = match.group()
            # A word glued to an underscore is another lexicon word ("anna_smith"): its flag is looked up in the
            # text, not remembered. No other word runs on past its piece here (the rest of "\w" is not ASCII).
            glued = underscores and text.startswith("_", match.end())
            hit = None if glued else known.get(word)
            if hit is None:
                lower = word.lower()
                piece = whole.get(lower)
                flag = name_flag(text, match.start(), lexicon) if lexicon else 0
                if piece is None:
                    self._split(word, match.start(), flag, ids, starts, ends, shapes)
                    continue
                hit = (piece, case_shape(word) + CASES * flag)
                if not glued and word in (lower, lower.capitalize(), lower.upper()):
                    known[word] = hit
            ids.append(hit[0])
            starts.append(match.start())
            ends.append(match.end())
            if shaped:
                shapes.append(hit[1])

    def _split(self, word: str, at: int, flag: int, ids, starts, ends, shapes) -> None:
        """The pieces of an ASCII word the vocabulary does not hold whole (`ascii_pieces`, or one unknown piece), at
        `at` in the text; `flag`: its lexicon flag (the rest of a word is shape 1, as in `word_shapes`)."""
        split = ascii_pieces(word.lower(), self._vocabulary, self._reach) or [(self._unknown, 0, len(word))]
        for number, (piece, start, end) in enumerate(split):
            ids.append(piece)
            starts.append(at + start)
            ends.append(at + end)
            if self._shaped:
                shapes.append((1 if number else case_shape(word[start:end])) + CASES * flag)

    def _with_rare(self, text: str, rare, ids, starts, ends, shapes) -> tuple[list, list, list, list]:
        """The pieces, with the rare chunks' pieces put in where they stand. The Rust
        tokenizer reads them in one call, joined by spaces (a call per word, or a batch, cost
        ~20 us each in set-up)."""
        joined_at, joined = [], []  # where each one starts in the joined text
        length = 0
        for _, start, end in rare:
            joined_at.append(length)
            joined.append(text[start:end])
            length += end - start + 1
        encoding = self._rust.encode(" ".join(joined), add_special_tokens=False)
        unit_ids: list[list[int]] = [[] for _ in rare]
        unit_offsets: list[list[tuple[int, int]]] = [[] for _ in rare]
        unit = 0
        for piece, (a, b) in zip(encoding.ids, encoding.offsets, strict=True):
            while unit + 1 < len(rare) and a >= joined_at[unit + 1]:
                unit += 1
            shift = rare[unit][1] - joined_at[unit]
            unit_ids[unit].append(piece)
            unit_offsets[unit].append((a + shift, b + shift))
        rare_shapes = iter(
            word_shapes(text, [pair for pairs in unit_offsets for pair in pairs], self._lexicon) if self._shaped else ()
        )
        out_ids, out_starts, out_ends, out_shapes = [], [], [], []
        taken = 0
        for (at, _, _), pieces, offsets in zip(rare, unit_ids, unit_offsets, strict=True):
            out_ids += ids[taken:at] + pieces
            out_starts += starts[taken:at] + [a for a, _ in offsets]
            out_ends += ends[taken:at] + [b for _, b in offsets]
            if self._shaped:
                out_shapes += shapes[taken:at] + [next(rare_shapes) for _ in offsets]
            taken = at
        return out_ids + ids[taken:], out_starts + starts[taken:], out_ends + ends[taken:], out_shapes + shapes[taken:]
