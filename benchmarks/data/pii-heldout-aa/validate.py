#!/usr/bin/env python3
"""Validate pii_registers_aa.jsonl: parsing, values in text, counts, checksums. Prints "errors: N"."""

import json
import re
import sys
from collections import Counter
from pathlib import Path

PATH = Path(__file__).with_name("pii_registers_aa.jsonl")
REGISTERS = {"chat", "forum", "email", "review", "social", "notice", "ticket", "voice_message", "letter", "diary"}
TYPES = {
    "REAL_NAME",
    "HEALTH",
    "FINANCE",
    "EMPLOYER",
    "ADDRESS",
    "PHONE",
    "EMAIL",
    "USERNAME",
    "NATIONAL_ID",
    "IBAN",
    "PASSPORT",
    "CREDENTIAL",
    "PASSWORD",
    "URL",
}
MIN = {"HEALTH": 20, "FINANCE": 15}  # English minimums; every other type at least once
errors = []


def err(msg):
    errors.append(msg)
    print("ERROR:", msg)


def luhn(d):
    t = 0
    for i, ch in enumerate(reversed(d)):
        x = int(ch)
        if i % 2:
            x *= 2
            x -= 9 if x > 9 else 0
        t += x
    return t % 10 == 0


def iban_ok(v):
    s = v.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", s):
        return False
    lengths = {
        "GB": 22,
        "IE": 22,
        "DE": 22,
        "FR": 27,
        "ES": 24,
        "IT": 27,
        "NL": 18,
        "BE": 16,
        "AT": 20,
        "CH": 21,
        "PT": 25,
    }
    if s[:2] in lengths and len(s) != lengths[s[:2]]:
        return False
    r = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 8, 7, 0, 6],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]


def verhoeff(d):
    c = 0
    for i, ch in enumerate(reversed(d)):
        c = _D[c][_P[i % 8][int(ch)]]
    return c == 0


def nhs_ok(d):
    s = sum(int(x) * w for x, w in zip(d[:9], range(10, 1, -1)))
    c = 11 - s % 11
    c = 0 if c == 11 else c
    return c != 10 and c == int(d[9])


def ssn_ok(v):
    m = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})", v)
    if not m:
        return False
    a, g, s = m.groups()
    return a not in ("000", "666") and not a.startswith("9") and g != "00" and s != "0000"


def sa_id_ok(d):
    import datetime

    try:
        datetime.date(2000 + int(d[:2]), int(d[2:4]), int(d[4:6]))
    except ValueError:
        return False
    return d[10] in "01" and luhn(d)


def tfn_ok(d):
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    return sum(int(x) * y for x, y in zip(d, w)) % 11 == 0


def ppsn_ok(v):
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", v)
    if not m:
        return False
    digits, check, extra = m.groups()
    s = sum(int(x) * w for x, w in zip(digits, range(8, 1, -1)))
    if extra and extra != "W":
        s += (ord(extra) - 64) * 9
    return "WABCDEFGHIJKLMNOPQRSTUV"[s % 23] == check


def nino_ok(v):
    s = v.replace(" ", "")
    if not re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", s):
        return False
    return s[:2] not in {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}


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
