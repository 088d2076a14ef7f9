#!/usr/bin/env python3
"""Validate pii_registers_ac.jsonl: parsing, spans, counts and checksums. Prints 'errors: N'."""

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
    iban_ok,
    luhn_ok,
    nhs_ok,
    nino_ok,
    report,
    ssn_ok,
    tfn_ok,
    verhoeff_ok,
)
from heldout_checks import ppsn_ok as pps_ok  # noqa: E402
from heldout_checks import za_id_ok as sa_id_ok  # noqa: E402

PATH = Path(__file__).with_name("pii_registers_ac.jsonl")
MIN_VALUES = {"HEALTH": 20, "FINANCE": 15}

errors = []


def err(line, msg):
    errors.append(f"line {line}: {msg}")


def digits(s):
    return re.sub(r"\D", "", s)


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
            if compact in SAMPLE_VALUES or digits(value) in SAMPLE_VALUES and len(digits(value)) >= 9:
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
    return report(errors)


if __name__ == "__main__":
    sys.exit(main())
