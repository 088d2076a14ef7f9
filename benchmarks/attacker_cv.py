"""Choose the classifier attacker's settings by cross-validation on the training profiles only.

    python benchmarks/attacker_cv.py [--repeats 2] [--folds 5] [--extra FILE ...] [--out FILE]

Training data: data/train.jsonl plus extra labelled sets (default: every blind profile set,
benchmarks/data/blind-profiles-*/profiles.jsonl). data/test.jsonl is never read except to check that no training
profile is in it. Per attribute and per setting (feature blocks, C, weight of an extra profile), every labelled
profile is predicted once by a model that did not see it:
- train.jsonl profiles: `--folds`-fold split, repeated `--repeats` times (the mean is shown);
- extra profiles: leave one set out (the model trains on train.jsonl and the other sets).
Each fit builds its word vocabulary (`words` block) from the profiles it trains on, as training does.
A prediction counts when the correctness rules judge it right (age buckets with the ±5-year
tolerance), as `attacker_strength.py` scores the test split. The chosen setting per attribute
maximises the mean of the two accuracies: train.jsonl's own distribution, and writers the
model has not seen. Writes benchmarks/results/attacker_cv.md (or --out). configs/classifier-words-a-m.yaml holds the
settings chosen over blocks, C and weight with the 13 sets a-m (benchmarks/results/attacker_cv_words.md);
configs/classifier-blind-sets-a-m.yaml and classifier-blind-sets.yaml those chosen for the mean embedding alone
with a-m and a-k (attacker_cv.md, attacker_cv_a-k.md: C 0.3-100, weight 0-1, 4 repeats).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from stealthflow.attack.classifier import classes_for, fit_attribute, labelled_examples, refuse_held_out
from stealthflow.attack.config import COVERED, ClassifierConfig
from stealthflow.attack.embeddings import SentenceEmbedder, default_cache_path
from stealthflow.attack.features import Featurizer, frequent_words, stack
from stealthflow.attack.judge import rule_verdict
from stealthflow.data import load_profiles

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results"
GRID_BLOCKS = (("mean",), ("mean", "words"))
GRID_C = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
GRID_WEIGHT = (0.1, 0.3, 1.0)


def group_features(line_vectors, texts, held, blocks) -> np.ndarray:
    """Every profile's features, the word vocabulary built without the `held` profiles (as training would)."""
    vocabulary = frequent_words(t for t, h in zip(texts, held) if not h) if "words" in blocks else []
    return stack(Featurizer(vocabulary).blocks(line_vectors, texts), blocks)


def held_out_predictions(attribute, blocks, line_vectors, texts, indices, labels, is_extra, groups, settings):
    """Per grid setting (C, weight) and group split, each labelled profile's prediction by a model that did not see it.

    `groups` are arrays of one group per profile (-1: always trained on); a profile is predicted once per array
    that holds it out.
    """
    predicted = {(c, w, g): np.empty(len(indices), dtype=object) for c, w in settings for g in range(len(groups))}
    for g, group in enumerate(groups):
        for held in np.unique(group[indices][group[indices] >= 0]):
            features = group_features(line_vectors, texts, group == held, blocks)[indices]
            test = group[indices] == held
            for c, w in settings:
                config = ClassifierConfig(C={attribute: c}, extra_weight={attribute: w}, attributes=(attribute,))
                model = fit_attribute(attribute, features[~test], labels[~test], is_extra[~test], config)
                predicted[c, w, g][test] = model.predict(features[test])
    return predicted


def majority_level(attribute: str, truths: list[str]) -> float:
    """The best constant guess's judged top-1 on these labels."""
    return max(np.mean([rule_verdict(attribute, t, c) == "yes" for t in truths]) for c in classes_for(attribute))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--extra", type=Path, nargs="+", default=sorted(REPO.glob("benchmarks/data/blind-profiles-*/profiles.jsonl"))
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "attacker_cv.md")
    args = parser.parse_args()
    train = load_profiles(REPO / "data/train.jsonl")
    sets = [load_profiles(path) for path in args.extra]
    profiles = train + [p for one_set in sets for p in one_set]
    refuse_held_out(profiles, load_profiles(REPO / "data/test.jsonl"))
    texts = [p.text for p in profiles]
    embedder = SentenceEmbedder(default_cache_path())
    line_vectors = embedder.embed_profiles(texts)
    embedder.close()
    is_extra = np.arange(len(profiles)) >= len(train)
    # One group array per repeat (train.jsonl folds 0..folds-1, extra profiles always trained on), then one that
    # leaves each extra set out in turn (train.jsonl always trained on): left-out sets do not depend on the seed.
    outside = np.full(len(profiles) - len(train), -1)
    groups = [
        np.concatenate([np.random.default_rng(seed).permutation(len(train)) % args.folds, outside])
        for seed in range(args.repeats)
    ]
    groups.append(np.concatenate([np.full(len(train), -1)] + [np.full(len(s), i) for i, s in enumerate(sets)]))
    settings = [(c, w) for c in GRID_C for w in GRID_WEIGHT]

    lines = [
        f"Cross-validation on data/train.jsonl ({len(train)} profiles, {args.folds} folds x {args.repeats}) "
        f"and {len(sets)} extra sets ({len(profiles) - len(train)} profiles, leave one set out); judged top-1. "
        "Blocks: `mean` line embedding, `words` used by >= 5 profiles of the fit's training part.",
        "",
        "| attribute | blocks | C | extra weight | train.jsonl folds | extra sets (left out) | mean | chosen |",
        "|---|---|---|---|---|---|---|---|",
    ]
    chosen = {}
    for attribute in COVERED:
        indices, labels = labelled_examples(profiles, attribute)
        truths = [profiles[i].labelled()[attribute].estimate for i in indices]
        y, extra = np.array(labels), is_extra[indices]
        rows = []
        for blocks in GRID_BLOCKS:
            predicted = held_out_predictions(
                attribute, blocks, line_vectors, texts, indices, y, extra, groups, settings
            )
            for c, w in settings:
                right = [
                    np.array([p is not None and rule_verdict(attribute, t, p) == "yes" for t, p in zip(truths, preds)])
                    for preds in (predicted[c, w, g] for g in range(len(groups)))
                ]
                own = np.mean([r[~extra].mean() for r in right[:-1]])
                other = right[-1][extra].mean()
                rows.append(("+".join(blocks), c, w, own, other, (own + other) / 2))
            print(f"{attribute} {'+'.join(blocks)} done", flush=True)
        best = max(rows, key=lambda row: row[5])
        chosen[attribute] = best[:3]
        own_majority = majority_level(attribute, [t for t, e in zip(truths, extra) if not e])
        other_majority = majority_level(attribute, [t for t, e in zip(truths, extra) if e])
        lines.append(
            f"| {attribute} | majority class | | | {own_majority:.3f} (n={int((~extra).sum())}) "
            f"| {other_majority:.3f} (n={int(extra.sum())}) | | |"
        )
        for row in rows:
            blocks, c, weight, own, other, mean = row
            mark = "**chosen**" if row is best else ""
            lines.append(
                f"| {attribute} | {blocks} | {c:g} | {weight:g} | {own:.3f} | {other:.3f} | {mean:.3f} | {mark} |"
            )
        print(
            f"{attribute}: {best[0]}, C={best[1]:g}, extra weight {best[2]:g} (train.jsonl {best[3]:.3f}, "
            f"extra sets {best[4]:.3f})",
            flush=True,
        )
    lines += ["", f"chosen (blocks, C, extra weight): {chosen}"]
    print(lines[-1])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
