"""The dual model's probe attacker (`attack/probe.py`): cache the hidden states, fit on train, score on test.

`states` reads the 575 train and the 200 test profiles once through the model (+ adapter) and caches each
profile's mean-pooled hidden states per layer (no text: ids and SHA-256 of the texts) in an .npz file. `fit`
chooses each attribute's layer and C by 5-fold cross-validation on the train profiles only (folds by profile;
`refuse_held_out` checks none is a test profile), fits on all 575 and writes the probe artefact and a
markdown table of the cross-validated top-1 per setting. `score` reads the test split: the strength table
(`attack/strength.py`) on the 200 test profiles and on the 100 of `train choice-eval --limit 100
--sample-seed 0`.

    python benchmarks/dual_probe.py states --out runs/probe/states-base.npz [--adapter A]
    python benchmarks/dual_probe.py fit --states runs/probe/states-base.npz --probe runs/probe/probe-base.json \
        --table benchmarks/results/dual_probe_cv_base.md
    python benchmarks/dual_probe.py score --states runs/probe/states-base.npz --probe runs/probe/probe-base.json \
        --table benchmarks/results/dual_probe_test_base.md
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

import numpy as np

from stealthflow.attack.classifier import file_sha256, labelled_examples
from stealthflow.attack.probe import HiddenStateProbe, adapter_sha256, fit_probe, text_states
from stealthflow.attack.strength import chance_levels
from stealthflow.data import load_labelled, load_profiles
from stealthflow.resources import split_path
from stealthflow.training.compare import probe_table

#: the cross-validation grid, fixed before any fit: every third layer of SmolLM2-135M's 30 (0: the embeddings)
LAYERS = tuple(range(0, 31, 3))
CS = (0.001, 0.01, 0.1, 1.0)
FOLDS, SEED = 5, 0


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def states(out: Path, base: str, adapter: str | None, threads: int) -> None:
    import torch

    from stealthflow.llm.checkpoints import load_causal_lm

    torch.set_num_threads(threads)
    profiles = load_profiles(split_path("train")) + load_profiles(split_path("test"))
    model, tokenizer = load_causal_lm(base, adapter)
    started, done = time.time(), [0]

    def progress(n: int) -> None:
        done[0] += n
        if done[0] % 50 == 0:
            print(f"{done[0]}/{len(profiles)} profiles, {time.time() - started:.0f} s", flush=True)

    matrix = text_states(model.eval(), tokenizer, [p.text for p in profiles], progress)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        out,
        states=matrix,
        ids=np.array([p.id for p in profiles]),
        text_sha256=np.array([_sha(p.text) for p in profiles]),
        model=np.array(base),
        adapter_sha256=np.array(adapter_sha256(adapter)),
    )
    print(f"{out}: {matrix.shape} in {time.time() - started:.0f} s")


def cached(path: Path, profiles) -> tuple[np.ndarray, dict]:
    """The cached states of `profiles` (matched by id and text hash) and what model read them."""
    saved = np.load(path)
    row = {(i, s): n for n, (i, s) in enumerate(zip(saved["ids"], saved["text_sha256"], strict=True))}
    missing = [p.id for p in profiles if (p.id, _sha(p.text)) not in row]
    if missing:
        raise SystemExit(f"{path}: no states for {len(missing)} profiles (e.g. {missing[0]}); rerun `states`")
    rows = [row[(p.id, _sha(p.text))] for p in profiles]
    return saved["states"][rows], {"model": str(saved["model"]), "adapter_sha256": str(saved["adapter_sha256"])}


def fit(states_path: Path, probe_path: Path, table: Path) -> None:
    train = load_profiles(split_path("train"))
    matrix, read_by = cached(states_path, train)
    started = time.time()
    probe, scores = fit_probe(
        train,
        matrix,
        layers=LAYERS,
        Cs=CS,
        folds=FOLDS,
        seed=SEED,
        held_out=load_profiles(split_path("test")),
        metadata={**read_by, "train_data_sha256": file_sha256(split_path("train"))},
    )
    probe.save(probe_path)
    lines = [
        f"Cross-validated judged top-1 on the {len(train)} train profiles ({FOLDS} folds by profile, seed {SEED}),"
        f" states of {read_by['model']} (adapter {read_by['adapter_sha256'][:12] or 'none'}); rows: layer, columns: C.",
        "",
    ]
    for attribute, by_setting in scores.items():
        chosen = probe.metadata["selection"]["chosen"][attribute]
        truths = [train[i].labelled()[attribute].estimate for i in labelled_examples(train, attribute)[0]]
        majority = chance_levels(attribute, truths).majority_top1.mean()
        lines += [
            f"**{attribute}** (chosen: layer {chosen['layer']}, C {chosen['C']:g}; the majority guess is right on"
            f" {majority:.3f} of the {len(truths)} train labels)",
            "",
        ]
        lines += ["| layer | " + " | ".join(f"C {c:g}" for c in CS) + " |", "|---" * (len(CS) + 1) + "|"]
        lines += [f"| {layer} | " + " | ".join(f"{by_setting[(layer, c)]:.3f}" for c in CS) + " |" for layer in LAYERS]
        lines.append("")
    table.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    print(f"wrote {probe_path} and {table} ({time.time() - started:.0f} s)")


def score(states_path: Path, probe_path: Path, table: Path) -> None:
    probe = HiddenStateProbe.load(probe_path)
    parts = []
    for title, profiles in (
        ("the 200 test profiles", load_labelled(split_path("test"))),
        ("the 100 of `choice-eval --limit 100 --sample-seed 0`", load_labelled(split_path("test"), 100, 0)),
    ):
        matrix, read_by = cached(states_path, profiles)
        name = f"probe on {read_by['model']}" + (" + adapter" if read_by["adapter_sha256"] else "")
        parts.append(f"On {title}:\n\n{probe_table(probe, name, profiles, matrix)}")
    text = "\n\n".join(parts) + "\n"
    table.write_text(text, encoding="utf-8")
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    read = commands.add_parser("states", help="cache the hidden states of the train and test profiles")
    read.add_argument("--out", type=Path, required=True)
    read.add_argument("--model", default="embedded")
    read.add_argument("--adapter")
    read.add_argument("--threads", type=int, default=1)
    for command in ("fit", "score"):
        sub = commands.add_parser(command)
        sub.add_argument("--states", type=Path, required=True)
        sub.add_argument("--probe", type=Path, required=True)
        sub.add_argument("--table", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "states":
        states(args.out, args.model, args.adapter, args.threads)
    elif args.command == "fit":
        fit(args.states, args.probe, args.table)
    else:
        score(args.states, args.probe, args.table)


if __name__ == "__main__":
    main()
