"""How far a MiniLM token tagger of health and money told in a clause could lift the detector's recall: an exploration,
not used by detection.

    python benchmarks/pii_clause_tagger.py train runs/clause-tagger --negatives 2      # ~16 min on 2 cores
    python benchmarks/pii_clause_tagger.py score runs/clause-tagger DEV.jsonl --json OUT.json
    python benchmarks/pii_clause_tagger.py cost runs/clause-tagger                     # on a quiet machine

`train` fine-tunes MiniLM's bottom `--layers` layers (the embeddings frozen) and a three-way token head (nothing,
HEALTH, FINANCE) on the sentences of the annotated sets the readers learn from (`RECIPES`' `annotated` files: the sets
written apart and read, never the development sets or an unread judge): every sentence holding a HEALTH or FINANCE
value, each of its word pieces labelled by the value it falls in, and `--negatives` times as many sentences without
one (a seeded sample). Written as a reader is (reader.safetensors: the trained layers and head, fp16), read by the
readers' runtime (pii_tagger/minilm.py, 8-bit products).

`score` reads every sentence of each text of an annotated file (`pii_registers.py`'s format) and marks each run of
word pieces whose HEALTH or FINANCE probability reaches a threshold (runs a few characters apart joined, grown to
whole tokens and shaped as the student's spans), for thresholds 0.5-0.9; per threshold it scores,
as `pii_registers.py` does, the shipped detector alone and the detector with the clause tagger's spans that overlap
none of its own added, each first read by the shipped reader of its label and language (dropped below the reader's
threshold). It prints the word pieces read per KB and the CPU the clause tagger took per KB (one thread). Then, at
threshold 0.9, the same with only the sentences read where the routed student's own HEALTH or FINANCE probability of a
word piece reaches a floor (0.01-0.3), and the share of word pieces read then.

`cost` prints the CPU per KB of reading every sentence of `tagger_threads.py`'s 1 KB texts (English, German).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import predict  # noqa: E402
from pii_registers import gold_spans, score  # noqa: E402

from stealthflow.pii_tagger.reader import MAX_PIECES  # noqa: E402
from stealthflow.sentence_ends import sentence_ends, words_end  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent  # the recipes' paths are from the repository's root
LABELS = ("O", "HEALTH", "FINANCE")
# the readers' recipes whose annotated files it learns from (the files that exist: real passages are kept elsewhere)
RECIPES = (
    "training/pii-reader-multilingual-base.yaml",
    "training/pii-health-reader.yaml",
    "training/pii-finance-reader.yaml",
    "training/pii-health-reader-multilingual.yaml",
    "training/pii-employer-reader.yaml",
    "training/pii-name-reader.yaml",
)
THRESHOLDS = (0.5, 0.7, 0.8, 0.9)
GAP = 3  # characters between two runs of a label that are one span
FLOORS = (0.01, 0.03, 0.1, 0.3)  # the student's probability a sentence must reach to be read (`student_maxima`)
GATED_THRESHOLD = 0.9


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text` that holds more than white space."""
    bounds, at = [], 0
    for match in sentence_ends(text):
        if text[at : words_end(match)].strip():
            bounds.append((at, words_end(match)))
        at = match.end()
    return bounds + ([(at, len(text))] if text[at:].strip() else [])


def labelled_sentences(files: list[str], tokenizer) -> tuple[list, list]:
    """(sentences holding a HEALTH or FINANCE value, sentences without one), each (word-piece ids, labels)."""
    holding, without = [], []
    for path in files:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            text = row["text"]
            values = [(a, b, LABELS.index(kind)) for a, b, kind in gold_spans(row) if kind in LABELS]
            for low, high in sentences(text):
                encoded = tokenizer(
                    text[low:high], return_offsets_mapping=True, truncation=True, max_length=MAX_PIECES + 2
                )
                labels = [
                    -100 if b <= a else max([k for x, y, k in values if x < low + b and low + a < y], default=0)
                    for a, b in encoded["offset_mapping"]
                ]
                (holding if any(label > 0 for label in labels) else without).append((encoded["input_ids"], labels))
    return holding, without


