#!/usr/bin/env python3
"""Validate pii_registers_ab.jsonl (hand-written English PII test set).

Checks: every line parses and has the expected fields; every value occurs
verbatim in its text; lengths, registers and the minimum counts from the brief;
checksums / formats of IBANs, national IDs, passports, phones and e-mails;
no well-known sample values. Prints the counts and "errors: N".
"""

import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/data: heldout_checks.py
from heldout_checks import (  # noqa: E402
    REGISTERS,
    SAMPLE_VALUES,
    TYPES,
    luhn_ok,
    nhs_ok,
    report,
    ssn_ok,
    verhoeff_ok,
    za_id_ok,
)
from heldout_checks import ppsn_ok as pps_ok  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE / "pii_registers_ab.jsonl"

MIN_EN = {"HEALTH": 20, "FINANCE": 15}
EXPECTED_TEXTS, EXPECTED_WITH, EXPECTED_WITHOUT = 120, 60, 60
TITLES = ("Mr ", "Mr. ", "Mrs ", "Mrs. ", "Ms ", "Ms. ", "Dr ", "Dr. ", "Sister ", "Ma'am ")
ARTICLES = ("the ", "The ", "a ", "A ", "an ", "at ", "of ", "to ")


errors = []


def err(line, msg):
    errors.append(f"line {line}: {msg}")


# ---------------------------------------------------------------- checksums
IBAN_LEN = {"GB": 22, "IE": 22, "DE": 22, "FR": 27, "NL": 18, "ES": 24, "IT": 27, "BE": 16}


def iban_ok(iban):
    s = iban.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return "bad IBAN format"
    if IBAN_LEN.get(s[:2]) not in (None, len(s)):
        return f"bad IBAN length for {s[:2]}"
    n = int("".join(str(int(c, 36)) for c in s[4:] + s[:4]))
    return None if n % 97 == 1 else "IBAN mod 97 fails"


def national_id_problem(v):
    """Recognise the scheme from the format and check it. None if fine."""
    d = re.sub(r"[ \-]", "", v)
    if re.fullmatch(r"\d{3}-\d{2}-\d{4}", v):  # US SSN
        return None if ssn_ok(v) else "invalid SSN ranges"
    if re.fullmatch(r"\d{3} ?\d{3} ?\d{4}", v):  # UK NHS number
        return None if nhs_ok(d) else "NHS mod 11 fails"
    if re.fullmatch(r"\d{3} \d{3} \d{3}", v):  # Canadian SIN
        return None if d[0] not in "08" and luhn_ok(d) else "SIN Luhn fails"
    if re.fullmatch(r"\d{13}", v):  # South African ID
        return None if za_id_ok(d) else "SA ID date/Luhn fails"
    if re.fullmatch(r"[2-9]\d{3} \d{4} \d{4}", v):  # Indian Aadhaar
        return None if verhoeff_ok(d) else "Aadhaar Verhoeff fails"
    if re.fullmatch(r"[A-Z]{3}P[A-Z]\d{4}[A-Z]", v):  # Indian PAN (person)
        return None
    if re.fullmatch(r"\d{7}[A-W][A-IW]?", v):  # Irish PPSN
        return None if pps_ok(v) else "PPSN check letter fails"
    if re.fullmatch(r"\d{11}", v):  # Nigerian NIN (no public checksum)
        return None if v[0] != "0" else "NIN starts with 0"
    if re.fullmatch(r"\d{3}-\d{3}-\d{3}-\d{3}", v):  # Philippine TIN (no checksum)
        return None
    return "unrecognised national ID format"


PASSPORT_FORMATS = [r"P[A-Z]?\d{7}", r"[A-Z]\d{8}", r"P\d{7}[A-Z]", r"[A-Z]\d{7}", r"\d{9}"]


