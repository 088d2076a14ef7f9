"""Train and evaluate the generalizer's acceptance gate (`stealthflow.anonymize.gate`) on the blind readers' verdicts.

The judged pairs (`benchmarks/results/fluency_reader_seed*.jsonl`, the seed read from the file name) are split into
their edits and labelled as `benchmarks/reader_edits.py` does (accepted: the post was judged fluent and faithful;
rejected: it was not, and the note names the edit). Each edit is applied alone to its sentence of the original,
as the generalizer tries a candidate, and scored: the embedded model's fluency, MiniLM nearness, edit size. The same
edit judged by several readers (second readers, earlier versions of the same posts) counts once, labelled with the
share of its verdicts that accepted it; an edit dropping a whole sentence is left out (the generalizer never drops
one); an edit readers disagree on (share 0.5) is left out of the figures.

The gate is fitted on the `--train` seeds; its threshold is the best balanced accuracy of leave-one-seed-out
predictions on those seeds only. The `--test` seeds give the figures: AUC of the gate and of the fluency score
alone, the precision of "accepted" at the threshold; the same for the fluency floors alone (`gate.STAND_IN_FLOOR`,
`gate.REMOVAL_FLOOR`: the comparison baseline) and for the gate with hard floors (`gate.clears_floors`: the
removal floor alone, and both floors, as shipped), and the floor-accepted edits the gate turns away.

    python benchmarks/acceptance_gate.py --train 2 3 4 5 6 7 --test 8 9 --write \
        --out benchmarks/results/acceptance_gate.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reader_edits import edits, label  # noqa: E402

from stealthflow.anonymize import gate  # noqa: E402
from stealthflow.anonymize.generalize import replace_once, sentence_bounds  # noqa: E402
from stealthflow.data.evidence import find_phrase  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def judged(paths: list[Path]) -> list[dict]:
    """One item per distinct (seed, original, edit): its sentence, the sentence with the edit alone, and the
    readers' verdicts (1 accepted, 0 rejected)."""
    verdicts: dict[tuple, list[int]] = defaultdict(list)
    for path in paths:
        seed = int(re.search(r"seed(\d+)", path.name).group(1))
        seen: set[tuple[str, str]] = set()  # the same pair twice in one file is one verdict
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if (row["original"], row["rewrite"]) in seen:
                continue
            seen.add((row["original"], row["rewrite"]))
            for edit in edits(row["original"], row["rewrite"]):
                if edit.old and (verdict := label(row, edit)) is not None:  # the generalizer never inserts
                    verdicts[seed, row["original"], edit.start, edit.old, edit.new].append(verdict == "accepted")
    items = []
    for (seed, original, start, old, new), found in verdicts.items():
        if not new and re.search(
            r"[.!?…]$", old
        ):  # a sentence dropped whole: the generalizer never does that (benchmarks/rewrite_damage.py)
            continue
        first, last = sentence_bounds(original, start, start + len(old))
        sentence = original[first:last]
        edited = alone(sentence, start - first, old, new)
        if edited is not None and edited != sentence and edited.strip():
            items.append({"seed": seed, "sentence": sentence, "edited": edited, "accepted": float(np.mean(found))})
    return items


def alone(sentence: str, start: int, old: str, new: str) -> str | None:
    """`sentence` with `old` replaced by `new`, tidied as the generalizer tidies its candidates (`replace_once`);
    None when `old` occurs earlier in the sentence than at `start`."""
    found = find_phrase(old, sentence)
    return replace_once(sentence, old, new) if found is not None and found[0] == start else None


def score(items: list[dict]) -> np.ndarray:
    """The gate's features of every item (the embedded model and MiniLM)."""
    from stealthflow.utility.fluency import shared_scorer

    sentences, editeds = [i["sentence"] for i in items], [i["edited"] for i in items]
    fluency = []
    for at in range(0, len(items), 64):
        fluency += shared_scorer().compare(sentences[at : at + 64], editeds[at : at + 64])
    return np.array(gate.feature_rows(list(zip(sentences, editeds, strict=True)), fluency))


def out_of_fold(x: np.ndarray, y: np.ndarray, seeds: np.ndarray, config: gate.GateConfig) -> np.ndarray:
    """Each item's probability from a gate fitted on the other seeds."""
    p = np.zeros(len(y))
    for seed in np.unique(seeds):
        held = seeds == seed
        p[held] = gate.fit(x[~held], y[~held], config).probability(x[held])
    return p


