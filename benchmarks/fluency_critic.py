"""Measure a fluency critic read from the embedded model's hidden states against the refitted acceptance gate, held
out one reader seed at a time (issue 47; benchmarks/results/fluency_critic.md).

The judged single edits are those of `benchmarks/acceptance_gate.py` (`load_items` with `--single-edits`). Each edit
is read as the fluency scorer reads it (`utility.fluency`: "Post: " before the text, the tokens from where the edit
departs to the end of its junction, `fluency.edit_positions`): the critic's features at one layer are the mean of the
hidden states that predict the edited stretch of the edited sentence minus the same mean over the original's stretch
(`stretch`), or the whole sentence's mean state, edited minus original (`sentence`), the states the gate's own
forward pass would have to compute in full.

Arms, each held out one seed at a time over every seed with verdicts, each with the hard floors (`gate.clears_floors`)
and a threshold chosen out of fold on the other seeds (`acceptance_gate.kept_threshold`: the highest precision at no
fewer than `acceptance_gate.KEEP` of the shipped gate's accepts there):

- `refit`: the gate's 7 features refitted (`acceptance_gate.refitted`), the baseline of the rule;
- `critic_<kind>`: a logistic regression on the gate's 7 features and the critic's 576 of one layer, standardised;
  layer and C chosen by grouped 3-fold cross-validation (folds by seed) on the other seeds only (weighted log loss),
  the threshold on the out-of-fold chances of those folds.

    OMP_NUM_THREADS=1 python benchmarks/fluency_critic.py --features runs/items.json --states runs/states.npz \
        --kinds stretch --out benchmarks/results/fluency_critic_stretch.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from acceptance_gate import KEEP, arm_figures, ceiling, kept_threshold, load_items, refitted  # noqa: E402

from stealthflow.anonymize import gate  # noqa: E402
from stealthflow.utility.fluency import PREFIX, edit_positions  # noqa: E402

#: the layers read (the output of each; SmolLM2-135M has 30)
LAYERS = (4, 8, 12, 16, 20, 24)
CS = (0.003, 0.03)
KINDS = ("stretch", "sentence")
FOLDS = 3
#: the rule (benchmarks/results/fluency_critic.md): precision up this much, accepts down at most this share
GAIN, MOST_COST = 0.05, 0.15


def hidden_states(pairs: list[tuple[str, str]], batch: int = 32) -> dict[str, np.ndarray]:
    """Per kind (`KINDS`), (pairs, layers, hidden) of the edited sentence's states minus the original's. The model
    runs its first `LAYERS[-1]` layers only, texts batched by length and padded on the right (a causal model's states
    at a text's own tokens do not see the padding)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from stealthflow.llm.embedded import converted_model_path

    path = converted_model_path()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    model.model.layers = model.model.layers[: LAYERS[-1]]
    prefix = tokenizer(PREFIX, add_special_tokens=False)["input_ids"]
    ids = {t: tokenizer(t, add_special_tokens=False)["input_ids"] for pair in pairs for t in pair}
    texts = sorted(ids, key=lambda t: len(ids[t]))
    states: dict[str, np.ndarray] = {}
    with torch.no_grad():
        for at in range(0, len(texts), batch):
            chunk = [prefix + ids[t] for t in texts[at : at + batch]]
            width = max(map(len, chunk))
            tokens = torch.tensor([c + [0] * (width - len(c)) for c in chunk])
            mask = torch.tensor([[1] * len(c) + [0] * (width - len(c)) for c in chunk])
            out = model.model(input_ids=tokens, attention_mask=mask, output_hidden_states=True)
            stacked = torch.stack([out.hidden_states[layer] for layer in LAYERS], dim=1).numpy()
            for n, (text, c) in enumerate(zip(texts[at : at + batch], chunk, strict=True)):
                states[text] = stacked[n, :, : len(c)]
            if at % (batch * 20) == 0:
                print(f"states {at}/{len(texts)}", file=sys.stderr, flush=True)
    rows = {kind: [] for kind in KINDS}
    for a, b in pairs:
        a_pos, b_pos = edit_positions(ids[a], ids[b])
        # the state before a token predicts it: the positions the scorer's forward pass reads
        a_at = [len(prefix) + p - 1 for p in a_pos] or [len(prefix) + len(ids[a]) - 1]
        b_at = [len(prefix) + p - 1 for p in b_pos] or [len(prefix) + len(ids[b]) - 1]
        rows["stretch"].append(states[b][:, b_at].mean(1) - states[a][:, a_at].mean(1))
        rows["sentence"].append(states[b][:, len(prefix) :].mean(1) - states[a][:, len(prefix) :].mean(1))
    return {kind: np.stack(r).astype(np.float32) for kind, r in rows.items()}


def binary(x: np.ndarray, y: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row twice, as accepted and as rejected, weighed by its verdicts of each (labels are shares)."""
    weight = np.concatenate([counts * y, counts * (1 - y)])
    keep = weight > 0
    return np.vstack([x, x])[keep], np.concatenate([np.ones(len(y)), np.zeros(len(y))])[keep], weight[keep]


def fit(x: np.ndarray, y: np.ndarray, counts: np.ndarray, c: float):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    bx, by, bw = binary(x, y, counts)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=c, max_iter=200))
    return model.fit(bx, by, logisticregression__sample_weight=bw)


def seed_folds(seeds: np.ndarray) -> np.ndarray:
    """Each item's fold: the seeds dealt round-robin into `FOLDS` folds."""
    order = {s: n % FOLDS for n, s in enumerate(np.unique(seeds))}
    return np.array([order[s] for s in seeds])


def log_loss(p: np.ndarray, y: np.ndarray, counts: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-(counts * (y * np.log(p) + (1 - y) * np.log(1 - p))).sum() / counts.sum())


def critic_fold(
    base: np.ndarray, hidden: np.ndarray, y: np.ndarray, counts: np.ndarray, seeds: np.ndarray, cs: tuple = CS
) -> tuple[int, float, np.ndarray]:
    """Layer index and C with the lowest grouped cross-validated log loss, and the out-of-fold chances there."""
    folds = seed_folds(seeds)
    best = None
    for li in range(len(LAYERS)):
        rows = np.hstack([base, hidden[:, li]])
        for c in cs:
            p = np.zeros(len(y))
            for f in range(FOLDS):
                held = folds == f
                p[held] = fit(rows[~held], y[~held], counts[~held], c).predict_proba(rows[held])[:, 1]
            loss = log_loss(p, y, counts)
            if best is None or loss < best[0]:
                best = (loss, li, c, p)
    return best[1], best[2], best[3]


def evaluate(items: list[dict], hidden: dict[str, np.ndarray], cs: tuple = CS) -> dict:
    """The arms of the module, each seed held out in turn: figures per seed and pooled, and the rule's verdict."""
    x = np.array([i["x"] for i in items])
    y = np.array([i["accepted"] for i in items])
    counts = np.array([i["verdicts"] for i in items], dtype=float)
    seeds = np.array([i["seed"] for i in items])
    fluency = x[:, gate.FEATURES.index("fluency")]
    floors = np.array([gate.clears_floors(i["sentence"], i["edited"], f) for i, f in zip(items, fluency, strict=True)])
    clear = y != 0.5
    shipped = gate.shipped_gate()
    old = shipped.probability(x)
    old_kept = (old >= shipped.threshold) & floors & clear
    held_seeds = sorted(int(s) for s in np.unique(seeds))
    arms = {"shipped": (old, np.full(len(y), shipped.threshold))}
    p, t = np.zeros(len(y)), np.full(len(y), np.inf)
    for seed in held_seeds:
        held, rest = seeds == seed, seeds != seed
        fold = refitted(x[rest], y[rest], counts[rest], seeds[rest], floors[rest], KEEP * old_kept[rest].sum())
        p[held], t[held] = fold.probability(x[held]), fold.threshold
    arms["refit"] = (p, t)
    chosen = {}
    for kind, states in hidden.items():
        p, t = np.zeros(len(y)), np.full(len(y), np.inf)
        chosen[kind] = {}
        for seed in held_seeds:
            held, rest = seeds == seed, seeds != seed
            li, c, oof = critic_fold(x[rest], states[rest], y[rest], counts[rest], seeds[rest], cs)
            on = clear[rest]
            t[held] = kept_threshold(oof[on], y[rest][on] > 0.5, floors[rest][on], KEEP * old_kept[rest].sum())
            rows = np.hstack([x, states[:, li]])
            p[held] = fit(rows[rest], y[rest], counts[rest], c).predict_proba(rows[held])[:, 1]
            chosen[kind][seed] = {"layer": LAYERS[li], "C": c}
            print(f"{kind} seed {seed}: layer {LAYERS[li]} C {c}", file=sys.stderr, flush=True)
        arms[f"critic_{kind}"] = (p, t)
    pooled = clear
    good = y > 0.5
    summary = {
        "seeds": held_seeds,
        "items": len(items),
        "verdicts": int(counts.sum()),
        "edits": int(pooled.sum()),
        "accepted_by_readers": int(good[pooled].sum()),
        "pooled": {
            arm: arm_figures(p[pooled], t[pooled], good[pooled], floors[pooled]) for arm, (p, t) in arms.items()
        },
        "per_seed": {
            seed: {
                "edits": int(on.sum()),
                **{arm: arm_figures(p[on], t[on], good[on], floors[on]) for arm, (p, t) in arms.items()},
            }
            for seed in held_seeds
            for on in [(seeds == seed) & clear]
        },
        "chosen": chosen,
    }
    base = summary["pooled"]["refit"]
    summary["rule"] = {
        arm: {
            "precision_gain": round(f["precision"] - base["precision"], 3),
            "accepts_vs_refit": round(f["accepts"] / base["accepts"], 3),
            "passes": f["precision"] - base["precision"] >= GAIN and f["accepts"] >= (1 - MOST_COST) * base["accepts"],
        }
        for arm, f in summary["pooled"].items()
        if arm.startswith("critic")
    }
    # upper bounds, not held-out figures: the precision of each arm's top edits at the rule's largest cost
    summary["pooled_precision_at_most_cost"] = {
        arm: ceiling(p[pooled], good[pooled], floors[pooled], (1 - MOST_COST) * base["accepts"])
        for arm, (p, _) in arms.items()
    }
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--features", type=Path, help="cache of the scored items (acceptance_gate.load_items)")
    parser.add_argument("--states", type=Path, help="cache of the critic's features (npz)")
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS), help="the critic's features")
    parser.add_argument("--cs", type=float, nargs="+", default=list(CS), help="the L2 strengths (C) searched")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    items = load_items(args.features, single_edits=True)
    if args.states and args.states.exists():
        loaded = np.load(args.states)
        hidden = {kind: loaded[kind] for kind in KINDS}
    else:
        hidden = hidden_states([(i["sentence"], i["edited"]) for i in items])
        if args.states:
            np.savez(args.states, **hidden)
    summary = evaluate(items, {kind: hidden[kind] for kind in args.kinds}, tuple(args.cs))
    print(json.dumps({k: v for k, v in summary.items() if k != "per_seed"}, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
