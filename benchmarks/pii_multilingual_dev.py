"""Development messages for the multilingual recognizers: templates of each language filled with
Faker's values of its locale (names, streets, postcodes, cities, phones, emails, IBANs, companies)
and ID numbers made valid by python-stdnum. This is what the recognizers were tuned on; the
held-out set (data/pii_multilingual_test.jsonl) was written by hand, apart from it.

    python benchmarks/pii_multilingual.py --dev 600
"""

from __future__ import annotations

import random
import re

import phonenumbers
from faker import Faker
from stdnum.de import idnr
from stdnum.fr import nir
from stdnum.iso7064 import mod_11_10
from stdnum.it import codicefiscale
from stdnum.nl import bsn
from stdnum.pt import nif

LOCALES = {"de": "de_DE", "fr": "fr_FR", "es": "es_ES", "it": "it_IT", "nl": "nl_NL", "pt": "pt_PT"}
REGIONS = {"de": "DE", "fr": "FR", "es": "ES", "it": "IT", "nl": "NL", "pt": "PT"}
# {TYPE:slot}: a value to annotate; {slot}: a value that is not personal data. Slots: name, first,
# address (street, number, postcode and city), street (street and number), phone, email, iban, id,
# company, condition, city.
TEMPLATES = {
    "de": [
        "Guten Tag, mein Name ist {REAL_NAME:name} und ich interessiere mich für die Wohnung.",
        "Ich heiße {REAL_NAME:first} und wohne seit März in der {ADDRESS:address}.",
        "Bitte schicken Sie die Unterlagen an {ADDRESS:address}.",
        "Rückruf bitte unter {PHONE:phone}, ab 17 Uhr bin ich erreichbar.",
        "Meine Schwester {REAL_NAME:first} arbeitet bei {EMPLOYER:company} in {city}.",
        "Ich habe {HEALTH:condition} und brauche einen Termin beim Facharzt.",
        "Kontoverbindung: {IBAN:iban}. Meine Steuer-ID lautet {NATIONAL_ID:id}.",
        "Schreib mir einfach an {EMAIL:email}, ich antworte heute Abend.",
        "Unser Sohn {REAL_NAME:first} hat {HEALTH:condition}, deshalb kommt er später.",
    ],
    "fr": [
        "Bonjour, mon nom est {REAL_NAME:name}, je vous écris au sujet du devis.",
        "Je m'appelle {REAL_NAME:first} et j'habite {ADDRESS:address}.",
        "Merci d'envoyer le courrier au {ADDRESS:address}.",
        "Rappelez-moi au {PHONE:phone} s'il vous plaît.",
        "Ma sœur {REAL_NAME:first} travaille chez {EMPLOYER:company} à {city}.",
        "J'ai une {HEALTH:condition} et je dois voir un spécialiste.",
        "Mon IBAN : {IBAN:iban}. Mon numéro de sécurité sociale : {NATIONAL_ID:id}.",
        "Écris-moi à {EMAIL:email}, je réponds ce soir.",
        "Notre fille {REAL_NAME:first} a de l'{HEALTH:condition} depuis l'hiver.",
    ],
    "es": [
        "Buenas, mi nombre es {REAL_NAME:name} y escribo por el presupuesto.",
        "Me llamo {REAL_NAME:first} y vivo en {ADDRESS:address}.",
        "Por favor, envíen la carta a {ADDRESS:address}.",
        "Llámenme al {PHONE:phone} a partir de las cinco.",
        "Mi hermana {REAL_NAME:first} trabaja en {EMPLOYER:company} en {city}.",
        "Tengo {HEALTH:condition} y necesito cita con el especialista.",
        "Cuenta: {IBAN:iban}. Mi DNI es {NATIONAL_ID:id}.",
        "Escríbeme a {EMAIL:email}, contesto esta noche.",
        "Nuestro hijo {REAL_NAME:first} tiene {HEALTH:condition} desde pequeño.",
    ],
    "it": [
        "Buongiorno, il mio nome è {REAL_NAME:name} e scrivo per il preventivo.",
        "Mi chiamo {REAL_NAME:first} e abito in {ADDRESS:address}.",
        "Per favore spedite la lettera a {ADDRESS:address}.",
        "Richiamatemi al {PHONE:phone} dopo le cinque.",
        "Mia sorella {REAL_NAME:first} lavora presso {EMPLOYER:company} a {city}.",
        "Ho il {HEALTH:condition} e mi serve una visita specialistica.",
        "Conto: {IBAN:iban}. Il mio codice fiscale è {NATIONAL_ID:id}.",
        "Scrivimi a {EMAIL:email}, rispondo stasera.",
        "Nostro figlio {REAL_NAME:first} ha l'{HEALTH:condition} da piccolo.",
    ],
    "nl": [
        "Goedemiddag, mijn naam is {REAL_NAME:name} en ik mail over de offerte.",
        "Ik heet {REAL_NAME:first} en ik woon op {ADDRESS:address}.",
        "Stuur de brief alsjeblieft naar {ADDRESS:address}.",
        "Bel me terug op {PHONE:phone} na vijf uur.",
        "Mijn zus {REAL_NAME:first} werkt bij {EMPLOYER:company} in {city}.",
        "Ik heb {HEALTH:condition} en moet naar de specialist.",
        "Rekening: {IBAN:iban}. Mijn BSN is {NATIONAL_ID:id}.",
        "Mail me op {EMAIL:email}, ik reageer vanavond.",
        "Onze zoon {REAL_NAME:first} heeft {HEALTH:condition} sinds hij klein is.",
    ],
    "pt": [
        "Boa tarde, o meu nome é {REAL_NAME:name} e escrevo sobre o orçamento.",
        "Chamo-me {REAL_NAME:first} e moro na {ADDRESS:address}.",
        "Por favor enviem a carta para a {ADDRESS:address}.",
        "Liguem-me para o {PHONE:phone} depois das cinco.",
        "A minha irmã {REAL_NAME:first} trabalha na {EMPLOYER:company} em {city}.",
        "Tenho {HEALTH:condition} e preciso de uma consulta.",
        "Conta: {IBAN:iban}. O meu NIF é {NATIONAL_ID:id}.",
        "Escreve-me para {EMAIL:email}, respondo hoje à noite.",
        "O nosso filho {REAL_NAME:first} tem {HEALTH:condition} desde pequeno.",
    ],
}
NEGATIVES = {
    "de": ["Die Bahn fährt heute nur im Stundentakt nach {city}.", "{company} hat neue Zahlen veröffentlicht.",
           "Die {street_name} wird ab Montag saniert.", "Wer kennt ein gutes Café in {city}?", "Rechnung 2024-{n} über {n},50 Euro."],
    "fr": ["Le train pour {city} a du retard ce matin.", "{company} a publié ses résultats.",
           "La {street_name} sera fermée lundi.", "Vous connaissez un bon café à {city} ?", "Facture {n} de {n},50 euros."],
    "es": ["El tren a {city} llega con retraso.", "{company} ha publicado sus resultados.",
           "La {street_name} estará cortada el lunes.", "¿Conocéis un buen café en {city}?", "Factura {n} por {n},50 euros."],
    "it": ["Il treno per {city} è in ritardo.", "{company} ha pubblicato i risultati.",
           "{street_name} sarà chiusa lunedì.", "Conoscete un buon bar a {city}?", "Fattura {n} di {n},50 euro."],
    "nl": ["De trein naar {city} heeft vertraging.", "{company} heeft de cijfers gepubliceerd.",
           "De {street_name} is maandag afgesloten.", "Weet iemand een goed café in {city}?", "Factuur {n} van {n},50 euro."],
    "pt": ["O comboio para {city} está atrasado.", "A {company} publicou os resultados.",
           "A {street_name} estará fechada na segunda.", "Alguém conhece um bom café em {city}?", "Fatura {n} de {n},50 euros."],
}  # fmt: skip
CONDITIONS = {
    "de": ["Asthma", "Diabetes", "Rheuma", "Epilepsie", "Migräne"],
    "fr": ["asthme", "épilepsie", "hypertension", "migraine", "dépression"],
    "es": ["asma", "epilepsia", "diabetes", "artrosis", "migraña"],
    "it": ["asma", "epilessia", "diabete", "ipertensione", "emicrania"],
    "nl": ["astma", "epilepsie", "diabetes", "reuma", "migraine"],
    "pt": ["asma", "epilepsia", "diabetes", "artrite", "enxaqueca"],
}
_SLOT = re.compile(r"\{(?:([A-Z_]+):)?(\w+)\}")


