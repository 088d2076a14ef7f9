#!/usr/bin/env python3
"""Validate pii_registers_zz.jsonl.

Checks: every line parses and has the expected fields; every value occurs verbatim
in its text; the per-language minimums of the brief hold; registers and lengths;
checksums / formats of IBANs, national IDs and passport numbers.
Prints the counts and "errors: N" (N = 0 when everything holds).
"""

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "pii_registers_zz.jsonl"

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
LANGS = {"en", "de", "fr", "es", "it", "nl", "pt"}

# Per-language targets (only English is present in this file).
TARGETS = {"en": {"texts": 120, "with_pii": 60, "without_pii": 60, "HEALTH": 20, "FINANCE": 15}}
DEFAULT_TARGET = {"HEALTH": 8, "FINANCE": 6}
MIN_WORDS, MAX_WORDS = 10, 150

errors = []


def err(msg):
    errors.append(msg)


# ---------------------------------------------------------------- checksums
IBAN_LEN = {
    "GB": 22,
    "IE": 22,
    "DE": 22,
    "FR": 27,
    "ES": 24,
    "IT": 27,
    "NL": 18,
    "PT": 25,
    "BE": 16,
    "AT": 20,
    "CH": 21,
    "LU": 20,
}


def iban_ok(value):
    s = re.sub(r"\s", "", value).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return "bad IBAN format"
    cc = s[:2]
    if cc in IBAN_LEN and len(s) != IBAN_LEN[cc]:
        return f"IBAN length {len(s)} != {IBAN_LEN[cc]} for {cc}"
    num = "".join(str(int(c, 36)) for c in s[4:] + s[:4])
    if int(num) % 97 != 1:
        return "IBAN mod 97 fails"
    return None


def luhn_ok(digits):
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def nhs_ok(d):  # UK NHS number, mod 11
    s = sum(int(c) * (10 - i) for i, c in enumerate(d[:9]))
    check = 11 - s % 11
    if check == 11:
        check = 0
    return check != 10 and check == int(d[9])


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


def verhoeff_ok(d):  # Indian Aadhaar
    c = 0
    for i, ch in enumerate(reversed(d)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def tfn_ok(d):  # Australian Tax File Number
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    return sum(int(a) * b for a, b in zip(d, w)) % 11 == 0


def pps_ok(v):  # Irish PPS number: 7 digits + check letter (+ optional letter)
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", v)
    if not m:
        return False
    s = sum(int(a) * b for a, b in zip(m.group(1), range(8, 1, -1)))
    if m.group(3):
        s += (ord(m.group(3)) - 64) % 23 * 9 if m.group(3) != "W" else 0
    r = s % 23
    return m.group(2) == ("W" if r == 0 else chr(64 + r))


def za_id_ok(d):  # South African ID: YYMMDD SSSS C A Z, Luhn
    mm, dd = int(d[2:4]), int(d[4:6])
    return 1 <= mm <= 12 and 1 <= dd <= 31 and d[10] in "01" and luhn_ok(d)


def ssn_ok(v):  # US SSN: structure rules (no checksum exists)
    m = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})", v)
    if not m:
        return False
    a, g, s = m.groups()
    return (
        a not in ("000", "666")
        and not a.startswith("9")
        and g != "00"
        and s != "0000"
        and v not in ("078-05-1120", "123-45-6789", "219-09-9999")
    )


def nino_ok(v):  # UK National Insurance number: format rules (no checksum exists)
    s = v.replace(" ", "").upper()
    m = re.fullmatch(r"([A-Z])([A-Z])\d{6}([A-D])", s)
    if not m:
        return False
    a, b = m.group(1), m.group(2)
    return a not in "DFIQUV" and b not in "DFIOQUV" and a + b not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


def national_id_problem(value, text):
    v = value.strip()
    digits = re.sub(r"[\s-]", "", v)
    low = text.lower()
    if re.fullmatch(r"\d{3}-\d{2}-\d{4}", v):
        return None if ssn_ok(v) else "invalid US SSN"
    if re.fullmatch(r"[A-Za-z]{2}[\s\d]{6,11}[A-Da-d]", v) and nino_ok(v):
        return None
    if re.fullmatch(r"\d{7}[A-Z]{1,2}", v):
        return None if pps_ok(v) else "PPS check letter wrong"
    if not digits.isdigit():
        return f"unrecognised national ID format: {value!r}"
    n = len(digits)
    if n == 10:
        return None if nhs_ok(digits) else "NHS number mod 11 fails"
    if n == 9 and ("tfn" in low or "tax file" in low):
        return None if tfn_ok(digits) else "TFN checksum fails"
    if n == 9 and re.search(r"\bsin\b|social insurance", low):
        return None if luhn_ok(digits) and digits[0] not in "08" else "SIN Luhn fails"
    if n == 13:
        return None if za_id_ok(digits) else "South African ID check fails"
    if n == 12:
        return None if digits[0] not in "01" and verhoeff_ok(digits) else "Aadhaar Verhoeff fails"
    if n == 11 and ("bvn" in low or "nin" in low):
        return None  # Nigerian BVN/NIN: no public checksum, 11 digits
    return f"unrecognised national ID format: {value!r}"


def passport_problem(value):
    v = value.replace(" ", "")
    if re.fullmatch(r"\d{9}", v):  # UK / US book number
        return None
    if re.fullmatch(r"[A-PR-WY][1-9]\d{6}", v):  # India: letter + 7 digits
        return None
    if re.fullmatch(r"P\d{7}[A-Z]", v):  # Philippines (new format)
        return None
    return f"unrecognised passport format: {value!r}"


