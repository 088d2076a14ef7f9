#!/usr/bin/env python3
"""Validate the pii-heldout-zw test set. Prints 'errors: N'. MIT licence."""

import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
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
LANGS = ["fr", "it"]


# ---------------------------------------------------------------- checksums
def digits(s):
    return re.sub(r"\D", "", s)


IBAN_LEN = {
    "DE": 22,
    "AT": 20,
    "CH": 21,
    "FR": 27,
    "BE": 16,
    "ES": 24,
    "IT": 27,
    "NL": 18,
    "PT": 25,
    "GB": 22,
    "IE": 22,
    "LU": 20,
}


def iban_mod97(s):
    s = s.replace(" ", "").upper()
    r = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


ES_W = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]


def es_dc(ten):
    d = 11 - sum(int(a) * w for a, w in zip(ten, ES_W)) % 11
    return {11: 0, 10: 1}.get(d, d)


CF_ODD = dict(
    zip(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        [
            1,
            0,
            5,
            7,
            9,
            13,
            15,
            17,
            19,
            21,
            1,
            0,
            5,
            7,
            9,
            13,
            15,
            17,
            19,
            21,
            2,
            4,
            18,
            20,
            11,
            3,
            6,
            8,
            12,
            14,
            16,
            10,
            22,
            25,
            24,
            23,
        ],
    )
)


def cf_even(c):
    return int(c) if c.isdigit() else ord(c) - 65


def cin_or_cf_check(s):
    t = sum(CF_ODD[c] if i % 2 == 0 else cf_even(c) for i, c in enumerate(s))
    return chr(65 + t % 26)


def iban_national(s):
    """Extra national checks inside the BBAN where there is a simple public rule."""
    s = s.replace(" ", "").upper()
    cc, b = s[:2], s[4:]
    if cc == "ES":
        return int(b[8]) == es_dc("00" + b[:8]) and int(b[9]) == es_dc(b[10:20])
    if cc == "FR":
        bank, gui, acc, key = int(b[:5]), int(b[5:10]), int(b[10:21]), int(b[21:23])
        return key == 97 - (89 * bank + 15 * gui + 3 * acc) % 97
    if cc == "BE":
        m = int(b[:10]) % 97
        return int(b[10:]) == (m or 97)
    if cc == "PT":
        return int(b[19:21]) == 98 - (int(b[:19]) * 100) % 97
    if cc == "IT":
        return b[0] == cin_or_cf_check(b[1:])
    if cc == "NL" and b[:4] in ("RABO", "ABNA"):
        return sum(int(d) * (10 - i) for i, d in enumerate(b[4:])) % 11 == 0
    return True


def check_iban(v):
    s = v.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return "bad IBAN shape"
    if IBAN_LEN.get(s[:2]) != len(s):
        return "bad IBAN length/country"
    if not iban_mod97(s):
        return "IBAN mod 97 fails"
    if not iban_national(s):
        return "IBAN national check fails"
    return None


def luhn(num):
    t = 0
    for i, d in enumerate(reversed(num)):
        d = int(d)
        if i % 2:
            d *= 2
            if d > 9:
                d -= 9
        t += d
    return t % 10 == 0


def steuer_id(d):
    if len(d) != 11 or d[0] == "0":
        return False
    c = Counter(d[:10])
    multi = [k for k, n in c.items() if n > 1]
    if len(multi) != 1 or c[multi[0]] not in (2, 3):
        return False
    p = 10
    for ch in d[:10]:
        s = (int(ch) + p) % 10 or 10
        p = (s * 2) % 11
    chk = 11 - p
    return (0 if chk == 10 else chk) == int(d[10])


def nir(d):
    return len(d) == 15 and d[0] in "12" and int(d[13:]) == 97 - int(d[:13]) % 97


DNI_L = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni(v):
    v = v.replace("-", "").replace(" ", "").upper()
    m = re.fullmatch(r"([XYZ]?)(\d{7,8})([A-Z])", v)
    if not m:
        return False
    n = int(str("XYZ".index(m.group(1))) + m.group(2)) if m.group(1) else int(m.group(2))
    return DNI_L[n % 23] == m.group(3)


CF_MONTHS = "ABCDEHLMPRST"


