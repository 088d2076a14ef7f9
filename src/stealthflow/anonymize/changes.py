"""What a rewrite changed: every stretch of the original that left the text, what replaced it, and
the attribute of the marked phrase it covers; and how to say it in one line."""

from __future__ import annotations

import difflib
import os
import re

from stealthflow.data.attributes import attribute_word
from stealthflow.data.evidence import find_phrase

_TOKEN = re.compile(r"\S+")
_WORD = re.compile(r"\w+")
REMOVED = "removed"  # the "by" of a stretch that left with nothing in its place


def text_changes(
    original: str, rewritten: str, cues: list[tuple[str, str]], how: str, removals: list[tuple[str, str]] = ()
) -> list[dict]:
    """Every stretch of `original` that left the text (word by word), what replaced it, the
    attribute of the marked phrase that overlaps most of the characters that left (None: the model changed
    more than was marked), and by what: `how`, or for a stretch of one of `removals` ((what left, how): a clause or
    a sentence that left with a mark, `fallback.Removal`) its how, or `REMOVED` for one that left with nothing put
    in its place (the words around it kept: "in Hackney on a barista's wage" -> ""); `"name"`: the attribute as
    users read it (`attribute_word`). A word kept but for its punctuation did not leave: in "Lagos for a desk job in
    Toronto." -> "Lagos." the attribute is that of "a desk job", not of "Lagos", which stayed."""
    if original == rewritten:
        return []
    a, b = list(_TOKEN.finditer(original)), list(_TOKEN.finditer(rewritten))
    matcher = difflib.SequenceMatcher(a=[m.group() for m in a], b=[m.group() for m in b], autojunk=False)
    cue_spans = [(hit, attribute) for phrase, attribute in cues if (hit := find_phrase(phrase, original))]
    changes = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        removed = original[a[i1].start() : a[i2 - 1].end()] if i2 > i1 else ""
        added = rewritten[b[j1].start() : b[j2 - 1].end()] if j2 > j1 else ""
        start = a[i1].start() if i2 > i1 else (a[i1].start() if i1 < len(a) else len(original))
        first, last = _left(removed, added, start) if removed else (start, start + 1)  # an insertion: where it went
        overlaps = [(min(e, last) - max(s, first), attribute) for (s, e), attribute in cue_spans]
        size, attribute = max(overlaps, key=lambda o: o[0], default=(0, None))
        by = next((kind for gone, kind in removals if _within(removed, added, gone)), None)
        by = by or (REMOVED if removed and _only_kept(removed, added) else how)
        attribute = attribute if size > 0 else None
        name = attribute_word(attribute) if attribute else None
        changes.append({"phrase": removed, "replacement": added, "attribute": attribute, "name": name, "by": by})
    return changes


def _only_kept(removed: str, added: str) -> bool:
    """Whether `added` puts in no word of its own in place of `removed` ("folks hosting in Austin?" -> "folks?")."""
    return set(_WORD.findall(added.casefold())) <= set(_WORD.findall(removed.casefold()))


def _within(removed: str, added: str, gone: str) -> bool:
    """The stretch `removed` of the original, `added` in its place, is the removal `gone` (a clause or sentence as it
    read when it left, after other edits of it): at least half of the words of `gone` are among those of `removed`,
    and `added` only keeps words of `removed` around it ("food, and I grew up in Leeds." -> "food.")."""
    left, was = set(_WORD.findall(gone.casefold())), set(_WORD.findall(removed.casefold()))
    return bool(left) and 2 * len(left & was) >= len(left) and set(_WORD.findall(added.casefold())) <= was - left


def _left(removed: str, added: str, start: int) -> tuple[int, int]:
    """The (start, end) in the original of what left the text: `removed` (at `start`) without the
    characters it shares with `added` at either end."""
    head = len(os.path.commonprefix([removed, added]))
    tail = len(os.path.commonprefix([removed[head:][::-1], added[head:][::-1]]))
    return start + head, start + len(removed) - tail


def describe_change(change: dict) -> str:
    """'"here in Leeds" -> "here in my city" (location)'; without a replacement, what was cut."""
    attribute = f" ({attribute_word(change['attribute'])})" if change.get("attribute") else ""
    before, after = change.get("phrase") or "", change.get("replacement") or ""
    if before and after:
        return f'"{before}" -> "{after}"{attribute}'
    return f'added "{after}"' if after else f'removed "{before}"{attribute}'
