"""The acceptance gate of the per-phrase generalizer: a logistic regression, trained on blind readers' verdicts of
single edits, that says whether an edit of a sentence would be judged fluent and faithful.

An edit is scored in its sentence, as the generalizer tries each candidate: the sentence as written, the sentence
with one phrase replaced or dropped, the embedded model's fluency of the edit (`utility.fluency`) and how near the
new words are to the old ones (`anonymize.meaning`). The weights and the operating threshold ship in
`data/generalize/acceptance_gate.json`, rebuilt by `benchmarks/acceptance_gate.py`.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from stealthflow.anonymize import meaning
from stealthflow.evaluation.evidence import STOP_WORDS
from stealthflow.placeholders.common_words import function_word
from stealthflow.resources import listed_words, resource_dir

if TYPE_CHECKING:
    from stealthflow.utility.fluency import Fluency

GATE_FILE = resource_dir("data") / "generalize" / "acceptance_gate.json"

#: the gate's inputs, in the order of its weights
FEATURES = (
    "fluency",  # mean log-probability per token of the edited stretch, edit minus original (utility/fluency.py)
    "worst",  # the lowest token log-probability there, edit minus original
    "nearness",  # cosine of the old and the new words (MiniLM); 0 for a removal
    "removal",  # 1 when the edit only drops words
    "words_out",  # log(1 + words removed)
    "words_in",  # log(1 + words put in)
    "share_out",  # words removed / words of the sentence
)

#: Hard floors an edit must clear besides the gate, on its fluency score (edit minus original): the gate weighs a
#: removal +1.9 logits and fluency 0.4 per unit, so alone it passed removals that leave a sentence broken ("My
#: daughter is 3 and we just.", fluency -5.6) and a stand-in mid-sentence in the wrong case (-0.26). On held-out
#: reader seeds 8-9 (350 edits; benchmarks/acceptance_gate.py, benchmarks/results/acceptance_gate.json) the gate
#: accepts 197 edits at precision 0.426, recall 0.894; with the removal floor 193, 0.420, 0.862; with both floors
#: 178, 0.438, 0.830 (the stand-in floor then 0). A sentence newly ending on a function word is never accepted.
REMOVAL_FLOOR = -1.0
#: The stand-in floor (`benchmarks/stand_in_floor.py`, benchmarks/results/stand_in_floor.json), by a rule fixed before
#: the check: the lowest floor (0 down to -3 by 0.05) at which, and at every floor above it, the share of
#: reader-rejected stand-ins among those the gate passes on reader seeds 10-17 and 23 is no higher than at the old
#: floor 0. Of 220 judged stand-ins (111 accepted, 109 rejected) the gate passes 190 at 0 (0.458 rejected) and 195
#: at -1.65 (0.456; the 5 new: 3 accepted such as "beer delivery guy" -> "person", 2 rejected such as "my mom" ->
#: "my parent" in a sentence about the author's age); 90 rejected pass at -1.7. Check, seed 29 read once after: 28
#: stand-ins, none between -1.65 and 0, 27 passed at both floors (6 rejected).
STAND_IN_FLOOR = -1.65

TOKEN = re.compile(r"\w+(?:['’-]\w+)*|[^\w\s]")
_WORD = re.compile(r"\w+(?:['’-]\w+)*")
#: tokens that end a clause: a word before one has nothing after it in its clause
CLAUSE_END = frozenset(",;:.!?)-–—")
#: function words that need a word after them (`benchmarks/open_ends.py` on the train split)
OPEN_ENDS = "generalize/open_ends.txt"


@dataclass(frozen=True)
class GateConfig:
    """How the gate is trained (`fit`): ridge strength on standardised features and Newton steps."""

    l2: float = 1.0
    steps: int = 50


def edited_stretch(sentence: str, edited: str) -> tuple[int, int, int, int] | None:
    """Where the edit is, in characters: (start, end) of the words of `sentence` that left and (start, end) of the
    words put in their place in `edited`, from the first token that differs to the last (an empty stretch where
    nothing left or nothing came in); None for identical texts."""
    a = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(sentence)]
    b = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(edited)]
    changes = [
        op
        for op in difflib.SequenceMatcher(a=[t[0] for t in a], b=[t[0] for t in b], autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    if not changes:
        return None
    i1, i2, j1, j2 = changes[0][1], changes[-1][2], changes[0][3], changes[-1][4]

    def stretch(tokens: list, first: int, last: int, text: str) -> tuple[int, int]:
        if last > first:
            return tokens[first][1], tokens[last - 1][2]
        at = tokens[first][1] if first < len(tokens) else len(text)
        return at, at

    return (*stretch(a, i1, i2, sentence), *stretch(b, j1, j2, edited))


def edited_words(sentence: str, edited: str) -> tuple[str, str]:
    """(the words of `sentence` that left, the words put in their place), from the first token that differs to
    the last; ("", "") for identical texts."""
    where = edited_stretch(sentence, edited)
    if where is None:
        return "", ""
    return sentence[where[0] : where[1]], edited[where[2] : where[3]]


def _ends_on_function_word(text: str) -> bool:
    found = _WORD.findall(text)
    return bool(found) and found[-1].casefold() in STOP_WORDS


def newly_ends_on_function_word(sentence: str, edited: str) -> bool:
    """The edited sentence ends on a function word and the sentence did not ("My loans from."): never accepted."""
    return _ends_on_function_word(edited) and not _ends_on_function_word(sentence)


@cache
def _open_ends() -> frozenset[str]:
    return listed_words(resource_dir("data") / OPEN_ENDS)


def _open_clause_ends(text: str) -> int:
    tokens = [token.casefold() for token in TOKEN.findall(text)]
    return sum(
        token in _open_ends() and (i + 1 == len(tokens) or tokens[i + 1] in CLAUSE_END)
        for i, token in enumerate(tokens)
    )


def newly_leaves_clause_open(sentence: str, edited: str) -> bool:
    """The edit leaves a word that needs one after it (`OPEN_ENDS`) at the end of a clause ("mi accent slip out when mi
    vex." -> "... when.", "I grew up in Leeds, then" -> "I grew up in, then").

    Gain: of the readers' pairs of seeds 2-11 (1 520 rewrites of older code), it flags 15 that a reader judged not
    fluent and 2 that both judged fluent; replaying today's code on the originals of seeds 12-23 it prevents 1 of the
    100 rejected rewrites still produced and changes none of the 358 accepted ones."""
    return _open_clause_ends(edited) > _open_clause_ends(sentence)


def _bare_clauses(text: str) -> int:
    clauses, words = [], []
    for token in TOKEN.findall(text) + ["."]:
        if token in CLAUSE_END:
            clauses += [words] if words else []
            words = []
        elif _WORD.fullmatch(token):
            words.append(token)
    # a one-word clause opening a longer sentence is a discourse marker ("Now, TC around 140k"), not a stub
    opener = len(clauses) > 1 and len(clauses[0]) == 1
    return sum(all(function_word(word) for word in words) for words in clauses[opener:])


def leaves_bare_clause(sentence: str, edited: str) -> bool:
    """The edit leaves a clause whose words are all function words (`data/function_words.txt`) where there was none
    ("Nothing like landing at St. John's." -> "Nothing.", "Was on Parliament Road today, left" -> "Was today, left").

    Gain: of the readers' pairs of seeds 2-11 it flags 11 judged not fluent and 1 judged fluent; replaying today's
    code on seeds 12-23 it prevents 5 of the 100 rejected rewrites still produced (3 of seeds 12-17, which it was not
    written from) and changes none of the 358 accepted ones."""
    return _bare_clauses(edited) > _bare_clauses(sentence)


def leaves_lone_word(sentence: str, edited: str) -> bool:
    """The edit takes every word of a sentence of several but its last, which then stands alone ("Printed boarding
    passes." -> "Passes.", "First woman president." -> "President.", "Two kids." -> "Kids."): what the sentence said of
    that word is gone. Not a word left first ("RDH 4 years now." -> "RDH.", "Forestry, 4th year." -> "Forestry.",
    "Paciencia, mucha paciencia." -> "Paciencia.", which readers accepted).

    Written after reading the notes of seeds 43-53 (benchmarks/results/reader_rejects.md). On data it was not written
    from: of the judged edits of seeds 2-41 it turns away "Votar es obligación." -> "Obligación." (both readers: not
    fluent) and no edit a reader accepted; replaying `local` on the pairs of seeds 29-41 (benchmarks/reader_replay.py
    --unfaithful) it changes 1 of 103 rewrites a reader rejected ("Single and surviving." -> "Surviving.", now
    reported) and none of 217 both accepted; on seeds 43-53, 4 of 84 rejected and none of 236 accepted."""
    before, after = [w.casefold() for w in _WORD.findall(sentence)], [w.casefold() for w in _WORD.findall(edited)]
    return len(before) > 1 and len(after) == 1 and after[0] == before[-1] != before[0]


#: the checks of `breaks_structure`
STRUCTURE_CHECKS = (newly_ends_on_function_word, newly_leaves_clause_open, leaves_bare_clause, leaves_lone_word)


def breaks_structure(sentence: str, edited: str) -> bool:
    """Whether the edit newly ends the sentence on a function word, leaves a clause open, leaves a clause of function
    words only or leaves one word of a sentence alone (`STRUCTURE_CHECKS`): never accepted, whatever the gate's
    chance."""
    return any(check(sentence, edited) for check in STRUCTURE_CHECKS)


def clears_floors(sentence: str, edited: str, fluency: float, word_swap: bool = False) -> bool:
    """Whether the edit of `sentence` with this fluency score clears the hard floor of its kind (a removal or a
    stand-in) and does not `breaks_structure`. A `word_swap` (one noun for another of its kind in the same slot, the
    rest of the sentence as it was: `generalize.kin_swap`) has no fluency floor: the floor turns away sentences an
    edit broke, and such a swap breaks none; its score falls by how much rarer the new word is ("my wife" -> "my
    partner": -1.87)."""
    if word_swap:
        return not breaks_structure(sentence, edited)
    floor = STAND_IN_FLOOR if _WORD.search(edited_words(sentence, edited)[1]) else REMOVAL_FLOOR
    return fluency >= floor and not breaks_structure(sentence, edited)


def features(sentence: str, edited: str, fluency: float, worst: float, nearness: float) -> list[float]:
    """The gate's inputs (`FEATURES`) for `edited`, an edit of `sentence` with its fluency score and worst token
    (`utility.fluency.Fluency`) and the nearness of its old and new words (`edited_words`; ignored for a removal)."""
    old, new = edited_words(sentence, edited)
    out, put = len(_WORD.findall(old)), len(_WORD.findall(new))
    removal = not put
    return [
        fluency,
        worst,
        0.0 if removal else nearness,
        float(removal),
        float(np.log1p(out)),
        float(np.log1p(put)),
        out / max(1, len(_WORD.findall(sentence))),
    ]


def feature_rows(
    edits: Sequence[tuple[str, str]], fluency: Sequence[Fluency], embed: meaning.Embed | None = None
) -> list[list[float]]:
    """`features` of each (sentence, edited sentence) with its `Fluency`, the nearness of the words each changed
    measured by `embed` (default MiniLM)."""
    words = [edited_words(sentence, edited) for sentence, edited in edits]
    pairs = list(dict.fromkeys((old, new) for old, new in words if old and new))
    near = dict(zip(pairs, meaning.nearness(pairs, embed), strict=True))
    return [
        features(sentence, edited, f.score, f.worst, near.get(changed, 0.0))
        for (sentence, edited), f, changed in zip(edits, fluency, words, strict=True)
    ]


@dataclass(frozen=True)
class Gate:
    """A fitted gate: standardisation, weights and the threshold on the probability of "fluent and faithful"."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, rows: Sequence[Sequence[float]]) -> np.ndarray:
        x = (np.asarray(rows, dtype=float).reshape(-1, len(self.weights)) - self.mean) / self.scale
        return 1.0 / (1.0 + np.exp(-(x @ np.asarray(self.weights) + self.bias)))

    def chances(
        self, edits: Sequence[tuple[str, str]], fluency: Sequence[Fluency], embed: meaning.Embed | None = None
    ) -> list[float]:
        """The probability that readers judge each (sentence, edited sentence) fluent and faithful."""
        return self.probability(feature_rows(edits, fluency, embed)).tolist() if edits else []

    def verdicts(
        self,
        edits: Sequence[tuple[str, str]],
        fluency: Sequence[Fluency],
        embed: meaning.Embed | None = None,
        word_swaps: Sequence[bool] | None = None,
    ) -> list[tuple[float, bool]]:
        """(`chances`, whether the edit is accepted: its chance reaches the threshold and it `clears_floors`, each of
        `word_swaps` without the fluency floor)."""
        swaps = word_swaps if word_swaps is not None else [False] * len(edits)
        chances = self.chances(edits, fluency, embed)
        return [
            (chance, chance >= self.threshold and clears_floors(sentence, edited, f.score, swap))
            for (sentence, edited), f, chance, swap in zip(edits, fluency, chances, swaps, strict=True)
        ]

    def save(self, path: Path, **extra) -> None:
        path.write_text(json.dumps({"features": FEATURES, **asdict(self), **extra}, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Gate:
        data = json.loads(path.read_text(encoding="utf-8"))
        if tuple(data["features"]) != FEATURES:
            raise ValueError(f"{path} was trained on other features: {data['features']}")
        return cls(tuple(data["mean"]), tuple(data["scale"]), tuple(data["weights"]), data["bias"], data["threshold"])


@cache
def shipped_gate() -> Gate:
    return Gate.load(GATE_FILE)


def fit(
    rows: Sequence[Sequence[float]],
    labels: Sequence[float],
    config: GateConfig = GateConfig(),
    counts: Sequence[float] | None = None,
) -> Gate:
    """A logistic regression of `labels` (the share of readers who judged the edit fluent and faithful, 0..1) on
    `rows`, each row weighed by its number of verdicts (`counts`, default 1), by Newton's method with an L2 penalty
    on the standardised weights; threshold 0.5 (`operating_point` chooses one)."""
    x = np.asarray(rows, dtype=float)
    y = np.asarray(labels, dtype=float)
    w = np.ones(len(y)) if counts is None else np.asarray(counts, dtype=float)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    theta = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], config.l2)
    penalty[-1] = 0.0  # the bias is not shrunk
    for _ in range(config.steps):
        p = 1.0 / (1.0 + np.exp(-(z @ theta)))
        gradient = z.T @ (w * (p - y)) + penalty * theta
        hessian = (z * (w * p * (1 - p))[:, None]).T @ z + np.diag(penalty) + 1e-9 * np.eye(len(theta))
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return Gate(tuple(mean), tuple(scale), tuple(theta[:-1]), float(theta[-1]), 0.5)


def auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """The area under the ROC curve: the chance that an accepted edit scores above a rejected one (ties half)."""
    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=bool)
    good, bad = s[y], s[~y]
    if not len(good) or not len(bad):
        return float("nan")
    above = (good[:, None] > bad[None, :]).sum() + 0.5 * (good[:, None] == bad[None, :]).sum()
    return float(above / (len(good) * len(bad)))


def operating_point(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """The threshold with the highest balanced accuracy (mean of the shares of accepted edits kept and of rejected
    edits turned away) on `scores`: the gate turns away an edit below it."""
    s, y = np.asarray(scores, dtype=float), np.asarray(labels, dtype=bool)
    best, threshold = -1.0, 0.5
    for t in np.unique(s):
        kept = s >= t
        balanced = (kept[y].mean() if y.any() else 0.0) + ((~kept[~y]).mean() if (~y).any() else 0.0)
        if balanced > best:
            best, threshold = balanced, float(t)
    return threshold
