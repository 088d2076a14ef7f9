"""Fit a reader veto on the edits today's `local` makes in the posts blind readers judged, labelled by their verdicts:
a second logistic regression behind the acceptance gate (`stealthflow.anonymize.gate`) that would refuse an edit the
gate passes. Measured and not shipped (benchmarks/results/reader_rejects.md, "A reader veto"); commit 00558df3 wired
one into `gate.Gate.verdicts` for the held-out check.

Input: the rows of `benchmarks/reader_replay.py --unfaithful --rows FILE` (each judged pair with today's text of its
original). Each edit today's text makes (`reader_edits.edits`) that the judged rewrite made too (the same old words
giving way to the same new ones) takes the readers' label: **accepted** when both readers judged the post fluent and
faithful; **rejected** when a reader judged it not fluent or not faithful and that reader's note names the edit
(`reader_replay.names_edit`), or every edit of the post when no rejecting reader's note names any. Other edits have
no label. Each labelled edit is applied alone to its sentence of the original (`acceptance_gate.alone`) and scored:
the acceptance gate's features (`gate.FEATURES`: the local model's likelihood ratio, the meaning floor's nearness,
edit size), the edit's parse (`gate_features.PARSE_FEATURES`: a word left without what it needs after it, a changed
part of speech, a pronoun left, a split name, a stand-in of the phrase's kind) and the whole sentence's nearness.

The veto is a logistic regression (`gate.fit`) on one of `VARIANTS`, weighed by verdicts, held out one seed at a time:
each seed's edits get the chance of a veto fitted on the other seeds. Its threshold is fixed by `veto_threshold` on
those out-of-fold chances: the highest at which the vetoed edits hold at least `RATIO` rejected edits for each
accepted one and at most `MOST_COST` of the accepted edits. Each variant is also fitted on every seed (`fitted`:
its weights on standardised features, bias, threshold).

    python benchmarks/reader_replay.py --seeds 29,31,37,41,43,47,51,53 --unfaithful --rows runs/replay.json
    python benchmarks/reader_veto.py runs/replay.json --features runs/veto_items.json \
        --out benchmarks/results/reader_veto.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from acceptance_gate import COLUMNS, alone  # noqa: E402
from gate_features import PARSE_FEATURES, rows  # noqa: E402
from reader_edits import edits, key  # noqa: E402
from reader_replay import names_edit  # noqa: E402

from stealthflow.anonymize import gate  # noqa: E402
from stealthflow.anonymize.generalize import sentence_bounds  # noqa: E402

#: the vetoed edits hold at least this many reader-rejected edits for each reader-accepted one (out of fold)
RATIO = 2.0
#: and at most this share of the reader-accepted edits
MOST_COST = 0.05
#: the variants compared: the gate's features alone, with the edit's parse, with the whole sentence's nearness too
VARIANTS = {
    "gate": gate.FEATURES,
    "gate_parse": (*gate.FEATURES, *PARSE_FEATURES),
    "gate_parse_sentence": COLUMNS,
}


def labelled(rows: list[dict]) -> list[dict]:
    """One item per edit of today's text that the judged rewrite made too and the readers label (see the module):
    seed, id, sentence, edited sentence, `accepted` (1 or 0) and `verdicts` (the readers behind the label)."""
    items = []
    for row in rows:
        judged = edits(row["original"], row["rewrite"])
        readers = [
            {"fluent": fluent, "faithful": faithful, "note": note}
            for (fluent, faithful), note in zip(row["verdicts"], row["notes"], strict=True)
        ]
        rejecting = [r for r in readers if not (r["fluent"] and r["faithful"])]
        if not rejecting:
            labels = {key(e): (1.0, len(readers)) for e in judged}
        else:
            named = {key(e) for e in judged for r in rejecting if names_edit(r, e, row["rewrite"])}
            labels = {key(e): (0.0, len(rejecting)) for e in judged if not named or key(e) in named}
        for edit in edits(row["original"], row["today"]):
            if key(edit) not in labels or not edit.old:
                continue
            first, last = sentence_bounds(edit.original, edit.start, edit.start + len(edit.old))
            sentence = edit.original[first:last]
            edited = alone(sentence, edit.start - first, edit.old, edit.new)
            if edited is None or edited == sentence or not edited.strip():
                continue
            accepted, verdicts = labels[key(edit)]
            items.append(
                {"seed": row["seed"], "id": row["id"], "sentence": sentence, "edited": edited}
                | {"old": edit.old, "new": edit.new, "accepted": accepted, "verdicts": verdicts}
            )
    return items


def scored(items: list[dict], cache: Path | None) -> np.ndarray:
    """Every column of `acceptance_gate.COLUMNS` for each item (the embedded model, MiniLM and spaCy), those of an edit
    already in `cache` (JSON: {sentence + TAB + edited: row}) read from it."""
    from stealthflow.utility.fluency import shared_scorer

    known = json.loads(cache.read_text(encoding="utf-8")) if cache and cache.exists() else {}
    pairs = list(dict.fromkeys((i["sentence"], i["edited"]) for i in items))
    lacking = [p for p in pairs if "\t".join(p) not in known]
    if lacking:
        fluency = shared_scorer().compare([s for s, _ in lacking], [e for _, e in lacking])
        x = gate.feature_rows(lacking, fluency)
        for pair, row, extra in zip(lacking, x, rows(lacking), strict=True):
            known["\t".join(pair)] = [*row, *extra]
    if cache:
        cache.write_text(json.dumps(known), encoding="utf-8")
    return np.array([known["\t".join((i["sentence"], i["edited"]))] for i in items], dtype=float)


def veto_threshold(p: np.ndarray, good: np.ndarray) -> float:
    """The highest threshold on the chance `p` at which the edits under it hold at least `RATIO` rejected edits for
    each accepted one and at most `MOST_COST` of the accepted ones; 0 (no veto) when none does."""
    best = 0.0
    for t in np.unique(p):
        vetoed = p < t
        bad, lost = int((vetoed & ~good).sum()), int((vetoed & good).sum())
        if bad and bad >= RATIO * lost and lost <= MOST_COST * good.sum():
            best = float(t)
    return best


def out_of_fold(x: np.ndarray, y: np.ndarray, counts: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    p = np.zeros(len(y))
    for seed in np.unique(seeds):
        held = seeds == seed
        p[held] = gate.fit(x[~held], y[~held], gate.GateConfig(), counts[~held]).probability(x[held])
    return p


def variant_figures(p: np.ndarray, good: np.ndarray, threshold: float) -> dict:
    vetoed = p < threshold
    return {
        "auc": round(gate.auc(p, good), 3),
        "threshold": round(threshold, 4),
        "rejected_vetoed": int((vetoed & ~good).sum()),
        "accepted_vetoed": int((vetoed & good).sum()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rows", type=Path, nargs="+", help="rows of reader_replay.py --rows")
    parser.add_argument("--features", type=Path, help="cache of the scored edits (JSON)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    items = labelled([row for path in args.rows for row in json.loads(path.read_text(encoding="utf-8"))])
    every = scored(items, args.features)
    y = np.array([i["accepted"] for i in items])
    counts = np.array([i["verdicts"] for i in items], dtype=float)
    seeds = np.array([i["seed"] for i in items])
    good = y > 0.5
    summary: dict = {
        "seeds": sorted(int(s) for s in np.unique(seeds)),
        "edits": len(items),
        "accepted": int(good.sum()),
        "rejected": int((~good).sum()),
        "ratio": RATIO,
        "most_cost": MOST_COST,
        "out_of_fold": {},
    }
    summary["fitted"] = {}
    for name, names in VARIANTS.items():
        x = every[:, [COLUMNS.index(n) for n in names]]
        p = out_of_fold(x, y, counts, seeds)
        threshold = veto_threshold(p, good)
        summary["out_of_fold"][name] = variant_figures(p, good, threshold)
        fitted = gate.fit(x, y, gate.GateConfig(), counts)
        summary["fitted"][name] = {
            "mean": np.round(fitted.mean, 4).tolist(),
            "scale": np.round(fitted.scale, 4).tolist(),
            "weights": dict(zip(names, np.round(fitted.weights, 3).tolist(), strict=True)),
            "bias": round(fitted.bias, 4),
            "threshold": round(threshold, 4),
        }
    print(json.dumps(summary, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
