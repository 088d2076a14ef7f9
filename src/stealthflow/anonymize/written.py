"""Stand-ins written for the marks no other source generalizes (`data/generalize/written_stand_ins.tsv`): a strong LLM
acting as AgentStealth's anonymizer read each phrase the local rewrite left on development posts, in one sentence of
it, and wrote one to three truthful, coarser replacements that fit its slot ("here in Leeds" -> "here in my city"),
and for a common noun at its end a coarser noun for that noun alone ("nurse" -> "healthcare worker"); provenance in
data/README.md. `generalize.candidates` offers them beside the teacher's own generalizations; the kind rules, the
meaning floor and the acceptance gate judge them as any other candidate.

The table: a line per stand-in, tab-separated: `phrase` or `head`, the attribute, the phrase or head noun
(case-folded; a head as written, in its number), the stand-in; lines opening with "#" are comments. `read_answers`
checks the writers' answers (`WORKLIST_COLUMNS` in, `ANSWER_COLUMNS` out, the brief's format) and `write` makes the
table (`stealthflow tagger written-stand-ins`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from stealthflow.data import DataError
from stealthflow.resources import resource_dir

WRITTEN = "generalize/written_stand_ins.tsv"
WORKLIST_COLUMNS = ("id", "attribute", "count", "phrase", "head", "sentence")
ANSWER_COLUMNS = ("id", "phrase", "replacements", "head", "head_replacement")
#: the answer that no truthful coarser form fits
KEEP = "KEEP"
#: a stand-in longer than this many words is a rewrite, not a stand-in
MAX_WORDS = 8
#: a head noun's stand-in is kept when the writers gave it on at least this many lines: one given once is an answer for
#: its sentence (of the 513 heads answered, 453 once, among them "chef" -> "boss", "couple" -> "neighbours", "granny"
#: -> "slow driver"; of the 60 answered alike twice or more, "husband" -> "partner", "nurse" -> "healthcare worker")
MIN_HEAD_ANSWERS = 2

_WORDS = re.compile(r"[\w'’-]+")
_SEPARATOR = re.compile(r"\s*\\?\|\s*")  # "a | b"; "a \| b" as the brief's markdown tables show it


@dataclass(frozen=True)
class Written:
    """The written stand-ins, looked up by the phrase or its head noun and the mark's attribute."""

    phrases: Mapping[tuple[str, str], tuple[str, ...]] = field(
        default_factory=dict
    )  # (phrase, attribute) -> best first
    heads: Mapping[tuple[str, str], str] = field(default_factory=dict)  # (head noun, attribute) -> a coarser noun

    def for_phrase(self, phrase: str, attribute: str) -> tuple[str, ...]:
        return self.phrases.get((phrase_key(phrase), attribute), ())

    def for_head(self, head: str, attribute: str) -> str | None:
        return self.heads.get((head.casefold(), attribute))


def phrase_key(phrase: str) -> str:
    """How the table writes a phrase: its words case-folded, one space between them."""
    return " ".join(phrase.split()).casefold()


