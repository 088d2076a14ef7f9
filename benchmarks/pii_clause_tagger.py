"""How far the clause tagger (pii_tagger/clauses.py, opt-in: `protect.clause_tagger`) lifts the detector's recall on
annotated files, at which threshold and student floor, and what it costs.

    stealthflow tagger clauses --recipe training/pii-clause-tagger.yaml [--set out=runs/clause-tagger]   # train
    python benchmarks/pii_clause_tagger.py score models/pii-clause-tagger DEV.jsonl --json OUT.json
    python benchmarks/pii_clause_tagger.py cost models/pii-clause-tagger                     # on a quiet machine

`score` reads every sentence of each text of an annotated file (`pii_registers.py`'s format) and marks each run of
word pieces whose HEALTH or FINANCE probability reaches a threshold (`ClauseTagger.spans`), for thresholds 0.5-0.9;
per threshold it scores, as `pii_registers.py` does, the shipped detector alone and the detector with the clause
tagger's spans that overlap none of its own added, each first read by the shipped reader of its label and language
(dropped below the reader's threshold), as detection adds them (recognizer.py `_told_in_clauses`; this replays it
for many settings from one reading). It prints the word pieces read per KB and the CPU the clause tagger took per KB
(one thread). Then, at threshold 0.9, the same with only the sentences read where the routed student's own HEALTH or
FINANCE probability of a word piece reaches a floor (0.01-0.3: `sentence_maxima`), and the share of word pieces read
then. `pii_registers.py FILE --clause-tagger` scores detection itself at the card's threshold and floor.

`cost` prints the CPU per KB of reading every sentence of `tagger_threads.py`'s 1 KB texts (English, German).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import predict  # noqa: E402
from pii_registers import score  # noqa: E402

from stealthflow.pii_tagger.clauses import read_clause_tagger, sentence_maxima, sentences  # noqa: E402

THRESHOLDS = (0.5, 0.7, 0.8, 0.9)
FLOORS = (0.01, 0.03, 0.1, 0.3)  # the student's probability a sentence must reach to be read (`sentence_maxima`)
GATED_THRESHOLD = 0.9


def spans_at(clauses, text: str, read: list, threshold: float) -> list[tuple[int, int, str]]:
    return [(t.start, t.end, t.label) for t in clauses.spans(text, read, threshold)]


def student_maxima(rows: list[dict]) -> list[list[float]]:
    """Per text, per sentence (`sentences`): the routed student's highest HEALTH or FINANCE probability of a word piece
    there (`sentence_maxima`)."""
    from stealthflow.pii_tagger.model import load_pii_tagger
    from stealthflow.pii_tagger.route import student_for

    maxima = []
    for row in rows:
        tagger = load_pii_tagger(student_for(frozenset({row.get("lang", "en")})))
        [(offsets, found)] = tagger.token_probabilities([row["text"]])
        maxima.append([best for _, best in sentence_maxima(row["text"], offsets, found, tagger.tags)])
    return maxima


def read_by_readers(rows: list[dict], added: list[list]) -> list[list]:
    """The added spans the shipped reader of their label and language keeps (a span no reader reads is kept)."""
    from stealthflow.pii_tagger.candidate import Candidate
    from stealthflow.pii_tagger.reader import one_reading, shipped_readers

    readers = {(r.label, "en" in r.languages): r for r in shipped_readers()}
    kept = []
    for row, spans in zip(rows, added, strict=True):
        language, kept_here = row.get("lang", "en"), []
        with one_reading():
            for a, b, kind in spans:
                reader = readers.get((kind, language == "en"))
                candidate = Candidate(row["text"], a, b, 0.0, frozenset({language}), False)
                read = reader.judge_many([candidate])[0] if reader else None
                if read is None or read >= reader.threshold:
                    kept_here.append((a, b, kind))
        kept.append(kept_here)
    return kept


def brief(rows: list[dict], predictions: list[list]) -> dict:
    figures = score(rows, predictions)
    return {
        "precision": figures["precision"],
        "recall": figures["recall"],
        "clean_flagged": sum(1 for row, p in zip(rows, predictions, strict=True) if not row["pii"] and p),
        **{
            kind: [figures["recall_by_type"].get(kind), figures["precision_by_type"].get(kind)]
            for kind in ("HEALTH", "FINANCE")
        },
    }


def with_added(clauses, rows: list[dict], reads: list, shipped: list[list], threshold: float) -> dict:
    """`brief` of the shipped detector's spans and the clause tagger's at `threshold` that overlap none of them, each
    kept by the readers (`read_by_readers`)."""
    added = [
        [
            s
            for s in spans_at(clauses, row["text"], read, threshold)
            if not any(s[0] < b and a < s[1] for a, b, _ in own)
        ]
        for row, read, own in zip(rows, reads, shipped, strict=True)
    ]
    kept = read_by_readers(rows, added)
    return brief(rows, [own + more for own, more in zip(shipped, kept, strict=True)])


def score_file(model: Path, dev: Path) -> dict:
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    clauses = read_clause_tagger(model)
    rows = [json.loads(line) for line in dev.read_text(encoding="utf-8").splitlines() if line.strip()]
    shipped = predict(Detector(build_recognizers(models=True)), [row["text"] for row in rows])
    started, reads, pieces = time.process_time(), [], 0
    for row in rows:
        read = clauses.read(row["text"], sentences(row["text"]))
        reads.append(read)
        pieces += sum(len(offsets) + 2 for _, offsets, _ in read)
    kilobytes = sum(len(row["text"]) for row in rows) / 1000
    results = {
        "texts": len(rows),
        "clean_texts": sum(1 for row in rows if not row["pii"]),
        "cpu_ms_per_kb": round((time.process_time() - started) * 1000 / kilobytes, 1),
        "pieces_per_kb": round(pieces / kilobytes, 1),
        "shipped": brief(rows, shipped),
    }
    maxima = student_maxima(rows)
    results["gated"] = {}
    for floor in FLOORS:  # a sentence read only where the student's HEALTH or FINANCE probability reaches `floor`
        read_pieces, gated_reads = 0, []
        for read, per_sentence in zip(reads, maxima, strict=True):
            kept_sentences = [r for r, best in zip(read, per_sentence, strict=True) if best >= floor]
            read_pieces += sum(len(o) + 2 for _, o, _ in kept_sentences)
            gated_reads.append(kept_sentences)
        figures = with_added(clauses, rows, gated_reads, shipped, GATED_THRESHOLD)
        results["gated"][str(floor)] = figures | {"pieces_read_share": round(read_pieces / pieces, 3)}
        print("floor", floor, json.dumps(results["gated"][str(floor)]), flush=True)
    for threshold in THRESHOLDS:
        results[str(threshold)] = with_added(clauses, rows, reads, shipped, threshold)
        print(threshold, json.dumps(results[str(threshold)]), flush=True)
    return results


def cost(model: Path, languages: tuple[str, ...] = ("en", "de")) -> dict:
    """CPU ms per KB (best of 3 passes, one thread) and word pieces per KB of reading every sentence of
    `tagger_threads.py`'s 80 texts of 1 KB per language."""
    from tagger_threads import kilobyte_texts

    clauses, figures = read_clause_tagger(model), {}
    for language in languages:
        texts = kilobyte_texts(language, 80)
        kilobytes, passes = sum(map(len, texts)) / 1000, []
        for _ in range(4):  # the first warms up
            started = time.process_time()
            pieces = sum(len(o) + 2 for text in texts for _, o, _ in clauses.read(text, sentences(text)))
            passes.append(time.process_time() - started)
        figures[language] = {
            "cpu_ms_per_kb": round(min(passes[1:]) * 1000 / kilobytes, 1),
            "pieces_per_kb": round(pieces / kilobytes, 1),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    scored = commands.add_parser("score")
    scored.add_argument("model", type=Path)
    scored.add_argument("dev", type=Path)
    scored.add_argument("--json", type=Path)
    costed = commands.add_parser("cost")
    costed.add_argument("model", type=Path)
    args = parser.parse_args()
    if args.command == "cost":
        print(json.dumps(cost(args.model)))
    else:
        results = score_file(args.model, args.dev)
        print(json.dumps(results, indent=1))
        if args.json:
            args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
