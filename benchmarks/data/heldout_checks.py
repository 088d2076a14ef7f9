"""What the validate.py of the held-back sets written apart share: for the English ones (pii-heldout-zx, -aa, -ab, -ac,
-ad) the brief's registers and types (defined once, in pii-heldout-zv/validate.py) and the checksums of their numbers
(each set's writer wrote them apart; merged here), each of a number's digits, or of the value as written where named
`value`; for the six-language ones written in three parts (pii-heldout-zw, -ae, -ag, -aj, -am, -an, -ao, -aq, -as, -au,
-av, -az, -bg, -bk, -bt, -bw, -bz, -ce, -ch, -cs, -cv, -dc, -df, -di, -dj, -dm, -dn, -do, -dp, -dq, -dr, -ds, -dw, -dz, -ei, -ej, -ek, -el), zv's checks run on each part (`check_language_parts`): `python benchmarks/data/heldout_checks.py ae`
prints "errors: N".
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path


def _zv_validate():
    """pii-heldout-zv's script (the brief's registers and types are defined there once)."""
    path = Path(__file__).resolve().parent / "pii-heldout-zv" / "validate.py"
    spec = importlib.util.spec_from_file_location("zv_validate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_ZV = _zv_validate()
REGISTERS = set(_ZV.REGISTERS)
TYPES = set(_ZV.TYPES)

_VERHOEFF_D = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
    [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
    [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
    [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
    [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
    [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
_VERHOEFF_P = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
    [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
    [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
    [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
    [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
    [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]


IBAN_LENGTHS = {
    "GB": 22,
    "IE": 22,
    "DE": 22,
    "FR": 27,
    "ES": 24,
    "IT": 27,
    "NL": 18,
    "BE": 16,
    "AT": 20,
    "CH": 21,
    "PT": 25,
}
_PPS_LETTERS = "WABCDEFGHIJKLMNOPQRSTUV"
# Widely published sample and test values that a set must not use (the writers' lists, joined)
SAMPLE_VALUES = {
    "046 454 286",
    "046454286",
    "078-05-1120",
    "078051120",
    "123 456 782",
    "123-45-6789",
    "123456782",
    "123456789",
    "1234567T",
    "1234567TW",
    "219-09-9999",
    "219099999",
    "401 023 2137",
    "4010232137",
    "4111111111111111",
    "4242424242424242",
    "499273987",
    "8001015009087",
    "943 476 5919",
    "9434765919",
    "999941057058",
    "999999990",
    "AB123456C",
    "ABCDE1234F",
    "DE89370400440532013000",
    "GB29NWBK60161331926819",
    "GB33BUKB20201555555555",
    "GB82WEST12345698765432",
    "IE29AIBK93115212345678",
    "IE64IRCE92050112345678",
    "QQ 12 34 56 C",
    "QQ123456C",
}


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def verhoeff_ok(digits: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][int(ch)]]
    return c == 0


def iban_ok(value: str) -> bool:
    s = value.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", s) or IBAN_LENGTHS.get(s[:2], len(s)) != len(s):
        return False
    return int("".join(str(int(c, 36)) for c in s[4:] + s[:4])) % 97 == 1


def nhs_ok(digits: str) -> bool:
    check = 11 - sum(int(x) * w for x, w in zip(digits[:9], range(10, 1, -1))) % 11
    check = 0 if check == 11 else check
    return check != 10 and check == int(digits[9])


def ssn_ok(value: str) -> bool:
    m = re.fullmatch(r"(\d{3})-(\d{2})-(\d{4})", value)
    if not m:
        return False
    area, group, serial = m.groups()
    return area not in ("000", "666") and not area.startswith("9") and group != "00" and serial != "0000"


def za_id_ok(digits: str) -> bool:
    month, day = int(digits[2:4]), int(digits[4:6])
    return 1 <= month <= 12 and 1 <= day <= 31 and digits[10] in "01" and luhn_ok(digits)


def tfn_ok(digits: str) -> bool:
    return sum(int(x) * w for x, w in zip(digits, [1, 4, 3, 7, 5, 8, 6, 9, 10])) % 11 == 0


def ppsn_ok(value: str) -> bool:
    m = re.fullmatch(r"(\d{7})([A-W])([A-IW]?)", value.replace(" ", "").upper())
    if not m:
        return False
    digits, check, extra = m.groups()
    total = sum(int(x) * w for x, w in zip(digits, range(8, 1, -1)))
    if extra and extra != "W":
        total += (ord(extra) - 64) * 9
    return _PPS_LETTERS[total % 23] == check


def nino_ok(value: str) -> bool:
    s = value.replace(" ", "").upper()
    if not re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", s):
        return False
    return s[:2] not in {"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"}


def report(errors: list[str], prefix: str = "") -> int:
    """Print each error (after `prefix`) and "errors: N"; the exit status (1 when there is any)."""
    for error in errors:
        print(f"{prefix}{error}")
    print(f"errors: {len(errors)}")
    return 1 if errors else 0


LANGUAGE_PARTS = {"a": ["de", "nl"], "b": ["fr", "it"], "c": ["es", "pt"]}


def check_language_parts(folder: Path, name: str) -> int:
    """zv's checks on a six-language set's three parts (`folder`/part-X/pii_languages_`name`_X.jsonl): every line
    parses, every value occurs in its text, 40 texts per language (20 with personal data), the registers, HEALTH >= 8
    and FINANCE >= 6 per language, every type, the checksums. Prints "errors: N"; returns the exit status."""
    errors: list[str] = []
    for part, languages in LANGUAGE_PARTS.items():
        rows = _ZV.load(str(folder / f"part-{part}" / f"pii_languages_{name}_{part}.jsonl"), errors)
        for row in rows:
            if row.get("lang") not in languages:
                errors.append(f"{row['_where']}: lang {row.get('lang')} not expected in part {part}")
            _ZV.check_row(row, errors)
        for language in languages:
            _ZV.check_group(rows, language, 40, 8, 6, errors)
    return report(errors)


if __name__ == "__main__":
    # a six-language set written in parts: zw, ae, ag, aj, am, an, ao, aq, as, au, av, az, bg, bk, bt, bw, bz, ce, ch, cs, cv, dc, df, di, dj, dm, dn, do, dp, dq, dr, ds, dw, dz, ei, ej, ek, el
    NAME = sys.argv[1]
    sys.exit(check_language_parts(Path(__file__).resolve().parent / f"pii-heldout-{NAME}", NAME))
