"""F-jsonl: a JSONL line of arrays nested past Python's stack stopped `protect -i`, `restore -i`, `memory append -i`
and `anonymize` with a RecursionError traceback (exit 1), and raised out of `batch`'s block reader; a number of more
digits than Python converts gave Python's own message with no line. Correct: a clear error naming FILE:LINE, exit 2,
nothing written (batch: a failed row). Runs the real CLI in a throwaway HOME; exit 1 on a traceback or another exit."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

home = Path(tempfile.mkdtemp(prefix="rev31-jsonl-"))
env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "c"), "XDG_DATA_HOME": str(home / "d")}
deep = '{"id": "a", "text": "mail quillon.varrick@examplemail.org", "m": ' + "[" * 100_000 + "]" * 100_000 + "}"
long_number = '{"id": ' + "9" * 300_000 + ', "text": "mail quillon.varrick@examplemail.org"}'
bad = []
for name, line in (("deep", deep), ("long-number", long_number)):
    path = home / f"{name}.jsonl"
    path.write_text(json.dumps({"id": "ok", "text": "hello"}) + "\n" + line + "\n")
    run = subprocess.run(
        [sys.executable, "-m", "stealthflow", "protect", "-i", str(path), "-o", str(home / "o.jsonl"), "--no-tagger"],
        capture_output=True,
        text=True,
        env=env,
    )
    said = " ".join(run.stderr.split())
    print(f"{name}: exit {run.returncode}: {said[-200:]}")
    if run.returncode != 2 or "Traceback" in run.stderr or f"{name}.jsonl:2" not in said:
        bad.append(name)
print("unclear errors:", bad or "none")
sys.exit(1 if bad else 0)
