#!/usr/bin/env python3
"""Validate pii_registers_ac.jsonl: parsing, spans, counts and checksums. Prints 'errors: N'."""

import json
import re
import sys
from collections import Counter
from pathlib import Path

PATH = Path(__file__).with_name("pii_registers_ac.jsonl")
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
MIN_VALUES = {"HEALTH": 20, "FINANCE": 15}
# well-known sample / test values that must not appear
SAMPLES = {
    "078051120",
    "123456789",
    "219099999",
    "9434765919",
    "046454286",
    "123456782",
    "GB82WEST12345698765432",
    "GB29NWBK60161331926819",
    "IE29AIBK93115212345678",
    "QQ123456C",
    "AB123456C",
    "499273987",
}

errors = []


def err(line, msg):
    errors.append(f"line {line}: {msg}")


def digits(s):
    return re.sub(r"\D", "", s)


def luhn_ok(num):
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def iban_ok(value):
    s = value.replace(" ", "").upper()
    lengths = {"GB": 22, "IE": 22}
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return False
    if s[:2] in lengths and len(s) != lengths[s[:2]]:
        return False
    moved = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def nhs_ok(num):
    total = sum(int(c) * w for c, w in zip(num[:9], range(10, 1, -1)))
    check = 11 - total % 11
    if check == 11:
        check = 0
    return check != 10 and check == int(num[9])


def tfn_ok(num):
    weights = [1, 4, 3, 7, 5, 8, 6, 9, 10]
    return sum(int(c) * w for c, w in zip(num, weights)) % 11 == 0


def pps_ok(value):
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", value.replace(" ", "").upper())
    if not m:
        return False
    total = sum(int(c) * w for c, w in zip(m.group(1), range(8, 1, -1)))
    if m.group(3) and m.group(3) != "W":
        total += (ord(m.group(3)) - 64) * 9
    return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == m.group(2)


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
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]


def verhoeff_ok(num):
    c = 0
    for i, ch in enumerate(reversed(num)):
        c = _D[c][_P[i % 8][int(ch)]]
    return c == 0


def ssn_ok(value):
    m = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})", value)
    if not m:
        return False
    area, group, serial = m.groups()
    return area not in ("000", "666") and not area.startswith("9") and group != "00" and serial != "0000"


def sa_id_ok(num):
    mm, dd = int(num[2:4]), int(num[4:6])
    return 1 <= mm <= 12 and 1 <= dd <= 31 and num[10] in "01" and luhn_ok(num)


def nino_ok(value):
    s = value.replace(" ", "").upper()
    if not re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", s):
        return False
    return s[:2] not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


def check_national_id(line, value, text):
    """Recognise the identifier by its shape (and a keyword in the text where shapes collide)."""
    d = digits(value)
    if re.fullmatch(r"\d{3}-\d{2}-\d{4}", value):
        ok, kind = ssn_ok(value), "US SSN"
    elif re.fullmatch(r"\d{2}-\d{7}-\d", value):
        ok, kind = True, "PH SSS number (format only, no public checksum)"
    elif re.fullmatch(r"\d{7}[A-W][A-IW]?", value.replace(" ", "")):
        ok, kind = pps_ok(value), "IE PPS number"
    elif re.fullmatch(r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]", value):
        ok, kind = nino_ok(value), "UK National Insurance number (format)"
    elif len(d) == 10 and "NHS" in text:
        ok, kind = nhs_ok(d), "NHS number"
    elif len(d) == 9 and "TFN" in text:
        ok, kind = tfn_ok(d), "AU TFN"
    elif len(d) == 9 and "SIN" in text:
        ok, kind = luhn_ok(d) and d[0] not in "08", "CA SIN"
    elif len(d) == 12 and "Aadhaar" in text:
        ok, kind = verhoeff_ok(d) and d[0] not in "01", "Aadhaar"
    elif len(d) == 13 and "ID" in text:
        ok, kind = sa_id_ok(d), "SA ID number"
    else:
        err(line, f"NATIONAL_ID of unknown format: {value!r}")
        return
    if not ok:
        err(line, f"{kind} fails its check: {value!r}")