def read(path: Path) -> Written:
    """The table at `path`; a malformed line is an error naming it."""
    phrases: dict[tuple[str, str], list[str]] = defaultdict(list)
    heads: dict[tuple[str, str], str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or fields[0] not in {"phrase", "head"} or not all(f.strip() for f in fields):
            raise DataError(f"{path}:{number}: expected 'phrase' or 'head', attribute, words, stand-in (tab-separated)")
        kind, attribute, words, stand_in = fields
        if kind == "phrase":
            phrases[words, attribute].append(stand_in)
        else:
            heads[words, attribute] = stand_in
    return Written({key: tuple(found) for key, found in phrases.items()}, heads)


@cache
def shipped() -> Written:
    """The shipped table (empty when the data directory has none)."""
    path = resource_dir("data") / WRITTEN
    return read(path) if path.is_file() else Written()


def refusal(phrase: str, stand_in: str) -> str | None:
    """Why `stand_in` cannot replace `phrase`, or None: it is empty, the phrase itself, longer than MAX_WORDS words, or
    keeps a number of the phrase or a name (a capitalised word other than its first). Any other word may stay ("on
    minimum wage" -> "on a low wage", "17 years" -> "many years"): a kept word that still tells the attribute leaves
    the mark reported (`marks.stayed`)."""
    words = _WORDS.findall(stand_in.casefold())
    if not words:
        return "empty"
    if stand_in.casefold() == phrase.casefold():
        return "the phrase itself"
    if len(words) > MAX_WORDS:
        return f"longer than {MAX_WORDS} words"
    phrase_words = _WORDS.findall(phrase)
    telling = {w.casefold() for i, w in enumerate(phrase_words) if w.isdigit() or i and w[:1].isupper()}
    kept = telling & set(words)
    return f"keeps {sorted(kept)[0]!r}" if kept else None


@dataclass
class Answers:
    """What `read_answers` took from the writers' files, and what it refused, with why."""

    rows: list[tuple[str, str, str, str]] = field(default_factory=list)  # (kind, attribute, words, stand-in)
    refused: list[str] = field(default_factory=list)
    lines: int = 0  # answer lines read
    kept: int = 0  # phrases answered KEEP


def _tsv(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or tuple(lines[0].split("\t")) != columns:
        raise DataError(f"{path}: the first line must be the header {chr(9).join(columns)!r}")
    rows = []
    for number, line in enumerate(lines[1:], 2):
        fields = line.split("\t")
        if line.strip() and len(fields) != len(columns):
            raise DataError(f"{path}:{number}: {len(fields)} fields, expected {len(columns)}")
        if line.strip():
            rows.append({**dict(zip(columns, fields, strict=True)), "line": f"{path.name}:{number}"})
    return rows


def read_answers(worklists: Iterable[Path], answers: Iterable[Path]) -> Answers:
    """The stand-ins of the writers' `answers` (ANSWER_COLUMNS) for the phrases of `worklists` (WORKLIST_COLUMNS). A
    line is refused whole when its id is not in a worklist or its phrase or head is not the worklist's; a stand-in
    when `refusal` gives a reason. A head noun takes its most frequent answer when given at least MIN_HEAD_ANSWERS
    times."""
    asked = {row["id"]: row for path in worklists for row in _tsv(path, WORKLIST_COLUMNS)}
    found = Answers()
    head_votes: dict[tuple[str, str], Counter] = defaultdict(Counter)
    seen: set[str] = set()
    for path in answers:
        for row in _tsv(path, ANSWER_COLUMNS):
            found.lines += 1
            item = asked.get(row["id"])
            if item is None or row["id"] in seen:
                found.refused.append(f"{row['line']}: id {row['id']!r} not asked or answered twice")
                continue
            seen.add(row["id"])
            if (row["phrase"], row["head"]) != (item["phrase"], item["head"]):
                found.refused.append(f"{row['line']}: phrase or head differs from the worklist's")
                continue
            phrase, attribute = phrase_key(item["phrase"]), item["attribute"]
            if row["replacements"].strip() == KEEP:
                found.kept += 1
            else:
                for stand_in in dict.fromkeys(s.strip() for s in _SEPARATOR.split(row["replacements"]) if s.strip()):
                    if (why := refusal(item["phrase"], stand_in)) is None:
                        found.rows.append(("phrase", attribute, phrase, stand_in))
                    else:
                        found.refused.append(f"{row['line']}: {stand_in!r} for {item['phrase']!r}: {why}")
            head, stand_in = item["head"], row["head_replacement"].strip()
            if head != "-" and stand_in not in {KEEP, "-", ""}:
                if (why := refusal(head, stand_in)) is None:
                    head_votes[head.casefold(), attribute][stand_in] += 1
                else:
                    found.refused.append(f"{row['line']}: {stand_in!r} for the head {head!r}: {why}")
    for (head, attribute), votes in sorted(head_votes.items()):
        stand_in, given = votes.most_common(1)[0]
        if given >= MIN_HEAD_ANSWERS:
            found.rows.append(("head", attribute, head, stand_in))
    return found


def write(rows: list[tuple[str, str, str, str]], out: Path, header: str = "") -> int:
    """Write the table (`read` reads it back), comment lines of `header` first; returns how many stand-ins."""
    comments = "".join(f"# {line}\n" for line in header.splitlines())
    out.write_text(comments + "".join("\t".join(row) + "\n" for row in rows), encoding="utf-8")
    return len(rows)
