"""Check-digit helpers used by make_ids.py (to build invented values) and validate.py (to re-check them)."""

import re


# ---------- IBAN ----------
def iban_check(country, bban):
    s = bban + country + "00"
    n = int("".join(str(int(c, 36)) for c in s))
    return "%02d" % (98 - n % 97)


def make_iban(country, bban):
    return country + iban_check(country, bban) + bban


def iban_valid(v):
    s = re.sub(r"\s", "", v).upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]+", s):
        return False
    r = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in r)) % 97 == 1


def group4(s):
    return " ".join(s[i : i + 4] for i in range(0, len(s), 4))


# national BBAN helpers
def es_dc(bank, branch, account):
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]

    def d(digits):
        s = sum(int(c) * w[i] for i, c in enumerate(digits))
        r = 11 - s % 11
        return {11: 0, 10: 1}.get(r, r)

    return "%d%d" % (d("00" + bank + branch), d(account))


def fr_rib_key(bank, guichet, account):
    return "%02d" % (97 - (89 * int(bank) + 15 * int(guichet) + 3 * int(account)) % 97)


def be_bban(bank, acct):
    r = int(bank + acct) % 97
    return bank + acct + "%02d" % (r if r else 97)


def pt_nib(bank, branch, account):
    return "%02d" % (98 - (int(bank + branch + account) * 100) % 97)


CF_ODD = dict(
    zip(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        [1, 0, 5, 7, 9, 13, 15, 17, 19, 21]
        + [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23],
    )
)
CF_EVEN = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", list(range(10)) + list(range(26))))


def it_cin(abi, cab, conto):
    s = abi + cab + conto
    t = sum(CF_ODD[c] if i % 2 == 0 else CF_EVEN[c] for i, c in enumerate(s))
    return chr(ord("A") + t % 26)


def nl_elf(acct10):
    return sum(int(c) * (10 - i) for i, c in enumerate(acct10)) % 11 == 0


# ---------- cards ----------
def luhn_valid(v):
    d = [int(c) for c in re.sub(r"\D", "", v)]
    if len(d) < 12:
        return False
    s = 0
    for i, x in enumerate(reversed(d)):
        if i % 2 == 1:
            x *= 2
            if x > 9:
                x -= 9
        s += x
    return s % 10 == 0


def luhn_complete(prefix_digits):
    for c in "0123456789":
        if luhn_valid(prefix_digits + c):
            return prefix_digits + c


# ---------- national ids ----------
DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni_letter(num):
    return DNI_LETTERS[int(num) % 23]


def dni_valid(v):
    s = re.sub(r"[\s.-]", "", v).upper()
    m = re.fullmatch(r"([XYZ]?)(\d{7,8})([A-Z])", s)
    if not m:
        return False
    n = m.group(2)
    if m.group(1):
        n = str("XYZ".index(m.group(1))) + n
    return DNI_LETTERS[int(n) % 23] == m.group(3)


def naf_valid(v):  # Spanish social-security number (NAF)
    d = re.sub(r"\D", "", v)
    return len(d) == 12 and int(d[:10]) % 97 == int(d[10:])


def rut_dv(num):
    s, f = 0, 2
    for c in reversed(str(num)):
        s += int(c) * f
        f = 2 if f == 7 else f + 1
    r = 11 - s % 11
    return {11: "0", 10: "K"}.get(r, str(r))


def rut_valid(v):
    m = re.fullmatch(r"([\d.]+)-([\dkK])", v.strip())
    return bool(m) and rut_dv(m.group(1).replace(".", "")) == m.group(2).upper()


CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp_digit(first17):
    s = sum(CURP_CHARS.index(c) * (18 - i) for i, c in enumerate(first17))
    return str((10 - s % 10) % 10)


def curp_valid(v):
    return len(v) == 18 and curp_digit(v[:17]) == v[17]


CF_MONTHS = "ABCDEHLMPRST"


def cf_check(first15):
    return chr(ord("A") + sum(CF_ODD[c] if i % 2 == 0 else CF_EVEN[c] for i, c in enumerate(first15)) % 26)