def codice_fiscale(v):
    v = v.upper()
    if not re.fullmatch(r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", v):
        return False
    if v[8] not in CF_MONTHS:
        return False
    day = int(v[9:11])
    if not (1 <= day <= 31 or 41 <= day <= 71):
        return False
    return cin_or_cf_check(v[:15]) == v[15]


def bsn(d):
    return len(d) == 9 and (sum(int(x) * w for x, w in zip(d[:8], range(9, 1, -1))) - int(d[8])) % 11 == 0


def nif_pt(d):
    if len(d) != 9 or d[0] not in "123":
        return False
    s = sum(int(x) * w for x, w in zip(d[:8], range(9, 1, -1)))
    c = 11 - s % 11
    return (0 if c >= 10 else c) == int(d[8])


def cpf(d):
    if len(d) != 11 or len(set(d)) == 1:
        return False
    for n in (9, 10):
        s = sum(int(x) * w for x, w in zip(d[:n], range(n + 1, 1, -1)))
        c = (s * 10) % 11 % 10
        if c != int(d[n]):
            return False
    return True


def nhs(d):
    if len(d) != 10:
        return False
    c = 11 - sum(int(x) * w for x, w in zip(d[:9], range(10, 1, -1))) % 11
    c = 0 if c == 11 else c
    return c != 10 and c == int(d[9])


WELL_KNOWN = {
    "078051120",
    "123456789",
    "219099999",
    "457555462",
    "9434765919",
    "4010232137",
    "DE89370400440532013000",
    "GB29NWBK60161331926819",
    "FR1420041010050500013M02606",
    "NL91ABNA0417164300",
    "ES9121000418450200051332",
    "IT60X0542811101000000123456",
    "BE68539007547034",
    "CH9300762011623852957",
    "AT611904300234573201",
    "PT50000201231234567890154",
    "RSSMRA85T10A562S",
    "12345678Z",
    "11144477735",
    "12345678901",
    "4111111111111111",
    "999999990",
    "111222333",
    "123456782",
}


def ssn(v):
    m = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})", v)
    if not m:
        return False
    a, g, s = m.groups()
    return a not in ("000", "666") and a[0] != "9" and g != "00" and s != "0000"


def be_nn(d):
    if len(d) != 11:
        return False
    c = int(d[9:])
    return c == 97 - int(d[:9]) % 97 or c == 97 - int("2" + d[:9]) % 97


def ean13(d):
    if len(d) != 13:
        return False
    s = sum(int(x) * (3 if i % 2 else 1) for i, x in enumerate(d[:12]))
    return (10 - s % 10) % 10 == int(d[12])


def at_svnr(d):
    if len(d) != 10 or d[0] == "0":
        return False
    w = [3, 7, 9, 0, 5, 8, 4, 2, 1, 6]
    c = sum(int(x) * y for x, y in zip(d, w)) % 11
    return c != 10 and c == int(d[3])


