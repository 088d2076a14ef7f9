"""Validate profiles.jsonl against the brief. Exit code 0 = pass."""

import json
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

PATH = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).with_name("profiles.jsonl"))
ATTRS = ["age", "gender", "location", "pobp", "education", "occupation", "income", "married"]
ALLOWED = {
    "gender": {"male", "female"},
    "education": {"No Highschool", "In Highschool", "HS Diploma", "In College", "College Degree", "Master's", "PhD"},
    "income": {"no", "low", "middle", "high", "very high"},
    "married": {"single", "in relationship", "engaged", "married", "divorced", "widowed"},
}
errs = []


def err(i, msg):
    errs.append(f"line {i}: {msg}")


lines = open(PATH, encoding="utf-8").read().splitlines()
if len(lines) != 64:
    errs.append(f"expected 64 lines, got {len(lines)}")
names, label_count, value_count, n_comments, hard, n_labels = set(), Counter(), Counter(), [], Counter(), []
for i, line in enumerate(lines, 1):
    try:
        o = json.loads(line)
    except Exception as e:
        err(i, f"bad JSON: {e}")
        continue
    if set(o) != {"username", "comments", "reviews"}:
        err(i, f"top-level keys {sorted(o)}")
    u = o.get("username")
    if not isinstance(u, str) or not u:
        err(i, "username missing")
        continue
    if u in names:
        err(i, f"duplicate username {u}")
    names.add(u)
    c = o.get("comments")
    if not (isinstance(c, list) and len(c) == 1 and isinstance(c[0], dict) and set(c[0]) == {"comments"}):
        err(i, "comments must be [{'comments': [...]}]")
        continue
    cs = c[0]["comments"]
    if not (2 <= len(cs) <= 14):
        err(i, f"{len(cs)} comments (need 2-14)")
    n_comments.append(len(cs))
    for j, cm in enumerate(cs):
        if set(cm) != {"text", "subreddit", "user", "timestamp", "pii"}:
            err(i, f"comment {j} keys {sorted(cm)}")
        if not isinstance(cm.get("text"), str) or not cm["text"].strip():
            err(i, f"comment {j} empty text")
        else:
            sents = len(re.findall(r"[.!?]+(\s|$)", cm["text"].strip())) or 1
            if sents > 6:
                err(i, f"comment {j} has ~{sents} sentences")
        if not isinstance(cm.get("subreddit"), str) or not cm["subreddit"]:
            err(i, f"comment {j} subreddit")
        if cm.get("user") != u:
            err(i, f"comment {j} user mismatch")
        if not (isinstance(cm.get("timestamp"), str) and re.fullmatch(r"\d{9,10}\.0", cm["timestamp"])):
            err(i, f"comment {j} timestamp {cm.get('timestamp')!r}")
        if cm.get("pii") != {}:
            err(i, f"comment {j} pii must be {{}}")
    r = o.get("reviews")
    if not (isinstance(r, dict) and set(r) == {"human_evaluated"} and isinstance(r["human_evaluated"], dict)):
        err(i, "reviews must be {'human_evaluated': {...}}")
        continue
    he = r["human_evaluated"]
    if not (3 <= len(he) <= 6):
        err(i, f"{len(he)} labels (need 3-6)")
    n_labels.append(len(he))
    for k, v in he.items():
        if k not in ATTRS:
            err(i, f"unknown attribute {k}")
            continue
        if set(v) != {"estimate", "hardness", "certainty", "acc_gt"}:
            err(i, f"{k} keys {sorted(v)}")
        est = v.get("estimate")
        if not isinstance(est, str) or not est.strip():
            err(i, f"{k} estimate empty")
        elif k in ALLOWED and est not in ALLOWED[k]:
            err(i, f"{k}={est!r} not allowed")
        elif k == "age" and not (est.isdigit() and 16 <= int(est) <= 75):
            err(i, f"age {est!r} not 16-75")
        elif k in ("location", "pobp") and not re.fullmatch(r"[^,]+, [^,]+", est):
            err(i, f"{k} {est!r} not 'City, Country'")
        for f in ("hardness", "certainty"):
            if v.get(f) not in (1, 2, 3, 4, 5):
                err(i, f"{k}.{f}={v.get(f)!r}")
        if v.get("acc_gt") != 1:
            err(i, f"{k}.acc_gt must be 1")
        label_count[k] += 1
        value_count[(k, est if k not in ("age", "location", "pobp", "occupation") else None)] += 1
        hard[v.get("hardness")] += 1
for k in ATTRS:
    if label_count[k] < 22:
        errs.append(f"attribute {k} labelled only {label_count[k]} times (need >= 22)")
if n_comments:
    med = statistics.median(n_comments)
    if not (4 <= med <= 6):
        errs.append(f"median comments {med} (want about 5)")

print(
    f"profiles: {len(lines)}, comments: {sum(n_comments)}, per author min/median/max: "
    f"{min(n_comments)}/{statistics.median(n_comments)}/{max(n_comments)}, labels: {sum(n_labels)}"
)
print("labels per attribute:", {k: label_count[k] for k in ATTRS})
for k in ALLOWED:
    print(f"  {k}:", {val: n for (a, val), n in sorted(value_count.items()) if a == k})
print("hardness:", dict(sorted(hard.items())))
if errs:
    print("\nFAIL")
    print("\n".join(errs))
    sys.exit(1)
print("PASS")
