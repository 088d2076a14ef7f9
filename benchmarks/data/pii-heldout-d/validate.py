import collections
import json
import os
import re

ALLOWED = {
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
D = os.path.dirname(os.path.abspath(__file__)) + "/"
ok = True


def check(fn, key, expect_groups, per_with, per_without):
    global ok
    rows = []
    with open(D + fn, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            r = json.loads(line)
            assert set(r) == {"lang", "register", "text", "pii"}, (fn, i)
            rows.append(r)
    cnt = collections.defaultdict(lambda: [0, 0])
    types = collections.Counter()
    texts = collections.Counter(r["text"] for r in rows)
    for t, c in texts.items():
        if c > 1:
            print("DUPLICATE TEXT:", t[:60])
            ok = False
    for i, r in enumerate(rows, 1):
        seen = set()
        for p in r["pii"]:
            if p["value"] not in r["text"]:
                print(fn, i, "NOT SUBSTRING:", p["value"])
                ok = False
            if p["type"] not in ALLOWED:
                print(fn, i, "BAD TYPE:", p["type"])
                ok = False
            if p["value"] in seen:
                print(fn, i, "DUP VALUE:", p["value"])
                ok = False
            seen.add(p["value"])
            types[p["type"]] += 1
        nw = len(re.findall(r"[^\W_]+", r["text"]))
        if nw < 5 or nw > 150:
            print(fn, i, "WORDS", nw, repr(r["text"][:50]))
            ok = False
        cnt[r[key]][0 if r["pii"] else 1] += 1
    print(f"== {fn}: {len(rows)} lines")
    for g in expect_groups:
        w, wo = cnt[g]
        flag = "" if (w, wo) == (per_with, per_without) else "  <-- WRONG"
        if flag:
            ok = False
        print(f"  {g:15s} with={w:3d} without={wo:3d}{flag}")
    if set(cnt) != set(expect_groups):
        print("unexpected groups", set(cnt))
        ok = False
    print("  annotations by type:", sum(types.values()))
    for t, c in types.most_common():
        print(f"    {t:12s} {c}")
    return cnt, types


check(
    "pii_registers_d.jsonl",
    "register",
    ["forum", "blog", "chat", "email", "support_ticket", "code_log", "social", "markup"],
    20,
    20,
)
check("pii_languages_d.jsonl", "lang", ["de", "fr", "es", "it", "nl", "pt"], 30, 20)
print("ALL OK" if ok else "PROBLEMS FOUND")
