"""Where the detector's false alarms come from and what it misses, per language: each masked span on a
text without personal data counted by its source (the tagger's label, or the structured recognizer that
made it), and each annotated value the detector missed, by language and type. Files as
benchmarks/pii_registers.py reads them ({"text", "lang", "pii": [{"value", "type"}]}); the detector as
`stealthflow protect` builds it, one text at a time (no session: nothing is masked again by a session).

    python benchmarks/pii_false_alarms.py benchmarks/data/pii-heldout-{c,d,e,f}/*.jsonl [--tagger DIR]

`--names FILE` also writes the tagger's REAL_NAME spans on texts without personal data, one a row: the language,
the words, the confidence, where they stand (the text's or a sentence's first word, the word after a line's
first word as in "Hallo Leute", an item of a list, inside a sentence) and what the student's name feature says
of each word (names.tsv beside its weights: given, family, both, or not a name).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import overlaps  # noqa: E402
from pii_registers import gold_spans  # noqa: E402

from stealthflow.pii_tagger.model import pii_tagger_path  # noqa: E402
from stealthflow.pii_tagger.names import FAMILY, GIVEN, LEXICON, WORD, load_lexicon  # noqa: E402
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.policy import ProtectConfig  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402


def source(span) -> str:
    """The tagger's label, or the recognizer's name with the type it gave."""
    return f"tagger {span.type}" if span.source == "pii_tagger" else f"{span.source} {span.type}"


def tally(rows: list[dict], found: list[list]) -> dict:
    """Per language: texts without PII, how many are flagged, flags by source (spans on texts without PII),
    texts flagged by each source, flagged texts by who flagged them (the tagger alone, the other recognizers alone,
    both: what the tagger's training data can reach), wrong spans on texts with PII by source, and missed values by
    type."""
    by_lang: dict[str, dict] = defaultdict(
        lambda: {
            "empty": 0,
            "flagged": 0,
            "spans": Counter(),
            "texts": Counter(),
            "flagged_by": Counter(),
            "wrong": Counter(),
            "missed": Counter(),
            "values": Counter(),
        }
    )
    for row, spans in zip(rows, found, strict=True):
        entry, gold = by_lang[row.get("lang", "?")], gold_spans(row)
        if not gold:
            entry["empty"] += 1
            entry["flagged"] += bool(spans)
            entry["spans"].update(source(span) for span in spans)
            entry["texts"].update({source(span) for span in spans})
            if spans:
                entry["flagged_by"][flagged_by(spans)] += 1
        else:
            entry["wrong"].update(source(s) for s in spans if not overlaps((s.start, s.end, s.type), gold))
        tuples = [(s.start, s.end, s.type) for s in spans]
        entry["values"].update(kind for _, _, kind in gold)
        entry["missed"].update(kind for start, end, kind in gold if not overlaps((start, end, kind), tuples))
    return by_lang


def flagged_by(spans: list) -> str:
    """Who flagged a text: "tagger alone", "recognizers alone" or "both"."""
    tagger = {span.source == "pii_tagger" for span in spans}
    return "both" if len(tagger) == 2 else "tagger alone" if True in tagger else "recognizers alone"


def report(by_lang: dict) -> str:
    lines = []
    for lang, entry in sorted(by_lang.items()):
        lines.append(f"## {lang}: {entry['flagged']} of {entry['empty']} texts without PII flagged")
        lines.append("texts without PII flagged, by source: " + _counts(entry["texts"]))
        lines.append("texts without PII flagged, by whom: " + _counts(entry["flagged_by"]))
        lines.append("spans on texts without PII, by source: " + _counts(entry["spans"]))
        lines.append("wrong spans on texts with PII, by source: " + _counts(entry["wrong"]))
        missed = {kind: f"{entry['missed'][kind]}/{entry['values'][kind]}" for kind in sorted(entry["values"])}
        lines.append("missed / annotated, by type: " + ", ".join(f"{k} {v}" for k, v in missed.items()))
    return "\n".join(lines)


def _counts(counter: Counter) -> str:
    return ", ".join(f"{key} {count}" for key, count in counter.most_common()) or "-"


_SENTENCE_END = re.compile(r"(?:^|[.!?…:;\n])\s*$")
_LINE_OPENER = re.compile(r"(?:^|\n)[ \t]*\w+[,!]?[ \t]+$")
_LIST_MARK = re.compile(r"(?m)^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]")
_FLAG_NAMES = {0: "not a name", GIVEN: "given", FAMILY: "family", GIVEN | FAMILY: "given and family"}


def position(text: str, start: int, end: int) -> str:
    """Where text[start:end] stands: the text's first word, a sentence's first word, the word after a line's
    first word ("Hallo Leute", "Salut Marie"), an item of a list (a list marker or a comma beside it), or inside
    a sentence."""
    before, line_start = text[:start], text.rfind("\n", 0, start) + 1
    if not before.strip():
        return "text start"
    if _SENTENCE_END.search(before):
        return "sentence start"
    if _LINE_OPENER.search(before):
        return "after a line's first word"
    line_end = text.find("\n", end) if "\n" in text[end:] else len(text)
    beside = before.rstrip()[-1:] + text[end:line_end].lstrip()[:1]
    if _LIST_MARK.match(text, line_start) or "," in beside:
        return "in a list"
    return "inside a sentence"


def name_alarms(rows: list[dict], found: list[list], lexicon: dict[str, int]) -> list[dict]:
    """The tagger's REAL_NAME spans on texts without personal data, each with its position and name flags."""
    alarms = []
    for row, spans in zip(rows, found, strict=True):
        if gold_spans(row):
            continue
        for span in spans:
            if span.source == "pii_tagger" and span.type == "REAL_NAME":
                words = WORD.findall(row["text"][span.start : span.end])
                alarms.append(
                    {
                        "lang": row.get("lang", "?"),
                        "words": row["text"][span.start : span.end],
                        "score": round(span.score, 3),
                        "position": position(row["text"], span.start, span.end),
                        "names": [_FLAG_NAMES[lexicon.get(word.casefold(), 0)] for word in words],
                    }
                )
    return alarms


def names_report(alarms: list[dict]) -> str:
    """Per language: the spans, how many are confident (>= 0.9), by position, by name feature; then every span."""
    lines = []
    for lang in sorted({alarm["lang"] for alarm in alarms}):
        mine = [alarm for alarm in alarms if alarm["lang"] == lang]
        named = Counter("some word a name" if set(a["names"]) - {"not a name"} else "no word a name" for a in mine)
        lines += [
            f"## {lang}: {len(mine)} REAL_NAME spans, {sum(a['score'] >= 0.9 for a in mine)} with confidence >= 0.9",
            "by position: " + _counts(Counter(a["position"] for a in mine)),
            "name feature: " + _counts(named),
            "",
            *(f"- {a['words']!r} {a['score']:.2f}, {a['position']}, {'/'.join(a['names'])}" for a in mine),
            "",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--tagger", help="a tagger's directory (default: the shipped one)")
    parser.add_argument("--json", type=Path, help="also write the tallies here")
    parser.add_argument("--names", type=Path, help="also write the REAL_NAME spans on texts without PII here")
    args = parser.parse_args()
    rows = [json.loads(line) for path in args.files for line in path.read_text(encoding="utf-8").splitlines() if line]
    detector, config = Detector(build_recognizers(models=True, model=args.tagger)), ProtectConfig()
    found = [
        [s for s in spans if config.masks(s.type, s.level)] for spans in detector.detect_many([r["text"] for r in rows])
    ]
    by_lang = tally(rows, found)
    print(report(by_lang))
    if args.json:
        args.json.write_text(json.dumps(by_lang, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if args.names:
        lexicon = load_lexicon(pii_tagger_path(args.tagger) / LEXICON)
        args.names.write_text(names_report(name_alarms(rows, found, lexicon)) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
