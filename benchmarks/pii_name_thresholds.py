"""REAL_NAME thresholds per language chosen on real annotated passages: the detector (as `stealthflow protect` builds
it, one text at a time) is run with every language's REAL_NAME threshold at each value of a grid (the English
student's `span_thresholds` for English, the multilingual student's `span_thresholds_by_language` for de, fr, es, it,
nl, pt), and each language's threshold is the value with the most annotated names found less names masked wrongly
(ties: the higher value), chosen on all the sets given and, to measure the choice, on all but one of them and scored
on that one (leave one set out).

    python benchmarks/pii_name_thresholds.py FILE [FILE ...] --json OUT   # JSONL of {text, lang, pii: [{value, type}]}
    python benchmarks/pii_name_thresholds.py FILE ... --write              # and write the choice into the cards

A name is found when a masked span overlaps it; a REAL_NAME span is wrong when it overlaps no annotated value;
"clean flagged": passages without personal data given any span. OUT holds counts only (no text).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import overlaps, predict  # noqa: E402
from pii_registers import gold_spans  # noqa: E402

from stealthflow.pii_tagger.model import CARD_DATA, load_pii_tagger, pii_tagger_path  # noqa: E402
from stealthflow.pii_tagger.route import ENGLISH_STUDENT, MULTILINGUAL_STUDENT  # noqa: E402
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.language import COVERED, ENGLISH, OTHERS  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402

NAME = "REAL_NAME"
GRID = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def shipped() -> dict[str, float]:
    """language -> its REAL_NAME threshold in the shipped cards."""
    english, other = load_pii_tagger(ENGLISH_STUDENT), load_pii_tagger(MULTILINGUAL_STUDENT)
    own = other.span_thresholds.get(NAME, 0.0)
    return {
        ENGLISH: english.span_thresholds[NAME],
        **{code: max(own, other.language_thresholds.get(code, {}).get(NAME, own)) for code in sorted(OTHERS)},
    }


def set_thresholds(chosen: dict[str, float]) -> None:
    """The loaded students' REAL_NAME thresholds set to `chosen` (language -> value), in memory."""
    english, other = load_pii_tagger(ENGLISH_STUDENT), load_pii_tagger(MULTILINGUAL_STUDENT)
    english.span_thresholds[NAME] = chosen[ENGLISH]
    for code in OTHERS:
        other.language_thresholds.setdefault(code, {})[NAME] = chosen[code]


def counts(rows: list[dict], predictions: list) -> dict[str, Counter]:
    """language -> names annotated and found, REAL_NAME spans masked and wrong, values annotated and found, spans
    masked and right, passages without personal data flagged."""
    by_language: dict[str, Counter] = defaultdict(Counter)
    for row, spans in zip(rows, predictions, strict=True):
        gold, c = gold_spans(row), by_language[row.get("lang", ENGLISH)]
        names = [g for g in gold if g[2] == NAME]
        c["names"] += len(names)
        c["names_found"] += sum(overlaps(g, spans) for g in names)
        c["name_spans"] += sum(s[2] == NAME for s in spans)
        c["name_spans_wrong"] += sum(s[2] == NAME and not overlaps(s, gold) for s in spans)
        c["values"] += len(gold)
        c["values_found"] += sum(overlaps(g, spans) for g in gold)
        c["spans"] += len(spans)
        c["spans_right"] += sum(overlaps(s, gold) for s in spans)
        c["clean"] += not gold
        c["clean_flagged"] += bool(not gold and spans)
    return by_language


def gain(c: Counter) -> int:
    return c["names_found"] - c["name_spans_wrong"]


def choose(grid: dict[float, dict[str, Counter]], language: str, before: float) -> float:
    """The value with the most names found less wrong names in `language` (ties: the higher; no name annotated in it:
    `before`)."""
    scored = [
        (gain(c), value) for value, by_language in grid.items() if (c := by_language.get(language)) and c["names"]
    ]
    return max(scored)[1] if scored else before


def summed(parts: list[dict[str, Counter]], language: str) -> Counter:
    return sum((part.get(language, Counter()) for part in parts), Counter())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the counts and the choice here")
    parser.add_argument("--write", action="store_true", help="write the chosen thresholds into the students' cards")
    args = parser.parse_args()
    sets = {
        str(path): [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        for path in args.files
    }
    before = shipped()
    detector = Detector(build_recognizers(models=True), cache_entries=0)
    runs: dict[str, dict[float, dict[str, Counter]]] = {name: {} for name in sets}  # set -> value -> language -> counts
    for value in (*GRID, None):
        set_thresholds(dict.fromkeys(before, value) if value is not None else before)
        for name, rows in sets.items():
            runs[name][value if value is not None else "shipped"] = counts(
                rows, predict(detector, [row["text"] for row in rows])
            )
    set_thresholds(before)
    languages = sorted(before)
    chosen = {code: choose(_pooled(runs, list(sets)), code, before[code]) for code in languages}
    out_of_fold = {}
    for held in sets:
        rest = [name for name in sets if name != held]
        picks = {code: choose(_pooled(runs, rest), code, before[code]) for code in languages}
        out_of_fold[held] = {
            code: {
                "value": picks[code],
                "after": runs[held][picks[code]].get(code),
                "before": runs[held]["shipped"].get(code),
            }
            for code in languages
        }
    print("| language | shipped | chosen | out of fold, names found | names masked wrongly | clean flagged |")
    print("|---|---|---|---|---|---|")
    for code in languages:
        after = sum((out_of_fold[h][code]["after"] or Counter() for h in sets), Counter())
        prior = sum((out_of_fold[h][code]["before"] or Counter() for h in sets), Counter())
        print(
            f"| {code} | {before[code]:.2f} | {chosen[code]:.2f} | {prior['names_found']} -> {after['names_found']} "
            f"of {prior['names']} | {prior['name_spans_wrong']} -> {after['name_spans_wrong']} "
            f"| {prior['clean_flagged']} -> {after['clean_flagged']} of {prior['clean']} |"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "shipped": before,
                    "chosen": chosen,
                    "out_of_fold": out_of_fold,
                    "runs": {n: {str(v): c for v, c in r.items()} for n, r in runs.items()},
                },
                indent=1,
            )
            + "\n"
        )
    if args.write:
        write(chosen)


def _pooled(runs: dict[str, dict], names: list[str]) -> dict[float, dict[str, Counter]]:
    """value -> language -> counts summed over the sets `names` (the grid's values only)."""
    return {value: {code: summed([runs[name][value] for name in names], code) for code in COVERED} for value in GRID}


def write(chosen: dict[str, float]) -> None:
    """The chosen REAL_NAME thresholds into the cards: English's into the English student's `span_thresholds`, the six
    languages' into the multilingual student's `span_thresholds_by_language`."""
    for directory, update in ((ENGLISH_STUDENT, _english), (MULTILINGUAL_STUDENT, _others)):
        path = pii_tagger_path(directory) / CARD_DATA
        card = json.loads(path.read_text(encoding="utf-8"))
        update(card, chosen)
        path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")


def _english(card: dict, chosen: dict[str, float]) -> None:
    card["span_thresholds"][NAME] = chosen[ENGLISH]


def _others(card: dict, chosen: dict[str, float]) -> None:
    for code in OTHERS:
        card.setdefault("span_thresholds_by_language", {}).setdefault(code, {})[NAME] = chosen[code]


if __name__ == "__main__":
    main()
