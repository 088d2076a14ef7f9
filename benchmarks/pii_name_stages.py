"""Which stage of the PII tagger loses each annotated name (or, with `--types`, each value of other types) the detector
misses: the route (the student the text's guessed languages send it to), the student (no span, or a span of another
label), the type's filter, shaping (the shaped span no longer overlaps the value), the type's threshold, the type's
verifier, the HEALTH context model, or none of them (the tagger kept it; lost later); and which recognizer masks each
span of those types that overlaps no annotated value.

    python benchmarks/pii_name_stages.py FILE [FILE ...]        # JSONL of {text, lang, pii: [{value, type}]}
    python benchmarks/pii_name_stages.py FILE --show            # and the missed and wrong names under each cause
    python benchmarks/pii_name_stages.py FILE --all-languages --json OUT   # every row; counts only in OUT
    python benchmarks/pii_name_stages.py FILE --all-languages --types HEALTH FINANCE   # those types instead of names

Without --all-languages only rows in English ("lang": "en" or none) are read. A value is missed when no span the
detector masks (default levels, one text at a time, as benchmarks/pii_registers.py) overlaps it; each occurrence counts.
Each stage is read as the recognizer runs it (pii_tagger/recognizer.py), on the languages of the detector's piece of
the text that holds the value (`language.read`). A missed name that a word of the name lexicon the spans leave in clear
covers is a name candidate (pii_tagger/name_candidates.py): its stage is the judge's (below its threshold, or kept by
it and dropped by the guards after it); a missed name the student does not tag and no candidate covers is "never a
candidate". A missed value of a type the tagger does not label (USERNAME) is
"no recognizer". A wrong span's cause is the recognizer that masked it (the tagger: the student that tagged it), and
for a name whether it is on the public-name lists (`public_name`); each value's kind (`kind_of_value`) beside it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_name_candidates import detector_with  # noqa: E402
from pii_registers import gold_spans  # noqa: E402

from stealthflow.pii_tagger.context_model import ContextModel, shipped_context_models  # noqa: E402
from stealthflow.pii_tagger.filters.finance import MONEY  # noqa: E402
from stealthflow.pii_tagger.lexicons import ENGLISH_FILE, RELATIVES, TAGGER_HEALTH, given_name  # noqa: E402
from stealthflow.pii_tagger.model import TaggedSpan, load_pii_tagger  # noqa: E402
from stealthflow.pii_tagger.name_candidates import CandidateJudge, shipped_candidate_judge  # noqa: E402
from stealthflow.pii_tagger.reader import SpanReader, shipped_readers  # noqa: E402
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer, span_floors  # noqa: E402
from stealthflow.pii_tagger.route import ENGLISH_STUDENT, may_be_english, student_for  # noqa: E402
from stealthflow.pii_tagger.verifier import KINDS as KINDS_OF_VERIFIERS  # noqa: E402
from stealthflow.pii_tagger.verifier import Candidate, shipped_verifiers  # noqa: E402
from stealthflow.placeholders.common_words import common_word, frequent_in, given_in_languages  # noqa: E402
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.language import OTHERS, read, shared_guesser  # noqa: E402
from stealthflow.placeholders.policy import ProtectConfig  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402
from stealthflow.placeholders.recognizers.languages import listed, vocabulary  # noqa: E402
from stealthflow.placeholders.recognizers.public_names import public_name  # noqa: E402
from stealthflow.placeholders.types import Span  # noqa: E402
from stealthflow.resources import data_yaml  # noqa: E402

NAME = "REAL_NAME"
KINDS = (NAME, "USERNAME")


def stage(
    recognizer: PiiTaggerRecognizer, text: str, start: int, end: int, languages: frozenset[str], label: str = NAME
) -> str:
    """The stage that loses the `label` value text[start:end] in a piece read in `languages`: where the route sends the
    text, then what the student, the filter, the threshold, the verifier, the context models and the readers make of
    the tagger's spans over it."""
    directory = student_for(languages)
    route = "" if directory == ENGLISH_STUDENT else "read by the multilingual student: "
    tagger = load_pii_tagger(directory)
    tagged = [t for t in tagger.tag_many([text], 32, [[]])[0] if t.start < end and start < t.end]
    own = [t for t in tagged if t.label == label]
    if not tagged:
        return route + "student: not tagged"
    if not own:
        return route + "student: tagged " + "/".join(sorted({t.label for t in tagged}))
    return route + _after_student(recognizer, text, own[0], tagger, languages, (start, end))


def _after_student(
    recognizer: PiiTaggerRecognizer, text: str, tagged: TaggedSpan, tagger, languages, value: tuple[int, int]
) -> str:
    span = recognizer._span(text, tagged, may_be_english(languages))
    if span is None or span.type != tagged.label:
        return f"{label_word(tagged.label)} filter"
    if not (span.start < value[1] and value[0] < span.end):
        return "shaping"
    if not recognizer._reaches(text, span, span_floors(tagger, languages)):
        return "threshold"
    candidate = Candidate(text, span.start, span.end, span.score, languages, False)
    for check in (shipped_verifiers().get(span.type), *shipped_context_models(), *shipped_readers()):
        if check is None or check.label != span.type or (check.reads is not None and check.reads not in span.reason):
            continue
        if (least := check.least(languages, span.reason)) <= 0:
            continue
        [score] = check.judge_many([candidate])
        if score is not None and score < least:
            return check.kind.word + _GATE_WORDS.get(type(check), " verifier")
    return "kept by the tagger (lost later)"


