#!/usr/bin/env python3
"""Validate pii_registers_zy.jsonl: parsing, verbatim values, counts, checksums.

Usage: python3 validate.py [path]   (default: pii_registers_zy.jsonl next to this file)
Prints a summary table and, last, "errors: N".
"""

import json
import os
import re
import sys
from collections import Counter, defaultdict
from datetime import date

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "pii_registers_zy.jsonl")

TYPES = [
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
]
REGISTERS = ["chat", "forum", "email", "review", "social", "notice", "ticket", "voice_message", "letter", "diary"]
# Per-language targets. Only English is in this file; the others are kept for later use.
TARGETS = {"en": {"texts": 120, "with": 60, "without": 60, "HEALTH": 20, "FINANCE": 15}}
DEFAULT_TARGET = {"HEALTH": 8, "FINANCE": 6}
MIN_WORDS, MAX_WORDS = 10, 150
# Widely published sample / test values that must not be used.
BLACKLIST = {
    "GB82WEST12345698765432",
    "GB29NWBK60161331926819",
    "GB33BUKB20201555555555",
    "IE29AIBK93115212345678",
    "DE89370400440532013000",
    "078-05-1120",
    "123-45-6789",
    "046 454 286",
    "943 476 5919",
    "9434765919",
    "4111111111111111",
    "8001015009087",
}

errors = []


def err(lineno, msg):
    errors.append(f"line {lineno}: {msg}")


# ---------------------------------------------------------------- checksums
def iban_ok(s):
    s = s.replace(" ", "")
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
        "LU": 20,
    }
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return False, "bad IBAN shape"
    if s[:2] in lengths and len(s) != lengths[s[:2]]:
        return False, f"IBAN length {len(s)} wrong for {s[:2]}"
    n = int("".join(str(int(c, 36)) for c in s[4:] + s[:4]))
    return (n % 97 == 1), "IBAN mod 97 fails"


def luhn_ok(digits):
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


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
    [9, 4, 5, 8, 7, 3, 0, 6, 1, 2],
    [4, 2, 8, 9, 1, 7, 5, 3, 6, 0],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]


def verhoeff_ok(digits):
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VD[c][_VP[i % 8][int(ch)]]
    return c == 0


def nhs_ok(d):
    s = sum(int(x) * w for x, w in zip(d[:9], range(10, 1, -1)))
    c = 11 - s % 11
    if c == 11:
        c = 0
    return c != 10 and c == int(d[9])


def ppsn_ok(v):
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", v)
    s = sum(int(x) * w for x, w in zip(m.group(1), range(8, 1, -1)))
    if m.group(3) and m.group(3) != "W":
        s += (ord(m.group(3)) - 64) * 9
    r = s % 23
    return m.group(2) == ("W" if r == 0 else chr(64 + r))


def sa_id_ok(d):
    yy, mm, dd = int(d[0:2]), int(d[2:4]), int(d[4:6])
    try:
        date(1900 + yy, mm, dd)
    except ValueError:
        return False
    return d[10] in "01" and luhn_ok(d)


def ssn_ok(v):
    a, g, s = v.split("-")
    return a not in ("000", "666") and not a.startswith("9") and g != "00" and s != "0000"


# (name, pattern, check or None when the scheme has no public check digit)
NATIONAL_ID_SCHEMES = [
    ("UK NHS number", r"\d{3} \d{3} \d{4}", lambda v: nhs_ok(v.replace(" ", ""))),
    ("US SSN", r"\d{3}-\d{2}-\d{4}", ssn_ok),
    ("Canadian SIN", r"\d{3} \d{3} \d{3}", lambda v: v[0] not in "08" and luhn_ok(v.replace(" ", ""))),
    ("South African ID", r"\d{13}", sa_id_ok),
    ("Indian Aadhaar", r"[2-9]\d{3} \d{4} \d{4}", lambda v: verhoeff_ok(v.replace(" ", ""))),
    ("Irish PPSN", r"\d{7}[A-W][A-IW]?", ppsn_ok),
    ("Indian PAN", r"[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]", None),
    ("Nigerian NIN", r"\d{11}", None),
    ("Philippine SSS number", r"\d{2}-\d{7}-\d", None),
    ("PhilHealth PIN", r"\d{2}-\d{9}-\d", None),
    ("Centrelink CRN", r"\d{3} \d{3} \d{3}[A-Z]", None),
]
PASSPORT_PATTERNS = [r"\d{9}", r"[A-Z]\d{7}", r"P\d{7}[A-Z]", r"[A-Z]{2}\d{7}"]


def check_value(lineno, v, t):
    if v in BLACKLIST or v.replace(" ", "") in BLACKLIST:
        err(lineno, f"well-known sample value used: {v!r}")
    if t == "IBAN":
        ok, why = iban_ok(v)
        if not ok:
            err(lineno, f"{why}: {v!r}")
    elif t == "NATIONAL_ID":
        for name, pat, check in NATIONAL_ID_SCHEMES:
            if re.fullmatch(pat, v):
                if check is not None and not check(v):
                    err(lineno, f"{name} checksum/validity fails: {v!r}")
                return name
        err(lineno, f"NATIONAL_ID matches no known scheme: {v!r}")
    elif t == "PASSPORT":
        if not any(re.fullmatch(p, v) for p in PASSPORT_PATTERNS):
            err(lineno, f"passport number has an unexpected shape: {v!r}")
    elif t == "EMAIL":
        if not re.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", v):
            err(lineno, f"bad email: {v!r}")
    elif t == "PHONE":
        n = len(re.sub(r"\D", "", v))
        if not 7 <= n <= 15:
            err(lineno, f"phone has {n} digits: {v!r}")
    elif t == "URL":
        if not re.match(r"(https?://)?[\w.-]+\.[a-z]{2,}/\S+", v):
            err(lineno, f"bad URL: {v!r}")
    return None


