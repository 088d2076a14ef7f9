#!/usr/bin/env python3
"""Validate pii_registers_ad.jsonl: parsing, verbatim values, counts, checksums.

Usage: python3 validate.py [path]   -> prints counts and "errors: N".
"""

import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "pii_registers_ad.jsonl")
sys.path.insert(0, os.path.dirname(HERE))  # benchmarks/data: heldout_checks.py
from heldout_checks import (  # noqa: E402
    REGISTERS,
    SAMPLE_VALUES,
    TYPES,
    iban_ok,
    luhn_ok,
    nhs_ok,
    nino_ok,
    ppsn_ok,
    report,
    ssn_ok,
    tfn_ok,
    verhoeff_ok,
    za_id_ok,
)

# Minimums for this (English-only) file.
N_TEXTS, N_WITH, N_WITHOUT = 120, 60, 60
MIN = {"HEALTH": 20, "FINANCE": 15, "ADDRESS": 12}
NAME_SHARE = 0.75  # share of texts with personal data that contain a REAL_NAME
WORDS = (10, 150)


errors = []


def err(lineno, msg):
    errors.append(f"line {lineno}: {msg}")


def digits(s):
    return re.sub(r"\D", "", s)


def national_id_ok(v, text):
    """Return (kind, ok) for a NATIONAL_ID value; kind None if format unknown."""
    d = digits(v)
    if re.fullmatch(r"\d{3} \d{3} \d{4}", v):
        return "NHS number", nhs_ok(d)
    if re.fullmatch(r"\d{3}-\d{2}-\d{4}", v):
        return "US SSN", ssn_ok(v)
    if re.fullmatch(r"\d{3} \d{3} \d{3}", v):
        if "TFN" in text or "tax file" in text.lower():
            return "AU TFN", tfn_ok(d)
        return "CA SIN", luhn_ok(d) and d[0] not in "08"
    if re.fullmatch(r"\d{13}", v):
        return "ZA ID", za_id_ok(d)
    if re.fullmatch(r"[2-9]\d{3} \d{4} \d{4}", v):
        return "Aadhaar", verhoeff_ok(d)
    if re.fullmatch(r"\d{7}[A-W][AHW]?", v):
        return "IE PPSN", ppsn_ok(v)
    if re.fullmatch(r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]", v):
        return "UK NINO", nino_ok(v)
    if re.fullmatch(r"[A-Z]{3}P[A-Z]\d{4}[A-Z]", v):
        return "IN PAN", True  # no public checksum; format (individual holder) only
    if re.fullmatch(r"\d{11}", v):
        return "NG NIN", True  # no public checksum; format only
    if re.fullmatch(r"\d{2}-\d{7}-\d", v):
        return "PH SSS", True  # the brief's Philippine numbers; format only
    if re.fullmatch(r"\d{3}-\d{3}-\d{3}(?:-\d{3,5})?", v):
        return "PH TIN", True  # format only
    return None, False


PASSPORT_FORMATS = [
    r"[A-Z]\d{8}",  # South Africa / Nigeria
    r"P\d{7}[A-Z]",  # Philippines
    r"[A-Z]{2}\d{6}",  # Canada
    r"[A-Z]{1,2}\d{7}",  # Australia / India
    r"\d{9}",  # US / UK
]


