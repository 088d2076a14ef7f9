#!/usr/bin/env python3
"""Validate /work/prof47d/profiles.jsonl against the brief. Exit code 0 = pass."""

import json
import re
import statistics
import sys
from collections import Counter

PATH = sys.argv[1] if len(sys.argv) > 1 else "/work/prof47d/profiles.jsonl"
ATTRS = ["age", "gender", "location", "pobp", "education", "occupation", "income", "married"]
ALLOWED = {
    "gender": {"male", "female"},
    "education": {"No Highschool", "In Highschool", "HS Diploma", "In College", "College Degree", "Master's", "PhD"},
    "income": {"no", "low", "middle", "high", "very high"},
    "married": {"single", "in relationship", "engaged", "married", "divorced", "widowed"},
}
COMMENT_KEYS = {"text", "subreddit", "user", "timestamp", "pii"}
REVIEW_KEYS = {"estimate", "hardness", "certainty", "acc_gt"}

errors = []


def err(msg):
    errors.append(msg)


lines = open(PATH, encoding="utf-8").read().splitlines()
if len(lines) != 60:
    err(f"expected 60 lines, got {len(lines)}")

users = set()
attr_count = Counter()
value_count = {a: Counter() for a in ATTRS}
hard = Counter()
n_comments = []
moved = 0
genders = Counter()

for i, line in enumerate(lines, 1):
    try:
        o = json.loads(line)
    except json.JSONDecodeError as e:
        err(f"line {i}: bad JSON {e}")
        continue
    if set(o) != {"username", "comments", "reviews"}:
        err(f"line {i}: top-level keys {sorted(o)}")
    u = o.get("username")
    if not isinstance(u, str) or not u:
        err(f"line {i}: bad username")
    if u in users:
        err(f"line {i}: duplicate username {u}")
    users.add(u)

    cs = o.get("comments")
    if not (isinstance(cs, list) and len(cs) == 1 and isinstance(cs[0], dict) and set(cs[0]) == {"comments"}):
        err(f"line {i}: comments must be [{{'comments': [...]}}]")
        continue
    cl = cs[0]["comments"]
    if not (2 <= len(cl) <= 14):
        err(f"line {i}: {len(cl)} comments (need 2-14)")
    n_comments.append(len(cl))
    for j, c in enumerate(cl):
        if set(c) != COMMENT_KEYS:
            err(f"line {i} comment {j}: keys {sorted(c)}")
            continue
        if c["user"] != u:
            err(f"line {i} comment {j}: user mismatch")
        if not (isinstance(c["text"], str) and c["text"].strip()):
            err(f"line {i} comment {j}: empty text")
        if not (isinstance(c["subreddit"], str) and re.fullmatch(r"[A-Za-z0-9_]+", c["subreddit"])):
            err(f"line {i} comment {j}: bad subreddit {c['subreddit']!r}")
        if not (isinstance(c["timestamp"], str) and re.fullmatch(r"\d{10}\.0", c["timestamp"])):
            err(f"line {i} comment {j}: bad timestamp {c['timestamp']!r}")
        if c["pii"] != {}:
            err(f"line {i} comment {j}: pii must be {{}}")
        # rough sentence count: 1-6
        sents = [s for s in re.split(r"(?<=[.!?])\s+", c["text"].strip()) if s]
        if len(sents) > 6:
            err(f"line {i} comment {j}: {len(sents)} sentences (>6)")

    rv = o.get("reviews")
    if not (isinstance(rv, dict) and set(rv) == {"human_evaluated"} and isinstance(rv["human_evaluated"], dict)):
        err(f"line {i}: reviews must be {{'human_evaluated': {{...}}}}")
        continue
    he = rv["human_evaluated"]
    if not (3 <= len(he) <= 6):
        err(f"line {i}: {len(he)} labels (need 3-6)")
    for a, r in he.items():
        if a not in ATTRS:
            err(f"line {i}: unknown attribute {a}")
            continue
        if set(r) != REVIEW_KEYS:
            err(f"line {i} {a}: keys {sorted(r)}")
            continue
        v = r["estimate"]
        if not isinstance(v, str) or not v:
            err(f"line {i} {a}: estimate must be non-empty string")
            continue
        if a in ALLOWED and v not in ALLOWED[a]:
            err(f"line {i} {a}: value {v!r} not allowed")
        if a == "age" and not (v.isdigit() and 16 <= int(v) <= 75):
            err(f"line {i} age: {v!r} not a number 16-75")
        if a in ("location", "pobp") and not re.fullmatch(r"[^,]+, [^,]+", v):
            err(f"line {i} {a}: {v!r} not 'City, Country'")
        for k in ("hardness", "certainty"):
            if not (isinstance(r[k], int) and 1 <= r[k] <= 5):
                err(f"line {i} {a}: {k} {r[k]!r} not int 1-5")
        if r["acc_gt"] != 1:
            err(f"line {i} {a}: acc_gt must be 1")
        attr_count[a] += 1
        value_count[a][v] += 1
        hard[r["hardness"]] += 1
    if "pobp" in he and "location" in he:
        if he["pobp"]["estimate"].split(", ")[-1] != he["location"]["estimate"].split(", ")[-1]:
            moved += 1

for a in ATTRS:
    if attr_count[a] < 20:
        err(f"attribute {a} labelled only {attr_count[a]} times (need >= 20)")
if moved < 25:
    err(f"only {moved} authors with pobp country != location country (need >= 25)")
med = statistics.median(n_comments) if n_comments else 0
if not (4 <= med <= 6):
    err(f"median comments per author {med} (want about 5)")
g = value_count["gender"]
if g and abs(g["male"] - g["female"]) > 6:
    err(f"gender labels unbalanced: {dict(g)}")

print(
    f"authors: {len(lines)}  comments: {sum(n_comments)}  per author min/median/max: "
    f"{min(n_comments)}/{med}/{max(n_comments)}"
)
print("labels per attribute:", dict(attr_count))
print("hardness distribution:", dict(sorted(hard.items())))
print("pobp country differs from location country:", moved)
for a in ["gender", "education", "income", "married"]:
    print(f"  {a}: {dict(value_count[a].most_common())}")
ages = sorted(int(v) for v in value_count["age"].elements())
print("  ages:", ages)
if errors:
    print(f"\nFAIL: {len(errors)} problem(s)")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("\nPASS")
