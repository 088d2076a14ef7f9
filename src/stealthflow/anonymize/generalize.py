"""Per-phrase generalization: replace a phrase that gives the author away with a coarser one that
reads well in its sentence.

Candidates for a marked phrase come from data: the teacher's own generalization of the same
phrase (`data/teacher-rewrites`), generic stand-ins per attribute (`data/generalize/generic.yaml`,
also behind the phrase's leading words: "in Leeds" -> "in my city"), and dropping the phrase.
The embedded model scores every candidate sentence against the original
(`stealthflow.utility.fluency`); the best one is taken if it reads at least as well as the
fluency floor allows. A phrase no candidate can replace fluently stays, and is reported.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import yaml

from stealthflow.data.evidence import find_phrase
from stealthflow.resources import resource_dir

if TYPE_CHECKING:
    from stealthflow.utility.fluency import FluencyScorer

#: A candidate replacement is fluent when its edit reads at least as well as the original there (mean
#: log-probability per token over the edited stretch, rewrite minus original; see utility/fluency.py).
#: The best of ~20 candidates is taken, so the bar is stricter than for one rewrite (local.MODEL_FLOOR).
#: On 120 teacher rewrites of train comments (benchmarks/fluency_floor.py): median -0.03; the same
#: comments with the cues deleted: median -2.72.
FLUENCY_FLOOR = 0.0


@dataclass(frozen=True)
class Replacement:
    phrase: str
    attribute: str
    replacement: str | None  # None: no candidate read fluently; the phrase stayed
    score: float


@dataclass(frozen=True)
class GenericLexicon:
    prepositions: frozenset[str]
    determiners: frozenset[str]
    stand_ins: dict[str, tuple[str, ...]]  # attribute -> generic stand-ins


@cache
def generic_lexicon() -> GenericLexicon:
    """data/generalize/generic.yaml."""
    data = yaml.safe_load((resource_dir("data") / "generalize" / "generic.yaml").read_text(encoding="utf-8"))
    return GenericLexicon(
        frozenset(data["prepositions"]),
        frozenset(data["determiners"]),
        {a: tuple(w) for a, w in data["attributes"].items()},
    )


@cache
def teacher_table() -> dict[str, str]:
    """phrase (case-folded) -> the teacher's most frequent generalization of it."""
    from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites, shipped_teacher_file

    path = shipped_teacher_file()
    if path is None:
        return {}
    seen: dict[str, Counter] = defaultdict(Counter)
    for rewrite in load_teacher_rewrites(path).values():
        for cue in rewrite.cues:
            seen[cue.phrase.casefold()][cue.generalized] += 1
    return {phrase: counts.most_common(1)[0][0] for phrase, counts in seen.items()}


def candidates(phrase: str, attribute: str) -> list[str]:
    """Replacements to try for `phrase` (each differs from it; "" drops it)."""
    lexicon = generic_lexicon()
    lead = []  # the phrase's leading prepositions and determiners ("as an", "in")
    for word in phrase.split()[:-1]:
        if word.casefold() not in lexicon.prepositions | lexicon.determiners:
            break
        lead.append(word)
    found = []
    if (taught := teacher_table().get(phrase.casefold())) is not None:
        found.append(taught)
    for stand_in in lexicon.stand_ins.get(attribute, ()):
        found.append(stand_in)
        first = stand_in.split()[0].casefold()
        prefix = list(lead)
        if first in lexicon.determiners:  # "as an" + "my job" -> "as" + "my job"
            while prefix and prefix[-1].casefold() in lexicon.determiners:
                prefix.pop()
        if prefix and first not in lexicon.prepositions:
            found.append(" ".join([*prefix, stand_in]))
    found.append("")
    return [c for c in dict.fromkeys(found) if c.casefold() != phrase.casefold()]


