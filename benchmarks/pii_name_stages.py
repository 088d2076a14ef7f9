"""Which stage of the PII tagger loses each annotated name the detector misses: the route (the student the text's
guessed languages send it to), the student (no span, or a span of another label), the name filter, the type's
threshold, the name verifier, or none of them (the tagger kept it; lost later).

    python benchmarks/pii_name_stages.py FILE [FILE ...]        # JSONL of {text, lang, pii: [{value, type}]}
    python benchmarks/pii_name_stages.py FILE --show            # and the missed names under each stage

Only rows in English ("lang": "en" or none) are read. A name is missed when no span the detector masks (default levels,
one text at a time, as benchmarks/pii_registers.py) overlaps it; each occurrence counts. Each stage is read as the
recognizer runs it (pii_tagger/recognizer.py), on the text's whole-text language guess (the detector guesses per
sentence too: a long text's sentence may go to the other student).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import predict  # noqa: E402
from pii_registers import gold_spans  # noqa: E402

from stealthflow.pii_tagger.model import TaggedSpan, load_pii_tagger  # noqa: E402
from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer, span_floors  # noqa: E402
from stealthflow.pii_tagger.route import ENGLISH_STUDENT, may_be_english, student_for  # noqa: E402
from stealthflow.pii_tagger.verifier import Candidate, shipped_verifiers  # noqa: E402
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.language import shared_guesser  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402

NAME = "REAL_NAME"


def stage(recognizer: PiiTaggerRecognizer, text: str, start: int, end: int) -> str:
    """The stage that loses the name text[start:end]: where the route sends the text, then what the student, the
    filter, the threshold and the verifier make of the tagger's spans over it."""
    languages = shared_guesser().guess(text).candidates
    directory = student_for(languages)
    route = "" if directory == ENGLISH_STUDENT else "read by the multilingual student: "
    tagger = load_pii_tagger(directory)
    tagged = [t for t in tagger.tag_many([text], 32, [[]])[0] if t.start < end and start < t.end]
    names = [t for t in tagged if t.label == NAME]
    if not tagged:
        return route + "student: not tagged"
    if not names:
        return route + "student: tagged " + "/".join(sorted({t.label for t in tagged}))
    return route + _after_student(recognizer, text, names[0], tagger, languages)


def _after_student(recognizer: PiiTaggerRecognizer, text: str, tagged: TaggedSpan, tagger, languages) -> str:
    span = recognizer._span(text, tagged, may_be_english(languages))
    if span is None or span.type != NAME:
        return "name filter"
    if not recognizer._reaches(text, span, span_floors(tagger, languages)):
        return "threshold"
    verifier = shipped_verifiers()[NAME]
    [score] = verifier.judge_many([Candidate(text, span.start, span.end, span.score, languages, False)])
    if score is not None and score < verifier.least(languages):
        return "name verifier"
    return "kept by the tagger (lost later)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--show", action="store_true", help="print the missed names under each stage")
    args = parser.parse_args()
    detector, recognizer = Detector(build_recognizers(models=True)), PiiTaggerRecognizer()
    rows = [json.loads(line) for path in args.files for line in path.read_text(encoding="utf-8").splitlines() if line]
    rows = [row for row in rows if row.get("lang", "en") == "en"]
    stages: Counter[str] = Counter()
    missed: dict[str, list[str]] = {}
    total = 0
    for row, found in zip(rows, predict(detector, [row["text"] for row in rows]), strict=True):
        for start, end, kind in gold_spans(row):
            if kind != NAME:
                continue
            total += 1
            if any(s < end and start < e for s, e, _ in found):
                continue
            lost = stage(recognizer, row["text"], start, end)
            stages[lost] += 1
            missed.setdefault(lost, []).append(row["text"][start:end])
    print(f"{total} names, {total - stages.total()} found, {stages.total()} missed")
    for lost, count in stages.most_common():
        print(f"{count:5d}  {lost}" + (f": {', '.join(missed[lost])}" if args.show else ""))


if __name__ == "__main__":
    main()
