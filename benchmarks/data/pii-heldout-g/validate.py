# Validator for pii_registers_g.jsonl and pii_languages_g.jsonl. Prints "errors: N".
import collections
import json

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
MIN = {
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


def err(msg):
    errors.append(msg)
    print("ERROR:", msg)


def spans(text, v):
    out, i = [], text.find(v)
    while i >= 0:
        out.append((i, i + len(v)))
        i = text.find(v, i + 1)
    return out


def check_file(path, group_key, expect_groups, per_group):
    recs = []
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            try:
                r = json.loads(line)
            except Exception as e:
                err(f"{path}:{ln} does not parse: {e}")
                continue
            if set(r) != {"lang", "register", "text", "pii"}:
                err(f"{path}:{ln} keys {sorted(r)}")
                continue
            if not isinstance(r["text"], str) or not isinstance(r["pii"], list):
                err(f"{path}:{ln} bad value types")
                continue
            seen = set()
            for p in r["pii"]:
                if set(p) != {"value", "type"}:
                    err(f"{path}:{ln} pii keys {sorted(p)}")
                    continue
                if p["type"] not in TYPES:
                    err(f"{path}:{ln} unknown type {p['type']}")
                if not p["value"] or p["value"] not in r["text"]:
                    err(f"{path}:{ln} value not in text: {p['value']!r}")
                if p["value"] in seen:
                    err(f"{path}:{ln} value listed twice: {p['value']!r}")
                seen.add(p["value"])
            # overlaps only allowed between values of the same type (full name vs first name)
            ps = r["pii"]
            for i in range(len(ps)):
                for j in range(i + 1, len(ps)):
                    a, b = ps[i], ps[j]
                    if any(
                        s1 < e2 and s2 < e1
                        for s1, e1 in spans(r["text"], a["value"])
                        for s2, e2 in spans(r["text"], b["value"])
                    ):
                        if a["type"] != b["type"]:
                            err(f"{path}:{ln} overlap of different types: {a} / {b}")
            nw = len(r["text"].split())
            if not 5 <= nw <= 150:
                err(f"{path}:{ln} {nw} words")
            recs.append(r)
    print(f"\n== {path}: {len(recs)} lines")
    cnt = collections.Counter((r[group_key], bool(r["pii"])) for r in recs)
    for g in expect_groups:
        w, wo = cnt[(g, True)], cnt[(g, False)]
        print(f"  {g:15s} with PII {w:3d}   without {wo:3d}")
        if w != per_group or wo != per_group:
            err(f"{path}: group {g} has {w}/{wo}, expected {per_group}/{per_group}")
    if set(r[group_key] for r in recs) - set(expect_groups):
        err(f"{path}: unexpected groups")
    return recs


def words(recs, label):
    ws = [len(r["text"].split()) for r in recs]
    print(f"  words {label}: min {min(ws)}, avg {sum(ws) / len(ws):.1f}, max {max(ws)}")


def types_by(recs, key):
    by = collections.defaultdict(collections.Counter)
    for r in recs:
        for p in r["pii"]:
            by[r[key]][p["type"]] += 1
    return by


reg = check_file(
    "pii_registers_g.jsonl", "register", ["forum", "blog", "chat", "email", "support_ticket", "social"], 20
)
for r in reg:
    if r["lang"] != "en":
        err("registers file: non-en line")
words(reg, "all")
for g in ["forum", "blog", "chat", "email", "support_ticket", "social"]:
    words([r for r in reg if r["register"] == g], g)
tot = collections.Counter(p["type"] for r in reg for p in r["pii"])
print("  types (en): " + ", ".join(f"{t} {n}" for t, n in tot.most_common()))
lng = check_file("pii_languages_g.jsonl", "lang", ["de", "fr", "es", "it", "nl", "pt"], 30)
words(lng, "all")
print("  registers: " + ", ".join(f"{k} {v}" for k, v in collections.Counter(r["register"] for r in lng).most_common()))
by = types_by(lng, "lang")
for lang in ["de", "fr", "es", "it", "nl", "pt"]:
    words([r for r in lng if r["lang"] == lang], lang)
    print(f"  types {lang}: " + ", ".join(f"{t} {n}" for t, n in by[lang].most_common()))
    for t, m in MIN.items():
        if by[lang][t] < m:
            err(f"{lang}: {t} {by[lang][t]} < {m}")
print(f"\nerrors: {len(errors)}")
