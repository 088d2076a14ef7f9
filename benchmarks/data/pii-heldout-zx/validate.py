#!/usr/bin/env python3
"""Validate pii_registers_zx.jsonl (or the file given: the English held-back sets zy and zz, written from the same
brief, are checked by this script too).

Checks: every line parses; required fields and allowed labels; every value
occurs verbatim in its text; text length 10-150 words; the minimum counts of
the brief; checksums / formats of identifiers; no well-known sample numbers.
Prints a table of counts and finally "errors: N".
"""

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

DATA = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("pii_registers_zx.jsonl")


sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/data: heldout_checks.py
from heldout_checks import REGISTERS, TYPES, luhn_ok, report, verhoeff_ok  # noqa: E402

# per-language expectations (only English is in this file; others kept for reuse)
EXPECT = {"en": {"texts": 120, "with": 60, "without": 60, "HEALTH": 20, "FINANCE": 15}}
OTHER_MIN = {"HEALTH": 8, "FINANCE": 6}

# widely published sample values that must never be used
BLACKLIST = {
    "GB29NWBK60161331926819",
    "GB82WEST12345698765432",
    "IE29AIBK93115212345678",
    "DE89370400440532013000",
    "9434765919",
    "4010232137",
    "078051120",
    "123456789",
    "219099999",
    "046454286",
    "123456782",
    "4111111111111111",
    "8001015009087",
    "999999990",
    "AAAPA1234A",
    "QQ123456C",
    "AB123456C",
}

errors = []


def err(msg):
    errors.append(msg)


def digits(s):
    return re.sub(r"\D", "", s)


# ---------------------------------------------------------------- checksums
def iban_ok(v):
    s = re.sub(r"\s", "", v).upper()
    lengths = {
        "GB": 22,
        "IE": 22,
        "DE": 22,
        "AT": 20,
        "CH": 21,
        "FR": 27,
        "BE": 16,
        "NL": 18,
        "ES": 24,
        "IT": 27,
        "PT": 25,
    }
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return False
    if s[:2] in lengths and len(s) != lengths[s[:2]]:
        return False
    n = int("".join(str(int(c, 36)) for c in s[4:] + s[:4]))
    return n % 97 == 1


def nhs_ok(v):
    d = digits(v)
    if len(d) != 10:
        return False
    s = sum(int(c) * w for c, w in zip(d[:9], range(10, 1, -1)))
    chk = 11 - s % 11
    if chk == 11:
        chk = 0
    return chk != 10 and chk == int(d[9])


def ssn_ok(v):
    m = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})", v)
    if not m:
        return False
    a, g, s = m.groups()
    return a not in ("000", "666") and not a.startswith("9") and g != "00" and s != "0000"


def sin_ok(v):
    d = digits(v)
    return len(d) == 9 and d[0] not in "08" and luhn_ok(d)


def tfn_ok(v):
    d = digits(v)
    w = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    return len(d) == 9 and sum(int(c) * x for c, x in zip(d, w)) % 11 == 0


def ppsn_ok(v):
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", v.replace(" ", "").upper())
    if not m:
        return False
    num, chk, extra = m.groups()
    s = sum(int(c) * w for c, w in zip(num, range(8, 1, -1)))
    if extra:
        s += 9 * (0 if extra == "W" else ord(extra) - 64)
    r = s % 23
    return chk == ("W" if r == 0 else chr(64 + r))


def za_id_ok(v):
    d = digits(v)
    if len(d) != 13 or not luhn_ok(d):
        return False
    mm, dd = int(d[2:4]), int(d[4:6])
    return 1 <= mm <= 12 and 1 <= dd <= 31 and d[10] in "01"


def aadhaar_ok(v):
    d = digits(v)
    if len(d) != 12 or d[0] in "01":
        return False
    return verhoeff_ok(d)


def pan_ok(v):
    return re.fullmatch(r"[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]", v) is not None


def nino_ok(v):
    s = v.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{6}[A-D]", s):
        return False
    a, b = s[0], s[1]
    if a in "DFIQUV" or b in "DFIQUVO":
        return False
    return s[:2] not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


# which scheme a NATIONAL_ID belongs to is decided from words in its text
ID_SCHEMES = [
    (r"\bNHS\b", "NHS number", nhs_ok),
    (r"\bSSN\b|Social Security|\bmy social\b", "US SSN", ssn_ok),
    (r"Social Insurance|\bSIN\b", "Canadian SIN (Luhn)", sin_ok),
    (r"\bTFN\b|tax file", "Australian TFN", tfn_ok),
    (r"\bPPS", "Irish PPSN", ppsn_ok),
    (r"Aadhaar", "Aadhaar (Verhoeff)", aadhaar_ok),
    (r"\bPAN\b", "Indian PAN (format)", pan_ok),
    (r"\bNI number|National Insurance", "UK NINO (format)", nino_ok),
    (r"\bID number\b|\bID no\b", "South African ID (Luhn)", za_id_ok),
    # schemes without a public check digit: the format only
    (r"\bNIN\b|\bBVN\b", "Nigerian NIN or BVN (format)", lambda v: bool(re.fullmatch(r"\d{11}", v.replace(" ", "")))),
    (r"\bSSS\b", "Philippine SSS number (format)", lambda v: bool(re.fullmatch(r"\d{2}-\d{7}-\d", v))),
    (r"PhilHealth", "PhilHealth PIN (format)", lambda v: bool(re.fullmatch(r"\d{2}-\d{9}-\d", v))),
    (r"Centrelink|\bCRN\b", "Centrelink CRN (format)", lambda v: bool(re.fullmatch(r"\d{3} ?\d{3} ?\d{3}[A-Z]", v))),
]


