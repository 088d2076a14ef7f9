"""Choose floors for the decision to withhold (a mark that stayed withholds its post from `anonymize` only when the cue
tagger's confidence of it reaches its attribute's floor, or when `--several` marks stayed) from rows of
`benchmarks/withhold_rows.py`, and score given floors on other rows (a YAML file of `floors` and `several`, as
benchmarks/results/withhold_candidate_t29.yaml, the candidate that failed its check).

`choose`: starting from no floor (main: every mark that stayed withholds), raise one attribute's floor a step at a
time, each time the step that releases the most clue-free posts per clue post it releases unchanged (a clue post
printed as written), while the clue posts withheld or changed fall by at most `--budget` points.
`score`: per set and pooled, at main and at the floors: clue-free posts withheld, clue posts withheld, clue posts
withheld or changed, authors with every post withheld. A post in a language the rewrite does not read is withheld
either way.

    python benchmarks/withhold_floor.py choose runs/withhold_rows_{i..m,t..w}.jsonl --budget 2 --several 2
    python benchmarks/withhold_floor.py score runs/withhold_rows_{x,y}.jsonl \
        --floors benchmarks/results/withhold_candidate_t29.yaml
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import yaml

STEPS = tuple(round(0.05 * k, 2) for k in range(6, 21))  # 0.30 .. 1.00; 1.00 no tagger mark reaches (mean < 1)


def read_rows(paths: list[Path]) -> list[dict]:
    return [json.loads(line) for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line]


def withheld(row: dict, floors: dict[str, float], several: int | None = None) -> bool:
    """`row`'s post is withheld at `floors`: not read, `several` or more marks stayed in it, or a mark that stayed
    reaches its attribute's floor (a phrase of no attribute always withholds, and so does one scored 0, which
    `cues.mark_confidence` gives a phrase not in the post)."""
    stayed = row["stayed"]
    return (
        bool(row["unread"])
        or (several is not None and len(stayed) >= several)
        or any(
            not s["attribute"] or not s["confidence"] or s["confidence"] >= floors.get(s["attribute"], 0.0)
            for s in stayed
        )
    )


def figures(rows: list[dict], floors: dict[str, float], several: int | None = None) -> dict:
    free = [row for row in rows if not row["clue"]]
    clue = [row for row in rows if row["clue"]]
    authors: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for row in rows:
        authors[row["set"], row["author"]].append(withheld(row, floors, several))
    return {
        "clue_free_posts": len(free),
        "clue_free_withheld": round(sum(withheld(r, floors, several) for r in free) / max(1, len(free)), 3),
        "clue_posts": len(clue),
        "clue_withheld": round(sum(withheld(r, floors, several) for r in clue) / max(1, len(clue)), 3),
        "clue_withheld_or_changed": round(
            sum(withheld(r, floors, several) or r["changed"] for r in clue) / max(1, len(clue)), 3
        ),
        "authors": len(authors),
        "authors_all_withheld": sum(all(found) for found in authors.values()),
    }


def choose(rows: list[dict], budget: float, several: int | None) -> tuple[dict[str, float], list[dict]]:
    """Floors raised greedily (see the module's doc); the path of steps taken, with the figures after each."""
    attributes = sorted({s["attribute"] for row in rows for s in row["stayed"] if s["attribute"]})
    floors: dict[str, float] = {}
    start = figures(rows, floors, several)
    path = []
    while True:
        best = None
        for attribute in attributes:
            higher = [step for step in STEPS if step > floors.get(attribute, 0.0)]
            for step in higher:
                trial = {**floors, attribute: step}
                now = figures(rows, trial, several)
                lost = start["clue_withheld_or_changed"] - now["clue_withheld_or_changed"]
                if lost > budget / 100 + 1e-9:
                    break
                freed = figures(rows, floors, several)["clue_free_withheld"] - now["clue_free_withheld"]
                if freed <= 0:
                    continue
                gain = freed / (lost + 1e-3)
                if best is None or gain > best[0]:
                    best = (gain, trial, now)
        if best is None:
            return floors, path
        floors = best[1]
        path.append({"floors": dict(floors), **best[2]})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    c = commands.add_parser("choose")
    c.add_argument("rows", type=Path, nargs="+")
    c.add_argument("--budget", type=float, default=2.0, help="points of clue posts withheld or changed to give up")
    c.add_argument(
        "--several", type=int, help="a post with this many marks that stayed is withheld whatever they score"
    )
    s = commands.add_parser("score")
    s.add_argument("rows", type=Path, nargs="+")
    s.add_argument("--floors", type=Path, required=True)
    args = parser.parse_args()
    rows = read_rows(args.rows)
    if args.command == "choose":
        floors, path = choose(rows, args.budget, args.several)
        print(
            json.dumps({"main": figures(rows, {}), "path": path, "floors": floors, "several": args.several}, indent=1)
        )
        return
    chosen = yaml.safe_load(args.floors.read_text(encoding="utf-8"))
    floors, several = chosen["floors"], chosen.get("several")
    by_set = {name: [row for row in rows if row["set"] == name] for name in sorted({row["set"] for row in rows})}
    table = {
        name: {"main": figures(part, {}), "floors": figures(part, floors, several)}
        for name, part in {**by_set, "pooled": rows}.items()
    }
    print(json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
