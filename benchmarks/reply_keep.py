"""What keeping a restored reply costs the proxy as its session grows (`Vault.keep_replies`, `proxy.history`).

The proxy keeps every text of every reply it restored, per session, up to 50 000 texts: a caller without a session
label has one session for all its traffic, so a long-running proxy keeps each reply beside thousands of others. This
keeps `--replies` replies of 600 characters, one at a time as the proxy does, in one session of a fresh vault (a
temporary file, a fixed test key), and reports the median milliseconds of a keep per thousand kept before it;
`--before SRC` runs another checkout's src/ beside this one (each in a fresh process, one after the other).

    .venv/bin/python benchmarks/reply_keep.py [--replies 5000] [--before /tmp/before/src]

Prints a table; writes nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tables import table  # noqa: E402

REPLY = "x" * 600
STEP = 1000


def keep_times(replies: int) -> list[float]:
    """Milliseconds of each keep, in order."""
    from stealthflow.placeholders.keys import VaultKeys
    from stealthflow.placeholders.vault import Vault

    times = []
    with tempfile.TemporaryDirectory() as folder:
        vault = Vault(Path(folder) / "vault.sqlite", VaultKeys.from_secret(b"reply_keep.py: a fixed test key!"))
        for index in range(replies):
            start = time.perf_counter()
            vault.keep_replies("u", "s", [(f"reply {index} {REPLY}", REPLY, [])], 50_000, 32_000_000)
            times.append((time.perf_counter() - start) * 1000)
        vault.close()
    return times


def medians(times: list[float]) -> list[float]:
    return [statistics.median(times[start : start + STEP]) for start in range(0, len(times), STEP)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", type=int, default=5000)
    parser.add_argument("--before", type=Path, help="another checkout's src/, run beside this one")
    parser.add_argument("--times", action="store_true", help=argparse.SUPPRESS)  # this process's times, as JSON
    args = parser.parse_args()
    if args.times:
        print(json.dumps(keep_times(args.replies)))
        return
    columns = {"this checkout": None} if args.before is None else {"before": args.before, "this checkout": None}
    found = {}
    for column, source in columns.items():
        env = dict(os.environ) if source is None else {**os.environ, "PYTHONPATH": str(source.resolve())}
        command = [sys.executable, __file__, "--times", "--replies", str(args.replies)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        found[column] = medians(json.loads(done.stdout.strip().splitlines()[-1]))
    rows = [
        [f"{start}-{start + STEP}", *(f"{found[column][row]:.3f}" for column in columns)]
        for row, start in enumerate(range(0, args.replies, STEP))
    ]
    print(f"Median ms to keep one 600-character reply, by texts the session kept before; load {os.getloadavg()[0]:.1f}")
    print("\n".join(table(["texts kept before", *columns], rows)))


if __name__ == "__main__":
    main()
