#!/usr/bin/env python3
"""Validate pii_registers_ad.jsonl: parsing, verbatim values, counts, checksums.

Usage: python3 validate.py [path]   -> prints counts and "errors: N".
"""

import datetime
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "pii_registers_ad.jsonl")

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
REGISTERS = {"chat", "forum", "email", "review", "social", "notice", "ticket", "voice_message", "letter", "diary"}
# Minimums for this (English-only) file.
N_TEXTS, N_WITH, N_WITHOUT = 120, 60, 60
MIN = {"HEALTH": 20, "FINANCE": 15, "ADDRESS": 12}
NAME_SHARE = 0.75  # share of texts with personal data that contain a REAL_NAME
WORDS = (10, 150)

# Widely published sample / test values that must not be used.
BLACKLIST = {
    "GB82WEST12345698765432",
    "GB29NWBK60161331926819",
    "GB33BUKB20201555555555",
    "IE29AIBK93115212345678",
    "IE64IRCE92050112345678",
    "123456789",
    "123-45-6789",
    "078-05-1120",
    "219-09-9999",
    "046454286",
    "046 454 286",
    "9434765919",
    "943 476 5919",
    "4010232137",
    "401 023 2137",
    "AB123456C",
    "QQ123456C",
    "QQ 12 34 56 C",
    "1234567T",
    "1234567TW",
    "123456782",
    "123 456 782",
    "8001015009087",
    "999941057058",
    "ABCDE1234F",
    "4111111111111111",
    "4242424242424242",
}

errors = []


def err(lineno, msg):
    errors.append(f"line {lineno}: {msg}")


def digits(s):
    return re.sub(r"\D", "", s)


def luhn_ok(num):
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban_ok(v):
    s = v.replace(" ", "").upper()
    lengths = {"GB": 22, "IE": 22}
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return False
    if s[:2] in lengths and len(s) != lengths[s[:2]]:
        return False
    r = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


def nhs_ok(d):
    s = sum(int(x) * (10 - i) for i, x in enumerate(d[:9]))
    c = 11 - s % 11
    if c == 11:
        c = 0
    return c != 10 and c == int(d[9])


def ssn_ok(v):
    a, g, s = v.split("-")
    return a not in ("000", "666") and not a.startswith("9") and g != "00" and s != "0000"


def tfn_ok(d):
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    return sum(int(x) * w[i] for i, x in enumerate(d)) % 11 == 0


def za_id_ok(d):
    try:
        datetime.date(1900 + int(d[0:2]), int(d[2:4]), int(d[4:6]))
    except ValueError:
        return False
    return d[10] in "01" and luhn_ok(d)


_VD = [
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
_VP = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]


def verhoeff_ok(d):
    c = 0
    for i, ch in enumerate(reversed(d)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def ppsn_ok(v):
    m = re.fullmatch(r"(\d{7})([A-W])([AHW]?)", v)
    if not m:
        return False
    s = sum(int(x) * (8 - i) for i, x in enumerate(m.group(1)))
    if m.group(3):
        s += 9 * (ord(m.group(3)) - 64 if m.group(3) != "W" else 0)
    r = s % 23
    return m.group(2) == ("W" if r == 0 else chr(64 + r))


def nino_ok(v):
    s = v.replace(" ", "")
    if not re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", s):
        return False
    return s[:2] not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


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
    return None, False


PASSPORT_FORMATS = [
    r"[A-Z]\d{8}",  # South Africa / Nigeria
    r"P\d{7}[A-Z]",  # Philippines
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
                if v in BLACKLIST or compact in BLACKLIST:
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
    for e in errors:
        print(e)
    print(f"errors: {len(errors)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