_GATE_WORDS = {ContextModel: " model", SpanReader: ""}  # a reader's word names it ("address reader")


def label_word(label: str) -> str:
    """The word a label's verifier is named by ("name" for REAL_NAME), else the label in lower case."""
    return KINDS_OF_VERIFIERS[label].word if label in KINDS_OF_VERIFIERS else label.lower()


def missed_stage(recognizer: PiiTaggerRecognizer, text: str, start: int, end: int, kind: str) -> str:
    """`stage` on the detector's piece of `text` that holds the value (a type the tagger does not label, a USERNAME:
    no recognizer found it)."""
    if kind not in load_pii_tagger(ENGLISH_STUDENT).labels:
        return "no recognizer"
    reading = read(text, shared_guesser())
    piece = next((p for p in reading.pieces if p.start <= start < p.end), reading.pieces[-1])
    if not piece.guess.readers:
        return "route: read in no covered language"
    offset = piece.start
    return stage(recognizer, text[offset : piece.end], start - offset, end - offset, piece.guess.readers, kind)


class RecordingJudge(CandidateJudge):
    """The shipped name candidates' judge, which records each candidate it scores ((text read, start, end, score) in
    `seen`) and each it keeps (`kept`)."""

    def __init__(self, judge: CandidateJudge):
        super().__init__(judge.label, judge.trees, judge.base, judge.rate, judge.threshold, judge.threshold_others)
        object.__setattr__(self, "seen", [])
        object.__setattr__(self, "kept", set())

    def forget(self) -> None:
        """Start a new text's record."""
        self.seen.clear()
        self.kept.clear()

    def judge(self, rows: list[list[float]], places: list[tuple[str, int, int]]) -> list[float]:
        scores = super().judge(rows, places)
        self.seen += [(*place, score) for place, score in zip(places, scores, strict=True)]
        return scores

    def added(self, texts, kept, settled, tokens, labels, languages):
        found = super().added(texts, kept, settled, tokens, labels, languages)
        self.kept.update(
            (text, start, end) for text, judged in zip(texts, found, strict=True) for start, end, _ in judged
        )
        return found


def candidate_stage(judge: RecordingJudge, text: str, start: int, end: int) -> str | None:
    """The name candidates' stage of the missed value text[start:end], from the candidates `judge` scored in the text:
    below the judge's threshold, or kept by it and dropped after; None if none covers it (in a piece the detector
    normalised, one whose words hold the value's or the value holds)."""
    value = text[start:end]
    for piece, a, b, _ in judge.seen:
        offset = 0 if piece == text else text.find(piece)
        # a piece the detector normalised (quotes, spaces) is not found in the text: its candidate's words are matched
        at = a + offset < end and start < b + offset if offset >= 0 else piece[a:b] in value or value in piece[a:b]
        if at:
            if (piece, a, b) in judge.kept:
                return "name candidate: kept by the judge, dropped by the guards after it"
            return "name candidate: judge below its threshold"
    return None


def wrong_cause(text: str, span: Span, lang: str) -> str:
    """Who masked a span on no annotated value: its recognizer (the tagger's student), whether the name is a
    public one, and what the value is (`kind_of_value`)."""
    source = span.source
    if source == "pii_tagger":
        source += " (multilingual student)" if "multilingual" in span.reason else " (English student)"
    public = ", on the public-name lists" if span.type == NAME and public_name(text, span.start, span.end) else ""
    return f"{source}{public}, {kind_of_value(span.text_in(text), lang, span.type)}"


def kind_of_value(value: str, lang: str, kind: str = NAME) -> str:
    """What a value is: a name's (`kind_of_name`), a HEALTH or FINANCE value's (`kind_of_detail`)."""
    return kind_of_detail(value, lang, kind) if kind in DETAILS else kind_of_name(value, lang)


def kind_of_detail(value: str, lang: str, kind: str) -> str:
    """A HEALTH or FINANCE value's length (one word, two to five, a sentence-long phrase of six or more) and what it
    holds: HEALTH, a condition, treatment or medicine of the lexicons (en.yaml's `conditions` and the tagger's lists,
    the row language's `conditions`) or none; FINANCE, a money amount (a digit) with or without a money word (`MONEY`:
    "salary", "debt", a currency), a money word without an amount ("student loan"), or neither."""
    words = value.split()
    length = "one word" if len(words) == 1 else "two to five words" if len(words) < 6 else "a sentence-long phrase"
    if kind == "HEALTH":
        folded = f" {' '.join(_WORDS.findall(value.casefold()))} "
        held = any(f" {entry} " in folded for entry in _health_entries(lang))
        return f"{length}, {'a' if held else 'no'} condition of the lexicons"
    money = MONEY.search(value) is not None
    if any(c.isdigit() for c in value):
        return f"{length}, a money amount{' with a money word' if money else ''}"
    return f"{length}, {'a money word, no amount' if money else 'no amount, no money word'}"


