"""How strong is each attacker on the *original* test texts? Accuracy per attribute vs chance.

    python benchmarks/attacker_strength.py [--limit 40] [--config configs/deepseek.yaml] [--no-llm] [--out STEM]

Attackers, measured in one run on data/test.jsonl:
- the LLM attacker on the configured attacker model (default: the embedded SmolLM2-135M;
  an API model when the config names one) on the first --limit profiles, all labelled
  attributes, one prompt per profile;
- the classifier attacker (the config's `classifier.artifact`; default the shipped one, trained on
  data/train.jsonl only) on the same first --limit profiles and on all profiles.
Every row gives top-1/top-3 accuracy with bootstrap CIs beside the majority-class and uniform
chance levels on the same labels (`stealthflow.attack.strength`). Writes a markdown table and
a PNG plot to benchmarks/results/ (`attacker_strength_classifier_only.*` with --no-llm; STEM.md and STEM.png
with --out).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from stealthflow.attack import LLMAttacker
from stealthflow.attack.classifier import COVERED, ClassifierAttacker, StylometricClassifier, file_sha256
from stealthflow.attack.embeddings import SentenceEmbedder, default_cache_path
from stealthflow.attack.strength import (
    POOLED,
    TABLE_HEADER,
    AccuracyRow,
    attacker_accuracy,
    markdown_table,
    table_cells,
)
from stealthflow.config import load_settings
from stealthflow.data import ATTRIBUTES, load_profiles
from stealthflow.llm.pool import LLMPool

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results"


def run_llm(profiles, settings, console) -> tuple[str, list, float]:
    pool = LLMPool(None)
    llm = pool.get(settings.attacker_model())
    attacker = LLMAttacker(llm)
    start = time.perf_counter()
    with Progress(console=console) as progress:
        task = progress.add_task(f"LLM attacker ({llm.info.model_id})", total=len(profiles))
        results = attacker.attack_many(
            [p.text for p in profiles],
            [list(p.labelled()) for p in profiles],
            on_done=lambda n: progress.advance(task, n),
        )
    seconds = time.perf_counter() - start
    formatted = sum(r.well_formed for r in results)
    console.print(f"LLM attacker: {seconds:.0f} s, {formatted}/{len(results)} answers in the requested format")
    pool.close()
    return f"llm: {llm.info.model_id}", results, seconds


def plot(rows: list[AccuracyRow], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    attackers = list(dict.fromkeys(r.attacker for r in rows))
    attributes = [a for a in (*ATTRIBUTES, POOLED) if any(r.attribute == a for r in rows)]
    width = 0.8 / len(attackers)
    fig, ax = plt.subplots(figsize=(1.6 * len(attributes) + 2, 4.5))
    for i, attacker in enumerate(attackers):
        for j, attribute in enumerate(attributes):
            row = next((r for r in rows if r.attacker == attacker and r.attribute == attribute), None)
            if row is None:
                continue
            x = j + (i - (len(attackers) - 1) / 2) * width
            error = [[row.top1.value - row.top1.low], [row.top1.high - row.top1.value]]
            ax.bar(x, row.top1.value, width, yerr=error, color=f"C{i}", label=attacker if j == 0 else None, capsize=3)
            if row.chance:
                ax.hlines(row.chance.majority_top1.mean(), x - width / 2, x + width / 2, colors="black")
                ax.hlines(row.chance.uniform_top1, x - width / 2, x + width / 2, colors="grey", linestyles="dotted")
    ax.set_xticks(range(len(attributes)), attributes)
    ax.set_ylabel("top-1 accuracy (95% bootstrap CI)")
    ax.set_title("attackers on the original test texts; black = majority class, dotted = uniform")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=REPO / "data/test.jsonl")
    parser.add_argument("--limit", type=int, default=40, help="profiles for the LLM attacker (it is slow on CPU)")
    parser.add_argument("--config", type=Path, help="settings YAML; its attacker model is the LLM attacker")
    parser.add_argument("--no-llm", action="store_true", help="classifier only")
    parser.add_argument("--boot", type=int, default=2000, help="bootstrap resamples")
    parser.add_argument("--out", type=Path, help="path stem of the table and plot (a candidate artefact's run)")
    args = parser.parse_args()
    console = Console(width=200)
    settings = load_settings(args.config)
    profiles = load_profiles(args.data)
    subset = profiles[: args.limit]
    console.print(
        f"{os.cpu_count()} cores, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}; {args.data}: {len(profiles)} profiles"
    )

    classifier = StylometricClassifier.load(settings.classifier.artifact)
    if classifier.metadata.get("train_data_sha256") == file_sha256(args.data):
        raise SystemExit(f"{args.data} is the classifier's training file; benchmark on held-out profiles")
    classifier_attacker = ClassifierAttacker(classifier, SentenceEmbedder(default_cache_path()))
    start = time.perf_counter()
    classified = classifier_attacker.attack_many(
        [p.text for p in profiles], [[a for a in COVERED if a in p.labelled()] for p in profiles]
    )
    console.print(
        f"classifier attacker: {time.perf_counter() - start:.1f} s for {len(profiles)} profiles (embeddings cached on disk)"
    )

    rows = []
    if not args.no_llm:
        name, results, _ = run_llm(subset, settings, console)
        rows += attacker_accuracy(name, subset, results, ATTRIBUTES, n_boot=args.boot)
    rows += attacker_accuracy(
        f"classifier (first {len(subset)})", subset, classified[: len(subset)], COVERED, n_boot=args.boot
    )
    rows += attacker_accuracy(f"classifier (all {len(profiles)})", profiles, classified, COVERED, n_boot=args.boot)

    table = Table(title="attacker accuracy on the original test texts vs chance")
    for column in TABLE_HEADER:
        table.add_column(column)
    for row in rows:
        table.add_row(*table_cells(row))
    console.print(table)
    stem = args.out or RESULTS / ("attacker_strength_classifier_only" if args.no_llm else "attacker_strength")
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".md").write_text(markdown_table(rows) + "\n", encoding="utf-8")
    plot(rows, stem.with_suffix(".png"))
    console.print(f"wrote {stem}.md and {stem}.png")


if __name__ == "__main__":
    main()
