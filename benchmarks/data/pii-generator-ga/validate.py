"""Checks pii_generator_ga.jsonl (python validate.py)."""
import json, subprocess, sys
from collections import Counter
from pathlib import Path
here = Path(__file__).resolve().parent
TYPES = {"REAL_NAME", "ADDRESS", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "HEALTH", "FINANCE", "EMPLOYER"}
errors = []
out = here / "pii_generator_ga.jsonl"
if not (here / "generate.py").exists():
    print("errors: 1 (no generate.py)"); sys.exit(1)
before = out.read_bytes() if out.exists() else None
subprocess.run([sys.executable, "generate.py"], cwd=here, check=True)
first = out.read_bytes()
subprocess.run([sys.executable, "generate.py"], cwd=here, check=True)
if out.read_bytes() != first:
    errors.append("two runs wrote different files (seed it)")
rows = [json.loads(l) for l in first.decode("utf-8").splitlines() if l.strip()]
types, values, clean = Counter(), {t: set() for t in TYPES}, 0
for n, r in enumerate(rows, 1):
    if set(r) != {"text", "spans", "template"}:
        errors.append(f"line {n}: keys"); continue
    last = -1
    for s, e, t in r["spans"]:
        if t not in TYPES: errors.append(f"line {n}: type {t}")
        if not (0 <= s < e <= len(r["text"])): errors.append(f"line {n}: span out of range")
        if s < last: errors.append(f"line {n}: spans overlap or unsorted")
        if r["text"][s:e] != r["text"][s:e].strip(): errors.append(f"line {n}: span has edge spaces")
        last = e; types[t] += 1; values.get(t, set()).add(r["text"][s:e])
    clean += not r["spans"]
if len(rows) != 600: errors.append(f"{len(rows)} messages (600)")
if clean != 120: errors.append(f"{clean} without spans (120)")
for t in TYPES:
    need = 60 if t in {"REAL_NAME", "ADDRESS", "HEALTH", "FINANCE", "EMPLOYER"} else 30
    if types[t] < need: errors.append(f"{t}: {types[t]} spans (at least {need})")
for e in errors[:40]: print(e)
print("messages", len(rows), "spans", dict(types))
print(f"errors: {len(errors)}")
