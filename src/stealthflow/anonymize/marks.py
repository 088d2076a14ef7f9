"""What became of each mark of the cue tagger: every mark ends replaced, removed, or reported as stayed. `stayed` is
the one check of it, made on the original post and the text that leaves, whatever path (the model, a stand-in, a
removal, a copy gone with another) touched the mark."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import cache

from stealthflow.anonymize import syntax
from stealthflow.anonymize.generalize import cue_heads, teacher_cues
from stealthflow.anonymize.person_nouns import person_noun
from stealthflow.data.evidence import find_phrase
from stealthflow.evaluation.evidence import STOP_WORDS, span_survives

_WORD = re.compile(r"[\w'’-]+")


def stayed(original: str, rewritten: str, marks: Iterable[tuple[str, str]], reported: Iterable[str]) -> list[str]:
    """`reported` (the phrases the rewrite said stayed), then each other marked phrase of `original` still in
    `rewritten` (its words are there: `span_survives`), or of one the rewrite changed in part, the words it left as
    written around one the teacher changed for one attribute only (`telling_left`): "Twelve years as an ER nurse" of
    "Twelve years as an ER nurse in Leeds" -> "Twelve years as an ER nurse in my city", where the stand-in took "Leeds"
    alone. What is reported is in the text that leaves, word for word."""
    found = list(dict.fromkeys(reported))
    for phrase, _ in marks:
        if phrase in found:
            continue
        pieces = [phrase] if span_survives(phrase, rewritten) else telling_left(original, rewritten, phrase)
        found += [piece for piece in pieces if piece not in found]
    return found


def telling_left(original: str, rewritten: str, phrase: str) -> list[str]:
    """The pieces of `phrase` (its first occurrence in `original`) that the rewrite left as written and that hold a word
    of `telling_words`: each run of its words a word-by-word diff of `original` and `rewritten` finds equal, less the
    stop words at its ends ("Twelve years as an ER nurse" of "Twelve years as an ER nurse in")."""
    where = find_phrase(phrase, original)
    if where is None:
        return []
    a, b = list(_WORD.finditer(original)), list(_WORD.finditer(rewritten))
    matcher = difflib.SequenceMatcher(
        a=[m.group().casefold() for m in a], b=[m.group().casefold() for m in b], autojunk=False
    )
    pieces = []
    for block in matcher.get_matching_blocks():
        run = [
            word for word in a[block.a : block.a + block.size] if where[0] <= word.start() and word.end() <= where[1]
        ]
        if not any(word.group().casefold() in telling_words() for word in run):
            continue
        while run[0].group().casefold() in STOP_WORDS:
            run.pop(0)
        while run[-1].group().casefold() in STOP_WORDS:
            run.pop()
        pieces.append(original[run[0].start() : run[-1].end()])
    return pieces


def telling_attribute(phrase: str) -> str | None:
    """The attribute of the first word of `telling_words` in `phrase` (the one attribute the teacher changed it for:
    "nurse" an occupation), or None: what a piece left of a mark points to, whatever the mark was labelled."""
    told = telling_words()
    return next((min(_head_attributes()[w]) for w in _WORD.findall(phrase.casefold()) if w in told), None)


@cache
def telling_words() -> frozenset[str]:
    """The last words of the teacher's changed phrases of one attribute only (`generalize.cue_heads`: "nurse",
    "contract", "Leeds") that it never wrote in a generalization: a word that heads cues of several ("years",
    "school") or that the teacher's own stand-ins hold ("work" of "at work", "office", "city") may stay around a
    stand-in ("my work wife" -> "my work partner", "the office here in Leeds" -> "the office")."""
    wrote = {word for cue in teacher_cues() for word in _WORD.findall(cue.core()[2].casefold())}
    return frozenset(word for word, found in _head_attributes().items() if len(found) == 1 and word not in wrote)


@cache
def _head_attributes() -> dict[str, frozenset[str]]:
    """Each last word of the teacher's changed phrases (`generalize.cue_heads`), with the attributes it heads."""
    attributes: dict[str, set[str]] = {}
    for attribute, heads in cue_heads().items():
        for word in heads:
            attributes.setdefault(word, set()).add(attribute)
    return {word: frozenset(found) for word, found in attributes.items()}


def value_only(phrase: str) -> bool:
    """`phrase`, a piece of a mark cut around protect's placeholder, tells nothing without the value the placeholder
    hides: it names only someone the author relates to, a first-person possessive and person nouns
    (`person_nouns.person_noun`: "My boss at" of "My boss at <EMPLOYER_1>"), none a word the teacher changed
    (`cue_heads`, `telling_words`: "My husband" of "My husband <REAL_NAME_1>" tells, so does "my manager"), none a
    name or a number. Written from issue 47's report. On the 318 posts of blind sets n-r that protect masks a value in
    (`pipeline.protect`, then `cues.find_cues` with the values), none of the cue tagger's 1 161 marks changes: no gain
    or loss measured there; counting any piece without a telling word, name or number as protected instead, 152 would
    have gone, many telling ("cleaned houses in", "Internal medicine resident at", "Degree in history from")."""
    tokens = [token for token in syntax.parse(phrase) if not token.is_punct]
    mine = any(syntax.is_author(token) and token.tag_ == "PRP$" for token in tokens)
    content = [token for token in tokens if token.pos_ not in syntax.FUNCTION and token.pos_ != "PRON"]
    taught = telling_words() | frozenset().union(*cue_heads().values())
    return (
        mine
        and bool(content)
        and all(person_noun(t.text) and t.lower_ not in taught and not syntax.could_be_name(t) for t in content)
    )


def holds_value(phrase: str, post: str = "") -> bool:
    """`phrase` holds an e-mail address or a link (spaCy's `like_email`, `like_url`), or is part of one of `post`
    (`part_of_value`): a value, no phrase to rewrite. `anonymize` is not the PII step (docs/commands.md): a stand-in or
    a cut would change what the value is ("email dana@x.org" -> "email"), so it keeps its place and, marked, is
    reported as stayed; `protect` masks it with a placeholder, which no mark holds."""
    return any(token.like_email or token.like_url for token in syntax.parse(phrase)) or bool(
        part_of_value(post, phrase)
    )


def part_of_value(post: str, phrase: str) -> str | None:
    """The e-mail address or link of `post` that holds every occurrence of `phrase` (the cue tagger marks pieces of one:
    "m", "okafor" of "m.okafor@posteo.de"), or None. A stayed piece is reported as that whole value, which the
    report counts as a value and never names."""
    values = [(t.idx, t.idx + len(t.text), t.text) for t in syntax.parse(post) if t.like_email or t.like_url]
    found = [m.span() for m in re.finditer(rf"(?<!\w){re.escape(phrase)}(?!\w)", post)] if values and phrase else []
    holders = {next((v for start, end, v in values if start <= a and b <= end), None) for a, b in found}
    return holders.pop() if len(holders) == 1 else None
