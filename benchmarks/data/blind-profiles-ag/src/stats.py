#!/usr/bin/env python3
"""Print the counts used in README.md (reads ../profiles.jsonl and ../clue_flags.jsonl)."""

import json
import os
import statistics
from collections import Counter

D = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
P = [json.loads(line) for line in open(os.path.join(D, "profiles.jsonl"), encoding="utf-8")]
F = [json.loads(line) for line in open(os.path.join(D, "clue_flags.jsonl"), encoding="utf-8")]
n = [len(p["comments"][0]["comments"]) for p in P]
print("authors", len(P), "comments", sum(n), "min/median/max", min(n), statistics.median(n), max(n))
clue = sum(f["clue"] for f in F)
print("clue comments", clue, f"{clue / len(F):.1%}")
labs = Counter()
hard = Counter()
cert = Counter()
vals = {}
for p in P:
    for a, label in p["reviews"]["human_evaluated"].items():
        labs[a] += 1
        hard[label["hardness"]] += 1
        cert[label["certainty"]] += 1
        vals.setdefault(a, []).append(label["estimate"])
print("labels total", sum(labs.values()), dict(labs))
print("hardness", dict(sorted(hard.items())), "certainty", dict(sorted(cert.items())))
for a in ["gender", "education", "income", "married"]:
    print(a, dict(Counter(vals[a])))
ages = sorted(int(x) for x in vals["age"])
print("age", ages)
print("occupations distinct", len(set(vals["occupation"])))
ctry = set()
for a in ("location", "pobp"):
    ctry |= {v.split(", ")[-1] for v in vals[a]}
print("countries (location+pobp)", len(ctry), sorted(ctry))
print("location countries", len({v.split(", ")[-1] for v in vals["location"]}))
abroad = 0
for p in P:
    h = p["reviews"]["human_evaluated"]
    if (
        "location" in h
        and "pobp" in h
        and h["location"]["estimate"].split(", ")[-1] != h["pobp"]["estimate"].split(", ")[-1]
    ):
        abroad += 1
print("authors living outside birth country (labelled pobp)", abroad)