# ---------------------------------------------------------------- main loop
texts = []
with open(DATA, encoding="utf-8") as fh:
    for ln, raw in enumerate(fh, 1):
        if not raw.strip():
            err(ln, "empty line")
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            err(ln, f"JSON error {e}")
            continue
        if set(obj) != {"lang", "register", "text", "pii"}:
            err(ln, f"unexpected keys {sorted(obj)}")
            continue
        texts.append((ln, obj))
        if obj["lang"] != "en":
            err(ln, f"lang {obj['lang']!r} (this set is English only)")
        if obj["register"] not in REGISTERS:
            err(ln, f"unknown register {obj['register']!r}")
        text = obj["text"]
        nwords = len(text.split())
        if not 10 <= nwords <= 150:
            err(ln, f"{nwords} words (allowed 10-150)")
        if not isinstance(obj["pii"], list):
            err(ln, "pii is not a list")
            continue
        for item in obj["pii"]:
            if set(item) != {"value", "type"}:
                err(ln, f"bad pii item {item}")
                continue
            v, t = item["value"], item["type"]
            if t not in TYPES:
                err(ln, f"unknown type {t}")
            if not v or v != v.strip():
                err(ln, f"empty or untrimmed value {v!r}")
            if v not in text:
                err(ln, f"value not in text: {v!r}")
            if v in SAMPLE_VALUES or re.sub(r"[ \-]", "", v) in SAMPLE_VALUES:
                err(ln, f"well-known sample value {v!r}")
            if t in ("REAL_NAME", "EMPLOYER", "ADDRESS") and v.startswith(TITLES + ARTICLES):
                err(ln, f"title/article inside {t} value {v!r}")
            if t == "IBAN":
                p = iban_ok(v)
                if p:
                    err(ln, f"{p}: {v}")
            elif t == "NATIONAL_ID":
                p = national_id_problem(v)
                if p:
                    err(ln, f"{p}: {v}")
            elif t == "PASSPORT":
                if not any(re.fullmatch(f, v) for f in PASSPORT_FORMATS):
                    err(ln, f"unexpected passport format {v}")
            elif t == "PHONE":
                n = len(re.sub(r"\D", "", v))
                if not 9 <= n <= 13:
                    err(ln, f"phone has {n} digits: {v}")
            elif t == "EMAIL":
                if not re.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", v):
                    err(ln, f"bad e-mail {v}")
        # any card-like digit run anywhere must pass Luhn
        for m in re.finditer(r"\b(?:\d[ -]?){13,19}\b", text):
            d = re.sub(r"\D", "", m.group())
            if 13 <= len(d) <= 19 and not luhn_ok(d) and not re.fullmatch(r"\d{13}", m.group().strip()):
                err(ln, f"card-like number fails Luhn: {m.group()}")
        # texts without personal data must not carry IBAN-like strings
        if not obj["pii"] and re.search(r"\b[A-Z]{2}\d{2}[A-Z]{4}\d{10,}", text):
            err(ln, "IBAN-like string in a text without personal data")

# ---------------------------------------------------------------- counts
with_pii = [o for _, o in texts if o["pii"]]
without = [o for _, o in texts if not o["pii"]]
by_type = Counter(p["type"] for o in with_pii for p in o["pii"])
regs = Counter(o["register"] for _, o in texts)

if len(texts) != EXPECTED_TEXTS:
    errors.append(f"{len(texts)} texts, expected {EXPECTED_TEXTS}")
if len(with_pii) != EXPECTED_WITH or len(without) != EXPECTED_WITHOUT:
    errors.append(f"{len(with_pii)} with / {len(without)} without, expected 60/60")
for t, m in MIN_EN.items():
    if by_type[t] < m:
        errors.append(f"{t}: {by_type[t]} < {m}")
for t in TYPES:
    if by_type[t] < 1:
        errors.append(f"type {t} never used")
for r in REGISTERS:
    if regs[r] == 0:
        errors.append(f"register {r} unused")
    if not any(o["register"] == r for o in with_pii) or not any(o["register"] == r for o in without):
        errors.append(f"register {r} not used both with and without personal data")
named = sum(1 for o in with_pii if any(p["type"] == "REAL_NAME" for p in o["pii"]))
if named * 2 <= len(with_pii):
    errors.append(f"names only in {named} of {len(with_pii)} texts with personal data")
long_texts = sum(1 for _, o in texts if o["register"] in ("forum", "letter") and len(o["text"].split()) > 100)
if long_texts < 3:
    errors.append(f"only {long_texts} long (>100 words) forum/letter texts")

print(f"texts: {len(texts)} (with personal data {len(with_pii)}, without {len(without)})")
print(f"values: {sum(by_type.values())}")
for t in sorted(TYPES, key=lambda x: (-by_type[x], x)):
    print(f"  {t:12s} {by_type[t]}")
print("registers: " + ", ".join(f"{r} {regs[r]}" for r in sorted(regs)))
print(f"texts with names: {named}/{len(with_pii)}; long forum/letter texts: {long_texts}")
sys.exit(report(errors, "ERROR "))