def chosen(items: list[dict], mask: np.ndarray) -> list[dict]:
    return [item for item, keep in zip(items, mask, strict=True) if keep]


def accepted(kept: np.ndarray, good: np.ndarray) -> dict:
    return {
        "accepts": int(kept.sum()),
        "precision": round(float(good[kept].mean()), 3) if kept.any() else None,
        "recall": round(float(kept[good].mean()), 3),
    }


def figures(p: np.ndarray, threshold: float, x: np.ndarray, y: np.ndarray, items: list[dict]) -> dict:
    """AUC of the gate and of the fluency score, precision of what each accepts, the gate with hard floors, and the
    floors' accepted edits the gate turns away, on items with a majority verdict."""
    clear = y != 0.5
    p, x, good = p[clear], x[clear], y[clear] > 0.5
    items = chosen(items, clear)
    fluency, removal = x[:, gate.FEATURES.index("fluency")], x[:, gate.FEATURES.index("removal")] > 0
    floors = fluency >= np.where(removal, gate.REMOVAL_FLOOR, gate.STAND_IN_FLOOR)
    ends = np.array([gate.newly_ends_on_function_word(i["sentence"], i["edited"]) for i in items], dtype=bool)
    kept = p >= threshold
    turned = floors & ~kept
    return {
        "gate_removal_floor": accepted(kept & (~removal | (fluency >= gate.REMOVAL_FLOOR)) & ~ends, good),
        "gate_floors": accepted(kept & floors & ~ends, good),
        "edits": int(clear.sum()),
        "accepted_by_readers": int(good.sum()),
        "auc_gate": round(gate.auc(p, good), 3),
        "auc_fluency": round(gate.auc(fluency, good), 3),
        "gate_accepts": int(kept.sum()),
        "gate_precision": round(float(good[kept].mean()), 3) if kept.any() else None,
        "gate_recall": round(float(kept[good].mean()), 3),
        "floors_accept": int(floors.sum()),
        "floors_precision": round(float(good[floors].mean()), 3) if floors.any() else None,
        "floors_recall": round(float(floors[good].mean()), 3),
        "floor_accepted_gate_rejects": int(turned.sum()),
        "of_which_readers_rejected": int((turned & ~good).sum()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7])
    parser.add_argument("--test", type=int, nargs="+", default=[8, 9])
    parser.add_argument("--features", type=Path, help="cache of the scored items (JSON; rebuilt when missing)")
    parser.add_argument("--write", action="store_true", help=f"write the gate to {gate.GATE_FILE}")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.features and args.features.exists():
        items = json.loads(args.features.read_text(encoding="utf-8"))
    else:
        items = judged(sorted(RESULTS.glob("fluency_reader_seed*.jsonl")))
        for item, row in zip(items, score(items), strict=True):
            item["x"] = row.tolist()
        if args.features:
            args.features.write_text(json.dumps(items), encoding="utf-8")
    x = np.array([i["x"] for i in items])
    y = np.array([i["accepted"] for i in items])
    seeds = np.array([i["seed"] for i in items])
    config = gate.GateConfig()
    train, test = np.isin(seeds, args.train), np.isin(seeds, args.test)
    folds = out_of_fold(x[train], y[train], seeds[train], config)
    clear = y[train] != 0.5
    threshold = gate.operating_point(folds[clear], y[train][clear] > 0.5)
    fitted = gate.fit(x[train], y[train], config)
    fitted = gate.Gate(fitted.mean, fitted.scale, fitted.weights, fitted.bias, threshold)
    summary = {
        "train_seeds": args.train,
        "test_seeds": args.test,
        "items": {"train": int(train.sum()), "test": int(test.sum())},
        "readers_disagree": int(((y > 0) & (y < 1)).sum()),
        "threshold": round(threshold, 4),
        "weights": dict(zip(gate.FEATURES, np.round(fitted.weights, 3).tolist(), strict=True)),
        "train_out_of_fold": figures(folds, threshold, x[train], y[train], chosen(items, train)),
        "test": figures(fitted.probability(x[test]), threshold, x[test], y[test], chosen(items, test)),
    }
    print(json.dumps(summary, indent=1))
    if args.write:
        fitted.save(gate.GATE_FILE, trained_on_seeds=args.train, config=config.__dict__)
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
