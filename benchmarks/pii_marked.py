"""Explicit PII on hand-marked messages (one a line, each value marked in place as [value](TYPE),
`pii_tagger.training.data.read_marked`): the detector as `stealthflow protect` builds it (recognizers
and the PII tagger of `--tagger`, default levels), per file name (files of one name in several folders,
e.g. validation*/en.txt, scored together), scored as benchmarks/pii_registers.py scores (precision on
personal data, recall per type, texts without PII flagged, characters masked outside the values).

    python benchmarks/pii_marked.py data/tagger-natural/validation/*.txt [--tagger DIR] [--json OUT]

The validation split of the fine-tune's hand-written messages is data/tagger-natural/validation/
(data/README.md): the fine-tune never reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import predict  # noqa: E402
from pii_registers import print_misses, score, table  # noqa: E402

from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer  # noqa: E402
from stealthflow.pii_tagger.training.data import read_marked  # noqa: E402
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402


def marked_rows(path: Path) -> list[dict]:
    """pii_registers' rows ({"text", "pii": [{"value", "type"}]}) of a marked file."""
    return [
        {"text": text, "pii": [{"value": text[start:end], "type": kind} for start, end, kind in spans]}
        for text, spans in read_marked(path)
    ]


def rows_by_language(paths: list[Path]) -> dict[str, list[dict]]:
    """The rows of every file, grouped by file name (`en.txt` -> "en"): the same name in several folders
    (validation*/en.txt) is one group holding all of them."""
    groups: dict[str, list[dict]] = {}
    for path in paths:
        groups.setdefault(path.stem, []).extend(marked_rows(path))
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--tagger", help="a tagger's directory (default: the shipped one)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--misses", action="store_true", help="print each wrong or missed span")
    args = parser.parse_args()
    detector = Detector([*build_recognizers(), PiiTaggerRecognizer(args.tagger)])
    groups = rows_by_language(args.files)
    rows = [row for chosen in groups.values() for row in chosen]
    predictions = predict(detector, [row["text"] for row in rows])
    results, start = {}, 0
    for group, chosen in groups.items():
        results[group] = score(chosen, predictions[start : start + len(chosen)])
        start += len(chosen)
    results["all"] = score(rows, predictions)
    if args.misses:
        print_misses(rows, predictions, lambda row: row["text"][:80] + " |")
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
