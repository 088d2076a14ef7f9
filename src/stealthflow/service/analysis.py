"""What the page shows for a post, over the service's own API (any client may call it):

POST /analyze {text, session}   -> (session "default" when not given) explicit PII (spans with their placeholders), the request id that restores a
                                   reply to it (`/restore` with `request`), the phrases that point to
                                   an attribute (cues), the rewrite as a diff against the protected text,
                                   the phrases it could not generalize (unprotected), what it could not
                                   read (not_checked: why, or ""), the text to send, and a risk line per
                                   attribute
GET /sessions/{session}         -> the session's placeholders and the values behind them
DELETE /sessions/{session}      -> forget the session (and every value only it holds)

Everything runs on the service's protector and rewriter (`with_rewrites`, as `/protect` with a
rewrite), the shipped cue tagger and the classifier attacker: no second code path.
"""

from __future__ import annotations

import difflib
import re
import threading
import time
from collections import Counter
from functools import cache

from fastapi import APIRouter

from stealthflow.anonymize.placeholders_kept import PROTECT_PLACEHOLDER
from stealthflow.attack.strength import ABOVE_MAJORITY, ABOVE_UNIFORM, NOT_ABOVE_CHANCE, measured_verdicts
from stealthflow.data.attributes import ATTRIBUTES, DESCRIPTIONS
from stealthflow.pipeline.protector import Protected, Protector
from stealthflow.pipeline.rewrite import NamedRewriter, RewriteOutcome, with_rewrites
from stealthflow.placeholders.styles import render
from stealthflow.service.requests import AnalyzeRequest, session_refused
from stealthflow.service.security import error_response

_TOKEN = re.compile(rf"{PROTECT_PLACEHOLDER.pattern}|\w+|\s+|[^\w\s]")
_EVALUATED_ON = "its own test (200 held-out profiles)"
WARM_UP = "Twelve years as a nurse and the rent here keeps going up."


def diff_pieces(before: str, after: str) -> list[dict]:
    """`before` -> `after` as pieces: `{"same": s}` or `{"before": b, "after": a}` (one change each),
    word by word, a placeholder one word; changes only whitespace apart are one change."""
    old, new = _TOKEN.findall(before), _TOKEN.findall(after)
    pieces: list[dict] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            pieces.append({"same": "".join(old[i1:i2])})
            continue
        removed, added = "".join(old[i1:i2]), "".join(new[j1:j2])
        if len(pieces) >= 2 and "before" in pieces[-2] and not pieces[-1]["same"].strip():
            gap = pieces.pop()["same"]
            removed, added = pieces[-1]["before"] + gap + removed, pieces[-1]["after"] + gap + added
            pieces.pop()
        elif pieces and "before" in pieces[-1]:
            removed, added = pieces[-1]["before"] + removed, pieces.pop()["after"] + added
        pieces.append({"before": removed, "after": added})
    return pieces


def risk_lines(
    cues_before: dict[str, int],
    cues_after: dict[str, int],
    guesses: dict[str, tuple[list[str], list[str]]],
    verdicts: dict[str, str],
    not_checked: str = "",
) -> list[dict]:
    """Per attribute: what the attackers used here guess before / after, how far their guess is worth
    anything (their verdict on their own evaluation), and how many phrases point to it; `not_checked`: why the
    rewrite and the cue tagger did not read (some of) the post, said in place of "no phrase points here"."""
    lines = []
    for attribute in ATTRIBUTES:
        before, after = cues_before.get(attribute, 0), cues_after.get(attribute, 0)
        phrases = _phrases_line(before, after, not_checked)
        line = {"attribute": attribute, "name": DESCRIPTIONS[attribute], "cues_before": before, "cues_after": after}
        if attribute in guesses:
            verdict = verdicts.get(attribute, "not evaluated")
            first, then = (g[0] if g else "no guess" for g in guesses[attribute])
            badge, worth = _WORTH.get(verdict, ("not evaluated", "This attacker was not evaluated on it."))
            said = f"The classifier attacker guesses {first} from your post, {then} from the text to send. {worth} {phrases}"
            lines.append(
                line
                | {
                    "attackers": ["classifier"],
                    "verdict": verdict,
                    "badge": f"classifier: {badge}",
                    "guess_before": first,
                    "guess_after": then,
                    "line": said,
                }
            )
        else:
            lines.append(
                line
                | {
                    "attackers": [],
                    "verdict": "not measured",
                    "badge": "no attacker here",
                    "line": f"No attacker here scores it. {phrases}",
                }
            )
    return lines


def _phrases_line(before: int, after: int, not_checked: str) -> str:
    """How many phrases point to an attribute, before and after; a text not read is not said to hold none."""
    if not not_checked:
        if before or after:
            return f"Phrases pointing here (cue tagger): {before} in your post, {after} in the text to send."
        return "No phrase points here (cue tagger)."
    counted = f" (in what it read: {before} in your post, {after} in the text to send)" if before or after else ""
    return f"{not_checked[0].upper()}{not_checked[1:]}; no phrase was looked for in what it does not read{counted}."


_WORTH = {  # verdict -> (badge, what the guess is worth), from the attacker's test on held-out profiles
    ABOVE_MAJORITY: (
        "beats the majority guess",
        f"On {_EVALUATED_ON} it beats always guessing the most common answer.",
    ),
    ABOVE_UNIFORM: (
        "weak",
        f"On {_EVALUATED_ON} it beats a random guess but not always guessing the most common answer: a weak signal.",
    ),
    NOT_ABOVE_CHANCE: ("chance", f"On {_EVALUATED_ON} it is no better than chance: its guess says nothing."),
}