def check_national_id(value, text):
    for pat, name, fn in ID_SCHEMES:
        if re.search(pat, text):
            # several schemes may be named in one text: accept the one that fits
            if fn(value):
                return name
    return None


def passport_ok(v):
    s = v.replace(" ", "").upper()
    return bool(re.fullmatch(r"[A-Z]\d{7}|[A-Z]{2}\d{7}|\d{9}|[A-Z]{2}\d{6}|P\d{7}[A-Z]", s))


# ---------------------------------------------------------------- main
def main():
    per_lang = defaultdict(lambda: {"texts": 0, "with": 0, "without": 0, "types": Counter(), "registers": Counter()})
    schemes = Counter()
    seen_texts = set()
    with DATA.open(encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            err(f"line {n}: empty line")
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            err(f"line {n}: JSON error {e}")
            continue
        if set(rec) != {"lang", "register", "text", "pii"}:
            err(f"line {n}: keys {sorted(rec)}")
            continue
        lang, reg, text, pii = rec["lang"], rec["register"], rec["text"], rec["pii"]
        if not isinstance(text, str) or not text.strip():
            err(f"line {n}: empty text")
            continue
        if text in seen_texts:
            err(f"line {n}: duplicate text")
        seen_texts.add(text)
        if reg not in REGISTERS:
            err(f"line {n}: unknown register {reg!r}")
        words = len(text.split())
        if not 10 <= words <= 150:
            err(f"line {n}: {words} words (must be 10-150)")
        st = per_lang[lang]
        st["texts"] += 1
        st["registers"][reg] += 1
        if not isinstance(pii, list):
            err(f"line {n}: pii is not a list")
            continue
        st["with" if pii else "without"] += 1
        for item in pii:
            if not isinstance(item, dict) or set(item) != {"value", "type"}:
                err(f"line {n}: bad pii item {item!r}")
                continue
            v, t = item["value"], item["type"]
            if t not in TYPES:
                err(f"line {n}: unknown type {t!r}")
                continue
            if not v or v != v.strip():
                err(f"line {n}: empty or untrimmed value {v!r}")
            if v not in text:
                err(f"line {n}: value not in text: {v!r}")
            st["types"][t] += 1
            compact = re.sub(r"[\s\-]", "", v).upper()
            if compact in BLACKLIST or digits(v) in BLACKLIST and len(digits(v)) >= 9:
                err(f"line {n}: well-known sample value {v!r}")
            if t == "IBAN" and not iban_ok(v):
                err(f"line {n}: IBAN fails mod 97 / length: {v!r}")
            elif t == "NATIONAL_ID":
                scheme = check_national_id(v, text)
                if scheme is None:
                    err(f"line {n}: NATIONAL_ID fails its checksum or scheme unknown: {v!r}")
                else:
                    schemes[scheme] += 1
            elif t == "PASSPORT" and not passport_ok(v):
                err(f"line {n}: PASSPORT format: {v!r}")
            elif t == "EMAIL" and not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", v):
                err(f"line {n}: EMAIL format: {v!r}")
            elif t == "PHONE" and len(digits(v)) < 7:
                err(f"line {n}: PHONE too short: {v!r}")

    # counts required by the brief
    for lang, st in sorted(per_lang.items()):
        exp = EXPECT.get(lang)
        if exp:
            for k in ("texts", "with", "without"):
                if st[k] != exp[k]:
                    err(f"{lang}: {k} = {st[k]}, expected {exp[k]}")
            mins = {"HEALTH": exp["HEALTH"], "FINANCE": exp["FINANCE"]}
        else:
            mins = OTHER_MIN
        for t, m in mins.items():
            if st["types"][t] < m:
                err(f"{lang}: {t} = {st['types'][t]}, need >= {m}")
        for t in TYPES:
            if st["types"][t] == 0:
                err(f"{lang}: no value of type {t}")
        for r in REGISTERS:
            if st["registers"][r] == 0:
                err(f"{lang}: no text in register {r}")

    # report
    for lang, st in sorted(per_lang.items()):
        print(f"[{lang}] texts: {st['texts']} (with personal data: {st['with']}, without: {st['without']})")
        print("  values by type:")
        for t in TYPES:
            print(f"    {t:<12} {st['types'][t]}")
        print(f"    {'total':<12} {sum(st['types'].values())}")
        print("  registers: " + ", ".join(f"{r} {c}" for r, c in sorted(st["registers"].items())))
    if schemes:
        print("national IDs checked: " + ", ".join(f"{k} {v}" for k, v in sorted(schemes.items())))
    return report(errors, "ERROR: ")


if __name__ == "__main__":
    sys.exit(main())
