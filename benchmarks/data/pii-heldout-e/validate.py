#!/usr/bin/env python3
"""Validate the two held-back PII test files and print counts."""

import json
import re
import sys
from collections import Counter, defaultdict

TYPES = {
    "REAL_NAME",
    "ADDRESS",
    "EMAIL",
    "PHONE",
    "USERNAME",
    "EMPLOYER",
    "HEALTH",
    "FINANCE",
    "PASSWORD",
    "API_KEY",
    "CREDENTIAL",
    "IBAN",
    "CREDIT_CARD",
    "NATIONAL_ID",
    "PASSPORT",
    "IP_ADDRESS",
    "URL",
    "PRIVATE_KEY",
}
SPEC = {
    "pii_registers_e.jsonl": dict(
        key="register",
        groups=["forum", "blog", "chat", "email", "support_ticket", "code_log", "social", "markup"],
        per_group=(20, 20),
        total=320,
    ),
    "pii_languages_e.jsonl": dict(
        key="lang", groups=["de", "fr", "es", "it", "nl", "pt"], per_group=(30, 20), total=300
    ),
}


def ntok(t):
    return len(re.findall(r"\S+", t))


errors = 0


def err(msg):
    global errors
    errors += 1
    print("ERROR:", msg)


seen_texts = set()
for fname, spec in SPEC.items():
    try:
        lines = open(fname, encoding="utf-8").read().splitlines()
    except FileNotFoundError:
        err(f"{fname} missing")
        continue
    grp = defaultdict(lambda: [0, 0])
    types = Counter()
    types_by_group = defaultdict(Counter)
    regs = Counter()
    lens = []
    for i, line in enumerate(lines, 1):
        try:
            r = json.loads(line)
        except Exception as e:
            err(f"{fname}:{i} bad JSON {e}")
            continue
        for k in ("lang", "register", "text", "pii"):
            if k not in r:
                err(f"{fname}:{i} missing key {k}")
        t = r["text"]
        n = ntok(t)
        lens.append(n)
        if not 5 <= n <= 150:
            err(f"{fname}:{i} {n} word tokens")
        if t in seen_texts:
            err(f"{fname}:{i} duplicate text")
        seen_texts.add(t)
        vals = [p["value"] for p in r["pii"]]
        if len(vals) != len(set(vals)):
            err(f"{fname}:{i} repeated value {vals}")
        for p in r["pii"]:
            if p["type"] not in TYPES:
                err(f"{fname}:{i} bad type {p['type']}")
            if p["value"] not in t:
                err(f"{fname}:{i} value not in text: {p['value']!r}")
            if p["value"] != p["value"].strip():
                err(f"{fname}:{i} untrimmed value {p['value']!r}")
            for q in r["pii"]:
                if q is not p and p["value"] in q["value"] and p["type"] != q["type"]:
                    err(f"{fname}:{i} overlapping values {p['value']!r} in {q['value']!r}")
            types[p["type"]] += 1
            types_by_group[r[spec["key"]]][p["type"]] += 1
        g = r[spec["key"]]
        grp[g][0 if r["pii"] else 1] += 1
        regs[(r["lang"], r["register"])] += 1
        if fname.startswith("pii_registers") and r["lang"] != "en":
            err(f"{fname}:{i} lang {r['lang']}")
    print(
        f"\n== {fname}: {len(lines)} lines (target {spec['total']}), words min/avg/max "
        f"{min(lens) if lens else 0}/{sum(lens) // max(1, len(lens))}/{max(lens) if lens else 0}"
    )
    for g in spec["groups"]:
        w, wo = grp.get(g, [0, 0])
        flag = "" if (w, wo) == spec["per_group"] else f"  <-- target {spec['per_group']}"
        if flag:
            err(f"{fname} group {g} counts {w}/{wo}")
        print(f"  {g:15s} with_pii={w:3d} without={wo:3d}{flag}")
    for g in grp:
        if g not in spec["groups"]:
            err(f"{fname} unexpected group {g}")
    if len(lines) != spec["total"]:
        err(f"{fname} total {len(lines)} != {spec['total']}")
    print("  types:", ", ".join(f"{k}={v}" for k, v in types.most_common()))
    if spec["key"] == "lang":
        for g in spec["groups"]:
            print(f"  {g} types:", dict(types_by_group[g].most_common()))
        rc = Counter(reg for (_, reg) in regs.elements())
        print("  registers:", dict(rc.most_common()))
print("\nerrors:", errors)
sys.exit(1 if errors else 0)
