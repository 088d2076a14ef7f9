"""Choose the classifier attacker's settings by cross-validation on the training profiles only.

    python benchmarks/attacker_cv.py [--repeats 4] [--folds 5] [--extra FILE ...] [--out FILE]

Training data: data/train.jsonl plus extra labelled sets (default: every blind profile set,
benchmarks/data/blind-profiles-*/profiles.jsonl). data/test.jsonl is never read except to check that no training
profile is in it. Per attribute and per setting (C, weight of an extra profile), every labelled
profile is predicted once by a model that did not see it:
- train.jsonl profiles: `--folds`-fold split, repeated `--repeats` times (the mean is shown);
- extra profiles: leave one set out (the model trains on train.jsonl and the other sets).
A prediction counts when the correctness rules judge it right (age buckets with the ±5-year
tolerance), as `attacker_strength.py` scores the test split. The chosen setting per attribute
maximises the mean of the two accuracies: train.jsonl's own distribution, and writers the
model has not seen. Writes benchmarks/results/attacker_cv.md (or --out); configs/classifier-blind-sets-a-m.yaml
holds the settings chosen with the 13 sets a-m, configs/classifier-blind-sets.yaml those chosen with a-k.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from stealthflow.attack.classifier import classes_for, fit_attribute, labelled_examples, refuse_held_out
from stealthflow.attack.config import COVERED, ClassifierConfig
from stealthflow.attack.embeddings import SentenceEmbedder, default_cache_path
from stealthflow.attack.judge import rule_verdict
from stealthflow.data import load_profiles

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results"
GRID_C = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
GRID_WEIGHT = (0.0, 0.1, 0.3, 1.0)


def held_out_accuracy(attribute, vectors, labels, truths, group, is_extra, config) -> tuple[float, float]:
    """Judged top-1 of out-of-group predictions: on the train.jsonl profiles, on the extra ones."""
    predicted = np.empty(len(labels), dtype=object)
    for held in np.unique(group):
        test = group == held
        model = fit_attribute(attribute, vectors[~test], labels[~test], is_extra[~test], config)
        predicted[test] = model.predict(vectors[test])
    right = np.array([rule_verdict(attribute, t, p) == "yes" for t, p in zip(truths, predicted)], dtype=float)
    return right[~is_extra].mean(), right[is_extra].mean()


def majority_level(attribute: str, truths: list[str]) -> float:
    """The best constant guess's judged top-1 on these labels."""
    return max(np.mean([rule_verdict(attribute, t, c) == "yes" for t in truths]) for c in classes_for(attribute))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=4)
    parser.add_argument(
        "--extra", type=Path, nargs="+", default=sorted(REPO.glob("benchmarks/data/blind-profiles-*/profiles.jsonl"))
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "attacker_cv.md")
    args = parser.parse_args()
    train = load_profiles(REPO / "data/train.jsonl")
    sets = [load_profiles(path) for path in args.extra]
    profiles = train + [p for one_set in sets for p in one_set]
    refuse_held_out(profiles, load_profiles(REPO / "data/test.jsonl"))
    embedder = SentenceEmbedder(default_cache_path())
    vectors = embedder.embed_texts([p.text for p in profiles]).astype(np.float64)
    embedder.close()
    # Group per profile and repeat: train.jsonl folds 0..folds-1, then one group per extra set.
    set_groups = np.concatenate([np.full(len(one_set), args.folds + i) for i, one_set in enumerate(sets)])
    groups = [
        np.concatenate([np.random.default_rng(seed).permutation(len(train)) % args.folds, set_groups])
        for seed in range(args.repeats)
    ]
    is_extra = np.arange(len(profiles)) >= len(train)

    lines = [
        f"Cross-validation on data/train.jsonl ({len(train)} profiles, {args.folds} folds x {args.repeats}) "
        f"and {len(sets)} extra sets ({len(profiles) - len(train)} profiles, leave one set out); judged top-1.",
        "",
        "| attribute | C | extra weight | train.jsonl folds | extra sets (left out) | mean | chosen |",
        "|---|---|---|---|---|---|---|",
    ]
    chosen_c, chosen_weight = {}, {}
    for attribute in COVERED:
        indices, labels = labelled_examples(profiles, attribute)
        truths = [profiles[i].labelled()[attribute].estimate for i in indices]
        x, y, extra = vectors[indices], np.array(labels), is_extra[indices]
        rows = []
        for c in GRID_C:
            for weight in GRID_WEIGHT:
                config = ClassifierConfig(C={attribute: c}, extra_weight={attribute: weight}, attributes=(attribute,))
                runs = [held_out_accuracy(attribute, x, y, truths, g[indices], extra, config) for g in groups]
                own, other = np.mean([r[0] for r in runs]), runs[0][1]  # left-out sets do not depend on the seed
                rows.append((c, weight, own, other, (own + other) / 2))
        best = max(rows, key=lambda row: row[4])
        chosen_c[attribute], chosen_weight[attribute] = best[0], best[1]
        own_majority = majority_level(attribute, [t for t, e in zip(truths, extra) if not e])
        other_majority = majority_level(attribute, [t for t, e in zip(truths, extra) if e])
        lines.append(
            f"| {attribute} | majority class | | {own_majority:.3f} (n={int((~extra).sum())}) "
            f"| {other_majority:.3f} (n={int(extra.sum())}) | | |"
        )
        for row in rows:
            c, weight, own, other, mean = row
            mark = "**chosen**" if row is best else ""
            lines.append(f"| {attribute} | {c:g} | {weight:g} | {own:.3f} | {other:.3f} | {mean:.3f} | {mark} |")
        print(
            f"{attribute}: C={best[0]:g}, extra weight {best[1]:g} (train.jsonl {best[2]:.3f}, extra sets {best[3]:.3f})"
        )
    lines += ["", f"chosen: C = {chosen_c}; extra_weight = {chosen_weight}"]
    print(lines[-1])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
