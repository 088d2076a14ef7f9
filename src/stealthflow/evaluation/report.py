"""Turn an evaluation's records into the paper's table, per-attribute tables and plots.

Files written to the out dir:
- `table.md` / `table.csv`: one row per method and attacker, in the paper's column order
  (Anonymity, Progress, BLEU, ROUGE-1, ROUGE-L, Readability, Meaning, Score_Utility), then
  hallucination rate and counts; the `original` row is the untouched text (reference);
- `attributes.md` / `attributes.csv`: Anonymity and Progress per attribute;
- `attack_accuracy.md` / `.csv`: each attacker's top-1/top-3 accuracy on the originals per
  attribute and overall, beside chance levels (an attacker not above chance is flagged);
- `tradeoff.csv` + `tradeoff.png`, `attack_accuracy.png` (see `plots`).

An attribute enters an attacker's figures only if that attacker guessed it on at least one
original text: attributes an attacker cannot address at all (the classifier's free-text ones)
would otherwise count as "protected" without any attack.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Collection, Iterable
from pathlib import Path

from stealthflow.attack.strength import TABLE_HEADER as STRENGTH_HEADER
from stealthflow.attack.strength import AccuracyRow, accuracy_rows, table_cells
from stealthflow.attack.types import Verdict
from stealthflow.data.attributes import ATTRIBUTES
from stealthflow.evaluation import metrics
from stealthflow.evaluation.metrics import Estimate
from stealthflow.evaluation.records import OriginalRecord, ScoreRecord, TextScore
from stealthflow.evaluation.runner import Evaluation
from stealthflow.evaluation.table import Report, Row

ORIGINAL = "original"
TABLE_COLUMNS = (
    "Anonymity",
    "Evidence",
    "Progress",
    "BLEU",
    "ROUGE-1",
    "ROUGE-L",
    "Readability",
    "Meaning",
    "Score_Utility",
    "Hallucination",
)


def covered_attributes(originals: dict[str, OriginalRecord], attacker: str) -> set[str]:
    return {
        a for record in originals.values() for a, guesses in record.score.attacks[attacker].guesses.items() if guesses
    }


def text_at_round(record: ScoreRecord, round_: int | None) -> TextScore:
    """The text after `round_` (None = final); a profile that stopped early keeps its last text."""
    if round_ is None:
        return record.rounds[-1]
    return record.rounds[min(round_, len(record.rounds)) - 1]


def _privacy_counts(
    original: TextScore, scored: TextScore, attacker: str, covered: set[str]
) -> tuple[int, int, int, int]:
    before, after = original.attacks[attacker].verdicts, scored.attacks[attacker].verdicts
    attributes = [a for a in before if a in covered]
    protected = sum(metrics.protected(after.get(a, [])) for a in attributes)
    progressed = sum(metrics.progressed(before[a], after.get(a, [])) for a in attributes)
    no_guess = sum(not scored.attacks[attacker].guesses.get(a) for a in attributes)
    return protected, progressed, no_guess, len(attributes)


def method_row(
    method: str,
    attacker: str,
    originals: dict[str, OriginalRecord],
    records: list[ScoreRecord],
    round_: int | None = None,
    attribute: str | None = None,
) -> Row:
    covered = covered_attributes(originals, attacker) & ({attribute} if attribute else set(ATTRIBUTES))
    texts = [text_at_round(r, round_) for r in records]
    counts = [
        _privacy_counts(originals[r.profile_id].score, t, attacker, covered)
        for r, t in zip(records, texts, strict=True)
    ]
    protected, progressed, no_guess, totals = (list(column) for column in zip(*counts)) if counts else ([], [], [], [])
    bleu, rouge1, rougel = [t.bleu for t in texts], [t.rouge1 for t in texts], [t.rougel for t in texts]
    meaning = [t.meaning for t in texts]
    figures = {
        "Anonymity": metrics.share(protected, totals),
        # Share of the strong attacker's evidence spans still in the text (lower is better).
        "Evidence": metrics.share([t.evidence_kept for t in texts], [t.evidence_total for t in texts]),
        "Progress": metrics.share(progressed, totals),
        "BLEU": metrics.mean(bleu),
        "ROUGE-1": metrics.mean(rouge1),
        "ROUGE-L": metrics.mean(rougel),
        "Readability": metrics.mean([t.readability for t in texts]),
        "Meaning": metrics.mean(meaning),
        "Score_Utility": metrics.utility_score(bleu, rouge1, rougel, meaning),
        "Hallucination": metrics.mean([t.hallucination for t in texts]),
    }
    return Row(
        method=method,
        attacker=attacker,
        round=round_,
        figures=figures,
        attributes=int(sum(totals)),
        profiles=len(records),
        no_guess=sum(no_guess) / sum(totals) if sum(totals) else math.nan,
        parse_failures=sum(not r.parsed for r in records),
    )


def original_row(attacker: str, originals: dict[str, OriginalRecord], attribute: str | None = None) -> Row:
    """The untouched text as a method: its Anonymity is 1 − the attacker's top-1 accuracy."""
    records = [ScoreRecord(profile_id=pid, method=ORIGINAL, rounds=[o.score]) for pid, o in originals.items()]
    row = method_row(ORIGINAL, attacker, originals, records, attribute=attribute)
    exact = {"BLEU", "ROUGE-1", "ROUGE-L", "Score_Utility", "Evidence"}  # identical text: 1 by definition, not judged
    figures = {
        k: (
            Estimate(1.0, 1.0, 1.0, row.profiles)
            if k in exact
            else v
            if k in {"Anonymity", "Progress"}
            else Estimate.missing()
        )
        for k, v in row.figures.items()
    }
    return Row(ORIGINAL, attacker, 0, figures, row.attributes, row.profiles, row.no_guess, 0)


