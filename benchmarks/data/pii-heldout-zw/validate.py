"""Validate the pii-heldout-zw test set with pii-heldout-zv's checks (the same brief, formats and checksums): every
line parses, every value occurs in its text, 40 texts per language (20 with personal data), the registers, HEALTH >= 8
and FINANCE >= 6 per language, every type, the checksums. Prints "errors: N". MIT licence.

Each part's writer ran these checks on its own file (zv's validate.py cut to the part's two languages)."""

import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PARTS = {"a": ["de", "nl"], "b": ["fr", "it"], "c": ["es", "pt"]}


def zv_checks():
    path = os.path.join(HERE, "..", "pii-heldout-zv", "validate.py")
    spec = importlib.util.spec_from_file_location("zv_validate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    zv = zv_checks()
    errors: list[str] = []
    for part, languages in PARTS.items():
        rows = zv.load(os.path.join(HERE, f"part-{part}", f"pii_languages_zw_{part}.jsonl"), errors)
        for row in rows:
            if row.get("lang") not in languages:
                errors.append(f"{row['_where']}: lang {row.get('lang')} not expected in part {part}")
            zv.check_row(row, errors)
        for language in languages:
            zv.check_group(rows, language, 40, 8, 6, errors)
    print("\n".join([*errors, f"errors: {len(errors)}"]))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
