"""What the validate.py of the generators written apart share (pii-generator-ga, -gb, -gc, -gd): run the folder's generate.py
twice (the same file), then check the messages' format and counts. `python benchmarks/data/generator_checks.py ga`
prints "errors: N", as each folder's validate.py does."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

TYPES = {"REAL_NAME", "ADDRESS", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "HEALTH", "FINANCE", "EMPLOYER"}
MANY = {"REAL_NAME", "ADDRESS", "HEALTH", "FINANCE", "EMPLOYER"}  # at least 60 spans each, the others 30


def check(letters: str) -> int:
    """Prints the checks of pii-generator-`letters` and "errors: N"; returns N."""
    here = Path(__file__).resolve().parent / f"pii-generator-{letters}"
    out = here / f"pii_generator_{letters}.jsonl"
    if not (here / "generate.py").exists():
        print("errors: 1 (no generate.py)")
        return 1
    errors = []
    subprocess.run([sys.executable, "generate.py"], cwd=here, check=True)
    first = out.read_bytes()
    subprocess.run([sys.executable, "generate.py"], cwd=here, check=True)
    if out.read_bytes() != first:
        errors.append("two runs wrote different files (seed it)")
    rows = [json.loads(line) for line in first.decode("utf-8").splitlines() if line.strip()]
    types, clean = Counter(), 0
    for n, row in enumerate(rows, 1):
        if set(row) != {"text", "spans", "template"}:
            errors.append(f"line {n}: keys")
            continue
        last = -1
        for start, end, kind in row["spans"]:
            if kind not in TYPES:
                errors.append(f"line {n}: type {kind}")
            if not (0 <= start < end <= len(row["text"])):
                errors.append(f"line {n}: span out of range")
            if start < last:
                errors.append(f"line {n}: spans overlap or unsorted")
            if row["text"][start:end] != row["text"][start:end].strip():
                errors.append(f"line {n}: span has edge spaces")
            last = end
            types[kind] += 1
        clean += not row["spans"]
    if len(rows) != 600:
        errors.append(f"{len(rows)} messages (600)")
    if clean != 120:
        errors.append(f"{clean} without spans (120)")
    for kind in TYPES:
        need = 60 if kind in MANY else 30
        if types[kind] < need:
            errors.append(f"{kind}: {types[kind]} spans (at least {need})")
    for error in errors[:40]:
        print(error)
    print("messages", len(rows), "spans", dict(types))
    print(f"errors: {len(errors)}")
    return len(errors)


if __name__ == "__main__":
    sys.exit(1 if check(sys.argv[1]) else 0)