def build_report(evaluation: Evaluation, methods: list[str] | None = None) -> Report:
    originals = evaluation.originals().load()
    methods = methods or evaluation.methods_on_disk()
    scores = {m: [r for r in evaluation.scores(m).load().values() if r.profile_id in originals] for m in methods}
    attackers = sorted({name for o in originals.values() for name in o.score.attacks})
    rows, attribute_rows, curves, accuracy, overall = [], [], [], [], {}
    for attacker in attackers:
        rows.append(original_row(attacker, originals))
        rows += [method_row(m, attacker, originals, scores[m]) for m in methods if scores[m]]
        covered = covered_attributes(originals, attacker)
        for attribute in (a for a in ATTRIBUTES if a in covered):
            attribute_rows.append((attribute, original_row(attacker, originals, attribute)))
            attribute_rows += [
                (attribute, method_row(m, attacker, originals, scores[m], attribute=attribute))
                for m in methods
                if scores[m]
            ]
        for method in methods:
            n_rounds = max((len(r.rounds) for r in scores[method]), default=0)
            if n_rounds > 1:
                curves.append(_as_round(original_row(attacker, originals), method))
                curves += [
                    method_row(method, attacker, originals, scores[method], round_=k) for k in range(1, n_rounds + 1)
                ]
        accuracy += _accuracy_rows(attacker, originals, covered)
        overall[attacker] = _overall_accuracy(attacker, originals, covered)
    return Report(rows, attribute_rows, curves, accuracy, overall)


def _as_round(row: Row, method: str) -> Row:
    return Row(method, row.attacker, 0, row.figures, row.attributes, row.profiles, row.no_guess, 0)


def _accuracy_rows(attacker: str, originals: dict[str, OriginalRecord], covered: set[str]) -> list[AccuracyRow]:
    return accuracy_rows(attacker, labelled_verdicts(originals.values(), attacker, covered))


def labelled_verdicts(
    originals: Iterable[OriginalRecord], attacker: str, attributes: Collection[str]
) -> dict[str, tuple[list[str], list[list[Verdict]]]]:
    """attribute -> (truths, the attacker's verdicts; [] = no guess) over the originals labelled with it, in ATTRIBUTES order."""
    attacked = [o for o in originals if attacker in o.score.attacks]
    labelled = {}
    for attribute in (a for a in ATTRIBUTES if a in attributes):
        pairs = [
            (o.labels[attribute], o.score.attacks[attacker].verdicts.get(attribute, []))
            for o in attacked
            if attribute in o.labels
        ]
        if pairs:
            truths, verdicts = zip(*pairs, strict=True)
            labelled[attribute] = (list(truths), list(verdicts))
    return labelled


def _overall_accuracy(
    attacker: str, originals: dict[str, OriginalRecord], covered: set[str]
) -> tuple[Estimate, Estimate]:
    top1, top3, totals = [], [], []
    for o in originals.values():
        verdicts = [v for a, v in o.score.attacks[attacker].verdicts.items() if a in covered]
        top1.append(sum(bool(v) and v[0] == "yes" for v in verdicts))
        top3.append(sum(metrics.top3_correct(v) for v in verdicts))
        totals.append(len(verdicts))
    return metrics.share(top1, totals), metrics.share(top3, totals)


# -- writing -----------------------------------------------------------------------------------