def train(out: Path, negatives: float, layers: int, epochs: float, threads: int = 2, seed: int = 0) -> None:
    import torch
    from safetensors.torch import save_file

    from stealthflow.pii_tagger.model import base_model
    from stealthflow.pii_tagger.training.reader import fine_tune

    named = {f for r in RECIPES for f in yaml.safe_load((ROOT / r).read_text())["annotated"]}
    files = sorted(str(ROOT / f) for f in named if (ROOT / f).exists())
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    model, tokenizer = base_model(len(LABELS), layers)
    holding, without = labelled_sentences(files, tokenizer)
    random.Random(seed).shuffle(without)
    data = holding + without[: int(negatives * len(holding))]
    print(f"{len(files)} files: {len(holding)} sentences with a value, {len(without)} without ({len(data)} in all)")
    for name, parameter in model.named_parameters():
        parameter.requires_grad = "embeddings" not in name
    fine_tune(model, data, epochs, 5e-5, 16, seed, lambda line: print(line, flush=True))
    out.mkdir(parents=True, exist_ok=True)
    kept = {k: v.contiguous().half() for k, v in model.state_dict().items() if "embeddings" not in k}
    save_file(kept, str(out / "reader.safetensors"))
    (out / "card.json").write_text(json.dumps({"layers": layers, "negatives": negatives, "epochs": epochs}) + "\n")


def read_sentences(runtime, words, text: str) -> tuple[list, int]:
    """[(a sentence's start, its word pieces' offsets, their probabilities)] and the word pieces read."""
    windows, offsets = [], []
    for low, high in sentences(text):
        encoding = words.tokenizer.encode(text[low:high], add_special_tokens=False)
        windows.append(np.array([words.cls, *encoding.ids[:MAX_PIECES], words.sep]))
        offsets.append((low, encoding.offsets[:MAX_PIECES]))
    found = runtime.padded_probabilities(windows) if windows else []
    return [(low, o, p) for (low, o), p in zip(offsets, found, strict=True)], sum(map(len, windows))


def spans_at(text: str, read: list, threshold: float) -> list[tuple[int, int, str]]:
    """The runs of word pieces whose HEALTH or FINANCE probability reaches `threshold`, two runs of a label with at most
    `GAP` characters between them joined, each grown to whole tokens and shaped as the student's spans are
    (pii_tagger/spans.py)."""
    from stealthflow.pii_tagger.spans import shaped, whole_tokens

    spans = []
    for low, offsets, found in read:
        for k in (1, 2):
            runs: list[list[int]] = []
            for n, (a, b) in enumerate(offsets):
                if b > a and found[n + 1, k] >= threshold:
                    if runs and low + a - runs[-1][1] <= GAP:
                        runs[-1][1] = low + b
                    else:
                        runs.append([low + a, low + b])
            for a, b in runs:
                a, b = shaped(text, *whole_tokens(text, a, b), LABELS[k])
                if b > a:
                    spans.append((a, b, LABELS[k]))
    return spans


def student_maxima(rows: list[dict]) -> list[list[dict[str, float]]]:
    """Per text, per sentence (`sentences`): the routed student's highest probability of a HEALTH or FINANCE word
    piece there (B and I together), which detection has computed already."""
    from stealthflow.pii_tagger.model import load_pii_tagger
    from stealthflow.pii_tagger.route import student_for

    maxima = []
    for row in rows:
        tagger = load_pii_tagger(student_for(frozenset({row.get("lang", "en")})))
        [(offsets, found)] = tagger.token_probabilities([row["text"]])
        columns = {k: [tagger.tags.index(f"B-{k}"), tagger.tags.index(f"I-{k}")] for k in LABELS[1:]}
        per_sentence = []
        for low, high in sentences(row["text"]):
            inside = [n for n, (a, b) in enumerate(offsets) if b > a and low <= a < high]
            per_sentence.append(
                {k: float(found[inside][:, c].sum(axis=1).max()) if inside else 0.0 for k, c in columns.items()}
            )
        maxima.append(per_sentence)
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