def cf_valid(v):
    return bool(re.fullmatch(r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", v)) and cf_check(v[:15]) == v[15]


def _cf_part(word, is_name):
    w = [c for c in word.upper() if c.isalpha()]
    cons = [c for c in w if c not in "AEIOU"]
    vows = [c for c in w if c in "AEIOU"]
    if is_name and len(cons) >= 4:
        return cons[0] + cons[2] + cons[3]
    return ("".join(cons + vows) + "XXX")[:3]


def make_cf(surname, name, year, month, day, female, comune):
    s = (
        _cf_part(surname, False)
        + _cf_part(name, True)
        + "%02d" % (year % 100)
        + CF_MONTHS[month - 1]
        + "%02d" % (day + (40 if female else 0))
        + comune
    )
    return s + cf_check(s)


def bsn_valid(v):
    d = re.sub(r"\D", "", v)
    if len(d) != 9:
        return False
    return (sum(int(c) * (9 - i) for i, c in enumerate(d[:8])) - int(d[8])) % 11 == 0


def nif_pt_digit(first8):
    r = 11 - sum(int(c) * (9 - i) for i, c in enumerate(first8)) % 11
    return "0" if r >= 10 else str(r)


def nif_pt_valid(v):
    d = re.sub(r"\D", "", v)
    return len(d) == 9 and nif_pt_digit(d[:8]) == d[8]


def cpf_digits(first9):
    d = [int(c) for c in first9]
    for n in (10, 11):
        s = sum(x * (n - i) for i, x in enumerate(d))
        r = (s * 10) % 11
        d.append(0 if r == 10 else r)
    return "".join(map(str, d[9:]))


def cpf_valid(v):
    d = re.sub(r"\D", "", v)
    return len(d) == 11 and cpf_digits(d[:9]) == d[9:]


def nhs_digit(first9):
    r = 11 - sum(int(c) * (10 - i) for i, c in enumerate(first9)) % 11
    return None if r == 10 else ("0" if r == 11 else str(r))


def nhs_valid(v):
    d = re.sub(r"\D", "", v)
    return len(d) == 10 and nhs_digit(d[:9]) == d[9]


def steuer_digit(first10):
    p = 10
    for c in first10:
        s = (int(c) + p) % 10
        if s == 0:
            s = 10
        p = (s * 2) % 11
    c = 11 - p
    return "0" if c == 10 else str(c)


def steuer_valid(v):
    d = re.sub(r"\D", "", v)
    return len(d) == 11 and d[0] != "0" and steuer_digit(d[:10]) == d[10]


def at_sv_digit(serial3, ddmmyy):
    w = [3, 7, 9, 5, 8, 4, 2, 1, 6]
    ds = serial3 + ddmmyy
    r = sum(int(c) * w[i] for i, c in enumerate(ds)) % 11
    return None if r == 10 else str(r)


def at_sv_valid(v):
    d = re.sub(r"\D", "", v)
    return len(d) == 10 and at_sv_digit(d[:3], d[4:]) == d[3]


def ean13_digit(first12):
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(first12))
    return str((10 - s % 10) % 10)


def ahv_valid(v):
    d = re.sub(r"\D", "", v)
    return len(d) == 13 and d.startswith("756") and ean13_digit(d[:12]) == d[12]


def nir_key(first13):
    return "%02d" % (97 - int(first13) % 97)


def nir_valid(v):
    d = re.sub(r"\s", "", v)
    return bool(re.fullmatch(r"\d{15}", d)) and nir_key(d[:13]) == d[13:]


def be_nn_check(first9, born2000=False):
    n = int(("2" if born2000 else "") + first9)
    return "%02d" % (97 - n % 97)


def be_nn_valid(v):
    d = re.sub(r"\D", "", v)
    return len(d) == 11 and (be_nn_check(d[:9]) == d[9:] or be_nn_check(d[:9], True) == d[9:])


def check_national_id(lang, value):
    """Return (scheme, ok) for the scheme whose shape the value has, or (None, None) if no checksum scheme fits."""
    v = value.strip()
    d = re.sub(r"\D", "", v)
    if re.fullmatch(r"[XYZ]?\d{7,8}-?[A-Z]", v.replace(" ", "")):
        return "DNI/NIE", dni_valid(v)
    if re.fullmatch(r"[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z]", v):
        return "codice fiscale", cf_valid(v)
    if re.fullmatch(r"[A-Z]{4}\d{6}[HM][A-Z]{5}[0-9A-Z]\d", v):
        return "CURP", curp_valid(v)
    if re.fullmatch(r"[\d.]+-[\dkK]", v) and lang == "es":
        return "RUT", rut_valid(v)
    if v.startswith("756"):
        return "AHV", ahv_valid(v)
    if re.fullmatch(r"\d{3}\.\d{3}\.\d{3}-\d{2}", v):
        return "CPF", cpf_valid(v)
    if re.fullmatch(r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", v):
        return "BE national number", be_nn_valid(v)
    if re.fullmatch(r"[12] \d{2} \d{2} \d{2} \d{3} \d{3} \d{2}", v) or (lang == "fr" and len(d) == 15):
        return "NIR", nir_valid(v)
    if re.fullmatch(r"\d{2}/?\s?\d{8}/?\s?\d{2}", v) and lang == "es":
        return "NAF", naf_valid(v)
    if lang == "de" and len(d) == 11:
        return "Steuer-ID", steuer_valid(v)
    if lang == "de" and len(d) == 10:
        return "AT SV-Nummer", at_sv_valid(v)
    if lang == "nl" and len(d) == 9:
        return "BSN", bsn_valid(v)
    if lang == "pt" and len(d) == 9:
        return "NIF", nif_pt_valid(v)
    if lang == "pt" and len(d) == 11:
        return "CPF", cpf_valid(v)
    if lang == "en" and re.fullmatch(r"\d{3} ?\d{3} ?\d{4}", v):
        return "NHS number", nhs_valid(v)
    if lang == "en" and re.fullmatch(r"[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]", v):
        return "NI number (format only)", True
    return None, None
