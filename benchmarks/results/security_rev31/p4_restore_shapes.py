"""P4b: a hostile upstream's long reply: restore time of a reply of 16, 32 and 64 KB of each shape, whole
(`ReplyRestorer.whole`, the proxy's plain path) and streamed in chunks of 7 characters (`ReplyRestorer.chunks`, the
proxy's SSE path). Correct: linear. Exit 1 when doubling the reply costs over 3x the CPU."""

import sys
import time

from harness import make

from stealthflow.placeholders.scope import RestoreScope
from stealthflow.proxy.replies import ReplyRestorer

UNITS = {
    "open placeholders": "<EMAIL_",
    "open brackets": "<",
    "double brackets": "[[EMAIL:",
    "backslashes": "\\",
    "placeholders": "<EMAIL_1> ",
    "code fence opens": "```\n",
    "json opens": '{"a": ',
    "url with placeholders": "https://e.vil/?q=<EMAIL_1>&",
    "markdown links": "[<EMAIL_1>](",
    "html escaped": "&lt;EMAIL_1&gt;",
}
p = make()
issued = p.protect("mail quillon.varrick@examplemail.org", "s")
scope = RestoreScope(frozenset(issued.keys), p.config.guarded_types(), False, False)
bad = []
for name, unit in UNITS.items():
    row = []
    for size in (16_000, 32_000, 64_000):
        text = (unit * (size // len(unit) + 1))[:size]
        start = time.process_time()
        ReplyRestorer(p.resolver("s", scope)).whole(
            {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}
        )
        whole = time.process_time() - start
        start = time.process_time()
        r = ReplyRestorer(p.resolver("s", scope))
        last = None
        for at in range(0, size, 7):
            last = r.chunks([{"choices": [{"index": 0, "delta": {"content": text[at : at + 7]}}]}])[-1]
        r.tail(last)
        streamed = time.process_time() - start
        row.append((whole, streamed))
    ratios = [row[2][k] / max(row[1][k], 0.02) for k in (0, 1)]
    print(
        f"{name:22s} whole "
        + "/".join(f"{w:.2f}" for w, _ in row)
        + "  streamed "
        + "/".join(f"{s:.2f}" for _, s in row)
        + f"  x{ratios[0]:.1f} x{ratios[1]:.1f}",
        flush=True,
    )
    if any(ratio > 3.0 and row[2][k] > 0.5 for k, ratio in enumerate(ratios)):
        bad.append(name)
print("superlinear:", bad or "none")
sys.exit(1 if bad else 0)