# ---------------------------------------------------------------- main
def main():
    if not DATA.exists():
        print(f"missing {DATA.name}")
        print("errors: 1")
        return 1
    rows = []
    with DATA.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"line {n}: empty line")
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                err(f"line {n}: JSON error {e}")
                continue
            rows.append((n, obj))

    seen_texts = set()
    stats = defaultdict(
        lambda: {
            "texts": 0,
            "with_pii": 0,
            "without_pii": 0,
            "with_name": 0,
            "types": Counter(),
            "registers": Counter(),
            "reg_pii": Counter(),
            "reg_nopii": Counter(),
            "long": 0,
        }
    )
    for n, o in rows:
        if set(o) != {"lang", "register", "text", "pii"}:
            err(f"line {n}: keys {sorted(o)}")
            continue
        lang, reg, text, pii = o["lang"], o["register"], o["text"], o["pii"]
        if lang not in LANGS:
            err(f"line {n}: unknown lang {lang!r}")
        if reg not in REGISTERS:
            err(f"line {n}: unknown register {reg!r}")
        if not isinstance(text, str) or not text.strip():
            err(f"line {n}: empty text")
            continue
        if text in seen_texts:
            err(f"line {n}: duplicate text")
        seen_texts.add(text)
        words = len(text.split())
        if not MIN_WORDS <= words <= MAX_WORDS:
            err(f"line {n}: {words} words (want {MIN_WORDS}-{MAX_WORDS})")
        if not isinstance(pii, list):
            err(f"line {n}: pii is not a list")
            continue
        st = stats[lang]
        st["texts"] += 1
        st["registers"][reg] += 1
        if words >= 90:
            st["long"] += 1
        if pii:
            st["with_pii"] += 1
            st["reg_pii"][reg] += 1
        else:
            st["without_pii"] += 1
            st["reg_nopii"][reg] += 1
            # texts without personal data must not carry obvious identifiers
            if re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", text):
                err(f"line {n}: e-mail address in a text without personal data")
            if re.search(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,}", text):
                err(f"line {n}: IBAN-like string in a text without personal data")
        if any(p.get("type") == "REAL_NAME" for p in pii if isinstance(p, dict)):
            st["with_name"] += 1
        for p in pii:
            if not isinstance(p, dict) or set(p) != {"value", "type"}:
                err(f"line {n}: bad pii item {p!r}")
                continue
            v, ty = p["value"], p["type"]
            if ty not in TYPES:
                err(f"line {n}: unknown type {ty!r}")
                continue
            if not v or v != v.strip():
                err(f"line {n}: empty or untrimmed value {v!r}")
            if v not in text:
                err(f"line {n}: value not in text: {v!r}")
            st["types"][ty] += 1
            if ty == "IBAN":
                prob = iban_ok(v)
                if prob:
                    err(f"line {n}: {prob}: {v!r}")
            elif ty == "NATIONAL_ID":
                prob = national_id_problem(v, text)
                if prob:
                    err(f"line {n}: {prob}: {v!r}")
            elif ty == "PASSPORT":
                prob = passport_problem(v)
                if prob:
                    err(f"line {n}: {prob}")
            elif ty == "FINANCE":
                for run in re.findall(r"\d[\d ]{11,22}\d", v):
                    d = run.replace(" ", "")
                    if 13 <= len(d) <= 19 and not luhn_ok(d):
                        err(f"line {n}: card-like number fails Luhn: {run!r}")

    # per-language minimums
    for lang, st in sorted(stats.items()):
        tgt = TARGETS.get(lang, DEFAULT_TARGET)
        for k in ("texts", "with_pii", "without_pii"):
            if k in tgt and st[k] != tgt[k]:
                err(f"{lang}: {k} = {st[k]}, want {tgt[k]}")
        for ty in ("HEALTH", "FINANCE"):
            if st["types"][ty] < tgt[ty]:
                err(f"{lang}: {ty} = {st['types'][ty]}, want >= {tgt[ty]}")
        for ty in sorted(TYPES):
            if st["types"][ty] < 1:
                err(f"{lang}: no {ty} value")
        if st["with_name"] * 2 <= st["with_pii"]:
            err(f"{lang}: names in only {st['with_name']} of {st['with_pii']} texts with personal data")
        for reg in sorted(REGISTERS):
            if st["reg_pii"][reg] < 1 or st["reg_nopii"][reg] < 1:
                err(f"{lang}: register {reg} not mixed (with {st['reg_pii'][reg]}, without {st['reg_nopii'][reg]})")
        if st["long"] < 3:
            err(f"{lang}: only {st['long']} long texts (>= 90 words)")

    # report
    for lang, st in sorted(stats.items()):
        print(
            f"[{lang}] texts: {st['texts']} (with personal data: {st['with_pii']}, without: {st['without_pii']}, "
            f"with a name: {st['with_name']}, long: {st['long']})"
        )
        print(f"[{lang}] values: {sum(st['types'].values())}")
        for ty in sorted(TYPES):
            print(f"  {ty:<12} {st['types'][ty]}")
        print(f"[{lang}] registers: " + ", ".join(f"{r} {st['registers'][r]}" for r in sorted(REGISTERS)))
    for e in errors:
        print("ERROR:", e)
    print(f"errors: {len(errors)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
