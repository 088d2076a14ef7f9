"""The HEALTH gates side by side on annotated text: the HEALTH spans the tagger keeps with its verifiers and no gate
(English rows of `pii_registers.py` files), scored by the context model (pii_tagger/context_model.py) and by the
health reader (pii_tagger/reader.py), and what each keeps at each threshold: spans kept, right (overlapping an
annotated value), wrong, and texts without personal data flagged by a HEALTH span. `--label EMPLOYER` (or another
label an English reader reads): that label's spans and its reader alone. The tagger's spans only: the
pattern recognizers' HEALTH matches, which the reader gates too, and the shipped threshold's choice are the whole
detector's (`pii_registers.py`, benchmarks/results/pii_health_reader.md).

    python benchmarks/pii_health_reader.py FILE [FILE ...] [--reader DIR] [--label HEALTH] [--out STEM]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from result_files import add_out_options, refuse_overwrite, result_stem, write_results  # noqa: E402
from tables import table  # noqa: E402

from stealthflow.pii_tagger.candidate import Candidate  # noqa: E402
from stealthflow.pii_tagger.context_model import shipped_context_model  # noqa: E402
from stealthflow.pii_tagger.reader import read_reader, shipped_readers  # noqa: E402
from stealthflow.pii_tagger.training.reader import reader_examples  # noqa: E402

THRESHOLDS = [round(0.05 * n, 2) for n in range(0, 20)]


def kept(examples: list[dict], scores: list[float], threshold: float) -> dict:
    spans = [e for e, s in zip(examples, scores, strict=True) if s >= threshold]
    right = sum(e["personal"] for e in spans)
    return {
        "threshold": threshold,
        "kept": len(spans),
        "right": right,
        "wrong": len(spans) - right,
        "clean_texts_flagged": len({e["group"] for e in spans if e["clean"]}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--reader", type=Path, help="a reader's directory (default: the shipped one of the label)")
    parser.add_argument("--label", default="HEALTH", help="the spans' label and the reader's (default HEALTH)")
    add_out_options(parser, "pii_health_reader_gates")
    args = parser.parse_args()
    stem = result_stem(args.out, "pii_health_reader_gates")
    refuse_overwrite(stem, args.force)
    english = frozenset({"en"})
    reader = (
        read_reader(args.reader)
        if args.reader
        else next(r for r in shipped_readers() if r.label == args.label and r.reads_text_of(english))
    )
    examples = reader_examples(args.files, [], label=args.label)
    candidates = [Candidate(e["text"], e["start"], e["end"], 0.0, english, False) for e in examples]
    # a span the reader keeps unread (a personal word before it: reader.py `settled`) is kept, as detection keeps it
    gates = {"reader": [1.0 if score is None else score for score in reader.judge_many(candidates)]}
    if args.label == "HEALTH":
        gates = {"context model": shipped_context_model("HEALTH").judge_many(candidates), **gates}
    rows = {name: [kept(examples, scores, t) for t in THRESHOLDS] for name, scores in gates.items()}
    ungated = kept(examples, [1.0] * len(examples), 0.0)
    result = {
        "files": [str(f) for f in args.files],
        "reader": str(args.reader or "shipped"),
        "clean_texts": len({e["group"] for e in examples if e["clean"]}),
        "ungated": ungated,
        "by_threshold": rows,
        "label": args.label,
        "shipped": {"reader": reader.threshold},
    }
    lines = [
        f"# {args.label} gates on {', '.join(f.name for f in args.files)}",
        "",
        f"{args.label} spans the tagger keeps without a gate: {ungated['kept']} ({ungated['right']} right); texts without "
        f"personal data among those holding one: {result['clean_texts']}. Reader: {result['reader']}.",
        "",
        *table(
            ["gate", "threshold", "kept", "right", "wrong", "clean texts flagged"],
            [
                [name, f"{r['threshold']:.2f}", *(str(r[k]) for k in ("kept", "right", "wrong", "clean_texts_flagged"))]
                for name, by in rows.items()
                for r in by
            ],
        ),
    ]
    written = write_results(
        stem, {".json": json.dumps(result, indent=1) + "\n", ".md": "\n".join(lines) + "\n"}, args.force
    )
    print("\n".join(lines[:3]))
    print(f"wrote {written}.json and .md")


if __name__ == "__main__":
    main()
