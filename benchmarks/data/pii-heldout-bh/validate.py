#!/usr/bin/env python3
"""Validate pii_registers_bh.jsonl (hand-written PII test set, addresses abroad)."""

import json
import sys
from collections import Counter

PATH = "pii_registers_bh.jsonl"
TYPES = {"REAL_NAME", "ADDRESS", "PHONE", "EMAIL", "HEALTH", "FINANCE", "EMPLOYER"}
REGISTERS = {
    "chat",
    "forum",
    "email",
    "review",
    "social",
    "notice",
    "ticket",
    "voice_message",
    "letter",
    "diary",
    "request",
}

errors = []
n_with = n_without = 0
values = Counter()
texts_by_type = Counter()
registers = Counter()
words = []
seen = set()

with open(PATH, encoding="utf-8") as f:
    lines = f.read().splitlines()

for i, line in enumerate(lines, 1):
    if not line.strip():
        errors.append(f"line {i}: empty line")
        continue
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        errors.append(f"line {i}: JSON error {e}")
        continue
    if set(obj) != {"lang", "register", "text", "pii"}:
        errors.append(f"line {i}: keys {sorted(obj)}")
    if obj.get("lang") != "en":
        errors.append(f"line {i}: lang {obj.get('lang')!r}")
    reg = obj.get("register")
    if reg not in REGISTERS:
        errors.append(f"line {i}: register {reg!r}")
    registers[reg] += 1
    text = obj.get("text", "")
    if text in seen:
        errors.append(f"line {i}: duplicate text")
    seen.add(text)
    nw = len(text.split())
    words.append(nw)
    if not 10 <= nw <= 120:
        errors.append(f"line {i}: {nw} words (want 10-120)")
    pii = obj.get("pii")
    if not isinstance(pii, list):
        errors.append(f"line {i}: pii not a list")
        continue
    types_here = set()
    for p in pii:
        v, t = p.get("value"), p.get("type")
        if set(p) != {"value", "type"}:
            errors.append(f"line {i}: pii keys {sorted(p)}")
        if t not in TYPES:
            errors.append(f"line {i}: bad type {t!r}")
        if not v or v not in text:
            errors.append(f"line {i}: value not in text: {v!r}")
        if v != v.strip():
            errors.append(f"line {i}: value has outer whitespace: {v!r}")
        values[t] += 1
        types_here.add(t)
    for t in types_here:
        texts_by_type[t] += 1
    if pii:
        n_with += 1
        if "ADDRESS" not in types_here:
            errors.append(f"line {i}: text with PII but no ADDRESS")
    else:
        n_without += 1

total = n_with + n_without
if total != 120:
    errors.append(f"total texts {total} (want 120)")
if n_with != 60:
    errors.append(f"texts with PII {n_with} (want 60)")
if n_without != 60:
    errors.append(f"texts without PII {n_without} (want 60)")

print(f"texts: {total}  with PII: {n_with}  without PII: {n_without}")
if words:
    print(f"words per text: min {min(words)}  max {max(words)}  mean {sum(words) / len(words):.1f}")
print()
print(f"{'type':<10} {'values':>7} {'texts':>6}")
for t in sorted(TYPES):
    print(f"{t:<10} {values[t]:>7} {texts_by_type[t]:>6}")
print(f"{'total':<10} {sum(values.values()):>7}")
print()
print("registers: " + ", ".join(f"{r} {c}" for r, c in sorted(registers.items(), key=lambda x: str(x[0]))))
print()
for e in errors:
    print("ERROR", e)
print(f"errors: {len(errors)}")
sys.exit(1 if errors else 0)
