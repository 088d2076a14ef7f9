"""The independent test set for PII detection: written apart from the tagger's training
generator (src/stealthflow/pii_tagger/training/data.py) with other templates, other value
lists and other Faker locales, and never used to tune anything.

    python benchmarks/pii_testset.py [--n 400] [--seed 19] [--out data/pii_test.jsonl]

Each line: {"text", "spans": [[start, end, TYPE], ...]}; a message without spans is a
distractor (public figures, landmarks, words that are also names, numbers that are not codes).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import string
from pathlib import Path

from faker import Faker

OUT = Path(__file__).resolve().parent.parent / "data" / "pii_test.jsonl"
# None of these locales is used by the training generator.
PEOPLE = [
    "cs_CZ",
    "hu_HU",
    "ro_RO",
    "fi_FI",
    "da_DK",
    "no_NO",
    "hr_HR",
    "es_AR",
    "pt_PT",
    "en_AU",
    "en_PH",
    "en_KE",
    "ig_NG",
    "ha_NG",
    "zu_ZA",
    "lt_LT",
    "sk_SK",
    "et_EE",
]
PLACES_OF = ["en_AU", "en_NZ", "fi_FI", "cs_CZ", "da_DK", "es_AR", "pt_PT", "no_NO"]
FIRMS_OF = ["en_AU", "cs_CZ", "fi_FI", "da_DK", "hu_HU", "ro_RO", "no_NO"]

ILLNESSES = [
    "hypertension", "cystic fibrosis", "sickle cell anemia", "a thyroid nodule", "Parkinson's", "anorexia", "chronic kidney disease",
    "shingles", "Graves' disease", "a heart murmur", "vertigo", "scoliosis", "sciatica", "melanoma", "Tourette's", "narcolepsy",
    "a stomach ulcer", "osteoporosis", "seasonal affective disorder", "clinical depression", "borderline personality disorder",
    "gestational diabetes", "pancreatitis", "a brain tumour", "hemophilia", "Lyme disease", "a slipped disc", "social anxiety",
]  # fmt: skip
SCHOOLS = [
    "Universidad de {city}",
    "{city} Polytechnic",
    "the {last} School of Design",
    "{city} Grammar School",
    "{last} Business School",
]


def _money(rng: random.Random) -> str:
    n = rng.randint(31, 180)
    return rng.choice([
        f"{n} thousand a year", f"${rng.randint(3, 9)}.{rng.randint(1, 9)}k/month", f"NZD {n},500", f"{rng.randint(1100, 4800):,} euros net",
        f"¥{rng.randint(3, 9)},{rng.randint(100, 999)},000", f"SEK {rng.randint(25, 70)} 000 monthly", f"US${n},000", f"£{rng.randint(9, 38)}/hr",
        f"AUD {n}k", f"{n}K per annum", f"${rng.randint(150, 900)}k in my 401k", f"a {n}k mortgage",
    ])  # fmt: skip


def _password(rng: random.Random) -> str:
    return rng.choice(
        [
            f"Blue{rng.randint(100, 999)}#dog",
            "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(12)),
            f"summer-{rng.randint(1990, 2020)}!",
        ]
    )


def _luhn(prefix: str, rng: random.Random) -> str:
    body = prefix + "".join(rng.choice(string.digits) for _ in range(15 - len(prefix)))
    total = sum(
        (d * 2 - 9 if d * 2 > 9 else d * 2) if i % 2 == 0 else d for i, d in enumerate(int(c) for c in reversed(body))
    )
    return body + str((10 - total % 10) % 10)


def _iban_nl(rng: random.Random) -> str:
    bban = "ABNA" + "".join(rng.choice(string.digits) for _ in range(10))
    check = 98 - int("".join(str(int(c, 36)) for c in bban + "NL00")) % 97
    return f"NL{check:02d}{bban}"


class Fill:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.fakers = {
            loc: Faker(loc) for loc in sorted({*PEOPLE, *PLACES_OF, *FIRMS_OF})
        }  # seeded below in a fixed order
        for fake in self.fakers.values():
            fake.seed_instance(rng.randrange(2**31))

    def __call__(self, slot: str) -> tuple[str, str | None]:
        rng, fakers = self.rng, self.fakers
        person = fakers[rng.choice(PEOPLE)]
        if slot == "PERSON":
            return f"{person.first_name()} {person.last_name()}", "REAL_NAME"
        if slot == "GIVEN":
            return person.first_name(), "REAL_NAME"
        if slot == "HOME":
            place = fakers[rng.choice(PLACES_OF)]
            return (
                place.street_address() if rng.random() < 0.5 else f"{place.street_address()}, {place.city()}"
            ), "ADDRESS"
        if slot == "WORKPLACE":
            if rng.random() < 0.25:
                place = fakers[rng.choice(PLACES_OF)]
                return rng.choice(SCHOOLS).format(city=place.city(), last=place.last_name()), "EMPLOYER"
            return fakers[rng.choice(FIRMS_OF)].company(), "EMPLOYER"
        if slot == "ILLNESS":
            return rng.choice(ILLNESSES), "HEALTH"
        if slot == "MONEY":
            return _money(rng), "FINANCE"
        if slot == "MAIL":
            return (
                f"{person.first_name().lower()}{rng.randint(1, 999)}@{rng.choice(['proton.me', 'outlook.com', 'web.de', 'yahoo.co.uk'])}",
                "EMAIL",
            )
        if slot == "TEL":
            return rng.choice(
                [
                    f"+61 4{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)}",
                    f"(646) {rng.randint(201, 989)}-{rng.randint(1000, 9999)}",
                    f"+33 6 {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)}",
                ]
            ), "PHONE"
        if slot == "CARD":
            number = _luhn(rng.choice(["4", "37", "52"]), rng)
            return " ".join(number[i : i + 4] for i in range(0, 16, 4)), "CREDIT_CARD"
        if slot == "BANK":
            return _iban_nl(rng), "IBAN"
        if slot == "PASS":
            return _password(rng), "PASSWORD"
        if slot == "CODE":
            return "".join(rng.choice(string.digits) for _ in range(rng.choice([5, 6, 6]))), "OTP"
        if slot == "TOKEN":
            return rng.choice(
                [
                    "glpat-" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(20)),
                    "AIza" + "".join(rng.choice(string.ascii_letters + string.digits + "_-") for _ in range(35)),
                ]
            ), "API_KEY"
        if slot == "IP":
            return f"10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(2, 254)}", "IP_ADDRESS"
        raise KeyError(slot)


TEMPLATES = [
    "Could you proofread this note to {PERSON}? I wrote it in a hurry.", "pls remind me to call {GIVEN} tmrw",
    "{PERSON} and I are co-authoring a paper, how should we split the sections?", "What gift should I get {GIVEN} for our anniversary?",
    "Draft a polite no to {PERSON}, who invited me to speak.", "Yesterday {PERSON} lent me her umbrella, write a thank-you text.",
    "hey its {GIVEN} again, still stuck on the same bug", "This is {PERSON} from the third floor, the printer is jammed.",
    "Looking for advice: my stepdad {GIVEN} drinks too much.", "Thanks, {GIVEN}! Talk soon.", "Best wishes, {PERSON}",
    "Our landlord {PERSON} refuses to fix the heating.", "Can you help me plan {GIVEN}'s surprise party?", "I'm going to the wedding with {PERSON}.",
    "Where do I send mail for {PERSON}? She is at {HOME} now.", "We are renting a room at {HOME} until March.",
    "Deliveries to {HOME} keep going missing.", "How do I get from the airport to {HOME} by bus?", "my place is {HOME}, come by at 7",
    "I've been employed by {WORKPLACE} for six years.", "Just signed my offer from {WORKPLACE}!", "I teach maths at {WORKPLACE}.",
    "Do you think {WORKPLACE} will approve my remote-work request?", "I got laid off from {WORKPLACE} this morning.",
    "my gp thinks it is {ILLNESS}", "Since I found out I have {ILLNESS} I can't sleep.", "Is running okay for someone with {ILLNESS} like me?",
    "The specialist confirmed {ILLNESS}. What questions should I ask?", "Dealing with {ILLNESS} and a full-time job is hard.",
    "My take-home pay is {MONEY}.", "I'm on {MONEY}, is that fair for a junior?", "We have {MONEY}, should we pay it off early?",
    "My partner earns {MONEY} and I earn less, how do we split rent?", "Paid {MONEY}, but my rent eats half of it.",
    "write to me at {MAIL}", "My number is {TEL}, text first.", "Card: {CARD}, expires 11/28.", "Transfer the deposit to {BANK}.",
    "the admin login is admin / {PASS}", "I reset it to {PASS} so you can log in.", "The number in the SMS was {CODE}, does that look right?",
    "They sent {CODE} as my login code.", "Our CI token is {TOKEN}, keep it safe.", "The NAS sits at {IP} on the home network.",
]  # fmt: skip

DISTRACTORS = [
    "Roger Federer retired in 2022 after 24 years on tour.", "Is the Colosseum open on Mondays?", "Ada Lovelace wrote the first published algorithm.",
    "Dolly Parton has written more than 3000 songs.", "Machu Picchu gets crowded by 10 am.", "Winston Churchill won the Nobel Prize in Literature.",
    "Kylian Mbappé scored twice against Belgium.", "The Sydney Opera House took 14 years to build.", "Sue me, I like pineapple on pizza.",
    "Pat the dough flat before baking.", "The bob haircut is back in style.", "We got up at dawn to see the eclipse.", "Art class starts at 4.",
    "Not a penny more for that subscription.", "Holly and ivy on the front door.", "Ruby on Rails 7.1 is out.", "Sterling fell against the dollar.",
    "Flight 2490 boards at gate 17.", "The ISBN is printed on the back cover.", "Ticket 48213 was closed without a reply.", "Room 305 has the projector.",
    "Chapter 12 covers heat transfer.", "The recipe needs 250 grams of flour.", "Our team won 3 to 1 on Sunday.", "Shakespeare wrote Hamlet around 1600.",
    "Why did Microsoft buy GitHub?", "Hypertension is called the silent killer in textbooks.", "Average rents in Lisbon rose 9 percent.",
    "What does a strong passphrase look like?", "The verification step is confusing for new users.", "Frida Kahlo painted 55 self-portraits.",
    "I can't decide between the blue and the green sofa.", "Train 7 to Kyoto leaves at 9:40.", "The Danube flows through four capitals.",
    "Mark the calendar for the 14th.", "Will it snow in Denver this weekend?", "Grace Hopper popularised the term debugging.", "Lake Bled is stunning in autumn.",
    "Build 1042 passed all tests.", "The marathon record is just over two hours.",
]  # fmt: skip


def render(template: str, fill: Fill) -> tuple[str, list[list]]:
    text, spans, last = "", [], 0
    for match in re.finditer(r"\{([A-Z]+)\}", template):
        text += template[last : match.start()]
        value, kind = fill(match[1])
        spans.append([len(text), len(text) + len(value), kind])
        text += value
        last = match.end()
    return text + template[last:], spans


def build(n: int, seed: int) -> list[dict]:
    """1 in 5 messages is a distractor; the rest join one or two templates."""
    rng = random.Random(seed)
    fill = Fill(rng)
    rows = []
    for i in range(n):
        if i % 5 == 4:
            rows.append({"text": rng.choice(DISTRACTORS), "spans": []})
            continue
        text, spans = "", []
        for template in rng.sample(TEMPLATES, 1 if rng.random() < 0.6 else 2):
            part, part_spans = render(template, fill)
            offset = len(text) + (1 if text else 0)
            text = f"{text} {part}" if text else part
            spans += [[s + offset, e + offset, kind] for s, e, kind in part_spans]
        rows.append({"text": text, "spans": spans})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    rows = build(args.n, args.seed)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(
        f"wrote {len(rows)} messages ({sum(not r['spans'] for r in rows)} distractors, {sum(len(r['spans']) for r in rows)} spans) to {args.out}"
    )


if __name__ == "__main__":
    main()
