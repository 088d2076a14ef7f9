"""Train and evaluate the generalizer's acceptance gate (`stealthflow.anonymize.gate`) on the blind readers' verdicts.

The judged pairs (`benchmarks/results/fluency_reader_seed*.jsonl`, the seed read from the file name) are split into
their edits and labelled as `benchmarks/reader_edits.py` does (accepted: the post was judged fluent and faithful;
rejected: it was not, and the note names the edit). Each edit is applied alone to its sentence of the original,
as the generalizer tries a candidate, and scored: the embedded model's fluency, MiniLM nearness, edit size. The same
edit judged by several readers (second readers, earlier versions of the same posts) counts once, labelled with the
share of its verdicts that accepted it; an edit dropping a whole sentence is left out (the generalizer never drops
one); an edit readers disagree on (share 0.5) is left out of the figures. `--single-edits` also rejects the one edit
of a rewrite that made only one when its post was judged not fluent or not faithful, whatever the note names (an
edit of a rejected rewrite with several that the note does not name stays out: the verdict may be another edit's).

The gate is fitted on the `--train` seeds; its threshold is the best balanced accuracy of leave-one-seed-out
predictions on those seeds only. The `--test` seeds give the figures: AUC of the gate and of the fluency score
alone, the precision of "accepted" at the threshold; the same for the fluency floors alone (`gate.STAND_IN_FLOOR`,
`gate.REMOVAL_FLOOR`: the comparison baseline) and for the gate with hard floors (`gate.clears_floors`: the
removal floor alone, and both floors, as shipped), and the floor-accepted edits the gate turns away.

    python benchmarks/acceptance_gate.py --train 2 3 4 5 6 7 --test 8 9 --write \
        --out benchmarks/results/acceptance_gate.json

`--leave-one-seed-out` compares the shipped gate with one refitted on every seed instead: each seed's edits are
scored by a gate fitted on the other seeds, at the threshold with the highest recall, out of fold on those other
seeds, whose precision with the hard floors reaches the shipped gate's on them (`matched_threshold`); the same
held-out edits give the shipped gate's figures (`seeds_8_up`: held out from both, the shipped gate being fitted on
seeds 2-7). `--write` then ships the gate fitted on every seed, its threshold chosen the same way on every seed.

    python benchmarks/acceptance_gate.py --leave-one-seed-out --single-edits \
        --out benchmarks/results/acceptance_gate_loso.json
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


def judged(paths: list[Path], single_edits: bool = False) -> list[dict]:
    """One item per distinct (seed, original, edit): its sentence, the sentence with the edit alone, and the
    readers' verdicts (1 accepted, 0 rejected); with `single_edits`, the one edit of a rewrite that made only one is
    rejected when its post was judged not fluent or not faithful, whatever the note names."""
    verdicts: dict[tuple, list[int]] = defaultdict(list)
    for path in paths:
        seed = int(re.search(r"seed(\d+)", path.name).group(1))
        seen: set[tuple[str, str]] = set()  # the same pair twice in one file is one verdict
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if (row["original"], row["rewrite"]) in seen:
                continue
            seen.add((row["original"], row["rewrite"]))
            found = edits(row["original"], row["rewrite"])
            for edit in found:
                alone_rejected = single_edits and len(found) == 1 and not (row["fluent"] and row["faithful"])
                verdict = "rejected" if alone_rejected else label(row, edit)
                if edit.old and verdict is not None:  # the generalizer never inserts
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


def figures(p: np.ndarray, threshold: float | np.ndarray, x: np.ndarray, y: np.ndarray, items: list[dict]) -> dict:
    """AUC of the gate and of the fluency score, precision of what each accepts, the gate with hard floors, and the
    floors' accepted edits the gate turns away, on items with a majority verdict (`threshold`: one, or each item's)."""
    clear = y != 0.5
    threshold = np.broadcast_to(np.asarray(threshold, dtype=float), y.shape)[clear]
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


def matched_threshold(
    p: np.ndarray, good: np.ndarray, floors: np.ndarray, target: float, on: str = "precision"
) -> float:
    """The threshold on `p` with the highest recall among those whose precision, with the hard floors (`floors`: the
    items that clear them), reaches `target`; with `on="recall"`, the highest precision among those whose recall
    reaches it; the best balanced accuracy (`gate.operating_point`) when none does."""
    best: tuple | None = None
    for t in np.unique(p):
        kept = (p >= t) & floors
        if not kept.any():
            continue
        met, gain = (good[kept].mean(), kept[good].mean())[:: 1 if on == "precision" else -1]
        if met >= target and (best is None or gain > best[0]):
            best = (gain, float(t))
    return best[1] if best else gate.operating_point(p, good)


def reach(p: np.ndarray, threshold: float, good: np.ndarray, floors: np.ndarray) -> dict[str, float]:
    """Precision and recall of what the gate accepts at `threshold` with the hard floors."""
    kept = (p >= threshold) & floors
    return {"precision": float(good[kept].mean()) if kept.any() else 0.0, "recall": float(kept[good].mean())}


def held_out(
    x: np.ndarray,
    y: np.ndarray,
    seeds: np.ndarray,
    floors: np.ndarray,
    shipped: gate.Gate,
    config: gate.GateConfig,
    on: str = "precision",
) -> tuple[np.ndarray, np.ndarray]:
    """Each item's probability from a gate fitted on the other seeds, and that fold's threshold: the highest recall,
    out of fold on the other seeds, at the precision the `shipped` gate has on them (`matched_threshold`; `on`
    "recall": the highest precision at its recall)."""
    p, thresholds = np.zeros(len(y)), np.zeros(len(y))
    for seed in np.unique(seeds):
        held, clear = seeds == seed, y != 0.5
        inner = out_of_fold(x[~held], y[~held], seeds[~held], config)
        rest = clear[~held]
        good = y[~held][rest] > 0.5
        target = reach(shipped.probability(x[~held][rest]), shipped.threshold, good, floors[~held][rest])[on]
        thresholds[held] = matched_threshold(inner[rest], good, floors[~held][rest], target, on)
        p[held] = gate.fit(x[~held], y[~held], config).probability(x[held])
    return p, thresholds


def load_items(cache: Path | None, single_edits: bool = False) -> list[dict]:
    """Every judged edit (`judged`) with its features, those of an edit already in `cache` (JSON) read from it."""
    items = judged(sorted(RESULTS.glob("fluency_reader_seed*.jsonl")), single_edits)
    known = {}
    if cache and cache.exists():
        known = {(i["sentence"], i["edited"]): i["x"] for i in json.loads(cache.read_text(encoding="utf-8"))}
    new = [i for i in items if (i["sentence"], i["edited"]) not in known]
    for item, row in zip(new, score(new) if new else [], strict=True):
        known[item["sentence"], item["edited"]] = row.tolist()
    for item in items:
        item["x"] = known[item["sentence"], item["edited"]]
    if cache:
        cache.write_text(json.dumps(items), encoding="utf-8")
    return items


def split_figures(x: np.ndarray, y: np.ndarray, seeds: np.ndarray, items: list[dict], args) -> tuple[dict, gate.Gate]:
    """The gate fitted on the `--train` seeds at their best balanced accuracy out of fold, and its `--test` figures."""
    config = gate.GateConfig()
    train, test = np.isin(seeds, args.train), np.isin(seeds, args.test)
    folds = out_of_fold(x[train], y[train], seeds[train], config)
    clear = y[train] != 0.5
    threshold = gate.operating_point(folds[clear], y[train][clear] > 0.5)
    fitted = gate.fit(x[train], y[train], config)
    fitted = gate.Gate(fitted.mean, fitted.scale, fitted.weights, fitted.bias, threshold)
    return {
        "train_seeds": args.train,
        "test_seeds": args.test,
        "items": {"train": int(train.sum()), "test": int(test.sum())},
        "readers_disagree": int(((y > 0) & (y < 1)).sum()),
        "threshold": round(threshold, 4),
        "weights": dict(zip(gate.FEATURES, np.round(fitted.weights, 3).tolist(), strict=True)),
        "train_out_of_fold": figures(folds, threshold, x[train], y[train], chosen(items, train)),
        "test": figures(fitted.probability(x[test]), threshold, x[test], y[test], chosen(items, test)),
    }, fitted


def loso_figures(x: np.ndarray, y: np.ndarray, seeds: np.ndarray, items: list[dict]) -> tuple[dict, gate.Gate]:
    """The shipped gate and one fitted on every seed, compared on the same held-out seeds (`held_out`), the refitted
    one at the shipped gate's precision and at its recall."""
    fluency = x[:, gate.FEATURES.index("fluency")]
    floors = np.array([gate.clears_floors(i["sentence"], i["edited"], f) for i, f in zip(items, fluency, strict=True)])
    config, shipped = gate.GateConfig(), gate.shipped_gate()
    p, thresholds = held_out(x, y, seeds, floors, shipped, config)
    _, at_recall = held_out(x, y, seeds, floors, shipped, config, "recall")
    old = shipped.probability(x)
    clear = y != 0.5
    target = reach(old[clear], shipped.threshold, y[clear] > 0.5, floors[clear])["precision"]
    threshold = matched_threshold(out_of_fold(x, y, seeds, config)[clear], y[clear] > 0.5, floors[clear], target)
    fitted = gate.fit(x, y, config)
    fitted = gate.Gate(fitted.mean, fitted.scale, fitted.weights, fitted.bias, threshold)
    fresh = seeds >= 8  # seeds the shipped gate was not trained on
    return {
        "seeds": sorted(set(seeds.tolist())),
        "items": len(items),
        "readers_disagree": int(((y > 0) & (y < 1)).sum()),
        "shipped_threshold": round(shipped.threshold, 4),
        "threshold": round(threshold, 4),
        "weights": dict(zip(gate.FEATURES, np.round(fitted.weights, 3).tolist(), strict=True)),
        "every_seed": {
            "shipped": figures(old, shipped.threshold, x, y, items),
            "leave_one_seed_out": figures(p, thresholds, x, y, items),
            "leave_one_seed_out_at_shipped_recall": figures(p, at_recall, x, y, items),
        },
        "seeds_8_up": {
            "shipped": figures(old[fresh], shipped.threshold, x[fresh], y[fresh], chosen(items, fresh)),
            "leave_one_seed_out": figures(p[fresh], thresholds[fresh], x[fresh], y[fresh], chosen(items, fresh)),
            "leave_one_seed_out_at_shipped_recall": figures(
                p[fresh], at_recall[fresh], x[fresh], y[fresh], chosen(items, fresh)
            ),
        },
    }, fitted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7])
    parser.add_argument("--test", type=int, nargs="+", default=[8, 9])
    parser.add_argument("--leave-one-seed-out", action="store_true", help="refit on every seed, compare held out")
    parser.add_argument("--single-edits", action="store_true", help="a rejected rewrite's only edit is rejected")
    parser.add_argument("--features", type=Path, help="cache of the scored items (JSON; edits missing are scored)")
    parser.add_argument("--write", action="store_true", help=f"write the gate to {gate.GATE_FILE}")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    items = load_items(args.features, args.single_edits)
    x = np.array([i["x"] for i in items])
    y = np.array([i["accepted"] for i in items])
    seeds = np.array([i["seed"] for i in items])
    if args.leave_one_seed_out:
        summary, fitted = loso_figures(x, y, seeds, items)
    else:
        summary, fitted = split_figures(x, y, seeds, items, args)
    summary["single_edits"] = args.single_edits
    print(json.dumps(summary, indent=1))
    if args.write:
        seeds_used = summary.get("seeds", args.train)
        fitted.save(gate.GATE_FILE, trained_on_seeds=seeds_used, config=gate.GateConfig().__dict__)
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
