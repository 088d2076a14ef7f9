"""Split a writer's cue-tagger data into a training part (`data/teacher-rewrites/`, which the tagger and the
generalizer read) and a validation part the tagger never trains on (`--validation`, default
`benchmarks/data/cue-tagger-validation/`, read by benchmarks/cue_thresholds.py). Input: a folder with `cue-posts.jsonl` (teacher rewrites, see
harvest/teacher_rewrites.py) and `clue-free.txt` (posts without cues, one per line). Each is shuffled with
`--seed` and its first `--train` share goes to training; ids get the `--prefix`.

    python benchmarks/cue_data_split.py /work/w47c --prefix synthetic-c --suffix c
    python benchmarks/cue_data_split.py /work/w47d --prefix synthetic-d --suffix d \
        --validation benchmarks/data/cue-tagger-validation-d
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from stealthflow.resources import resource_dir

VALIDATION = Path(__file__).resolve().parent / "data" / "cue-tagger-validation"


def split(rows: list, share: float, seed: int) -> tuple[list, list]:
    """(training, validation): `rows` shuffled with `seed`, the first `share` of them to training."""
    random.Random(seed).shuffle(rows := list(rows))
    cut = round(len(rows) * share)
    return rows[:cut], rows[cut:]


def jsonl(rows) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path)
    parser.add_argument("--prefix", required=True, help="id prefix of the cue posts (synthetic-c: c0001 -> ...)")
    parser.add_argument("--suffix", required=True, help="the training files' names end with it")
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--train", type=float, default=0.75)
    parser.add_argument("--validation", type=Path, default=VALIDATION, help="where the held-back share goes")
    args = parser.parse_args()
    posts = [json.loads(line) for line in (args.source / "cue-posts.jsonl").read_text(encoding="utf-8").splitlines()]
    posts = [post | {"id": f"{args.prefix}:{post['id']}"} for post in posts]
    free = [line.strip() for line in (args.source / "clue-free.txt").read_text(encoding="utf-8").splitlines()]
    train_posts, held_posts = split(posts, args.train, args.seed)
    train_free, held_free = split([line for line in free if line], args.train, args.seed)
    folder = resource_dir("data") / "teacher-rewrites"
    args.validation.mkdir(parents=True, exist_ok=True)
    (folder / f"synthetic-posts-{args.suffix}.jsonl").write_text(jsonl(train_posts), encoding="utf-8")
    (folder / f"clue-free-{args.suffix}.txt").write_text("".join(line + "\n" for line in train_free), encoding="utf-8")
    (args.validation / "cue-posts.jsonl").write_text(jsonl(held_posts), encoding="utf-8")
    (args.validation / "clue-free.jsonl").write_text(jsonl({"text": line} for line in held_free), encoding="utf-8")
    print(json.dumps({"train": [len(train_posts), len(train_free)], "validation": [len(held_posts), len(held_free)]}))


if __name__ == "__main__":
    main()
