"""Teacher rewrites: a strong model's generalizing rewrites of train comments, one per line.

Each line of a teacher file (the JSONL files of `data/teacher-rewrites/` ship; provenance in
data/README.md) is

    {"id": "<profile>#<comment index>" (a train comment) or any other id (a standalone post), "text": ...,
     "cues": [{"phrase": verbatim in text, "attribute": one of ATTRIBUTES, "generalized": its replacement}],
     "explanation": names each phrase and attribute, "rewrite": the comment with each phrase generalized}

A comment without cues has `"cues": []` and `"rewrite": null`: it is copied unchanged. The cues
train the cue tagger (which phrases give an author away), the rewrites the local model (how to
generalize them in place), and the (phrase, generalized) pairs are candidates of the per-phrase
fallback.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from stealthflow.data import ATTRIBUTES, DataError
from stealthflow.resources import resource_dir

SHIPPED = "teacher-rewrites"


_WORD = re.compile(r"\S+")


def _same_word(a: str, b: str) -> bool:
    fold = re.compile(r"[^\w']")
    return bool(fold.sub("", a.casefold())) and fold.sub("", a.casefold()) == fold.sub("", b.casefold())


@dataclass(frozen=True)
class TeacherCue:
    phrase: str
    attribute: str
    generalized: str

    def core(self) -> tuple[int, int, str]:
        """(start, end) in `phrase` of the words the teacher changed, and what replaced them: the words
        the phrase and its generalization share at either end are dropped ("here in Leeds" -> "here in my
        city" gives "Leeds" -> "my city"). The whole phrase when nothing is shared."""
        old, new = list(_WORD.finditer(self.phrase)), self.generalized.split()
        head = 0
        while head < min(len(old), len(new)) and _same_word(old[head].group(), new[head]):
            head += 1
        tail = 0
        while tail < min(len(old), len(new)) - head and _same_word(old[-1 - tail].group(), new[-1 - tail]):
            tail += 1
        changed = old[head : len(old) - tail]
        if not changed or not any(ch.isalnum() for m in changed for ch in m.group()):
            return 0, len(self.phrase), self.generalized
        return changed[0].start(), changed[-1].end(), " ".join(new[head : len(new) - tail])


@dataclass(frozen=True)
class TeacherRewrite:
    id: str
    text: str
    cues: tuple[TeacherCue, ...]
    explanation: str
    rewrite: str | None  # None: nothing to change

    @property
    def profile_id(self) -> str | None:
        """The train profile of a comment ("<profile>#<index>"); None for a standalone post."""
        return self.id.rsplit("#", 1)[0] if "#" in self.id else None

    def spans(self, core: bool = False) -> list[tuple[int, int, str]]:
        """(start, end, attribute) of every occurrence of each cue phrase in the text; with `core`, only
        the words the teacher changed in it (`TeacherCue.core`: "Leeds" of "here in Leeds")."""
        found = []
        for cue in self.cues:
            head, tail = cue.core()[:2] if core else (0, len(cue.phrase))
            start = self.text.find(cue.phrase)
            while start >= 0:
                found.append((start + head, start + tail, cue.attribute))
                start = self.text.find(cue.phrase, start + len(cue.phrase))
        return sorted(set(found))


def shipped_teacher_file() -> Path | None:
    """The shipped teacher rewrites (a folder of JSONL files), if present."""
    path = resource_dir("data") / SHIPPED
    return path if path.is_dir() and any(path.glob("*.jsonl")) else None


def shipped_negatives() -> list[Path]:
    """The shipped posts without cues (one per line) that teach the cue tagger what to leave alone."""
    path = resource_dir("data") / SHIPPED
    return sorted(path.glob("*.txt")) if path.is_dir() else []


def load_teacher_rewrites(path: str | Path) -> dict[str, TeacherRewrite]:
    """id -> rewrite, from one JSONL file or every *.jsonl of a folder; a malformed line is a DataError
    naming the file and line."""
    path = Path(path)
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    rewrites: dict[str, TeacherRewrite] = {}
    for file in files:
        for item in _read(file):
            if item.id in rewrites:
                raise DataError(f"{file}: id {item.id!r} appears twice")
            rewrites[item.id] = item
    return rewrites


def _read(path: Path) -> list[TeacherRewrite]:
    rewrites = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            cues = tuple(
                TeacherCue(c["phrase"], c["attribute"], c.get("generalized", "")) for c in record.get("cues") or []
            )
            item = TeacherRewrite(
                record["id"], record["text"], cues, record.get("explanation") or "", record.get("rewrite")
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise DataError(f"{path}:{number}: not a teacher rewrite ({exc})") from exc
        bad = [c for c in cues if c.attribute not in ATTRIBUTES or c.phrase not in item.text]
        if bad or (cues and not item.rewrite):
            raise DataError(f"{path}:{number}: a cue not found verbatim, an unknown attribute or no rewrite")
        rewrites.append(item)
    return rewrites
