#!/usr/bin/env python3
"""Validate pii_registers_f.jsonl."""

import json
import sys
from collections import Counter

PATH = "pii_registers_f.jsonl"
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
REGISTERS = ["code_log", "email", "blog", "markup", "support_ticket", "forum"]
errors = []
texts = set()
reg = Counter()
reg_pii = Counter()
types = Counter()
type_reg = Counter()
with open(PATH, encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        try:
            r = json.loads(line)
        except Exception as e:
            errors.append(f"line {n}: bad JSON {e}")
            continue
        if set(r) != {"lang", "register", "text", "pii"}:
            errors.append(f"line {n}: keys {sorted(r)}")
        if r.get("lang") != "en":
            errors.append(f"line {n}: lang")
        if r.get("register") not in REGISTERS:
            errors.append(f"line {n}: register {r.get('register')}")
        t = r.get("text", "")
        if t in texts:
            errors.append(f"line {n}: duplicate text")
        texts.add(t)
        w = len(t.split())
        if not 5 <= w <= 150:
            errors.append(f"line {n}: {w} word tokens")
        if r["register"] == "blog" and r["pii"] is not None and not 40 <= w <= 120:
            errors.append(f"line {n}: blog length {w} outside 40-120")
        seen = set()
        for p in r.get("pii", []):
            if set(p) != {"value", "type"}:
                errors.append(f"line {n}: pii keys")
            if p["type"] not in TYPES:
                errors.append(f"line {n}: type {p['type']}")
            if p["value"] not in t:
                errors.append(f"line {n}: value not in text: {p['value']!r}")
            if p["value"] in seen:
                errors.append(f"line {n}: value listed twice: {p['value']!r}")
            seen.add(p["value"])
            types[p["type"]] += 1
            type_reg[(r["register"], p["type"])] += 1
        reg[r["register"]] += 1
        if r.get("pii"):
            reg_pii[r["register"]] += 1
for g in REGISTERS:
    if reg[g] != 40:
        errors.append(f"{g}: {reg[g]} messages, want 40")
    if reg_pii[g] != 20:
        errors.append(f"{g}: {reg_pii[g]} with pii, want 20")
print(f"total messages: {sum(reg.values())}")
for g in REGISTERS:
    print(f"  {g:15s} {reg[g]:3d}  with pii {reg_pii[g]:2d}  without {reg[g] - reg_pii[g]:2d}")
print(f"pii spans: {sum(types.values())}")
for k, v in types.most_common():
    print(f"  {k:12s} {v}")
if errors:
    print("ERRORS:")
    [print("  " + e) for e in errors]
    sys.exit(1)
print("OK")
