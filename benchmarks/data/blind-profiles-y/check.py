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
COMMENT_KEYS = {"text", "subreddit", "user", "timestamp", "pii"}
LABEL_KEYS = {"estimate", "hardness", "certainty", "acc_gt"}

errors = []


def err(msg):
    errors.append(msg)


def sentences(text):
    # rough count: split on ., ! or ? followed by space/end; ignore decimals and common abbreviations
    t = re.sub(r"\b(Mr|Mrs|Dr|St|vs|etc|e\.g|i\.e)\.", r"\1", text)
    parts = [p for p in re.split(r"(?<=[.!?])\s+", t.strip()) if re.search(r"\w", p)]
    return max(1, len(parts))


with open(PATH, encoding="utf-8") as f:
    raw = f.read().splitlines()

if len(raw) != 60:
    err(f"expected 60 lines, found {len(raw)}")

names = set()
counts = Counter()
values = {a: Counter() for a in ATTRS}
ncomments = []
explicit = []
hard = Counter()
ages = []

for i, line in enumerate(raw, 1):
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        err(f"line {i}: not JSON ({e})")
        continue
    if set(obj) != {"username", "comments", "reviews"}:
        err(f"line {i}: top-level keys {sorted(obj)}")
        continue
    u = obj["username"]
    if not isinstance(u, str) or not re.fullmatch(r"[A-Za-z0-9_\-]{3,30}", u):
        err(f"line {i}: bad username {u!r}")
    if u in names:
        err(f"line {i}: duplicate username {u}")
    names.add(u)

    cm = obj["comments"]
    if not (isinstance(cm, list) and len(cm) == 1 and isinstance(cm[0], dict) and set(cm[0]) == {"comments"}):
        err(f"{u}: 'comments' must be a list holding one {{'comments': [...]}} object")
        continue
    clist = cm[0]["comments"]
    ncomments.append(len(clist))
    if not 2 <= len(clist) <= 14:
        err(f"{u}: {len(clist)} comments (need 2-14)")
    for j, c in enumerate(clist):
        if set(c) != COMMENT_KEYS:
            err(f"{u} comment {j}: keys {sorted(c)}")
            continue
        if c["user"] != u:
            err(f"{u} comment {j}: user field {c['user']!r}")
        if not isinstance(c["text"], str) or not c["text"].strip():
            err(f"{u} comment {j}: empty text")
        if not isinstance(c["subreddit"], str) or not re.fullmatch(r"[A-Za-z0-9_]+", c["subreddit"]):
            err(f"{u} comment {j}: bad subreddit {c['subreddit']!r}")
        if c["pii"] != {}:
            err(f"{u} comment {j}: pii must be {{}}")
        if not isinstance(c["timestamp"], str) or not re.fullmatch(r"\d{9,10}\.\d", c["timestamp"]):
            err(f"{u} comment {j}: timestamp {c['timestamp']!r} not a string like '1722586067.0'")
        n = sentences(c["text"])
        if n > 6:
            err(f"{u} comment {j}: about {n} sentences (max 6)")
        if re.search(r"[\w.]+@[\w-]+\.\w+", c["text"]) or re.search(r"\+?\d[\d\s\-]{8,}\d", c["text"]):
            err(f"{u} comment {j}: looks like an e-mail or phone number")

    rv = obj["reviews"]
    if set(rv) != {"human_evaluated"}:
        err(f"{u}: reviews keys {sorted(rv)}")
        continue
    he = rv["human_evaluated"]
    if not 3 <= len(he) <= 8:
        err(f"{u}: {len(he)} labels (need 3-8)")
    is_explicit = False
    for a, lab in he.items():
        if a not in ATTRS:
            err(f"{u}: unknown attribute {a}")
            continue
        if set(lab) != LABEL_KEYS:
            err(f"{u}.{a}: keys {sorted(lab)}")
            continue
        v = lab["estimate"]
        if not isinstance(v, str) or not v:
            err(f"{u}.{a}: estimate must be a non-empty string")
            continue
        for k in ("hardness", "certainty"):
            if not (isinstance(lab[k], int) and 1 <= lab[k] <= 5):
                err(f"{u}.{a}: {k} {lab[k]!r} not an int 1-5")
        if lab["acc_gt"] != 1:
            err(f"{u}.{a}: acc_gt should be 1")
        if a in ALLOWED and v not in ALLOWED[a]:
            err(f"{u}.{a}: value {v!r} not allowed")
        if a == "age":
            if not v.isdigit() or not 16 <= int(v) <= 85:
                err(f"{u}.age: {v!r} not a number 16-85")
            else:
                ages.append(int(v))
        if a in ("location", "pobp") and not re.fullmatch(r"[^,]+, [^,]+", v):
            err(f"{u}.{a}: {v!r} not 'City, Country'")
        if lab["hardness"] == 1:
            is_explicit = True
        hard[lab["hardness"]] += 1
        counts[a] += 1
        values[a][v] += 1
    if is_explicit:
        explicit.append(u)

for a in ATTRS:
    if counts[a] < 25:
        err(f"attribute {a} labelled only {counts[a]} times (need >= 25)")
if len(explicit) > 8:
    err(f"{len(explicit)} profiles have a hardness-1 (stated) label; at most 8 allowed: {explicit}")
med = statistics.median(ncomments) if ncomments else 0
if not 4 <= med <= 6:
    err(f"median comments per author {med} (brief: about 5)")

print(
    f"profiles: {len(raw)}  comments: {sum(ncomments)}  per author min/median/max: "
    f"{min(ncomments)}/{med}/{max(ncomments)}"
)
print("comment-count distribution:", dict(sorted(Counter(ncomments).items())))
print("labels per attribute:", {a: counts[a] for a in ATTRS})
print("hardness distribution:", dict(sorted(hard.items())))
print(f"age range labelled: {min(ages)}-{max(ages)}")
print(f"profiles with a stated (hardness-1) label: {len(explicit)}: {explicit}")
for a in ("gender", "education", "income", "married"):
    print(f"{a}:", dict(values[a].most_common()))
flags_path = Path(PATH).with_name("clue_flags.jsonl")
if not flags_path.exists():
    err("clue_flags.jsonl missing")
else:
    flags = [json.loads(x) for x in flags_path.read_text(encoding="utf-8").splitlines() if x.strip()]
    if len(flags) != sum(ncomments):
        err(f"clue_flags.jsonl: {len(flags)} lines for {sum(ncomments)} comments")
    share = sum(1 for f in flags if f.get("clue")) / max(1, len(flags))
    print(f"clue comments: {share:.1%}")
    if not 0.40 <= share <= 0.55:
        err(f"clue share {share:.1%} (need 40-55 %)")
if errors:
    print(f"\nFAIL: {len(errors)} problem(s)")
    for e in errors:
        print(" -", e)
    sys.exit(1)
print("\nPASS")
