"""Validate the pii-heldout-ag test set with pii-heldout-zv's checks (the same brief, formats and checksums): every
line parses, every value occurs in its text, 40 texts per language (20 with personal data), the registers, HEALTH >= 8
and FINANCE >= 6 per language, every type, the checksums. Prints "errors: N". MIT licence.

Each part's writer ran these checks on its own file (zv's validate.py cut to the part's two languages)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from heldout_checks import check_language_parts  # noqa: E402

if __name__ == "__main__":
    sys.exit(check_language_parts(Path(__file__).resolve().parent, "ag"))
