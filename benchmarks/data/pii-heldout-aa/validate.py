#!/usr/bin/env python3
"""Validate pii_registers_aa.jsonl: parsing, values in text, counts, checksums. Prints "errors: N"."""

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/data: heldout_checks.py
from heldout_checks import REGISTERS, TYPES, iban_ok, nhs_ok, nino_ok, ppsn_ok, ssn_ok, tfn_ok  # noqa: E402
from heldout_checks import luhn_ok as luhn  # noqa: E402
from heldout_checks import verhoeff_ok as verhoeff  # noqa: E402
from heldout_checks import za_id_ok as sa_id_ok  # noqa: E402

PATH = Path(__file__).with_name("pii_registers_aa.jsonl")
MIN = {"HEALTH": 20, "FINANCE": 15}  # English minimums; every other type at least once
errors = []


def err(msg):
    errors.append(msg)
    print("ERROR:", msg)


def national_id_ok(v, text):
    d = re.sub(r"[ -]", "", v)
    t = text.lower()
    if re.fullmatch(r"\d{3}-\d{2}-\d{4}", v):
        return ssn_ok(v), "US SSN"
    if re.fullmatch(r"\d{3} \d{3} \d{4}", v):
        return nhs_ok(d), "NHS number (mod 11)"
    if re.fullmatch(r"[2-9]\d{3} \d{4} \d{4}", v):
        return verhoeff(d), "Aadhaar (Verhoeff)"
    if re.fullmatch(r"\d{13}", d):
        return sa_id_ok(d), "South African ID (date + Luhn)"
    if re.fullmatch(r"\d{9}", d):
        if "tfn" in t or "tax file" in t:
            return tfn_ok(d), "Australian TFN (weighted mod 11)"
        if re.search(r"\bsin\b", t) or "social insurance" in t:
            return luhn(d) and d[0] not in "08", "Canadian SIN (Luhn)"
        return False, "unknown 9-digit id"
    if re.fullmatch(r"\d{7}[A-W][A-IW]?", d):
        return ppsn_ok(d), "Irish PPSN (mod 23)"
    if re.fullmatch(r"[A-Z]{2}\d{6}[A-D]", d):
        return nino_ok(v), "UK NINO (format)"
    if re.fullmatch(r"\d{11}", d) and "nin" in t:
        return True, "Nigerian NIN (format only, no public checksum)"
    return False, "unrecognised id format"


rows = []
for n, line in enumerate(PATH.read_text(encoding="utf-8").splitlines(), 1):
    try:
        r = json.loads(line)
    except json.JSONDecodeError as e:
        err(f"line {n}: does not parse: {e}")
        continue
    rows.append((n, r))
    if set(r) != {"lang", "register", "text", "pii"}:
        err(f"line {n}: keys {sorted(r)}")
    if r.get("lang") != "en":
        err(f"line {n}: lang {r.get('lang')}")
    if r.get("register") not in REGISTERS:
        err(f"line {n}: register {r.get('register')}")
    text = r.get("text", "")
    wc = len(text.split())
    if not 10 <= wc <= 150:
        err(f"line {n}: {wc} words")
    pii = r.get("pii")
    if not isinstance(pii, list):
        err(f"line {n}: pii not a list")
        continue
    for p in pii:
        v, t = p.get("value", ""), p.get("type")
        if t not in TYPES:
            err(f"line {n}: bad type {t}")
        if not v or v not in text:
            err(f"line {n}: value not in text: {v!r}")
        if t == "IBAN" and not iban_ok(v):
            err(f"line {n}: IBAN checksum fails: {v}")
        if t == "NATIONAL_ID":
            ok, kind = national_id_ok(v, text)
            if not ok:
                err(f"line {n}: NATIONAL_ID fails ({kind}): {v}")
    # any IBAN-shaped string anywhere must be valid
    for m in re.finditer(r"\b(?:GB|IE)\d{2}[A-Z]{4}\d{14}\b", text):
        if not iban_ok(m.group()):
            err(f"line {n}: IBAN-shaped string fails mod 97: {m.group()}")

texts = len(rows)
with_pii = sum(1 for _, r in rows if r.get("pii"))
without = texts - with_pii
types = Counter(p["type"] for _, r in rows for p in r.get("pii", []))
regs = Counter(r["register"] for _, r in rows)
if texts != 120:
    err(f"{texts} texts, expected 120")
if with_pii != 60 or without != 60:
    err(f"{with_pii} with / {without} without personal data, expected 60/60")
for t in TYPES:
    need = MIN.get(t, 1)
    if types[t] < need:
        err(f"{t}: {types[t]} values, need >= {need}")
for reg in REGISTERS:
    if regs[reg] == 0:
        err(f"register {reg} missing")
named = sum(1 for _, r in rows if any(p["type"] == "REAL_NAME" for p in r["pii"]))
if named * 2 <= with_pii:
    err(f"names in only {named} of {with_pii} texts with personal data")

print(f"texts: {texts} (with personal data {with_pii}, without {without})")
print("registers:", dict(sorted(regs.items())))
print("values by type:", dict(sorted(types.items())), "total", sum(types.values()))
print(f"texts with a REAL_NAME: {named}")
print(f"errors: {len(errors)}")
sys.exit(1 if errors else 0)
