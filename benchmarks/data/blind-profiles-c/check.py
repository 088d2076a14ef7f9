#!/usr/bin/env python3
"""Validate profiles.jsonl against the brief."""

import collections
import json
import os
import re
import statistics
import sys

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "profiles.jsonl")
ATTRS = ["age", "gender", "location", "pobp", "education", "occupation", "income", "married"]
ALLOWED = {
    "gender": {"male", "female"},
    "education": {"No Highschool", "In Highschool", "HS Diploma", "In College", "College Degree", "Master's", "PhD"},
    "income": {"no", "low", "middle", "high", "very high"},
    "married": {"single", "in relationship", "engaged", "married", "divorced", "widowed"},
}
errors = []


def err(msg):
    errors.append(msg)


lines = open(PATH, encoding="utf-8").read().splitlines()
if len(lines) != 60:
    err(f"expected 60 lines, got {len(lines)}")
users, ncomments, per_attr, per_value = set(), [], collections.Counter(), collections.defaultdict(collections.Counter)
hard = collections.Counter()
for i, line in enumerate(lines, 1):
    try:
        o = json.loads(line)
    except Exception as e:
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
    c = o.get("comments")
    if not (isinstance(c, list) and len(c) == 1 and isinstance(c[0], dict) and set(c[0]) == {"comments"}):
        err(f"line {i}: comments wrapper wrong")
        continue
    cl = c[0]["comments"]
    if not (2 <= len(cl) <= 14):
        err(f"line {i}: {len(cl)} comments (need 2-14)")
    ncomments.append(len(cl))
    for j, cm in enumerate(cl):
        if set(cm) != {"text", "subreddit", "user", "timestamp", "pii"}:
            err(f"line {i} c{j}: keys {sorted(cm)}")
        if not isinstance(cm.get("text"), str) or not cm["text"].strip():
            err(f"line {i} c{j}: empty text")
        if not isinstance(cm.get("subreddit"), str) or not cm["subreddit"]:
            err(f"line {i} c{j}: subreddit")
        if cm.get("user") != u:
            err(f"line {i} c{j}: user mismatch")
        if not re.fullmatch(r"\d{10}\.0", str(cm.get("timestamp"))):
            err(f"line {i} c{j}: timestamp {cm.get('timestamp')}")
        if cm.get("pii") != {}:
            err(f"line {i} c{j}: pii not empty dict")
        n_sent = len([s for s in re.split(r"(?<=[.!?])\s+", cm["text"].strip()) if s])
        if n_sent > 6:
            err(f"line {i} c{j}: looks like {n_sent} sentences")
    r = o.get("reviews", {})
    if set(r) != {"human_evaluated"}:
        err(f"line {i}: reviews keys {sorted(r)}")
        continue
    he = r["human_evaluated"]
    if not (3 <= len(he) <= 6):
        err(f"line {i}: {len(he)} labels (need 3-6)")
    for k, v in he.items():
        if k not in ATTRS:
            err(f"line {i}: unknown attribute {k}")
            continue
        if set(v) != {"estimate", "hardness", "certainty", "acc_gt"}:
            err(f"line {i} {k}: keys {sorted(v)}")
        est = v.get("estimate")
        if not isinstance(est, str) or not est:
            err(f"line {i} {k}: estimate must be non-empty string")
        for f in ("hardness", "certainty"):
            if v.get(f) not in {1, 2, 3, 4, 5}:
                err(f"line {i} {k}: {f}={v.get(f)}")
        if v.get("acc_gt") != 1:
            err(f"line {i} {k}: acc_gt")
        if k in ALLOWED and est not in ALLOWED[k]:
            err(f"line {i} {k}: value {est!r} not allowed")
        if k == "age" and not (est.isdigit() and 16 <= int(est) <= 75):
            err(f"line {i}: age {est!r}")
        if k in ("location", "pobp") and not re.fullmatch(r"[^,]+, [^,]+", est):
            err(f"line {i} {k}: {est!r} not 'City, Country'")
        per_attr[k] += 1
        per_value[k][est] += 1
        hard[v.get("hardness")] += 1
for a in ATTRS:
    if per_attr[a] < 20:
        err(f"attribute {a} labelled only {per_attr[a]} times (need >= 20)")

print(
    "profiles:",
    len(lines),
    " comments: total",
    sum(ncomments),
    "min",
    min(ncomments),
    "max",
    max(ncomments),
    "median",
    statistics.median(ncomments),
)
print("labels per attribute:", dict(per_attr), " total", sum(per_attr.values()))
print("hardness distribution:", dict(sorted(hard.items())))
for a in ATTRS:
    if a in ("location", "pobp", "occupation", "age"):
        print(f"  {a}: {len(per_value[a])} distinct values")
    else:
        print(f"  {a}:", dict(per_value[a].most_common()))
if errors:
    print(f"\nFAILED: {len(errors)} problem(s)")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("\nOK: all checks passed")
