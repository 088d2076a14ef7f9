"""Checks pii_generator_gb.jsonl: runs generate.py twice (the same file), then its format and counts. Prints
"errors: N"."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
TYPES = {"REAL_NAME", "ADDRESS", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "HEALTH", "FINANCE", "EMPLOYER"}
OUT = HERE / "pii_generator_gb.jsonl"


def main() -> None:
    if not (HERE / "generate.py").exists():
        print("errors: 1 (no generate.py)")
        sys.exit(1)
    errors = []
    subprocess.run([sys.executable, "generate.py"], cwd=HERE, check=True)
    first = OUT.read_bytes()
    subprocess.run([sys.executable, "generate.py"], cwd=HERE, check=True)
    if OUT.read_bytes() != first:
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
        need = 60 if kind in {"REAL_NAME", "ADDRESS", "HEALTH", "FINANCE", "EMPLOYER"} else 30
        if types[kind] < need:
            errors.append(f"{kind}: {types[kind]} spans (at least {need})")
    for error in errors[:40]:
        print(error)
    print("messages", len(rows), "spans", dict(types))
    print(f"errors: {len(errors)}")


if __name__ == "__main__":
    main()
