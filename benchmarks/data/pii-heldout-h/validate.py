#!/usr/bin/env python3
"""Validate a held-back set's pii_registers_*.jsonl and pii_languages_*.jsonl: `python validate.py [DIR]` (default: this
folder; pii-heldout-i uses it too). Prints counts and 'errors: N'."""

import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checksums import check_national_id, iban_valid, luhn_valid

TYPES = {
    "REAL_NAME",
    "ADDRESS",
    "EMAIL",
    "PHONE",
    "USERNAME",
    "EMPLOYER",
    "HEALTH",
    "FINANCE",
    "PASSWORD",
    "API_KEY",
    "CREDENTIAL",
    "IBAN",
    "CREDIT_CARD",
    "NATIONAL_ID",
    "PASSPORT",
    "IP_ADDRESS",
    "URL",
    "PRIVATE_KEY",
}
EN_REGISTERS = ["forum", "blog", "chat", "email", "support_ticket", "social"]
LANGS = ["de", "fr", "es", "it", "nl", "pt"]
LANG_MIN = {
    "REAL_NAME": 25,
    "EMPLOYER": 8,
    "HEALTH": 8,
    "ADDRESS": 4,
    "PHONE": 4,
    "FINANCE": 3,
    "NATIONAL_ID": 2,
    "USERNAME": 2,
    "IBAN": 1,
    "EMAIL": 1,
    "PASSPORT": 1,
}
errors = []
warnings = []
checked = collections.Counter()


def err(msg):
    errors.append(msg)


def occurrences(text, value):
    out, i = [], text.find(value)
    while i >= 0:
        out.append((i, i + len(value)))
        i = text.find(value, i + 1)
    return out


def check_record(fname, n, line):
    where = f"{fname}:{n}"
    try:
        r = json.loads(line)
    except Exception as e:
        err(f"{where}: bad JSON ({e})")
        return None
    if not isinstance(r, dict) or set(r) != {"lang", "register", "text", "pii"}:
        err(
            f"{where}: keys must be exactly lang/register/text/pii, got {sorted(r) if isinstance(r, dict) else type(r)}"
        )
        return None
    text, pii = r["text"], r["pii"]
    if not isinstance(text, str) or not text.strip():
        err(f"{where}: empty text")
        return None
    if not isinstance(pii, list):
        err(f"{where}: pii is not a list")
        return None
    nw = len(text.split())
    if not 5 <= nw <= 150:
        err(f"{where}: {nw} words (must be 5-150)")
    seen = set()
    spans = []
    for p in pii:
        if not isinstance(p, dict) or set(p) != {"value", "type"}:
            err(f"{where}: bad pii entry {p!r}")
            continue
        v, t = p["value"], p["type"]
        if t not in TYPES:
            err(f"{where}: unknown type {t}")
        if not isinstance(v, str) or not v or v != v.strip():
            err(f"{where}: empty or untrimmed value {v!r}")
            continue
        if v in seen:
            err(f"{where}: value listed twice {v!r}")
        seen.add(v)
        occ = occurrences(text, v)
        if not occ:
            err(f"{where}: value not in text {v!r}")
            continue
        for a, b in occ:
            # a value must not be found inside a longer word (consumers mark every occurrence)
            if (a > 0 and text[a - 1].isalnum() and v[0].isalnum()) or (
                b < len(text) and text[b].isalnum() and v[-1].isalnum()
            ):
                err(f"{where}: occurrence of {v!r} at {a} is inside a longer word")
            spans.append((a, b, t, v))
        # checksums
        if t in ("IBAN", "CREDIT_CARD"):
            checked[t] += 1
        if t == "IBAN" and not iban_valid(v):
            err(f"{where}: IBAN fails mod-97 {v!r}")
        if t == "CREDIT_CARD" and not luhn_valid(v):
            err(f"{where}: card fails Luhn {v!r}")
        if t == "NATIONAL_ID":
            scheme, ok = check_national_id(r["lang"], v)
            if scheme is None:
                warnings.append(f"{where}: no checksum scheme recognised for NATIONAL_ID {v!r}")
            else:
                checked["NATIONAL_ID " + scheme] += 1
            if scheme is not None and not ok:
                err(f"{where}: {scheme} check digit wrong {v!r}")
    # overlaps: only REAL_NAME with REAL_NAME
    spans.sort()
    for i in range(len(spans)):
        for j in range(i + 1, len(spans)):
            a1, b1, t1, v1 = spans[i]
            a2, b2, t2, v2 = spans[j]
            if a2 >= b1:
                break
            if v1 == v2:
                continue
            if not (t1 == t2 == "REAL_NAME"):
                err(f"{where}: overlapping values {v1!r} ({t1}) / {v2!r} ({t2})")
    return r


