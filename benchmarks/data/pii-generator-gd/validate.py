"""Checks pii_generator_gd.jsonl with the generators' shared checks (../generator_checks.py: generate.py run twice,
the same file; format and counts). Prints "errors: N". The writer ran the checks as they were then, in this file."""

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.argv = [sys.argv[0], "gd"]
runpy.run_path(str(HERE.parent / "generator_checks.py"), run_name="__main__")
