"""The cue tagger's threshold: span recall and precision at several cuts on teacher rewrites it was not
trained on (default `data/teacher-rewrites/synthetic-posts-b.jsonl`, 450 posts of a second writer), and
the share of harmless posts it marks anything in (`--harmless`: JSONL files of posts without cues,
{"text": ...}, written apart from the training data; `--profiles DIR`: a blind set's posts its writer flagged
clue-free in `DIR/clue_flags.jsonl`, whose clue posts are reported apart: the share with a mark).

Gold spans: the words the teacher changed in each cue (`TeacherCue.core`, what the tagger learns) and,
beside them, the teacher's whole cue phrases. A gold span is found when at least half its characters are
tagged (any label); a tagged span is right when it overlaps a gold span (`span_metrics`). Each row also
gives, by attribute, the recall of the teacher's changed words, the precision of the marks of that attribute
and the share of harmless posts with a mark of that attribute. The rows apply the tagger's own span thresholds.

    python benchmarks/cue_thresholds.py --tagger models/cue-tagger \
        --harmless benchmarks/data/rewrite-heldout-b/harmless.jsonl --out runs/cue-thresholds.json

`--choose N` picks a span threshold per attribute (`span_thresholds` of the card, `cues.sure_enough`) at the
tagger's token threshold, on the `--teacher` and harmless posts given: for each attribute alone, of the CANDIDATES
at which at most N of the teacher's changed-word spans are no longer found, the lowest leaving the fewest harmless
posts marked, kept only where that is fewer than with none; `--card` writes them into the tagger's `tagger.json`.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path
from types import SimpleNamespace

from stealthflow.anonymize.cues import CUE_LABELS, find_cues, load_cue_tagger, sure_enough
from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites
from stealthflow.pii_tagger.model import CARD_DATA, TaggedSpan
from stealthflow.pii_tagger.training.metrics import span_metrics
from stealthflow.resources import resource_dir

sys.path.insert(0, str(Path(__file__).resolve().parent))

from local_dev import clue_posts  # noqa: E402

CANDIDATES = tuple(round(0.3 + 0.05 * step, 2) for step in range(13))  # 0.30 .. 0.90


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    default = resource_dir("data") / "teacher-rewrites" / "synthetic-posts-b.jsonl"
    parser.add_argument(
        "--teacher", type=Path, action="append", help=f"teacher rewrites the tagger never saw ({default})"
    )
    parser.add_argument("--tagger", help="cue tagger directory (default: the shipped one)")
    parser.add_argument("--thresholds", default="0.2,0.3,0.4,0.5")
    parser.add_argument("--harmless", type=Path, action="append", default=[])
    parser.add_argument("--profiles", type=Path, action="append", default=[], help="a blind set with clue flags")
    parser.add_argument("--choose", type=int, help="choose span thresholds losing at most N teacher spans each")
    parser.add_argument("--card", action="store_true", help="write the chosen span thresholds into the tagger's card")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rewrites = [r for path in args.teacher or [default] for r in load_teacher_rewrites(path).values()]
    gold = [(r.text, r.spans(True)) for r in rewrites]
    harmless = [
        json.loads(line)["text"]
        for path in args.harmless
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    clued = []
    for directory in args.profiles:
        posts, clues = clue_posts(directory)
        harmless += [post for post, clue in zip(posts, clues, strict=True) if not clue]
        clued += [post for post, clue in zip(posts, clues, strict=True) if clue]
    tagger = load_cue_tagger(args.tagger)
    rows = []
    if args.choose is not None:
        tagger.span_thresholds = {}
        rows += [row(tagger, float(t), rewrites, harmless, clued) for t in args.thresholds.split(",")]
        chosen = choose(tagger, gold, harmless, args.choose)
        print(json.dumps({"span_thresholds": chosen}))
        if args.card:
            card_path = Path(args.tagger or tagger_dir()) / CARD_DATA
            card = json.loads(card_path.read_text(encoding="utf-8"))
            card["span_thresholds"] = chosen
            card_path.write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
        tagger.span_thresholds = chosen
    rows += [row(tagger, float(t), rewrites, harmless, clued) for t in args.thresholds.split(",")]
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


def tagger_dir() -> Path:
    from stealthflow.anonymize.cues import shipped_cue_tagger_dir

    return shipped_cue_tagger_dir()


def row(tagger, threshold: float, rewrites, harmless: list[str], clued: list[str]) -> dict:
    """The figures at token threshold `threshold` (and the tagger's span thresholds)."""
    tagger.threshold = threshold
    found = find_cues(tagger, [r.text for r in rewrites])
    out = {"threshold": threshold, "span_thresholds": dict(tagger.span_thresholds)}
    for gold, core in (("core", True), ("phrase", False)):
        by_label = span_metrics([(r.text, r.spans(core)) for r in rewrites], found, CUE_LABELS)
        figures = by_label["all"]
        out |= {f"{gold}_spans": figures["spans"], f"{gold}_recall": round(figures["recall"], 3)}
        out[f"{gold}_precision"] = round(figures["precision"], 3)
        if core:
            by_attribute = {a: {k: round(by_label[a][k], 3) for k in ("recall", "precision")} for a in CUE_LABELS}
    out["marked_chars_per_span"] = round(
        sum(s.end - s.start for f in found for s in f) / max(1, sum(map(len, found))), 1
    )
    if harmless:
        marked = find_cues(tagger, harmless)
        out["harmless_posts"], out["harmless_marked"] = (
            len(harmless),
            round(sum(bool(f) for f in marked) / len(harmless), 3),
        )
        for attribute in CUE_LABELS:  # the share of harmless posts with a mark of this attribute
            share = sum(any(s.label == attribute for s in f) for f in marked) / len(harmless)
            by_attribute[attribute]["harmless_marked"] = round(share, 3)
    if clued:
        out["clue_posts"] = len(clued)
        out["clue_posts_marked"] = round(sum(bool(f) for f in find_cues(tagger, clued)) / len(clued), 3)
    out["by_attribute"] = by_attribute
    print(json.dumps(out))
    return out


def choose(tagger, gold: list, harmless: list[str], max_lost: int) -> dict[str, float]:
    """attribute -> span threshold: of the candidates losing at most `max_lost` gold spans against none, the lowest
    leaving the fewest harmless posts marked, with that attribute's spans alone cut (spans are found once, at the
    token threshold, with no span threshold); none where no candidate leaves fewer marked."""
    bare = copy.copy(tagger)
    bare.span_thresholds = {}
    found = find_cues(bare, [text for text, _ in gold])
    marked = find_cues(bare, harmless)
    base_found = found_count(gold, found)
    base_marked = sum(bool(f) for f in marked)
    chosen = {}
    for attribute in CUE_LABELS:
        within = [
            (sum(bool(f) for f in cut_spans(marked, attribute, cut)), cut)
            for cut in CANDIDATES
            if base_found - found_count(gold, cut_spans(found, attribute, cut)) <= max_lost
        ]
        fewest, cut = min(within, default=(base_marked, None))
        if fewest < base_marked:
            chosen[attribute] = cut
    return chosen


def cut_spans(found: list[list[TaggedSpan]], attribute: str, cut: float) -> list[list[TaggedSpan]]:
    """`found` with `attribute`'s spans less sure than `cut` left out, as `sure_enough` leaves them."""
    card = SimpleNamespace(span_thresholds={attribute: cut})
    return [sure_enough(card, spans) for spans in found]


def found_count(gold: list, found: list[list[TaggedSpan]]) -> int:
    figures = span_metrics(gold, found, CUE_LABELS)["all"]
    return round(figures["recall"] * figures["spans"])


if __name__ == "__main__":
    main()
