#!/usr/bin/env python3
"""Usage: python3 check.py profiles.jsonl  -- validates the set and prints PASS or the problems."""

import json
import os
import sys
from datetime import datetime, timezone

ALLOWED = {
    "gender": {"male", "female"},
    "education": {"No Highschool", "In Highschool", "HS Diploma", "In College", "College Degree", "Master's", "PhD"},
    "income": {"no", "low", "middle", "high", "very high"},
    "married": {"single", "in relationship", "engaged", "married", "divorced", "widowed"},
}
ATTRS = {"age", "gender", "location", "pobp", "education", "occupation", "income", "married"}
T0 = datetime(2024, 8, 12, tzinfo=timezone.utc).timestamp()
T1 = datetime(2024, 10, 21, tzinfo=timezone.utc).timestamp()


def main(path):
    errs = []
    flags_path = os.path.join(os.path.dirname(os.path.abspath(path)), "clue_flags.jsonl")
    profiles, flags = [], []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        try:
            profiles.append(json.loads(line))
        except ValueError as e:
            errs.append(f"profiles line {n}: {e}")
    for n, line in enumerate(open(flags_path, encoding="utf-8"), 1):
        try:
            flags.append(json.loads(line))
        except ValueError as e:
            errs.append(f"flags line {n}: {e}")
    flagmap = {}
    for f in flags:
        key = (f["username"], f["comment"])
        if key in flagmap:
            errs.append(f"duplicate flag {key}")
        if not isinstance(f.get("clue"), bool):
            errs.append(f"non-bool clue flag {key}")
        flagmap[key] = f.get("clue")
    seen, hard1, total = set(), 0, 0
    users = set()
    for p in profiles:
        u = p["username"]
        if u in users:
            errs.append(f"duplicate user {u}")
        users.add(u)
        if len(p["comments"]) != 1:
            errs.append(f"{u}: comments must hold one object")
            continue
        cs = p["comments"][0]["comments"]
        if not 2 <= len(cs) <= 14:
            errs.append(f"{u}: {len(cs)} comments")
        clues = 0
        for i, c in enumerate(cs):
            total += 1
            if c.get("user") != u:
                errs.append(f"{u}[{i}]: wrong user field")
            if not c.get("text") or not c.get("subreddit") or c.get("pii") != {}:
                errs.append(f"{u}[{i}]: missing text/subreddit/pii")
            ts = c.get("timestamp")
            if not isinstance(ts, str) or not ts.isdigit() or not T0 <= int(ts) < T1:
                errs.append(f"{u}[{i}]: bad timestamp {ts}")
            if (u, i) not in flagmap:
                errs.append(f"{u}[{i}]: no clue flag")
            else:
                seen.add((u, i))
                clues += bool(flagmap[(u, i)])
        if clues < 2:
            errs.append(f"{u}: only {clues} clue comments")
        labels = p["reviews"]["human_evaluated"]
        if not 3 <= len(labels) <= 8:
            errs.append(f"{u}: {len(labels)} labels")
        for a, lab in labels.items():
            if a not in ATTRS:
                errs.append(f"{u}: unknown attribute {a}")
                continue
            v = lab.get("estimate")
            if a in ALLOWED and v not in ALLOWED[a]:
                errs.append(f"{u}: {a}={v!r} not allowed")
            if a == "age" and not (str(v).isdigit() and 10 <= int(v) <= 100):
                errs.append(f"{u}: bad age {v!r}")
            if a in ("location", "pobp") and len(str(v).split(", ")) < 2:
                errs.append(f"{u}: {a} must be 'City, Country': {v!r}")
            if lab.get("hardness") not in range(1, 6) or lab.get("certainty") not in range(3, 6):
                errs.append(f"{u}: {a} hardness/certainty out of range")
            if lab.get("acc_gt") != 1:
                errs.append(f"{u}: {a} acc_gt must be 1")
            hard1 += lab.get("hardness") == 1
    extra = set(flagmap) - seen
    if extra:
        errs.append(f"{len(extra)} flags without a comment, e.g. {sorted(extra)[:3]}")
    if hard1 > 8:
        errs.append(f"{hard1} labels of hardness 1 (max 8)")
    for e in errs:
        print("FAIL:", e)
    clue_n = sum(1 for v in flagmap.values() if v)
    print(f"authors={len(profiles)} comments={total} clue={clue_n} ({clue_n / max(total, 1):.0%}) hardness1={hard1}")
    print("PASS" if not errs else f"{len(errs)} problems")
    return 0 if not errs else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "profiles.jsonl"))
