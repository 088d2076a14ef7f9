"""The local anonymizer on posts written apart from its training data: does it leave harmless posts
alone, and does its cue tagger find the phrases that give an author away?

Input: a folder with `harmless.jsonl` ({"id", "register", "text"}: posts without any attribute cue)
and `cued.jsonl` (the same plus "cues": [{"phrase", "attribute"}]), written by someone who never saw
the project's data. Prints, per register and overall: the share of harmless posts changed, the cue
tagger's span recall and precision on the cued posts, and seconds per post.

    python benchmarks/rewrite_heldout.py benchmarks/data/rewrite-heldout --out benchmarks/results/rewrite_heldout.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

from stealthflow.anonymize.cues import CUE_LABELS, find_cues, load_cue_tagger
from stealthflow.pii_tagger.training.metrics import span_metrics


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path)
    parser.add_argument(
        "--model", action="store_true", help="also run the rewrite model (default: generalization only)"
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    from stealthflow.anonymize import build_method
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    harmless, cued = read(args.folder / "harmless.jsonl"), read(args.folder / "cued.jsonl")
    tagger = load_cue_tagger()
    examples = []
    for row in cued:
        spans = [
            (row["text"].find(c["phrase"]), row["text"].find(c["phrase"]) + len(c["phrase"]), c["attribute"])
            for c in row["cues"]
        ]
        examples.append((row["text"], spans))
    found = find_cues(tagger, [text for text, _ in examples])
    cue_figures = span_metrics(examples, found, CUE_LABELS)
    pool = LLMPool()
    method = build_method("local", Settings(), pool, {} if args.model else {"deterministic": True})
    started = time.perf_counter()
    rewritten = method.rewrite_posts([row["text"] for row in harmless + cued])
    seconds = (time.perf_counter() - started) / len(rewritten)
    pool.close()
    changed: dict[str, list[bool]] = defaultdict(list)
    for row, result in zip(harmless, rewritten[: len(harmless)], strict=True):
        changed[row["register"]].append(result.text != row["text"])
    cued_changed = [result.text != row["text"] for row, result in zip(cued, rewritten[len(harmless) :], strict=True)]
    summary = {
        "harmless_posts": len(harmless),
        "harmless_changed": sum(sum(v) for v in changed.values()) / len(harmless),
        "harmless_changed_by_register": {r: sum(v) / len(v) for r, v in sorted(changed.items())},
        "cued_posts": len(cued),
        "cued_changed": sum(cued_changed) / len(cued),
        "cue_tagger": cue_figures,
        "seconds_per_post": seconds,
        "model": args.model,
    }
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