def _national_id(code: str, fake: Faker, rng: random.Random) -> str:
    if code == "de":  # a Steuer-ID also has one digit twice or thrice in its first ten: drawn until valid
        while not idnr.is_valid(
            number := (digits := "".join(rng.choice("123456789" if i == 0 else "0123456789") for i in range(10)))
            + mod_11_10.calc_check_digit(digits)
        ):
            pass
        return idnr.format(number)
    if code == "es":
        return fake.nie() if rng.random() < 0.3 else fake.nif()
    if code == "pt":  # Faker's Portuguese VAT numbers fail the NIF checksum
        digits = rng.choice("12356789") + "".join(rng.choice("0123456789") for _ in range(7))
        return digits + nif.calc_check_digit(digits)
    value = fake.ssn()
    return value if {"fr": nir, "it": codicefiscale, "nl": bsn}[code].is_valid(value) else _national_id(code, fake, rng)


def _phone(code: str, fake: Faker) -> str:
    """A national-format number Faker makes, valid in the country."""
    for _ in range(50):
        try:
            number = phonenumbers.parse(fake.phone_number(), REGIONS[code])
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(number) and number.country_code == phonenumbers.country_code_for_region(
            REGIONS[code]
        ):
            return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
    raise RuntimeError(f"no valid {code} phone number from Faker")