def check_national_id(v, lang):
    """Dispatch on the shape of the number. Returns an error string or None."""
    d = digits(v)
    if d in WELL_KNOWN or v.replace(" ", "").upper() in WELL_KNOWN:
        return "well-known sample value"
    if re.fullmatch(r"\d{3}-\d{2}-\d{4}", v):
        return None if ssn(v) else "invalid SSN"
    if re.fullmatch(r"[A-Za-z]{6}\d{2}[A-Za-z]\d{2}[A-Za-z]\d{3}[A-Za-z]", v):
        return None if codice_fiscale(v) else "invalid codice fiscale"
    if re.fullmatch(r"[XYZxyz]?-?\d{7,8}-?[A-Za-z]", v.replace(" ", "")):
        return None if dni(v) else "invalid DNI/NIE"
    if re.fullmatch(r"\d{3}\.\d{3}\.\d{3}-\d{2}", v):
        return None if cpf(d) else "invalid CPF"
    if re.fullmatch(r"756\.\d{4}\.\d{4}\.\d{2}", v):
        return None if ean13(d) else "invalid AHV number"
    if re.fullmatch(r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", v):
        return None if be_nn(d) else "invalid Belgian national number"
    if re.fullmatch(r"\d{4} ?\d{6}", v) and lang == "de":
        return None if at_svnr(d) else "invalid Austrian SVNR"
    if re.fullmatch(r"[12] ?\d{2} ?\d{2} ?\d{2} ?\d{3} ?\d{3} ?\d{2}", v):
        return None if nir(d) else "invalid NIR"
    if lang == "de" and re.fullmatch(r"\d{2} ?\d{3} ?\d{3} ?\d{3}", v):
        return None if steuer_id(d) else "invalid Steuer-ID"
    if lang == "en" and re.fullmatch(r"\d{3} \d{3} \d{4}", v):
        return None if nhs(d) else "invalid NHS number"
    if lang == "en" and re.fullmatch(r"\d{3}[ -]\d{3}[ -]\d{3}", v):
        return None if luhn(d) else "invalid SIN (Luhn)"
    if lang == "nl" and re.fullmatch(r"\d{4}\.?\d{2}\.?\d{3}|\d{9}", v):
        return None if bsn(d) else "invalid BSN"
    if lang == "pt" and re.fullmatch(r"\d{3} ?\d{3} ?\d{3}", v):
        return None if nif_pt(d) else "invalid NIF"
    return "unrecognised national-id shape: " + v


# ---------------------------------------------------------------- file checks
def load(path, errors):
    rows = []
    if not os.path.exists(path):
        errors.append(f"{os.path.basename(path)}: missing")
        return rows
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                errors.append(f"{os.path.basename(path)}:{n}: empty line")
                continue
            try:
                r = json.loads(line)
            except Exception as e:
                errors.append(f"{os.path.basename(path)}:{n}: bad JSON {e}")
                continue
            r["_where"] = f"{os.path.basename(path)}:{n}"
            rows.append(r)
    return rows


def check_row(r, errors):
    w = r["_where"]
    for k in ("lang", "register", "text", "pii"):
        if k not in r:
            errors.append(f"{w}: missing key {k}")
            return
    if set(r) - {"lang", "register", "text", "pii", "_where"}:
        errors.append(f"{w}: extra keys")
    if r["register"] not in REGISTERS:
        errors.append(f"{w}: unknown register {r['register']}")
    nw = len(r["text"].split())
    if not 10 <= nw <= 150:
        errors.append(f"{w}: {nw} words")
    seen = set()
    for p in r["pii"]:
        if set(p) != {"value", "type"}:
            errors.append(f"{w}: bad pii item {p}")
            continue
        v, t = p["value"], p["type"]
        if t not in TYPES:
            errors.append(f"{w}: unknown type {t}")
        if not v or v != v.strip():
            errors.append(f"{w}: empty or padded value {v!r}")
        if v not in r["text"]:
            errors.append(f"{w}: value not in text: {v!r}")
        if (v, t) in seen:
            errors.append(f"{w}: duplicate value {v!r}")
        seen.add((v, t))
        if t == "IBAN":
            e = check_iban(v)
            if e:
                errors.append(f"{w}: {e}: {v}")
            elif v.replace(" ", "").upper() in WELL_KNOWN:
                errors.append(f"{w}: well-known sample IBAN {v}")
        if t == "NATIONAL_ID":
            e = check_national_id(v, r["lang"])
            if e:
                errors.append(f"{w}: {e}: {v}")


def check_group(rows, lang, n_total, min_health, min_finance, errors):
    rs = [r for r in rows if r.get("lang") == lang]
    pos = [r for r in rs if r.get("pii")]
    neg = [r for r in rs if not r.get("pii")]
    if len(rs) != n_total or len(pos) != n_total // 2 or len(neg) != n_total // 2:
        errors.append(
            f"{lang}: {len(rs)} texts, {len(pos)} with pii, {len(neg)} without "
            f"(want {n_total}, {n_total // 2}/{n_total // 2})"
        )
    regs = {r.get("register") for r in rs}
    for reg in REGISTERS:
        if reg not in regs:
            errors.append(f"{lang}: register {reg} missing")
    c = Counter(p["type"] for r in rs for p in r.get("pii", []))
    if c["HEALTH"] < min_health:
        errors.append(f"{lang}: HEALTH {c['HEALTH']} < {min_health}")
    if c["FINANCE"] < min_finance:
        errors.append(f"{lang}: FINANCE {c['FINANCE']} < {min_finance}")
    for t in TYPES:
        if c[t] < 1:
            errors.append(f"{lang}: type {t} missing")
    named = sum(1 for r in pos if any(p["type"] == "REAL_NAME" for p in r["pii"]))
    if pos and named * 2 <= len(pos):
        errors.append(f"{lang}: names only in {named}/{len(pos)} texts with pii")
    texts = Counter(r["text"] for r in rs)
    for t, n in texts.items():
        if n > 1:
            errors.append(f"{lang}: duplicate text {t[:40]!r}")
    return c, len(rs), len(pos), len(neg)


def main():
    errors = []
    ml = load(os.path.join(HERE, "pii_languages_zw_b.jsonl"), errors)
    for r in ml:
        if r.get("lang") not in LANGS:
            errors.append(f"{r['_where']}: lang {r.get('lang')} not expected")
    for r in ml:
        check_row(r, errors)
    table = {}
    for lang in LANGS:
        table[lang] = check_group(ml, lang, 40, 8, 6, errors)
    if "-v" in sys.argv or "--table" in sys.argv:
        langs = LANGS
        print("| type | " + " | ".join(langs) + " | total |")
        print("|---|" + "---|" * (len(langs) + 1))
        for t in TYPES:
            vals = [table[lg][0][t] for lg in langs]
            print(f"| {t} | " + " | ".join(map(str, vals)) + f" | {sum(vals)} |")
        for i, name in ((1, "texts"), (2, "with pii"), (3, "without pii")):
            vals = [table[lg][i] for lg in langs]
            print(f"| {name} | " + " | ".join(map(str, vals)) + f" | {sum(vals)} |")
    for e in errors:
        print(e)
    print(f"errors: {len(errors)}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