def replace_once(text: str, phrase: str, replacement: str) -> str | None:
    """`text` with the first occurrence of `phrase` replaced (capitalised at a sentence start,
    spaces and punctuation tidied when it is dropped); None when the phrase is not there."""
    found = find_phrase(phrase, text)
    if found is None:
        return None
    before, after = text[: found[0]], text[found[1] :]
    if replacement and (not before.strip() or re.search(r"[.!?]\s*$", before)) and phrase[:1].isupper():
        replacement = replacement[:1].upper() + replacement[1:]
    if not replacement:
        before, after = before.rstrip(" "), after.lstrip(" ")
        if not before.strip() or re.search(r"[.!?]$", before):  # the phrase opened a sentence
            after = after.lstrip(",;: ")
            return before + (" " if before else "") + after[:1].upper() + after[1:]
        if re.match(r"[,.;:!?)]", after):
            if re.search(r"[,;:]$", before):
                before = before[:-1]
            return before + after
        return before + (" " if after else "") + after
    return before + replacement + after


_SENTENCE_END = re.compile(r"[.!?…]+[\"')\]]*\s+|\n+")


def sentence_around(text: str, phrase: str) -> tuple[int, int]:
    """Offsets of the sentence holding the first occurrence of `phrase` (the whole text if it is not
    there): candidates are scored in their sentence, not in the whole post."""
    found = find_phrase(phrase, text)
    if found is None:
        return 0, len(text)
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, found[0])), default=0)
    after = _SENTENCE_END.search(text, found[1])
    return start, after.end() if after else len(text)


class Generalizer:
    def __init__(self, scorer: FluencyScorer | Callable[[], FluencyScorer], floor: float = FLUENCY_FLOOR):
        self._scorer = scorer  # a scorer, or what builds one when a phrase first needs it
        self.floor = floor

    @property
    def scorer(self) -> FluencyScorer:
        if callable(self._scorer) and not hasattr(self._scorer, "compare"):
            self._scorer = self._scorer()
        return self._scorer

    def generalize(self, texts: list[str], phrases: list[list[tuple[str, str]]]) -> list[tuple[str, list[Replacement]]]:
        """Per text: the text with each (phrase, attribute) replaced by its best fluent candidate, and
        what happened to each phrase. Texts are processed together, one phrase of each per batch."""
        current = list(texts)
        done: list[list[Replacement]] = [[] for _ in texts]
        pending = [list(dict.fromkeys(p)) for p in phrases]
        while any(pending):
            originals, trials, owners = [], [], []
            for i, queue in enumerate(pending):
                while queue and find_phrase(queue[0][0], current[i]) is None:
                    queue.pop(0)  # gone already (an earlier replacement covered it)
                if not queue:
                    continue
                phrase, attribute = queue[0]
                start, end = sentence_around(current[i], phrase)
                window = current[i][start:end]
                for candidate in candidates(phrase, attribute):
                    trial = replace_once(window, phrase, candidate)
                    if trial is not None and trial.strip():
                        originals.append(window)
                        trials.append(trial)
                        owners.append((i, candidate, start, end))
            if not trials:
                break
            scores = self.scorer.compare(originals, trials)
            # The best replacement that reads fluently; dropping the phrase only when none does.
            best: dict[int, tuple[float, str, str]] = {}
            for (i, candidate, start, end), trial, fluency in zip(owners, trials, scores, strict=True):
                rank = (fluency.score >= self.floor and candidate != "", fluency.score)
                if i not in best or rank > (best[i][0] >= self.floor and best[i][1] != "", best[i][0]):
                    best[i] = (fluency.score, candidate, current[i][:start] + trial + current[i][end:])
            for i, queue in enumerate(pending):
                if not queue:
                    continue
                phrase, attribute = queue.pop(0)
                if i not in best:
                    done[i].append(Replacement(phrase, attribute, None, float("-inf")))
                    continue
                score, candidate, trial = best[i]
                if score >= self.floor:
                    current[i] = trial
                    done[i].append(Replacement(phrase, attribute, candidate, score))
                else:
                    done[i].append(Replacement(phrase, attribute, None, score))
        return list(zip(current, done, strict=True))
