"""Explicit PII on held-back text by register and language: the detector as `stealthflow protect`
builds it (recognizers and the PII tagger, default levels), scored on files whose personal data is
annotated as values ({"text", "register", "lang", "pii": [{"value", "type"}]}; every occurrence of a
value counts).

    python benchmarks/pii_registers.py benchmarks/data/pii-heldout/pii_registers.jsonl --by register
    python benchmarks/pii_registers.py benchmarks/data/pii-heldout/pii_languages.jsonl --by lang
    python benchmarks/pii_registers.py FILE --tagger runs/pii-tagger-student-c   # a candidate tagger
    python benchmarks/pii_registers.py FILE --session   # the texts in one session: values masked again too
    python benchmarks/pii_registers.py FILE --protected   # each text in a session of its own, as protect masks it
    python benchmarks/pii_registers.py FILE --by lang --types   # and per type: found, right, clean texts flagged
    python benchmarks/pii_registers.py FILE --case lower   # texts and values lower-cased (or upper-cased) first

A masked span is right when it overlaps an annotated value (any type: the issue's "precision on
personal data"); "typed" precision also asks for the annotated type. Recall counts an annotated value
found when a masked span overlaps it. Per group: texts without personal data that get a span, and the
share of characters masked outside the annotated values.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import Span, Unasked, overlaps, predict  # noqa: E402

from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402


def predict_in_session(detector: Detector, texts: list[str], one_session: bool = True) -> list[list[Span]]:
    """What `protect` masks in `texts` sent in file order in one session (a fresh vault and key in a temporary
    directory): each text's spans and the session's values found again in it; not `one_session`: each text in a
    session of its own (its spans and its values found again in the rest of it)."""
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.policy import ProtectConfig

    os.environ["STEALTHFLOW_VAULT_KEY"] = base64.b64encode(secrets.token_bytes(32)).decode()
    with tempfile.TemporaryDirectory() as tmp:
        config = ProtectConfig(vault_path=Path(tmp) / "vault.sqlite", key_source="env", llm_extractor=False)
        protector = Protector(config, open_vault(config), detector)
        try:
            batches = [texts] if one_session else [[text] for text in texts]
            return [
                [(s.start, s.end, s.type) for s in p.spans]
                for number, batch in enumerate(batches)
                for p in protector.protect_many(batch, "benchmark" if one_session else f"text-{number}")
            ]
        finally:
            protector.close()


def gold_spans(row: dict) -> list[Span]:
    """Every occurrence of every annotated value, as (start, end, type)."""
    spans = set()
    for item in row["pii"]:
        start = row["text"].find(item["value"])
        while start >= 0:
            spans.add((start, start + len(item["value"]), item["type"]))
            start = row["text"].find(item["value"], start + 1)
    return sorted(spans)


def recased(row: dict, case: str) -> dict:
    """`row` with its text and annotated values in `case` ("lower" or "upper"): a person typing without capitals."""
    change = str.lower if case == "lower" else str.upper
    return {
        **row,
        "text": change(row["text"]),
        "pii": [{**item, "value": change(item["value"])} for item in row["pii"]],
    }


def score(rows: list[dict], predictions: list[list[Span]]) -> dict:
    found, total, right, typed, predicted, unasked = Counter(), Counter(), 0, 0, 0, Unasked()
    kept, kept_right, flagged = Counter(), Counter(), Counter()  # per predicted type
    for row, spans in zip(rows, predictions, strict=True):
        gold = gold_spans(row)
        for span in gold:
            total[span[2]] += 1
            found[span[2]] += overlaps(span, spans)
        predicted += len(spans)
        right += sum(overlaps(span, gold) for span in spans)
        typed += sum(overlaps(span, gold, typed=True) for span in spans)
        for span in spans:
            kept[span[2]] += 1
            kept_right[span[2]] += overlaps(span, gold)
        if not gold:
            flagged.update({span[2] for span in spans})
        unasked.add(row["text"], gold, spans)
    return {
        "texts": len(rows),
        "values": sum(total.values()),
        "precision": round(right / predicted, 3) if predicted else None,
        "typed_precision": round(typed / predicted, 3) if predicted else None,
        "recall": round(sum(found.values()) / sum(total.values()), 3) if total else None,
        "recall_by_type": {kind: f"{found[kind]}/{total[kind]}" for kind in sorted(total)},
        "precision_by_type": {kind: f"{kept_right[kind]}/{kept[kind]}" for kind in sorted(kept)},
        "flagged_by_type": {kind: flagged[kind] for kind in sorted(flagged)},
        **unasked.figures(),
    }


def scored_by(rows: list[dict], predictions: list[list[Span]], field: str) -> dict[str, dict]:
    """`score` per value of the rows' `field` ("?" where a row has none), in sorted order, then of all rows ("all")."""
    groups = defaultdict(list)
    for i, row in enumerate(rows):
        groups[row.get(field, "?")].append(i)
    results = {
        group: score([rows[i] for i in chosen], [predictions[i] for i in chosen])
        for group, chosen in sorted(groups.items())
    }
    results["all"] = score(rows, predictions)
    return results


