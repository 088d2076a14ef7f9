"""Whether the attribute the local method names for a mark (a change list's "(education)") is one the author's labels
hold: every comment of the labelled profile sets read alone by the cue tagger as the local method reads it
(`find_cues`, then `split_marks`), each mark's attribute checked against the author's labelled attributes, and the
attribute's share of the tagger's label probability mass over the mark's tokens (the candidate floor `τ` below which
the change list would name no attribute). Prints the figures as JSON; nothing of the comments is written.

    python benchmarks/cue_attribute_labels.py [--choose a-f] [--score g-l] [--rows rows.json]   # ~15 min on 2 cores

`--rows`: a JSON of the marks (phrase, attribute, share, labelled) to write, or to read when it exists.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data"
FLOORS = (0.2, 0.3, 0.4, 0.5)
MOST_HIDDEN = 0.10  # of the marks whose attribute is labelled, the most that may lose it


def marks_of(letter: str) -> list[dict]:
    """The marks of blind-profiles-<letter>: attribute, its mass share, and whether the author's labels hold it."""
    from stealthflow.anonymize.cues import TaggerView, find_cues, load_cue_tagger, split_marks
    from stealthflow.data import load_labelled

    tagger = load_cue_tagger()
    posts, labelled = [], []
    for profile in load_labelled(DATA / f"blind-profiles-{letter}" / "profiles.jsonl"):
        for comment in profile.comments:
            posts.append(comment.text)
            labelled.append(set(profile.labelled()))
    marks = split_marks(tagger, posts, find_cues(tagger, posts))
    rows = []
    for post, found, tokens, labels in zip(posts, marks, tagger.token_probabilities(posts), labelled, strict=True):
        offsets, probabilities = TaggerView(post, None).tokens_in_post(tokens)
        for mark in found:
            inside = (offsets[:, 0] < mark.end) & (offsets[:, 1] > mark.start)
            mass = probabilities[inside, 1:].reshape(-1, len(tagger.labels), 2).sum((0, 2))
            share = float(mass[tagger.labels.index(mark.label)] / mass.sum()) if inside.any() and mass.sum() else 0.0
            rows.append({"set": letter, "attribute": mark.label, "share": share, "labelled": mark.label in labels})
    return rows


def figures(rows: list[dict], floor: float) -> dict:
    """At `floor`: the share of shown attributes not labelled, and of labelled ones hidden."""
    shown = [r for r in rows if r["share"] >= floor]
    labelled = [r for r in rows if r["labelled"]]
    return {
        "marks": len(rows),
        "shown": len(shown),
        "not labelled, of shown": round(100 * sum(not r["labelled"] for r in shown) / len(shown), 1) if shown else None,
        "labelled hidden": round(100 * sum(r["share"] < floor for r in labelled) / len(labelled), 1),
    }


def letters(span: str) -> list[str]:
    first, last = span.split("-")
    return [chr(c) for c in range(ord(first), ord(last) + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--choose", default="a-f", help="the sets that choose the floor")
    parser.add_argument("--score", default="g-l", help="the sets that score it")
    parser.add_argument("--rows", type=Path, help="the marks, written (or read when the file exists)")
    args = parser.parse_args()
    choose, score = letters(args.choose), letters(args.score)
    if args.rows and args.rows.exists():
        rows = json.loads(args.rows.read_text())
    else:
        rows = [row for letter in choose + score for row in marks_of(letter)]
        if args.rows:
            args.rows.write_text(json.dumps(rows))
    dev = [r for r in rows if r["set"] in choose]
    test = [r for r in rows if r["set"] in score]
    chosen = max((f for f in FLOORS if figures(dev, f)["labelled hidden"] <= 100 * MOST_HIDDEN), default=None)
    by_attribute = {
        a: figures([r for r in test if r["attribute"] == a], 0.0) for a in sorted({r["attribute"] for r in test})
    }
    print(
        json.dumps(
            {
                "choose": {"sets": args.choose, **{str(f): figures(dev, f) for f in (0.0, *FLOORS)}},
                "floor": chosen,
                "score": {
                    "sets": args.score,
                    "every attribute shown": figures(test, 0.0),
                    "with the floor": figures(test, chosen) if chosen is not None else None,
                },
                "by attribute (score sets, every attribute shown)": by_attribute,
                "share quartiles": np.quantile([r["share"] for r in rows], [0.25, 0.5, 0.75]).round(3).tolist(),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
