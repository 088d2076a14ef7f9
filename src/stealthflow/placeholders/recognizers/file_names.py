"""A full name written in a file name or a path ("anna_lindqvist_passport.jpg", "cv_beatriz_carvalho.pdf",
"/Users/x/marta-lopez/"): the words joined by "_", "-" or "." are read as words, and a given name of the name
lexicon shipped with the tagger (Faker's, pii_tagger/names.py) followed by a family name of it that is no common English
word (WordNet's lowercase lemmas, data/common_words.txt: not "smith", "read") is a name, with any such words after it
("marta_lopez_garcia")."""

from __future__ import annotations

from collections.abc import Iterator

import regex

from stealthflow.pii_tagger.lexicons import name_lexicon
from stealthflow.pii_tagger.names import FAMILY, GIVEN
from stealthflow.placeholders.common_words import common_word
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.types import Span

# A run of a file name's or path's characters holding a "_", "-" or "." between two of its words (a name's words are
# joined so): a file name when it ends in ".ext", a path's part beside "/" or "\"
_RUN = regex.compile(r"(?<![\p{L}\d])[\p{L}\d]+(?:[_.-][\p{L}\d]+)+")
# Where a run may be: a joiner between two letters or digits, found by a scan without a look-behind at each place, the
# run then matched from its first word's start (`_WORD_BEFORE`, read backwards): the same runs as `_RUN.finditer` at
# half its cost (benchmarks/tagger_threads.py's 40 English 1 KB texts: 0.057 -> 0.027 ms per KB).
_JOINED = regex.compile(r"[\p{L}\d][_.-][\p{L}\d]")
_WORD_BEFORE = regex.compile(r"(?r)[\p{L}\d]*")
_EXTENSION = regex.compile(r"\.\p{L}[\p{L}\d]{1,4}$")  # ".pdf", ".xlsx", ".mp3": read as no word of the name
_WORD = regex.compile(r"[^\W\d_]+")  # the words of a run: letters between "_", "-", ".", digits
_JOINERS = frozenset("_-.")
MIN_SURNAME = 3  # letters of the word after the given name ("anna_li" is no name to go by)


# Gain: written from the three file names of a new-user test, left in clear before (anna_lindqvist_passport.jpg,
# cv_beatriz_carvalho.pdf, nomina_marta_lopez_2026.xlsx), so measured on what it was not written from: on
# the texts of benchmarks/data/pii-heldout* (13 500) 40 spans, each inside an annotated value (e-mail addresses and URLs,
# masked whole by their recognizers before and after), none elsewhere; code and config snippets
# (benchmarks/code_negatives.py measure fit choose check) flagged 762 -> 762 of 3 920, no span of it.
@register_recognizer
class FileNameRecognizer(Recognizer):
    """A given name and the name words after it inside one file name or path part, joined by "_", "-" or "."."""

    name, type = "file_name", "REAL_NAME"

    def find(self, text: str) -> list[Span]:
        spans = []
        for run in _runs(text):
            if _in_a_path(text, run):
                spans.extend(self._names(run))
        return spans

    def _names(self, run: regex.Match[str]):
        words = list(_WORD.finditer(_EXTENSION.sub("", run[0])))
        at = 0
        while at < len(words) - 1:
            end = _name_end(run[0], words, at)
            if end == at:
                at += 1
                continue
            start, stop = run.start() + words[at].start(), run.start() + words[end].end()
            yield self.span(start, stop, 0.8, reason="a given name and a surname in a file name or path")
            at = end + 1


def _runs(text: str) -> Iterator[regex.Match[str]]:
    """The matches of `_RUN.finditer(text)`: each holds a `_JOINED`, its first word ends at the first one found."""
    position = 0
    while (joined := _JOINED.search(text, position)) is not None:
        run = _RUN.match(text, _WORD_BEFORE.match(text, position, joined.start() + 1).start())
        yield run
        position = run.end()


def _in_a_path(text: str, run: regex.Match[str]) -> bool:
    """Whether a run of characters is a file name ("cv_ana.pdf") or a part of a path (beside "/" or "\\")."""
    before = text[run.start() - 1] if run.start() else ""
    after = text[run.end()] if run.end() < len(text) else ""
    return before in ("/", "\\") or after in ("/", "\\") or _EXTENSION.search(run[0]) is not None


def _name_end(run: str, words: list[regex.Match[str]], at: int) -> int:
    """The index of the last word of a name that starts with a given name at `at`, the words joined by one of "_-."
    (`at` itself: no name there)."""
    if not name_lexicon().get(words[at][0].casefold(), 0) & GIVEN:
        return at
    end = at
    while end + 1 < len(words) and _joined(run, words[end], words[end + 1]) and _name_word(words[end + 1][0]):
        end += 1
    return end


def _joined(run: str, left: regex.Match[str], right: regex.Match[str]) -> bool:
    return right.start() == left.end() + 1 and run[left.end()] in _JOINERS


def _name_word(word: str) -> bool:
    """A family name's word, long enough, no common English word ("passport", "report", "read")."""
    return len(word) >= MIN_SURNAME and bool(name_lexicon().get(word.casefold(), 0) & FAMILY) and not common_word(word)
