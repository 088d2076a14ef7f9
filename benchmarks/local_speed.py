"""How fast `--method local` (the default rewrite, without an adapter; `--phrase-adapter DIR` with the phrase
generalizer's suggestions) runs in one process: each model's
load, the first post, then seconds per post warm, batched, and where the warm time goes.

Posts: the first `--limit` of `data/teacher-rewrites/synthetic-posts-b.jsonl` shuffled with `--seed`
(no test text; the same posts as benchmarks/local_dev.py). Phases, each timed in wall and CPU seconds
of this process: loading the cue tagger, rewriting the first post (which loads spaCy and the fluency
model the first time a phrase needs them), then the rest batched (`LocalAnonymizer.rewrite_posts`),
split into cue tagging, parsing and fluency scoring. `--rewrites FILE` writes every post's rewrite
and what happened to each phrase (JSON lines): run with another checkout's `src/` first on
PYTHONPATH, it gives that code's rewrites to compare with (tests/data/local_rewrites_reference.jsonl).

    OMP_NUM_THREADS=1 python benchmarks/local_speed.py --limit 30 --out benchmarks/results/local_speed.json
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from stealthflow.anonymize import syntax
from stealthflow.anonymize.cues import load_cue_tagger
from stealthflow.anonymize.generalize import Generalizer
from stealthflow.anonymize.local import LocalAnonymizer
from stealthflow.utility.fluency import FluencyScorer, shared_scorer

sys.path.insert(0, str(Path(__file__).resolve().parent))

from local_dev import POSTS, report, sample_rewrites, suggester, write_rewrites  # noqa: E402


class Clock:
    """Wall and CPU seconds spent inside the functions it wraps, by name."""

    def __init__(self) -> None:
        self.spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])

    def wrap(self, name: str, fn: Callable) -> Callable:
        def timed(*args, **kwargs):
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.spent[name][0] += time.perf_counter() - wall
                self.spent[name][1] += time.process_time() - cpu

        return timed


def timed(fn: Callable) -> tuple[object, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rewrites", type=Path, help="write each post's rewrite here (JSON lines)")
    parser.add_argument("--out", type=Path, help="write the figures here (JSON)")
    parser.add_argument("--phrase-adapter", type=Path, help="a phrase-generalizer adapter suggesting stand-ins")
    args = parser.parse_args()
    posts = [r.text for r in sample_rewrites(POSTS, args.limit, args.seed)]
    phases: dict[str, list[float]] = {}
    tagger, *phases["load cue tagger"] = timed(load_cue_tagger)
    anonymizer = LocalAnonymizer(None, tagger, Generalizer(shared_scorer, suggest=suggester(args.phrase_adapter)))
    first, *phases["first post (loads spaCy and the fluency model when it has a cue)"] = timed(
        lambda: anonymizer.rewrite_posts(posts[:1])
    )
    clock = Clock()  # warm: where the time of the other posts goes
    tagger.tag_many = clock.wrap("cue tagging", tagger.tag_many)
    syntax.parse = clock.wrap("parsing (spaCy)", syntax.parse)
    FluencyScorer.compare = clock.wrap("fluency scoring", FluencyScorer.compare)
    if anonymizer.generalizer.suggest is not None:
        anonymizer.generalizer.suggest = clock.wrap("phrase suggestions", anonymizer.generalizer.suggest)
    rest, wall, cpu = timed(lambda: anonymizer.rewrite_posts(posts[1:]))
    warm = len(posts) - 1
    summary = {
        "posts": len(posts),
        "phases": {name: [round(w, 2), round(c, 2)] for name, (w, c) in phases.items()},
        "warm_seconds_per_post": [round(wall / warm, 3), round(cpu / warm, 3)],
        "warm_split_seconds_per_post": {
            n: [round(w / warm, 3), round(c / warm, 3)] for n, (w, c) in clock.spent.items()
        },
        "posts_changed": sum(r.text != p for p, r in zip(posts, [*first, *rest], strict=True)),
        "load_average": round(os.getloadavg()[0], 1),
        "note": "[wall, CPU] seconds; CPU counts this process only",
    }
    report(summary, args.out)
    if args.rewrites:
        write_rewrites(args.rewrites, list(zip(posts, [*first, *rest], strict=True)), "post")


if __name__ == "__main__":
    main()
