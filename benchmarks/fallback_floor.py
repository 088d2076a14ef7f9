"""Choose the cue tagger's confidence floor of the clause and sentence fallback (anonymize/fallback.py,
data/generalize/fallback.yaml) from two runs of `local_dev.py --profiles ... --profile-rows FILE` over the same posts:
one without the fallback (no `--remove-sentences`) and one with every mark eligible (`--remove-sentences
--fallback-floor 0`). The fallback acts after every other edit, so at a floor F a post is changed when the run without changed it or
the run with all marks removed a clause or sentence for a mark scoring at least F, and not protected when a mark stayed
in the run with all, or one scoring under F left. Per floor: clue-free and clue posts changed, posts not protected.

    python benchmarks/fallback_floor.py --without runs/rows-without.jsonl --with runs/rows-all.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

FLOORS = (0.0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01)


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def at_floor(without: list[dict], everything: list[dict], floor: float) -> dict:
    """The shares of clue-free and clue posts changed and the posts not protected, had the floor been `floor`."""
    changed, clues, not_protected = [], [], 0
    for before, after in zip(without, everything, strict=True):
        if before["original"] != after["original"]:
            raise ValueError("the two runs read different posts")
        confidences = [removal["confidence"] for removal in after["removals"]]
        changed.append(before["rewrite"] != before["original"] or any(c >= floor for c in confidences))
        clues.append(after["clue"])
        not_protected += bool(after["unprotected"]) or any(c < floor for c in confidences)
    free = [c for c, clue in zip(changed, clues, strict=True) if not clue]
    cued = [c for c, clue in zip(changed, clues, strict=True) if clue]
    return {
        "floor": floor,
        "clue_free_posts_changed": round(sum(free) / max(1, len(free)), 3),
        "clue_posts_changed": round(sum(cued) / max(1, len(cued)), 3),
        "posts_not_protected": not_protected,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--without", type=Path, required=True, help="--profile-rows of a run without the fallback")
    parser.add_argument("--with", dest="everything", type=Path, required=True, help="--profile-rows, floor 0")
    args = parser.parse_args()
    without, everything = read_rows(args.without), read_rows(args.everything)
    print(json.dumps([at_floor(without, everything, floor) for floor in FLOORS], indent=1))


if __name__ == "__main__":
    main()
