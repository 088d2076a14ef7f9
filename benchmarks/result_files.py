"""Where a benchmark writes its results: `--out STEM` (STEM.json and STEM.md), or its default name under
benchmarks/results/; an existing file is never overwritten unless `--force`.

The check runs before the measurement, so a run that would overwrite a result fails at once, not after its
minutes of work; a file that appears while it runs (another run of the same benchmark) is kept too, and the
results go beside it (STEM.PID.*), said on stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
SUFFIXES = (".json", ".md")


def add_out_options(parser: argparse.ArgumentParser, default: str, what: str = "the results") -> None:
    """`--out STEM` and `--force`; `default` names the stem under benchmarks/results/ when `--out` is not given."""
    parser.add_argument(
        "--out",
        type=Path,
        help=f"path stem of {what}: STEM.json and STEM.md (default: benchmarks/results/{default}.*)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite result files that exist")


def result_stem(out: Path | None, default: str) -> Path:
    """`--out` without a .json / .md suffix, else benchmarks/results/`default`."""
    if out is None:
        return RESULTS / default
    return out.with_suffix("") if out.suffix in SUFFIXES else out


def refuse_overwrite(stem: Path, force: bool) -> None:
    """Exit with one clear line, before anything is measured, when a result file of `stem` exists and not `force`."""
    existing = [str(path) for path in _paths(stem) if path.exists()]
    if existing and not force:
        sys.exit(f"not overwritten: {', '.join(existing)}; give --out PATH (a new stem) or --force")


def write_results(stem: Path, texts: dict[str, str], force: bool) -> Path:
    """Write `stem` + suffix for each suffix -> text of `texts` and return the stem written. Without `force`, a file
    that appeared since `refuse_overwrite` stays: the results go to STEM.PID.* instead."""
    if not force and any(path.exists() for path in _paths(stem)):
        moved = stem.with_name(f"{stem.name}.{os.getpid()}")
        print(f"{stem}.* appeared while this ran: kept; these results are in {moved}.*", file=sys.stderr)
        stem = moved
    stem.parent.mkdir(parents=True, exist_ok=True)
    for suffix, text in texts.items():
        stem.with_name(stem.name + suffix).write_text(text, encoding="utf-8")
    return stem


def _paths(stem: Path) -> list[Path]:
    return [stem.with_name(stem.name + suffix) for suffix in SUFFIXES]
