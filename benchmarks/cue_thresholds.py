"""The cue tagger's threshold: span recall and precision at several cuts on teacher rewrites it was not
trained on (default `data/teacher-rewrites/synthetic-posts-b.jsonl`, 450 posts of a second writer), and
the share of harmless posts it marks anything in (`--harmless`: JSONL files of posts without cues,
{"text": ...}, written apart from the training data).

Gold spans: the words the teacher changed in each cue (`TeacherCue.core`, what the tagger learns) and,
beside them, the teacher's whole cue phrases. A gold span is found when at least half its characters are
tagged (any label); a tagged span is right when it overlaps a gold span (`span_metrics`). Each row also
gives, by attribute, the recall of the teacher's changed words, the precision of the marks of that attribute
and the share of harmless posts with a mark of that attribute.

    python benchmarks/cue_thresholds.py --tagger models/cue-tagger \
        --harmless benchmarks/data/rewrite-heldout-b/harmless.jsonl --out runs/cue-thresholds.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from stealthflow.anonymize.cues import CUE_LABELS, find_cues, load_cue_tagger
from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites
from stealthflow.pii_tagger.training.metrics import span_metrics
from stealthflow.resources import resource_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default = resource_dir("data") / "teacher-rewrites" / "synthetic-posts-b.jsonl"
    parser.add_argument("--teacher", type=Path, default=default, help="teacher rewrites the tagger never saw")
    parser.add_argument("--tagger", help="cue tagger directory (default: the shipped one)")
    parser.add_argument("--thresholds", default="0.2,0.3,0.4,0.5")
    parser.add_argument("--harmless", type=Path, action="append", default=[])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rewrites = list(load_teacher_rewrites(args.teacher).values())
    texts = [r.text for r in rewrites]
    harmless = [
        json.loads(line)["text"]
        for path in args.harmless
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    tagger = load_cue_tagger(args.tagger)
    rows = []
    for threshold in [float(t) for t in args.thresholds.split(",")]:
        tagger.threshold = threshold
        found = find_cues(tagger, texts)
        row = {"threshold": threshold}
        for gold, core in (("core", True), ("phrase", False)):
            by_label = span_metrics([(r.text, r.spans(core)) for r in rewrites], found, CUE_LABELS)
            figures = by_label["all"]
            row |= {f"{gold}_spans": figures["spans"], f"{gold}_recall": round(figures["recall"], 3)}
            row[f"{gold}_precision"] = round(figures["precision"], 3)
            if core:
                by_attribute = {a: {k: round(by_label[a][k], 3) for k in ("recall", "precision")} for a in CUE_LABELS}
        row["marked_chars_per_span"] = round(
            sum(s.end - s.start for f in found for s in f) / max(1, sum(map(len, found))), 1
        )
        if harmless:
            marked = find_cues(tagger, harmless)
            row["harmless_marked"] = round(sum(bool(f) for f in marked) / len(harmless), 3)
            for attribute in CUE_LABELS:  # the share of harmless posts with a mark of this attribute
                share = sum(any(s.label == attribute for s in f) for f in marked) / len(harmless)
                by_attribute[attribute]["harmless_marked"] = round(share, 3)
        row["by_attribute"] = by_attribute
        rows.append(row)
        print(json.dumps(row))
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