# ---------------------------------------------------------------- main pass
texts = Counter()
with_pii = Counter()
values = defaultdict(Counter)  # lang -> type -> count
texts_with_type = defaultdict(Counter)  # lang -> type -> number of texts
reg_split = defaultdict(Counter)  # lang -> (register, has_pii) -> count
id_schemes = Counter()

with open(PATH, encoding="utf-8") as fh:
    for lineno, line in enumerate(fh, 1):
        if not line.strip():
            err(lineno, "empty line")
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            err(lineno, f"JSON does not parse: {e}")
            continue
        if set(rec) != {"lang", "register", "text", "pii"}:
            err(lineno, f"unexpected keys {sorted(rec)}")
            continue
        lang, reg, text, pii = rec["lang"], rec["register"], rec["text"], rec["pii"]
        if not (isinstance(lang, str) and re.fullmatch(r"[a-z]{2}", lang)):
            err(lineno, f"bad lang {lang!r}")
        if reg not in REGISTERS:
            err(lineno, f"unknown register {reg!r}")
        if not isinstance(text, str) or not text.strip():
            err(lineno, "empty text")
            continue
        nwords = len(text.split())
        if not MIN_WORDS <= nwords <= MAX_WORDS:
            err(lineno, f"text has {nwords} words (want {MIN_WORDS}-{MAX_WORDS})")
        if not isinstance(pii, list):
            err(lineno, "pii is not a list")
            continue
        texts[lang] += 1
        reg_split[lang][(reg, bool(pii))] += 1
        if pii:
            with_pii[lang] += 1
        seen = set()
        for item in pii:
            if not isinstance(item, dict) or set(item) != {"value", "type"}:
                err(lineno, f"bad pii item {item!r}")
                continue
            v, t = item["value"], item["type"]
            if t not in TYPES:
                err(lineno, f"unknown type {t!r}")
            if not isinstance(v, str) or not v.strip() or v != v.strip():
                err(lineno, f"empty or untrimmed value {v!r}")
                continue
            if v not in text:
                err(lineno, f"value not verbatim in text: {v!r}")
            if (v, t) in seen:
                err(lineno, f"duplicate value {v!r}")
            seen.add((v, t))
            values[lang][t] += 1
            scheme = check_value(lineno, v, t)
            if scheme:
                id_schemes[scheme] += 1
        for t in {t for _, t in seen}:
            texts_with_type[lang][t] += 1
        # IBAN-looking strings must be labelled, and every long digit run must
        # not look like an unlabelled card number.
        labelled = {v for v, _ in seen}
        for m in re.finditer(r"\b[A-Z]{2}\d{2}[A-Z]{4}\d{10,}\b", text):
            if m.group(0) not in labelled:
                err(lineno, f"unlabelled IBAN-like string {m.group(0)!r}")

# ---------------------------------------------------------------- count checks
for lang in sorted(texts):
    tgt = TARGETS.get(lang, DEFAULT_TARGET)
    without = texts[lang] - with_pii[lang]
    for key, have in (("texts", texts[lang]), ("with", with_pii[lang]), ("without", without)):
        if key in tgt and have != tgt[key]:
            err(0, f"[{lang}] {key}: have {have}, want {tgt[key]}")
    for t in ("HEALTH", "FINANCE"):
        if values[lang][t] < tgt[t]:
            err(0, f"[{lang}] {t}: have {values[lang][t]}, want >= {tgt[t]}")
    if lang == "en":  # every type exists for English writers
        for t in TYPES:
            if values[lang][t] < 1:
                err(0, f"[{lang}] no {t} value")
    if texts_with_type[lang]["REAL_NAME"] * 2 <= with_pii[lang]:
        err(
            0,
            f"[{lang}] names in only {texts_with_type[lang]['REAL_NAME']} of {with_pii[lang]} texts with personal data",
        )
    for reg in REGISTERS:
        for has in (True, False):
            if reg_split[lang][(reg, has)] == 0:
                err(0, f"[{lang}] register {reg} has no text {'with' if has else 'without'} personal data")

# ---------------------------------------------------------------- report
for lang in sorted(texts):
    print(
        f"[{lang}] texts: {texts[lang]} (with personal data: {with_pii[lang]}, without: {texts[lang] - with_pii[lang]})"
    )
    print(f"[{lang}] values: {sum(values[lang].values())}")
    for t in TYPES:
        print(f"  {t:<12} {values[lang][t]:>3} values in {texts_with_type[lang][t]:>3} texts")
    print(
        f"[{lang}] registers (with/without): "
        + ", ".join(f"{r} {reg_split[lang][(r, True)]}/{reg_split[lang][(r, False)]}" for r in REGISTERS)
    )
if id_schemes:
    print("national ID schemes: " + ", ".join(f"{k} {v}" for k, v in sorted(id_schemes.items())))
for e in errors:
    print(e)
print(f"errors: {len(errors)}")
sys.exit(1 if errors else 0)
