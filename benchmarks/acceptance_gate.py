"""Train and evaluate the generalizer's acceptance gate (`stealthflow.anonymize.gate`) on the blind readers' verdicts.

The judged pairs (`verdict_files`: every `benchmarks/results/fluency_reader_seed*.jsonl`, a first or a second reader's,
and `rewrite_arms_seed*.jsonl`, whose lines hold two readers' verdicts; the seed read from the file name) are split
into their edits and labelled as `benchmarks/reader_edits.py` does (accepted: the post was judged fluent and
faithful; rejected: it was not, and the note names the edit). Each edit is applied alone to its sentence of the
original, as the generalizer tries a candidate, and scored: the embedded model's fluency, MiniLM nearness, edit size
(`gate.FEATURES`), and the candidate features of `benchmarks/gate_features.py`. The same edit judged several times
(two readers, earlier versions of the same posts) is one item, labelled with the share of its verdicts that accepted
it and weighed by their number when a gate is fitted (`--leave-one-seed-out`); an edit dropping a whole sentence is
left out (the generalizer never drops one); an edit readers disagree on (share 0.5) is left out of the figures.
`--single-edits` also rejects the one edit of a rewrite that made only one when its post was judged not fluent or
not faithful, whatever the note names (an edit of a rejected rewrite with several that the note does not name stays
out: the verdict may be another edit's).

The gate is fitted on the `--train` seeds; its threshold is the best balanced accuracy of leave-one-seed-out
predictions on those seeds only. The `--test` seeds give the figures: AUC of the gate and of the fluency score
alone, the precision of "accepted" at the threshold; the same for the fluency floors alone (`gate.STAND_IN_FLOOR`,
`gate.REMOVAL_FLOOR`: the comparison baseline) and for the gate with hard floors (`gate.clears_floors`: the
removal floor alone, and both floors, as shipped), and the floor-accepted edits the gate turns away.

    python benchmarks/acceptance_gate.py --train 2 3 4 5 6 7 --test 8 9 --write \
        --out benchmarks/results/acceptance_gate.json

`--leave-one-seed-out` compares the `--baseline` gate (default: the shipped one) with gates refitted on every seed
(`VARIANTS`: the gate's features, with the parse's, with the whole sentence's nearness too), held out one seed at a
time from `HELD_OUT_FROM`: each fitted on every other seed, at the threshold with the highest precision, out of fold
on those other seeds, among those accepting at least `KEEP` of the edits the baseline accepts there
(`kept_threshold`). Per held-out seed and pooled: AUC, the share of edits accepted (with the hard floors) and the
share of them readers judged fluent and faithful. `--write` then ships the refitted gate of the gate's own features
(the only variant the generalizer computes), fitted on every seed, its threshold chosen the same way.

    python benchmarks/acceptance_gate.py --leave-one-seed-out --single-edits \
        --out benchmarks/results/acceptance_gate_loso.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gate_features  # noqa: E402
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
        seen: set[tuple[str, str, str]] = set()  # the same pair twice in one file is one verdict of each reader
        for line in path.read_text(encoding="utf-8").splitlines():
            for reader, row in readings(json.loads(line)):
                if (reader, row["original"], row["rewrite"]) in seen:
                    continue
                seen.add((reader, row["original"], row["rewrite"]))
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
            items.append(
                {
                    "seed": seed,
                    "sentence": sentence,
                    "edited": edited,
                    "accepted": float(np.mean(found)),
                    "verdicts": len(found),
                }
            )
    return items


def readings(row: dict) -> list[tuple[str, dict]]:
    """(reader, verdict row) of a judged pair: a `fluency_reader` line is one reader's (its file says which), a
    `rewrite_arms` line holds two (`reader_1`, `reader_2`), each with its own fluent, faithful and note."""
    if "reader_1" not in row:
        return [("", row)]
    return [(reader, {**row, **row[reader]}) for reader in ("reader_1", "reader_2") if reader in row]


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


def verdict_files() -> list[Path]:
    """Every file of blind readers' verdicts on local rewrites: both readers' `fluency_reader_seed*` files and the
    rewrite arms read by two readers (`rewrite_arms_seed*`)."""
    return sorted([*RESULTS.glob("fluency_reader_seed*.jsonl"), *RESULTS.glob("rewrite_arms_seed*.jsonl")])


def load_items(cache: Path | None, single_edits: bool = False) -> list[dict]:
    """Every judged edit (`judged`) with the gate's features (`x`) and the candidate ones (`extra`:
    `gate_features.FEATURES`), those of an edit already in `cache` (JSON) read from it."""
    items = judged(verdict_files(), single_edits)
    known: dict[tuple[str, str], dict] = {}
    if cache and cache.exists():
        known = {(i["sentence"], i["edited"]): i for i in json.loads(cache.read_text(encoding="utf-8"))}
    pairs = list(dict.fromkeys((i["sentence"], i["edited"]) for i in items))
    lacking = [pair for pair in pairs if "x" not in known.get(pair, {})]
    if lacking:
        scored = score([{"sentence": sentence, "edited": edited} for sentence, edited in lacking])
        for pair, row in zip(lacking, scored, strict=True):
            known.setdefault(pair, {})["x"] = row.tolist()
    lacking = [pair for pair in pairs if "extra" not in known[pair]]
    for pair, row in zip(lacking, gate_features.rows(lacking) if lacking else [], strict=True):
        known[pair]["extra"] = row
    for item in items:
        item.update(
            x=known[item["sentence"], item["edited"]]["x"], extra=known[item["sentence"], item["edited"]]["extra"]
        )
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
    fitted = replace(fitted, threshold=threshold)
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


#: reader seeds from here on are held out one at a time; the earlier ones are always fitted on
HELD_OUT_FROM = 10
#: a refitted gate's threshold keeps at least this share of the baseline gate's accepted edits (chosen out of fold)
KEEP = 0.9
#: the largest cost of the ship rule (benchmarks/results/acceptance_gate_refit_rule.md): the share of the baseline
#: gate's accepted edits a refitted gate may turn away
MOST_COST = 0.15
#: every column of the items' rows: the gate's features, then the candidate ones
COLUMNS = (*gate.FEATURES, *gate_features.FEATURES)
#: the refitted gates compared: the shipped gate's features (the one `--write` ships), with what the edit's parse
#: says, and with the whole sentence's nearness too
VARIANTS = {
    "refit": gate.FEATURES,
    "refit_parse": (*gate.FEATURES, *gate_features.PARSE_FEATURES),
    "refit_parse_sentence": COLUMNS,
}


def columns(x: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """The `names` columns of rows of every column (`COLUMNS`)."""
    return x[:, [COLUMNS.index(name) for name in names]]


def kept_threshold(p: np.ndarray, good: np.ndarray, floors: np.ndarray, least: float) -> float:
    """The threshold on `p` with the highest precision, with the hard floors (`floors`: the items that clear them),
    among those that accept at least `least` items (the lowest such threshold on a tie)."""
    best: tuple[float, float] | None = None
    for t in np.unique(p):
        kept = (p >= t) & floors
        if kept.sum() >= least and (best is None or good[kept].mean() > best[0]):
            best = (float(good[kept].mean()), float(t))
    return best[1] if best else float(p.min())


def refitted(
    x: np.ndarray, y: np.ndarray, counts: np.ndarray, seeds: np.ndarray, floors: np.ndarray, least: float
) -> gate.Gate:
    """A gate fitted on the rows `x`, each weighed by its verdicts (`counts`), its threshold chosen out of fold over
    `seeds` (`kept_threshold`): the highest precision with the hard floors that accepts at least `least` edits."""
    config = gate.GateConfig()
    p = np.zeros(len(y))
    for seed in np.unique(seeds):
        held = seeds == seed
        p[held] = gate.fit(x[~held], y[~held], config, counts[~held]).probability(x[held])
    clear = y != 0.5
    threshold = kept_threshold(p[clear], y[clear] > 0.5, floors[clear], least)
    return replace(gate.fit(x, y, config, counts), threshold=threshold)


def arm_figures(p: np.ndarray, thresholds: float | np.ndarray, good: np.ndarray, floors: np.ndarray) -> dict:
    """AUC, edits accepted at `thresholds` (one, or each edit's fold's) with the hard floors, their share of the
    edits, and the share of them readers judged fluent and faithful."""
    kept = (p >= thresholds) & floors
    return {
        "auc": round(gate.auc(p, good), 3),
        "accepts": int(kept.sum()),
        "accepted_share": round(float(kept.mean()), 3),
        "precision": round(float(good[kept].mean()), 3) if kept.any() else None,
    }


def loso_figures(
    x: np.ndarray, y: np.ndarray, counts: np.ndarray, seeds: np.ndarray, items: list[dict], baseline: gate.Gate
) -> tuple[dict, dict[str, gate.Gate]]:
    """The `baseline` gate and each refitted variant (`VARIANTS`), held out seed by seed from `HELD_OUT_FROM`: each
    variant fitted on every other seed (`refitted`, at no fewer than `KEEP` of the edits the baseline accepts there),
    scored on the held-out seed's edits with a majority verdict; and each variant fitted on every seed."""
    fluency = x[:, COLUMNS.index("fluency")]
    floors = np.array([gate.clears_floors(i["sentence"], i["edited"], f) for i, f in zip(items, fluency, strict=True)])
    clear = y != 0.5
    old = baseline.probability(columns(x, gate.FEATURES))
    old_kept = (old >= baseline.threshold) & floors & clear
    held_seeds = sorted(int(s) for s in np.unique(seeds) if s >= HELD_OUT_FROM)
    arms = {"shipped": (old, np.full(len(y), baseline.threshold))}
    for name, names in VARIANTS.items():
        rows, p, thresholds = columns(x, names), np.zeros(len(y)), np.full(len(y), np.inf)
        for seed in held_seeds:
            held, rest = seeds == seed, seeds != seed
            fold = refitted(rows[rest], y[rest], counts[rest], seeds[rest], floors[rest], KEEP * old_kept[rest].sum())
            p[held], thresholds[held] = fold.probability(rows[held]), fold.threshold
        arms[name] = (p, thresholds)
    pooled = np.isin(seeds, held_seeds) & clear
    summary = {
        "seeds": sorted(int(s) for s in np.unique(seeds)),
        "held_out_seeds": held_seeds,
        "items": len(items),
        "verdicts": int(counts.sum()),
        "readers_disagree": int(((y > 0) & (y < 1)).sum()),
        "baseline_threshold": round(baseline.threshold, 4),
        "keep": KEEP,
        "pooled": {
            "edits": int(pooled.sum()),
            "accepted_by_readers": int((y[pooled] > 0.5).sum()),
            **{arm: arm_figures(p[pooled], t[pooled], y[pooled] > 0.5, floors[pooled]) for arm, (p, t) in arms.items()},
        },
        "pooled_precision_at_most_cost": {
            arm: ceiling(p[pooled], y[pooled] > 0.5, floors[pooled], (1 - MOST_COST) * old_kept[pooled].sum())
            for arm, (p, _) in arms.items()
        },
        "per_seed": {
            seed: {
                "edits": int(((seeds == seed) & clear).sum()),
                **{arm: arm_figures(p[on], t[on], y[on] > 0.5, floors[on]) for arm, (p, t) in arms.items()},
            }
            for seed in held_seeds
            for on in [(seeds == seed) & clear]
        },
    }
    fitted = {
        name: refitted(columns(x, names), y, counts, seeds, floors, KEEP * old_kept.sum())
        for name, names in VARIANTS.items()
    }
    summary["fitted"] = {
        name: {
            "threshold": round(g.threshold, 4),
            "weights": dict(zip(VARIANTS[name], np.round(g.weights, 3).tolist(), strict=True)),
        }
        for name, g in fitted.items()
    }
    return summary, fitted


def ceiling(p: np.ndarray, good: np.ndarray, floors: np.ndarray, accepts: float) -> float:
    """The precision of the `accepts` highest-scoring edits that clear the hard floors: what a threshold chosen on
    the held-out edits themselves would reach at that many accepts (an upper bound, not a held-out figure)."""
    order = np.argsort(-p[floors], kind="stable")
    return round(float(good[floors][order[: int(round(accepts))]].mean()), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--train", type=int, nargs="+", default=[2, 3, 4, 5, 6, 7])
    parser.add_argument("--test", type=int, nargs="+", default=[8, 9])
    parser.add_argument("--leave-one-seed-out", action="store_true", help="refitted gates against --baseline")
    parser.add_argument("--baseline", type=Path, default=gate.GATE_FILE, help="the gate to compare with")
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
        counts = np.array([i["verdicts"] for i in items], dtype=float)
        every = np.hstack([x, np.array([i["extra"] for i in items])])
        summary, variants = loso_figures(every, y, counts, seeds, items, gate.Gate.load(args.baseline))
        fitted = variants["refit"]  # the only variant whose features the gate computes
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
