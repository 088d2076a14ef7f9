#!/usr/bin/env python3
"""Validate pii_registers_ee.jsonl with pii-heldout-ad's checks (the same brief: parsing, verbatim values, counts,
checksums). Prints "errors: N". The writer ran it as it is."""

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.argv = [sys.argv[0], str(HERE / "pii_registers_ee.jsonl")]
runpy.run_path(str(HERE.parent / "pii-heldout-ad" / "validate.py"), run_name="__main__")
