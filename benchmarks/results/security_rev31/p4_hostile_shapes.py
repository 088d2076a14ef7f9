"""P4: shapes of a few hundred KB beyond rev28's repeated tokens: CPU of `Protector.protect` (deterministic
recognizers) at 32, 64 and 128 KB of each. Correct: linear (at most ~3x the CPU for twice the text). Exit 1 otherwise."""

import sys
import time

from harness import make

UNITS = {
    "at signs": "a@",
    "dotted": "a.",
    "digits spaced": "1 ",
    "digit groups": "4111 ",
    "dashes and digits": "12-",
    "url opens": "http://a",
    "open brackets": "(",
    "quotes after cue": "password is '",
    "email glue": "x@y.z",
    "spelled at": "a (at) ",
    "entity at": "a&#64;",
    "backslashes": "\\",
    "angle placeholders": "<EMAIL_",
    "iban-ish": "DE89 ",
    "name title": "Mr. A ",
    "newlines": "a\n",
    "table cells": "a,1;",
    "zero-width": "a\u200b",
}
p = make()
bad = []
for name, unit in UNITS.items():
    times = []
    for size in (32_000, 64_000, 128_000):
        text = (unit * (size // len(unit) + 1))[:size]
        start = time.process_time()
        p.protect(text, f"s-{name}-{size}")
        times.append(time.process_time() - start)
    ratio = times[2] / max(times[1], 0.02)
    print(f"{name:20s} " + " / ".join(f"{t:6.2f}" for t in times) + f"  x{ratio:.1f}", flush=True)
    if ratio > 3.0 and times[2] > 0.5:
        bad.append(name)
print("superlinear:", bad or "none")
sys.exit(1 if bad else 0)