def main():
    n_texts = n_with = n_without = 0
    by_type = Counter()
    by_reg_with, by_reg_without = Counter(), Counter()
    with_name = 0
    seen_texts = set()
    kinds = Counter()
    with open(PATH, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                err(lineno, "empty line")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                err(lineno, f"JSON error: {e}")
                continue
            n_texts += 1
            if set(obj) != {"lang", "register", "text", "pii"}:
                err(lineno, f"unexpected keys {sorted(obj)}")
            if obj.get("lang") != "en":
                err(lineno, f"lang {obj.get('lang')!r}, expected 'en'")
            reg = obj.get("register")
            if reg not in REGISTERS:
                err(lineno, f"unknown register {reg!r}")
            text = obj.get("text", "")
            if not isinstance(text, str) or not text.strip():
                err(lineno, "empty text")
                continue
            if text in seen_texts:
                err(lineno, "duplicate text")
            seen_texts.add(text)
            nw = len(text.split())
            if not WORDS[0] <= nw <= WORDS[1]:
                err(lineno, f"{nw} words, outside {WORDS}")
            pii = obj.get("pii")
            if not isinstance(pii, list):
                err(lineno, "pii is not a list")
                continue
            if pii:
                n_with += 1
                by_reg_with[reg] += 1
            else:
                n_without += 1
                by_reg_without[reg] += 1
            types_here = set()
            for item in pii:
                if not isinstance(item, dict) or set(item) != {"value", "type"}:
                    err(lineno, f"bad pii item {item!r}")
                    continue
                v, t = item["value"], item["type"]
                if t not in TYPES:
                    err(lineno, f"unknown type {t!r}")
                if not v or v != v.strip():
                    err(lineno, f"empty or untrimmed value {v!r}")
                if v not in text:
                    err(lineno, f"value not in text: {v!r}")
                compact = v.replace(" ", "").replace("-", "")
                if v in SAMPLE_VALUES or compact in SAMPLE_VALUES:
                    err(lineno, f"well-known sample value {v!r}")
                by_type[t] += 1
                types_here.add(t)
                if t == "IBAN" and not iban_ok(v):
                    err(lineno, f"IBAN checksum fails: {v}")
                elif t == "NATIONAL_ID":
                    kind, ok = national_id_ok(v, text)
                    if kind is None:
                        err(lineno, f"unknown NATIONAL_ID format: {v}")
                    elif not ok:
                        err(lineno, f"{kind} check fails: {v}")
                    else:
                        kinds[kind] += 1
                elif t == "PASSPORT":
                    if not any(re.fullmatch(p, v) for p in PASSPORT_FORMATS):
                        err(lineno, f"unexpected passport format: {v}")
                elif t == "PHONE":
                    if not 7 <= len(digits(v)) <= 15:
                        err(lineno, f"phone digit count: {v}")
                elif t == "EMAIL":
                    if not re.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", v):
                        err(lineno, f"bad email: {v}")
                elif t == "URL":
                    if not re.match(r"https?://", v):
                        err(lineno, f"bad URL: {v}")
            if "REAL_NAME" in types_here:
                with_name += 1

    if n_texts != N_TEXTS:
        err(0, f"{n_texts} texts, expected {N_TEXTS}")
    if n_with != N_WITH or n_without != N_WITHOUT:
        err(0, f"{n_with} with / {n_without} without personal data, expected {N_WITH}/{N_WITHOUT}")
    for t, m in MIN.items():
        if by_type[t] < m:
            err(0, f"{t}: {by_type[t]} values, need >= {m}")
    for t in sorted(TYPES):
        if by_type[t] < 1:
            err(0, f"type {t} never used")
    for r in sorted(REGISTERS):
        if by_reg_with[r] < 1 or by_reg_without[r] < 1:
            err(0, f"register {r} missing in one half")
    if n_with and with_name / n_with < NAME_SHARE:
        err(0, f"only {with_name}/{n_with} texts with personal data contain a name")

    print(f"texts: {n_texts} (with personal data {n_with}, without {n_without})")
    print(f"texts with a REAL_NAME: {with_name}/{n_with}")
    print("values by type: " + ", ".join(f"{t} {by_type[t]}" for t in sorted(by_type)))
    print(f"total values: {sum(by_type.values())}")
    print(
        "registers (with/without): " + ", ".join(f"{r} {by_reg_with[r]}/{by_reg_without[r]}" for r in sorted(REGISTERS))
    )
    print("national IDs checked: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    return report(errors)


if __name__ == "__main__":
    sys.exit(main())