class Analyzer:
    """The page's view of one post, from the service's protector and rewriter."""

    def __init__(self, protector: Protector, rewriter: NamedRewriter | None):
        self.protector = protector
        self.rewriter = rewriter
        self._attacker_lock = threading.Lock()

    def analyze(self, text: str, session: str) -> dict:
        started = time.perf_counter()
        protected = self.protector.protect(text, session)
        sent = with_rewrites([protected], self.rewriter.method())[0] if self.rewriter else protected
        cues, cues_after = _cues([text, sent.text], [[(s.start, s.end) for s in protected.spans], []])
        changes = list(sent.rewrite.changes) if sent.rewrite else []
        # what the rewrite could not read ("not checked: the local rewrite reads English only (language: de)"), as
        # `/protect` says it: the page shows it, never "nothing to change" for a post it did not read
        not_checked = sent.rewrite.unread_why if sent.rewrite and sent.rewrite.unread else ""
        diff = diff_pieces(protected.text, sent.text)
        for piece in diff:
            if "before" in piece:
                piece["attributes"] = sorted(
                    {
                        c["attribute"]
                        for c in changes
                        if c.get("attribute") and c.get("phrase") and c["phrase"] in piece["before"]
                    }
                )
        return {
            "session": session,
            "vault": protected.vault,
            "request": self.protector.record_request(session, protected),  # `/restore` of a reply: its placeholders
            "spans": [s.to_json() for s in protected.spans],
            "cues": [
                {"start": c.start, "end": c.end, "attribute": c.label, "name": DESCRIPTIONS.get(c.label, c.label)}
                for c in cues
            ],
            "protected": protected.text,
            "rewrite": sent.rewrite.to_json(self.rewriter.name) if sent.rewrite else None,
            "not_checked": not_checked,
            "unprotected": _left_as_they_were(sent.rewrite),
            "diff": diff,
            "text": sent.text,
            "warnings": protected.warnings,
            "risk": risk_lines(
                Counter(c.label for c in cues),
                Counter(c.label for c in cues_after),
                self._guesses(text, sent.text),
                measured_verdicts().get("classifier", {}),
                not_checked,
            ),
            "seconds": round(time.perf_counter() - started, 2),
        }

    def warm(self) -> None:
        """Load the cue tagger, the attacker and the rewrite model (a server's first post is then as
        fast as the next); touches no vault."""
        _cues([WARM_UP])
        self._guesses(WARM_UP, WARM_UP)
        if self.rewriter is not None:
            with_rewrites([Protected(WARM_UP, [])], self.rewriter.method())

    def _guesses(self, before: str, after: str) -> dict[str, tuple[list[str], list[str]]]:
        attacker = _classifier_attacker()
        covered = [a for a in ATTRIBUTES if attacker.covers(a)]
        with self._attacker_lock:  # its embedding cache is shared
            first, then = attacker.attack_many([before, after], [covered, covered])
        return {a: (first.guesses[a].guesses, then.guesses[a].guesses) for a in covered}

    def placeholders(self, session: str) -> list[dict]:
        values = self.protector.vault.session_values(self.protector.config.user, session)
        values.sort(key=lambda item: (item[0].type, item[0].index or 0, item[0].token))
        return [
            {"placeholder": render(self.protector.config.style, entry), "type": entry.type, "value": value}
            for entry, value in values
        ]

    def forget(self, session: str) -> dict:
        grants, deleted = self.protector.vault.forget_session(self.protector.config.user, session)
        return {"session": session, "placeholders": grants, "values_deleted": deleted}


def _left_as_they_were(rewrite: RewriteOutcome | None) -> list[dict]:
    """The phrases the rewrite could not generalize, each with the attribute the rewrite marked it for (its own
    labels, as the cues and the risk lines count them): the page warns that they go out as they are."""
    if rewrite is None:
        return []
    return [
        {"phrase": phrase, "attributes": [DESCRIPTIONS.get(attribute, attribute)] if attribute else []}
        for phrase, attribute in zip(rewrite.unprotected, rewrite.attributes, strict=True)
    ]


def _cues(texts: list[str], masked: list[list[tuple[int, int]]] | None = None):
    """Each text's cues as the local rewrite reads them (`find_cues`, then `split_marks`: "Denver" a location and "I
    work as a dentist" an occupation, not one mark over the sentence), none in what it does not read (`read_marks`: a
    post or sentence in another language): the page's marks and its risk lines count what the rewrite acts on (ux23
    finding 3)."""
    from stealthflow.anonymize.cues import find_cues, load_cue_tagger, split_marks
    from stealthflow.anonymize.read_languages import read_marks
    from stealthflow.placeholders.language import shared_guesser

    tagger, guesser = load_cue_tagger(), shared_guesser()
    found = split_marks(tagger, texts, find_cues(tagger, texts, masked))
    return [read_marks(guesser, text, marks) for text, marks in zip(texts, found, strict=True)]


@cache
def _classifier_attacker():
    from stealthflow.attack.classifier import load_classifier_attacker

    return load_classifier_attacker()


def analysis_router(analyzer: Analyzer) -> APIRouter:
    router = APIRouter()

    @router.post("/analyze")
    def analyze(request: AnalyzeRequest) -> dict:
        return analyzer.analyze(request.text, request.session)

    @router.get("/sessions/{session}")
    def placeholders(session: str):
        if refused := session_refused(session):
            return error_response(403, refused)
        return {"session": session, "placeholders": analyzer.placeholders(session)}

    @router.delete("/sessions/{session}")
    def forget(session: str):
        if refused := session_refused(session):
            return error_response(403, refused)
        return analyzer.forget(session)

    return router
