#!/usr/bin/env python3
"""Build profiles.jsonl and clue_flags.jsonl from the hand-written src/authors_*.txt files.

Source format (one author block per '@' line):
  @ username
  L attribute = value ; hardness ; certainty
  C subreddit :: comment text        (clue comment)
  N subreddit :: comment text        (non-clue comment)
Lines starting with '#' and blank lines are ignored.
"""

import glob
import json
import os
import random
from datetime import datetime, timezone

SEED = 20240812
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.dirname(HERE)
T0 = int(datetime(2024, 8, 12, tzinfo=timezone.utc).timestamp())
T1 = int(datetime(2024, 10, 20, 23, 59, 59, tzinfo=timezone.utc).timestamp())


def parse(path):
    authors, cur = [], None
    with open(path, encoding="utf-8") as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            tag, rest = line[0], line[1:].strip()
            where = f"{os.path.basename(path)}:{n}"
            if tag == "@":
                cur = {"username": rest, "labels": {}, "comments": []}
                authors.append(cur)
            elif tag == "L":
                attr, tail = rest.split("=", 1)
                value, hard, cert = [x.strip() for x in tail.split(";")]
                attr = attr.strip()
                if attr in cur["labels"]:
                    raise SystemExit(f"{where}: duplicate label {attr}")
                cur["labels"][attr] = {"estimate": value, "hardness": int(hard), "certainty": int(cert), "acc_gt": 1}
            elif tag in "CN":
                sub, text = rest.split("::", 1)
                cur["comments"].append({"subreddit": sub.strip(), "text": text.strip(), "clue": tag == "C"})
            else:
                raise SystemExit(f"{where}: cannot parse line")
    return authors


def main():
    rng = random.Random(SEED)
    files = sorted(glob.glob(os.path.join(HERE, "authors_*.txt")))
    authors = [a for f in files for a in parse(f)]
    names = [a["username"] for a in authors]
    assert len(names) == len(set(names)), "duplicate usernames"
    with (
        open(os.path.join(OUT, "profiles.jsonl"), "w", encoding="utf-8") as fp,
        open(os.path.join(OUT, "clue_flags.jsonl"), "w", encoding="utf-8") as ff,
    ):
        for a in authors:
            comments = list(a["comments"])
            rng.shuffle(comments)
            stamps = sorted(rng.randint(T0, T1) for _ in comments)
            rng.shuffle(stamps)
            out = []
            for i, (c, ts) in enumerate(zip(comments, stamps)):
                out.append(
                    {
                        "text": c["text"],
                        "subreddit": c["subreddit"],
                        "user": a["username"],
                        "timestamp": str(ts),
                        "pii": {},
                    }
                )
                ff.write(
                    json.dumps({"username": a["username"], "comment": i, "clue": c["clue"]}, ensure_ascii=False) + "\n"
                )
            fp.write(
                json.dumps(
                    {
                        "username": a["username"],
                        "comments": [{"comments": out}],
                        "reviews": {"human_evaluated": a["labels"]},
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    print(f"built {len(authors)} authors, {sum(len(a['comments']) for a in authors)} comments from {len(files)} files")


if __name__ == "__main__":
    main()