AT_CHANCE = " (NOT above chance)"


def _markdown(header: list[str], body: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(cells) + " |" for cells in body]) + "\n"


def _write_csv(path: Path, header: list[str], body: list[list]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(body)


def main_table(report: Report) -> tuple[str, list[str], list[list]]:
    rows = report.rows
    header = ["method", "attacker", *TABLE_COLUMNS, "attributes", "profiles", "no guess", "unparsed"]
    markdown = _markdown(
        header,
        [
            [
                r.method,
                r.attacker + (AT_CHANCE if report.at_chance(r.attacker) else ""),
                *(r.figures[c].format(2) for c in TABLE_COLUMNS),
                str(r.attributes),
                str(r.profiles),
                _percent(r.no_guess),
                str(r.parse_failures),
            ]
            for r in rows
        ],
    )
    csv_header = [
        "method",
        "attacker",
        "attacker_above_chance",
        *(f"{c}{s}" for c in TABLE_COLUMNS for s in ("", "_low", "_high", "_n")),
        "attributes",
        "profiles",
        "no_guess",
        "unparsed",
    ]
    csv_rows = [
        [
            r.method,
            r.attacker,
            not report.at_chance(r.attacker),
            *(x for c in TABLE_COLUMNS for x in _estimate_cells(r.figures[c])),
            r.attributes,
            r.profiles,
            _number(r.no_guess),
            r.parse_failures,
        ]
        for r in rows
    ]
    return markdown, csv_header, csv_rows


def _percent(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.0%}"


def write_report(evaluation: Evaluation, methods: list[str] | None = None) -> Report:
    from stealthflow.evaluation.plots import plot_attack_accuracy, plot_tradeoff  # matplotlib only when writing

    report = build_report(evaluation, methods)
    out = evaluation.out
    markdown, csv_header, csv_rows = main_table(report)
    (out / "table.md").write_text(markdown, encoding="utf-8")
    _write_csv(out / "table.csv", csv_header, csv_rows)

    attribute_header = ["attribute", "method", "attacker", "Anonymity", "Progress", "attributes", "no guess"]
    (out / "attributes.md").write_text(
        _markdown(
            attribute_header,
            [
                [
                    a,
                    r.method,
                    r.attacker,
                    r.figures["Anonymity"].format(2),
                    r.figures["Progress"].format(2),
                    str(r.attributes),
                    _percent(r.no_guess),
                ]
                for a, r in report.attribute_rows
            ],
        ),
        encoding="utf-8",
    )
    _write_csv(
        out / "attributes.csv",
        [
            "attribute",
            "method",
            "attacker",
            *(f"{c}{s}" for c in ("Anonymity", "Progress") for s in ("", "_low", "_high", "_n")),
            "no_guess",
        ],
        [
            [
                a,
                r.method,
                r.attacker,
                *(x for c in ("Anonymity", "Progress") for x in _estimate_cells(r.figures[c])),
                _number(r.no_guess),
            ]
            for a, r in report.attribute_rows
        ],
    )

    # Pooled over attributes: a row in the same columns, chance levels are per attribute only.
    overall = [
        [attacker, "all", str(top1.n), "", top1.format(2), top3.format(2), *["-"] * (len(STRENGTH_HEADER) - 6)]
        for attacker, (top1, top3) in report.overall_accuracy.items()
    ]
    (out / "attack_accuracy.md").write_text(
        _markdown(list(STRENGTH_HEADER), [list(table_cells(r)) for r in report.accuracy] + overall), encoding="utf-8"
    )
    _write_csv(
        out / "attack_accuracy.csv", list(STRENGTH_HEADER), [list(table_cells(r)) for r in report.accuracy] + overall
    )

    _write_csv(
        out / "tradeoff.csv",
        [
            "method",
            "attacker",
            "round",
            *(f"{c}{s}" for c in ("Anonymity", "Score_Utility") for s in ("", "_low", "_high", "_n")),
        ],
        [
            [
                r.method,
                r.attacker,
                r.round,
                *_estimate_cells(r.figures["Anonymity"]),
                *_estimate_cells(r.figures["Score_Utility"]),
            ]
            for r in report.curves
        ],
    )
    plot_tradeoff(report, out / "tradeoff.png")
    plot_attack_accuracy(report, out / "attack_accuracy.png")
    return report


def _number(value: float) -> str:
    return "" if math.isnan(value) else f"{value:.4f}"


def _estimate_cells(estimate: Estimate) -> list:
    return [_number(estimate.value), _number(estimate.low), _number(estimate.high), estimate.n]
