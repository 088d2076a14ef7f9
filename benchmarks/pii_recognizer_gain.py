"""What named recognizers add to the whole detector: the detector as `stealthflow protect` builds it (the PII
tagger on, default levels), run with and without them on files annotated as benchmarks/pii_registers.py reads
them ({"text", "lang", "pii": [{"value", "type"}]}), one text at a time. Per recognizer type, English and the
six languages apart: annotated values masked (any type) and masked with the type, before and after; texts
without personal data newly flagged, and new spans overlapping no annotated value (false alarms).

    python benchmarks/pii_recognizer_gain.py passport --json OUT --files benchmarks/data/pii-heldout-{c,d,e,f,g}/*.jsonl

With `--before SRC` (another checkout's src/, run in a subprocess), a change to named recognizers instead: that
checkout's whole detector is the before, this one's the after, and the named recognizers' types are counted.

    git archive main src data | tar -x -C /tmp/before   # the code and data to compare with (link models/ beside them)
    python benchmarks/pii_recognizer_gain.py phone --before /tmp/before/src --files ...

The ship rule (benchmarks/results/pii_tagger_choices.md): a recognizer stays when it finds at least 5 values more
than it adds false alarms on these sets (masked values after minus before, against `new_false_alarms`), and adds no flagged text
on data/test.jsonl (benchmarks/pii_session_flags.py --without NAME).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_multilingual import overlaps, predict  # noqa: E402
from pii_registers import gold_spans  # noqa: E402

from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers, recognizer_names  # noqa: E402


def detect(rows: list[dict], without: set[str]) -> list[list]:
    names = [name for name in recognizer_names() if name not in without]
    return predict(Detector(build_recognizers(names, models=True)), [row["text"] for row in rows])


def detect_before(files: list[Path], source: str) -> list[list]:
    """The spans of another checkout's whole detector (`source`: its src/), from this script run in a subprocess."""
    env = {**os.environ, "PYTHONPATH": str(Path(source).resolve())}
    command = [sys.executable, __file__, "--spans", "--files", *map(str, files)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return [[tuple(span) for span in spans] for spans in json.loads(done.stdout.strip().splitlines()[-1])]


def gain(rows: list[dict], before: list[list], after: list[list], types: set[str]) -> dict:
    """Per "en"/"six languages" and type: values masked, masked with the type, before -> after; texts without
    personal data newly flagged; new spans that overlap no annotated value (type and value), on any text."""
    counts: Counter = Counter()
    newly_flagged, false_alarms = 0, []
    for row, old, new in zip(rows, before, after, strict=True):
        group = "en" if row.get("lang", "en") == "en" else "six languages"
        gold = gold_spans(row)
        for span in gold:
            if span[2] in types:
                counts[group, span[2], "values"] += 1
                for name, spans in (("before", old), ("after", new)):
                    counts[group, span[2], name] += overlaps(span, spans)
                    counts[group, span[2], name + " typed"] += overlaps(span, spans, typed=True)
        added = [span for span in set(new) - set(old) if not overlaps(span, gold)]
        false_alarms += [(kind, row["text"][s:e]) for s, e, kind in added]
        if not gold:
            newly_flagged += bool(new) and not old
    by_type = {
        f"{group} {kind}": {
            key: counts[group, kind, key] for key in ("values", "before", "after", "before typed", "after typed")
        }
        for group, kind, key in sorted(counts)
        if key == "values"
    }
    return {"by_type": by_type, "texts_without_pii_newly_flagged": newly_flagged, "new_false_alarms": false_alarms}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("recognizers", nargs="*", help="recognizer names (as `protect: recognizers:` takes them)")
    parser.add_argument("--files", type=Path, nargs="+", required=True, help="annotated JSONL files")
    parser.add_argument("--before", help="another checkout's src/: its whole detector is the before")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--spans", action="store_true", help=argparse.SUPPRESS)  # this process's spans, as JSON
    args = parser.parse_args()
    rows = [
        json.loads(line)
        for file in args.files
        for line in file.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    if args.spans:
        print(json.dumps(detect(rows, set())))
        return
    if not args.recognizers:
        parser.error("name at least one recognizer")
    chosen = set(args.recognizers)
    types = {recognizer.type for recognizer in build_recognizers(sorted(chosen))}
    before = detect_before(args.files, args.before) if args.before else detect(rows, chosen)
    result = gain(rows, before, detect(rows, set()), types)
    result = {"recognizers": sorted(chosen), "before": args.before, "texts": len(rows), **result}
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