def _values(code: str, fake: Faker, rng: random.Random) -> dict[str, str]:
    street = fake.street_address().replace(" - ", "-")
    return {
        "name": f"{fake.first_name()} {fake.last_name()}",
        "first": fake.first_name(),
        "street": street,
        "street_name": re.sub(r",?\s*\d.*$", "", street),
        "address": f"{street}, {fake.postcode()} {fake.city()}",
        "phone": _phone(code, fake),
        "email": fake.free_email(),
        "iban": fake.iban(),
        "id": _national_id(code, fake, rng),
        "company": fake.company(),
        "condition": rng.choice(CONDITIONS[code]),
        "city": fake.city(),
        "n": str(rng.randint(100, 9999)),
    }


def fill(template: str, values: dict[str, str]) -> dict:
    text, spans, position = "", [], 0
    for slot in _SLOT.finditer(template):
        text += template[position : slot.start()]
        start = len(text)
        text += values[slot[2]]
        if slot[1]:
            spans.append([start, len(text), slot[1]])
        position = slot.end()
    return {"text": text + template[position:], "spans": spans}


def generate(n: int, seed: int = 7) -> list[dict]:
    """`n` messages, evenly over the six languages, a third of them without personal data."""
    rng = random.Random(seed)
    fakers = {code: Faker(locale) for code, locale in LOCALES.items()}
    for code, fake in fakers.items():
        fake.seed_instance(seed + len(code))
    rows = []
    for index in range(n):
        code = list(LOCALES)[index % len(LOCALES)]
        values = _values(code, fakers[code], rng)
        template = rng.choice(NEGATIVES[code] if (index // len(LOCALES)) % 3 == 2 else TEMPLATES[code])
        rows.append({"lang": code, "register": "dev", **fill(template, values)})
    return rows