def main():
    type_counts = Counter()
    registers = Counter()
    with_pii = without_pii = with_name = 0
    lines = PATH.read_text(encoding="utf-8").splitlines()
    for n, raw in enumerate(lines, 1):
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            err(n, f"invalid JSON: {e}")
            continue
        if set(obj) != {"lang", "register", "text", "pii"}:
            err(n, f"unexpected keys {sorted(obj)}")
            continue
        text, pii = obj["text"], obj["pii"]
        if obj["lang"] != "en":
            err(n, f"lang {obj['lang']!r} (this set is English only)")
        if obj["register"] not in REGISTERS:
            err(n, f"unknown register {obj['register']!r}")
        registers[obj["register"]] += 1
        words = len(text.split())
        if not 10 <= words <= 150:
            err(n, f"length {words} words outside 10-150")
        if not isinstance(pii, list):
            err(n, "pii is not a list")
            continue
        if pii:
            with_pii += 1
        else:
            without_pii += 1
        if any(p.get("type") == "REAL_NAME" for p in pii):
            with_name += 1
        seen = set()
        for p in pii:
            value, typ = p.get("value"), p.get("type")
            if set(p) != {"value", "type"} or not isinstance(value, str) or not value:
                err(n, f"malformed pii entry {p}")
                continue
            if typ not in TYPES:
                err(n, f"unknown type {typ!r}")
            if value not in text:
                err(n, f"value not in text: {value!r}")
            if value != value.strip():
                err(n, f"value has outer whitespace: {value!r}")
            if (value, typ) in seen:
                err(n, f"duplicate entry {value!r}")
            seen.add((value, typ))
            type_counts[typ] += 1
            compact = value.replace(" ", "").replace("-", "").upper()
            if compact in SAMPLES or digits(value) in SAMPLES and len(digits(value)) >= 9:
                err(n, f"well-known sample value {value!r}")
            if typ == "IBAN" and not iban_ok(value):
                err(n, f"IBAN fails mod 97: {value!r}")
            elif typ == "NATIONAL_ID":
                check_national_id(n, value, text)
            elif typ == "EMAIL" and not re.fullmatch(r"[\w.+-]+@[\w-]+(\.[\w-]+)+", value):
                err(n, f"bad e-mail {value!r}")
            elif typ == "PHONE" and len(digits(value)) < 7:
                err(n, f"phone too short {value!r}")
            elif typ == "URL" and not re.match(r"https?://", value):
                err(n, f"URL without scheme {value!r}")

    total = len(lines)
    if total != 120:
        err("-", f"{total} texts, expected 120")
    if with_pii != 60 or without_pii != 60:
        err("-", f"{with_pii} with / {without_pii} without personal data, expected 60/60")
    for typ, minimum in MIN_VALUES.items():
        if type_counts[typ] < minimum:
            err("-", f"{typ}: {type_counts[typ]} values, need >= {minimum}")
    for typ in TYPES:
        if type_counts[typ] < 1:
            err("-", f"type {typ} never used")
    if with_name * 2 <= with_pii:
        err("-", f"names in only {with_name} of {with_pii} texts with personal data")
    missing = REGISTERS - set(registers)
    if missing:
        err("-", f"registers never used: {sorted(missing)}")

    print(f"texts: {total} (with personal data {with_pii}, without {without_pii}, with a name {with_name})")
    print("registers: " + ", ".join(f"{r} {c}" for r, c in sorted(registers.items())))
    print(
        "values: "
        + ", ".join(f"{t} {c}" for t, c in sorted(type_counts.items()))
        + f" (total {sum(type_counts.values())})"
    )
    for e in errors:
        print(e)
    print(f"errors: {len(errors)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