def table(results: dict[str, dict]) -> str:
    lines = [
        "| group | texts | values | precision | typed precision | recall | texts without PII flagged | chars masked outside |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for group, r in results.items():
        cells = (f"{r[key]:.3f}" if r[key] is not None else "–" for key in ("precision", "typed_precision", "recall"))
        precision, typed, recall = cells
        lines.append(
            f"| {group} | {r['texts']} | {r['values']} | {precision} | {typed} | {recall} | "
            f"{r['flagged_without_pii']} | {100 * r['chars_masked_outside']:.2f} % |"
        )
    return "\n".join(lines)


def type_table(results: dict[str, dict]) -> str:
    """Per type and group: values found of those annotated, spans right of those masked (overlapping a value of any
    type), texts without PII given a span of the type."""
    groups = list(results)
    kinds = sorted(
        {kind for r in results.values() for key in ("recall_by_type", "precision_by_type") for kind in r[key]}
    )
    lines = ["| type | " + " | ".join(groups) + " |", "|---|" + "---|" * len(groups)]
    for kind in kinds:
        cells = (
            f"{r['recall_by_type'].get(kind, '–')} · {r['precision_by_type'].get(kind, '–')} · "
            f"{r['flagged_by_type'].get(kind, 0)}"
            for r in results.values()
        )
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def print_misses(rows: list[dict], predictions: list[list[Span]], label) -> None:
    """One line per text with a wrong or missed span: `label(row)`, then the spans as "text/TYPE"."""
    for row, spans in zip(rows, predictions, strict=True):
        gold = gold_spans(row)
        wrong = [row["text"][s:e] + "/" + k for s, e, k in spans if not overlaps((s, e, k), gold)]
        missed = [row["text"][s:e] + "/" + k for s, e, k in gold if not overlaps((s, e, k), spans)]
        if wrong or missed:
            print(label(row), "wrong:", wrong, "missed:", missed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path, help="JSONL of {text, register, lang, pii: [{value, type}]}")
    parser.add_argument("--by", default="register", help="the field to group by (register or lang)")
    parser.add_argument("--no-tagger", action="store_true", help="without the PII tagger")
    parser.add_argument("--tagger", help="a tagger's directory (default: the shipped one)")
    parser.add_argument(
        "--clause-tagger", action="store_true", help="with the clause tagger (protect.clause_tagger, default off)"
    )
    parser.add_argument("--session", action="store_true", help="protect the texts in one session, in file order")
    parser.add_argument(
        "--protected", action="store_true", help="protect each text in a session of its own (values found again in it)"
    )
    parser.add_argument("--case", choices=("lower", "upper"), help="lower-case or upper-case texts and values first")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--misses", action="store_true", help="print each wrong or missed span")
    parser.add_argument(
        "--types", action="store_true", help="also a table per type: found/annotated · right/masked · clean flagged"
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.file.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.case:
        rows = [recased(row, args.case) for row in rows]
    detector = Detector(build_recognizers(models=not args.no_tagger, model=args.tagger, clauses=args.clause_tagger))
    texts = [row["text"] for row in rows]
    if args.session or args.protected:
        predictions = predict_in_session(detector, texts, one_session=args.session)
    else:
        predictions = predict(detector, texts)
    results = scored_by(rows, predictions, args.by)
    if args.misses:
        print_misses(rows, predictions, lambda row: row.get(args.by))
    print(table(results))
    if args.types:
        print("\nPer type: values found / annotated · spans right / masked · texts without PII flagged\n")
        print(type_table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