def load(fname):
    recs = []
    if not os.path.exists(fname):
        err(f"{fname}: missing")
        return recs
    with open(fname, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                err(f"{fname}:{n}: blank line")
                continue
            r = check_record(fname, n, line)
            if r is not None:
                recs.append(r)
    return recs


def words(recs):
    w = [len(r["text"].split()) for r in recs]
    return f"words min/avg/max: {min(w)}/{sum(w) / len(w):.1f}/{max(w)}" if w else "no records"


def type_table(recs, key):
    c = collections.defaultdict(collections.Counter)
    for r in recs:
        for p in r["pii"]:
            c[r[key]][p["type"]] += 1
    return c


here = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
set_name = os.path.basename(os.path.normpath(here)).rsplit("-", 1)[-1]
REGISTERS, LANGUAGES = f"pii_registers_{set_name}.jsonl", f"pii_languages_{set_name}.jsonl"
en = load(os.path.join(here, REGISTERS))
lg = load(os.path.join(here, LANGUAGES))

# texts must be unique across both files
allt = collections.Counter(r["text"] for r in en + lg)
for t, c in allt.items():
    if c > 1:
        err(f"duplicate text x{c}: {t[:60]!r}")

print("==", REGISTERS + ":", len(en), "lines")
if len(en) != 240:
    err(f"{REGISTERS}: {len(en)} lines, expected 240")
for r in en:
    if r["lang"] != "en":
        err(f"registers file: lang {r['lang']!r} (expected en)")
    if r["register"] not in EN_REGISTERS:
        err(f"registers file: unknown register {r['register']!r}")
print(f"{'register':16s} {'with':>5s} {'without':>8s}")
for reg in EN_REGISTERS:
    w = sum(1 for r in en if r["register"] == reg and r["pii"])
    wo = sum(1 for r in en if r["register"] == reg and not r["pii"])
    print(f"{reg:16s} {w:5d} {wo:8d}")
    if (w, wo) != (20, 20):
        err(f"register {reg}: {w} with / {wo} without, expected 20/20")
print(words(en))
tt = collections.Counter(p["type"] for r in en for p in r["pii"])
print("types:", ", ".join(f"{k} {v}" for k, v in tt.most_common()))
missing = TYPES - set(tt)
if missing:
    warnings.append(f"registers file has no {sorted(missing)}")

print()
print("==", LANGUAGES + ":", len(lg), "lines")
if len(lg) != 360:
    err(f"{LANGUAGES}: {len(lg)} lines, expected 360")
print(f"{'lang':6s} {'with':>5s} {'without':>8s}  words min/avg/max")
for L in LANGS:
    rs = [r for r in lg if r["lang"] == L]
    w = sum(1 for r in rs if r["pii"])
    wo = len(rs) - w
    print(f"{L:6s} {w:5d} {wo:8d}  {words(rs)[19:]}")
    if (w, wo) != (30, 30):
        err(f"lang {L}: {w} with / {wo} without, expected 30/30")
for r in lg:
    if r["lang"] not in LANGS:
        err(f"languages file: unknown lang {r['lang']!r}")
print(words(lg))
regs = collections.Counter(r["register"] for r in lg)
print("registers:", ", ".join(f"{k} {v}" for k, v in regs.most_common()))
tl = type_table(lg, "lang")
cols = sorted(TYPES, key=lambda t: -sum(tl[L][t] for L in LANGS))
cols = [c for c in cols if sum(tl[L][c] for L in LANGS)]
short = {c: c[:8] for c in cols}
print("types per language:")
print("type        " + " ".join(f"{L:>4s}" for L in LANGS))
for c in cols:
    print(f"{c:12s}" + " ".join(f"{tl[L][c]:4d}" for L in LANGS))
for L in LANGS:
    for t, m in LANG_MIN.items():
        if tl[L][t] < m:
            err(f"lang {L}: {t} {tl[L][t]} < required {m}")

print()
print("check digits verified:", ", ".join(f"{k} {v}" for k, v in sorted(checked.items())))
for w in warnings:
    print("warning:", w)
for e in errors:
    print("ERROR:", e)
print(f"errors: {len(errors)}")
sys.exit(1 if errors else 0)