def with_added(rows: list[dict], reads: list, shipped: list[list], threshold: float) -> dict:
    """`brief` of the shipped detector's spans and the clause tagger's at `threshold` that overlap none of them, each
    kept by the readers (`read_by_readers`)."""
    added = [
        [s for s in spans_at(row["text"], read, threshold) if not any(s[0] < b and a < s[1] for a, b, _ in own)]
        for row, read, own in zip(rows, reads, shipped, strict=True)
    ]
    kept = read_by_readers(rows, added)
    return brief(rows, [own + more for own, more in zip(shipped, kept, strict=True)])


def load_model(model: Path):
    """The clause tagger `train` wrote, on the readers' runtime."""
    from safetensors.numpy import load_file

    from stealthflow.pii_tagger.minilm import minilm_with

    card = json.loads((model / "card.json").read_text())
    return minilm_with(load_file(str(model / "reader.safetensors")), card["layers"], model, quantized=True)


def score_file(model: Path, dev: Path) -> dict:
    from stealthflow.pii_tagger.minilm import vocabulary
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    runtime, words = load_model(model), vocabulary()
    rows = [json.loads(line) for line in dev.read_text(encoding="utf-8").splitlines() if line.strip()]
    shipped = predict(Detector(build_recognizers(models=True)), [row["text"] for row in rows])
    started, reads, pieces = time.process_time(), [], 0
    for row in rows:
        read, count = read_sentences(runtime, words, row["text"])
        reads.append(read)
        pieces += count
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
        for read, sentence_maxima in zip(reads, maxima, strict=True):
            kept_sentences = [r for r, m in zip(read, sentence_maxima, strict=True) if max(m.values()) >= floor]
            read_pieces += sum(len(o) + 2 for _, o, _ in kept_sentences)
            gated_reads.append(kept_sentences)
        figures = with_added(rows, gated_reads, shipped, GATED_THRESHOLD)
        results["gated"][str(floor)] = figures | {"pieces_read_share": round(read_pieces / pieces, 3)}
        print("floor", floor, json.dumps(results["gated"][str(floor)]), flush=True)
    for threshold in THRESHOLDS:
        results[str(threshold)] = with_added(rows, reads, shipped, threshold)
        print(threshold, json.dumps(results[str(threshold)]), flush=True)
    return results


def cost(model: Path, languages: tuple[str, ...] = ("en", "de")) -> dict:
    """CPU ms per KB (best of 3 passes, one thread) and word pieces per KB of reading every sentence of
    `tagger_threads.py`'s 80 texts of 1 KB per language."""
    from tagger_threads import kilobyte_texts

    from stealthflow.pii_tagger.minilm import vocabulary

    runtime, words, figures = load_model(model), vocabulary(), {}
    for language in languages:
        texts = kilobyte_texts(language, 80)
        kilobytes, passes = sum(map(len, texts)) / 1000, []
        for _ in range(4):  # the first warms up
            started = time.process_time()
            pieces = sum(read_sentences(runtime, words, text)[1] for text in texts)
            passes.append(time.process_time() - started)
        figures[language] = {
            "cpu_ms_per_kb": round(min(passes[1:]) * 1000 / kilobytes, 1),
            "pieces_per_kb": round(pieces / kilobytes, 1),
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    trained = commands.add_parser("train")
    trained.add_argument("out", type=Path)
    trained.add_argument("--negatives", type=float, default=2.0, help="sentences without a value per one with")
    trained.add_argument("--layers", type=int, default=3)
    trained.add_argument("--epochs", type=float, default=2.0)
    trained.add_argument("--threads", type=int, default=2)
    scored = commands.add_parser("score")
    scored.add_argument("model", type=Path)
    scored.add_argument("dev", type=Path)
    scored.add_argument("--json", type=Path)
    costed = commands.add_parser("cost")
    costed.add_argument("model", type=Path)
    args = parser.parse_args()
    if args.command == "train":
        train(args.out, args.negatives, args.layers, args.epochs, args.threads)
    elif args.command == "cost":
        print(json.dumps(cost(args.model)))
    else:
        results = score_file(args.model, args.dev)
        print(json.dumps(results, indent=1))
        if args.json:
            args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