DETAILS = ("HEALTH", "FINANCE")
_WORDS = re.compile(r"[\w'’-]+")


@cache
def _health_entries(lang: str) -> frozenset[str]:
    english = data_yaml(ENGLISH_FILE)
    entries = [entry for key in TAGGER_HEALTH for entry in english[key]] + [*listed("en", "conditions")]
    entries += listed(lang, "conditions") if lang in OTHERS else ()
    return frozenset(" ".join(_WORDS.findall(str(entry).casefold())) for entry in entries)


def kind_of_name(value: str, lang: str) -> str:
    """A kinship word ("Oma"), a full name (two words or more), one word that is a given name of the lexicons (Faker's:
    `given_name`, `given_in_languages`; "Leider" too), another word of the text's language (English: WordNet's common
    words, `common_word`; another language: its frequent words, `frequent_in`; "Helaas", "Bill"), or another word."""
    words = value.split()
    if _KINSHIP.fullmatch(value) or (lang in OTHERS and value.casefold() in _kinship_words(lang)):
        return "kinship word"
    if len(words) > 1:
        return "two words or more"
    if given_name(value) or given_in_languages(value):
        return "one word, a given name of the lexicons"
    if common_word(value) if lang not in OTHERS else frequent_in(value, lang):
        return "one word, another word of its language"
    return "one word, other"


_KINSHIP = re.compile(rf"(?i:{RELATIVES})")


@cache
def _kinship_words(code: str) -> frozenset[str]:
    """The last words of a language's relatives' cues ("meine oma": "oma")."""
    return frozenset(cue.split()[-1] for cue in vocabulary(code).relatives)


def capitals(value: str) -> str:
    return "capitalised" if value[:1].isupper() else "not capitalised"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--show", action="store_true", help="print the missed and wrong names under each cause")
    parser.add_argument("--all-languages", action="store_true", help="every row, not only the English ones")
    parser.add_argument("--json", type=Path, help="also write the counts here (no text)")
    parser.add_argument("--types", nargs="+", default=list(KINDS), help="the annotated types read (default: names)")
    args = parser.parse_args()
    judge = shipped_candidate_judge()
    recording = RecordingJudge(judge) if judge else None
    detector = (
        detector_with(recording, cache_entries=0)
        if recording
        else Detector(build_recognizers(models=True), cache_entries=0)
    )
    recognizer, config = PiiTaggerRecognizer(), ProtectConfig()
    rows = [json.loads(line) for path in args.files for line in path.read_text(encoding="utf-8").splitlines() if line]
    rows = [row for row in rows if args.all_languages or row.get("lang", "en") == "en"]
    counts: dict[str, Counter[str]] = {key: Counter() for key in ("names", "found", "missed", "masked", "wrong")}
    shown: dict[str, list[str]] = {}
    for row in rows:
        if recording:
            recording.forget()
        [spans] = detector.detect_many([row["text"]])
        text, lang, gold = row["text"], row.get("lang", "en"), gold_spans(row)
        masked = [s for s in spans if config.masks(s.type, s.level)]
        for start, end, kind in gold:
            if kind not in args.types:
                continue
            counts["names"][f"{kind} {lang}"] += 1
            if any(s.start < end and start < s.end for s in masked):
                counts["found"][f"{kind} {lang}"] += 1
                continue
            value = text[start:end]
            shape = f"{capitals(value)}, " if kind in KINDS else ""
            lost = missed_stage(recognizer, text, start, end, kind)
            judged = candidate_stage(recording, text, start, end) if recording and kind == NAME else None
            if judged:
                lost = judged
            elif lost.endswith("student: not tagged") and kind == NAME:
                lost += " (never a candidate)"
            cause = f"{kind} {lang}, {shape}{kind_of_value(value, lang, kind)}: {lost}"
            counts["missed"][cause] += 1
            shown.setdefault("missed " + cause, []).append(text[start:end])
        for span in masked:
            if span.type not in args.types:
                continue
            counts["masked"][f"{span.type} {lang}"] += 1
            if any(s < span.end and span.start < e for s, e, _ in gold):
                continue
            cause = f"{span.type} {lang}{' (passage without PII)' if not gold else ''}: {wrong_cause(text, span, lang)}"
            counts["wrong"][cause] += 1
            shown.setdefault("wrong " + cause, []).append(span.text_in(text))
    for key in ("missed", "wrong"):
        print(f"{key}: {counts[key].total()}")
        for cause, count in sorted(counts[key].items()):
            print(f"{count:5d}  {cause}" + (f": {' | '.join(shown[key + ' ' + cause])}" if args.show else ""))
    print("annotated:", dict(counts["names"]), "found:", dict(counts["found"]), "masked:", dict(counts["masked"]))
    if args.json:
        args.json.write_text(json.dumps({key: dict(sorted(c.items())) for key, c in counts.items()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
