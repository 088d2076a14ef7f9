"""What a code change did to the rewrites of the same posts: two `benchmarks/local_dev.py --profile-rows` files (before,
after; the same `--profiles` in the same order) compared post by post.

Per run: posts, posts whose rewrite the change altered (clue and clue-free), posts not protected before and after
(a mark left unprotected), posts newly protected and newly not protected, clue-free posts changed from their original
before and after; `--sample N` of the altered posts drawn at random (`--seed`) with the original, the rewrite before
and after and what each left unprotected, for a reader to judge (`--out` as markdown, figures first).

    python benchmarks/rewrite_changes.py runs/rows_before.jsonl runs/rows_after.jsonl --out benchmarks/results/x.md
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def compare(before: list[dict], after: list[dict]) -> dict:
    """The figures of the change (module docstring); the rows must be of the same posts in the same order."""
    if [r["original"] for r in before] != [r["original"] for r in after]:
        raise SystemExit("the two files do not hold the same posts in the same order")
    altered = [(b, a) for b, a in zip(before, after, strict=True) if b["rewrite"] != a["rewrite"]]
    clue_free = [i for i, r in enumerate(before) if not r["clue"]]

    def changed_share(rows: list[dict]) -> float:
        return round(sum(rows[i]["rewrite"] != rows[i]["original"] for i in clue_free) / max(1, len(clue_free)), 4)

    return {
        "posts": len(before),
        "clue_free_posts": len(clue_free),
        "altered": len(altered),
        "altered_clue_free": sum(not b["clue"] for b, _ in altered),
        "not_protected": [sum(bool(r["unprotected"]) for r in rows) for rows in (before, after)],
        "newly_protected": sum(bool(b["unprotected"]) and not a["unprotected"] for b, a in altered),
        "newly_not_protected": sum(not b["unprotected"] and bool(a["unprotected"]) for b, a in altered),
        "clue_free_changed": [changed_share(before), changed_share(after)],
    }


def markdown(figures: dict, sample: list[tuple[dict, dict]], title: str) -> str:
    lines = [
        f"# {title}",
        "",
        f"Posts: {figures['posts']} ({figures['clue_free_posts']} clue-free); rewrites altered by the change:"
        f" {figures['altered']} ({figures['altered_clue_free']} clue-free). Posts not protected"
        f" {figures['not_protected'][0]} -> {figures['not_protected'][1]} (newly protected {figures['newly_protected']},"
        f" newly not protected {figures['newly_not_protected']}); clue-free posts changed"
        f" {figures['clue_free_changed'][0]} -> {figures['clue_free_changed'][1]}.",
        "",
        f"{len(sample)} altered posts drawn at random (each: the original, the rewrite before, after; what stayed):",
        "",
    ]
    for n, (b, a) in enumerate(sample, 1):
        lines += [
            f"{n}. original: {b['original']}",
            f"   - before: {b['rewrite']}" + (f" (stayed: {'; '.join(b['unprotected'])})" if b["unprotected"] else ""),
            f"   - after: {a['rewrite']}" + (f" (stayed: {'; '.join(a['unprotected'])})" if a["unprotected"] else ""),
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--title", default="Rewrites a change altered")
    parser.add_argument("--out", type=Path, help="markdown: the figures and the sample")
    args = parser.parse_args()
    before, after = read_rows(args.before), read_rows(args.after)
    figures = compare(before, after)
    altered = [(b, a) for b, a in zip(before, after, strict=True) if b["rewrite"] != a["rewrite"]]
    sample = random.Random(args.seed).sample(altered, min(args.sample, len(altered)))
    print(json.dumps(figures, indent=1))
    if args.out:
        args.out.write_text(markdown(figures, sample, args.title), encoding="utf-8")


if __name__ == "__main__":
    main()
