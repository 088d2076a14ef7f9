"""Training data for the PII span tagger (`stealthflow tagger build-data`).

Sentences in many shapes (chat requests, posts, emails, forms, lists, lowercase without
punctuation, several sentences) filled with values from Faker's locales (names of many
cultures, addresses of several countries, companies) and the curated lists below
(conditions, medications, incomes and assets in several currencies and wordings, secrets
introduced by context), plus hard negatives: public figures and places in non-personal
contexts, common words that are also names, numbers that are not codes, health and money
talk that is not about the writer.

Every example keeps the id of the template it came from, so validation can hold out whole
templates: the validation figure then measures generalisation to unseen phrasing.
The independent test set (benchmarks/pii_testset.py) shares none of this module.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from stealthflow.data import DataError
from stealthflow.pii_tagger.lexicons import ENGLISH_FILE, TAGGER_HEALTH
from stealthflow.placeholders.types import TYPE_LEVELS
from stealthflow.resources import data_yaml

# Placeholder types the tagger emits. Relatives' names are REAL_NAME; employer and school are
# EMPLOYER (identity background); CREDENTIAL is the catch-all for secrets named by context.
TAGGER_LABELS = ["REAL_NAME", "ADDRESS", "EMPLOYER", "HEALTH", "FINANCE", "CREDENTIAL"]

# Latin-script locales are drawn more often: chat in English mostly carries romanised names.
NAME_LOCALES = [
    "en_US", "en_GB", "en_IN", "en_NG", "en_IE", "de_DE", "fr_FR", "es_ES", "es_MX", "it_IT", "pt_BR", "nl_NL",
    "pl_PL", "sv_SE", "tr_TR", "vi_VN", "id_ID", "fil_PH", "yo_NG", "sw", "fa_IR", "ru_RU", "ja_JP", "zh_CN", "ko_KR", "hi_IN", "ar_AA",
]  # fmt: skip
ADDRESS_LOCALES = ["en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "en_IN", "en_CA", "pt_BR", "pl_PL"]
COMPANY_LOCALES = ["en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pt_BR", "sv_SE"]
_ROMANISED = {"ja_JP", "zh_CN"}  # these locales also give romanised names (first_romanized_name)
_NATIVE_SCRIPT = {"ru_RU", "ko_KR", "hi_IN", "ar_AA", "fa_IR"}

CONDITIONS, MEDICATIONS = (data_yaml(ENGLISH_FILE)[key] for key in TAGGER_HEALTH)  # data/languages/en.yaml
BIG_COMPANIES = [
    "Google",
    "Amazon",
    "Deloitte",
    "Siemens",
    "Tesco",
    "Infosys",
    "Accenture",
    "the NHS",
    "Walmart",
    "Shopify",
    "IKEA",
    "Unilever",
    "KPMG",
]
SCHOOL_SHAPES = [
    "University of {city}",
    "{city} State University",
    "{last} College",
    "{city} High School",
    "St. {first}'s Academy",
    "{city} Community College",
    "the {city} Institute of Technology",
]
RELATIVES = [
    "wife",
    "husband",
    "son",
    "daughter",
    "mom",
    "dad",
    "mother",
    "father",
    "sister",
    "brother",
    "partner",
    "boyfriend",
    "girlfriend",
    "grandma",
    "uncle",
    "aunt",
    "cousin",
    "niece",
    "fiancé",
    "stepson",
]
SECRET_WORDS = ["sunflower", "maple", "tiger", "orbit", "velvet", "copper", "harbor", "falcon", "nimbus", "pepper"]

# Hard negatives: written here (not Faker), used only in non-personal contexts.
PUBLIC_FIGURES = [
    "Barack Obama", "Angela Merkel", "Taylor Swift", "Lionel Messi", "Narendra Modi", "Shakira", "Elon Musk", "Serena Williams",
    "Marie Curie", "Albert Einstein", "Frida Kahlo", "Nelson Mandela", "Jacinda Ardern", "Haruki Murakami", "Cristiano Ronaldo",
    "Emmanuel Macron", "Oprah Winfrey", "Bill Gates", "Greta Thunberg", "Leonardo da Vinci", "Beyoncé", "Rishi Sunak", "Pope Francis",
    "Stephen Hawking", "Kamala Harris", "Virginia Woolf", "LeBron James", "Vladimir Putin", "Mahatma Gandhi", "Adele",
    "Joe Biden", "Donald Trump", "Xi Jinping", "Olaf Scholz", "Justin Trudeau", "Giorgia Meloni", "Lula da Silva", "Cyril Ramaphosa",
    "Winston Churchill", "Abraham Lincoln", "Napoleon", "Cleopatra", "Queen Elizabeth II", "King Charles", "Martin Luther King Jr.",
    "Isaac Newton", "Charles Darwin", "Ada Lovelace", "Alan Turing", "Nikola Tesla", "Galileo Galilei", "Rosalind Franklin",
    "William Shakespeare", "Jane Austen", "Toni Morrison", "Gabriel García Márquez", "Chimamanda Ngozi Adichie", "J.K. Rowling", "Stephen King",
    "Pablo Picasso", "Vincent van Gogh", "Ludwig van Beethoven", "Wolfgang Amadeus Mozart", "Bob Marley", "Freddie Mercury", "Rihanna",
    "Ed Sheeran", "Billie Eilish", "BTS", "Bad Bunny", "Lady Gaga", "Drake", "Dua Lipa", "Kendrick Lamar",
    "Roger Federer", "Rafael Nadal", "Usain Bolt", "Simone Biles", "Michael Jordan", "Kylian Mbappé", "Virat Kohli", "Naomi Osaka",
    "Tom Hanks", "Meryl Streep", "Shah Rukh Khan", "Keanu Reeves", "Zendaya", "Jackie Chan", "Christopher Nolan", "Greta Gerwig",
    "Jeff Bezos", "Mark Zuckerberg", "Warren Buffett", "Steve Jobs", "Satya Nadella", "Sam Altman", "Jensen Huang",
    "Sherlock Holmes", "Harry Potter", "Hermione Granger", "Darth Vader", "Frodo Baggins", "Captain Ahab", "Elizabeth Bennet",
]  # fmt: skip
PLACES = [
    "Paris", "the Eiffel Tower", "Tokyo", "Lagos", "Central Park", "the Louvre", "Berlin", "Mount Everest", "Buenos Aires", "Lake Como",
    "Times Square", "the Sahara", "Kyoto", "Yellowstone", "Abbey Road", "Wall Street", "Main Street", "Downing Street", "Silicon Valley",
    "the Golden Gate Bridge", "Machu Picchu", "the Colosseum", "Big Ben", "Sydney Opera House", "Niagara Falls", "the Grand Canyon",
    "Victoria Falls", "Lake Victoria", "Washington", "Lincoln Center", "Rockefeller Center", "Mount Kilimanjaro", "the Amazon", "Istanbul",
    "São Paulo", "Nairobi", "Mumbai", "Seoul", "Reykjavik", "Wembley Stadium", "Madison Square Garden", "Piccadilly Circus", "Fifth Avenue",
    "the Champs-Élysées", "Alexanderplatz", "Shibuya Crossing", "the Taj Mahal", "Angkor Wat", "Stonehenge", "Montmartre", "Brooklyn",
]  # fmt: skip
# Landmark-shaped places no list holds (public talk only, below).
LANDMARK_SHAPES = [
    "Mount {last}", "Lake {city}", "{city} Cathedral", "the {last} Museum", "{city} Castle", "the {city} Botanic Garden",
    "the {last} Gallery", "{city} Old Town", "the {last} Theatre", "{city} Abbey", "the {city} Hills", "{last} Falls",
]  # fmt: skip


@dataclass(frozen=True)
class Example:
    text: str
    spans: list[tuple[int, int, str]]
    template: str  # id of the template (hold-out unit)

    def to_json(self) -> str:
        return json.dumps(
            {"text": self.text, "spans": [list(s) for s in self.spans], "template": self.template}, ensure_ascii=False
        )


# A value marked in a hand-written message: "[Jürgen Weißmann](REAL_NAME)", with any type the detector masks;
# the structured ones (PHONE, EMAIL, IBAN, PASSWORD, URL, ...) are marked for scoring the whole detector and are
# no tagger label.
MARKED = re.compile(r"\[([^\[\]\n]+)\]\(([A-Z_]+)\)")
MARKED_TYPES = frozenset(TYPE_LEVELS)


def read_marked(path: Path) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """A file of messages, one a line, each personal value marked in place as [value](TYPE): each
    message without the marks, with the values' (start, end, type)."""
    messages = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        text, spans, last = "", [], 0
        for mark in MARKED.finditer(line):
            if mark[2] not in MARKED_TYPES:
                raise DataError(f"{path}:{number}: unknown type {mark[2]!r} (one of {', '.join(sorted(MARKED_TYPES))})")
            text += line[last : mark.start()]
            spans.append((len(text), len(text) + len(mark[1]), mark[2]))
            text += mark[1]
            last = mark.end()
        messages.append((text + line[last:], spans))
    return messages


def read_examples(path: Path) -> list[Example]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Example(r["text"], [tuple(s) for s in r["spans"]], r.get("template", "")) for r in rows]


# -- values --------------------------------------------------------------------------------
@cache
def _faker(locale: str):
    from faker import Faker

    fake = Faker(locale)
    for provider in fake.providers:
        # Faker's it_IT builds its city list from a set, so its order (and the city a seed
        # draws) changed with PYTHONHASHSEED: sorted, the data is a function of the seed alone.
        if isinstance(getattr(provider, "cities", None), list):
            provider.cities = sorted(provider.cities)
    return fake


class Values:
    """Slot values: `fill(slot)` -> (text, label or None)."""

    def __init__(self, rng: random.Random, public_talk: bool = False):
        self.rng = rng
        self.public_talk = public_talk
        for locale in sorted(
            {*NAME_LOCALES, *ADDRESS_LOCALES, *COMPANY_LOCALES}
        ):  # a fixed order: the same seeds every run
            _faker(locale).seed_instance(rng.randrange(2**31))

    def _person(self) -> tuple[str, str]:
        rng = self.rng
        latin = [loc for loc in NAME_LOCALES if loc not in _NATIVE_SCRIPT]
        locale = rng.choice(NAME_LOCALES if rng.random() < 0.15 else latin)
        fake = _faker(locale)
        if locale in _ROMANISED and rng.random() < 0.7:
            return fake.first_romanized_name(), fake.last_romanized_name()
        return fake.first_name(), fake.last_name()

    def first(self) -> str:
        return self._person()[0]

    def name(self) -> str:
        first, last = self._person()
        roll = self.rng.random()
        if roll < 0.1:
            return f"{first} {self._person()[0]} {last}"  # a middle name
        if roll < 0.17:
            return f"{first[0]}. {last}"
        return f"{first} {last}"

    def address(self) -> str:
        fake = _faker(self.rng.choice(ADDRESS_LOCALES))
        roll = self.rng.random()
        if roll < 0.45:
            return fake.street_address()
        if roll < 0.8:
            return f"{fake.street_address()}, {fake.city()}"
        return fake.address().replace("\n", ", ")

    def employer(self) -> str:
        rng = self.rng
        if rng.random() < 0.25:
            return rng.choice(BIG_COMPANIES)
        if rng.random() < 0.3:
            fake = _faker(rng.choice(ADDRESS_LOCALES))
            return rng.choice(SCHOOL_SHAPES).format(city=fake.city(), last=fake.last_name(), first=self.first())
        while len((company := _faker(rng.choice(COMPANY_LOCALES)).company()).split()) < 2:
            pass  # some locales give a bare surname as a company: not an employer anyone would write
        return company

    def health(self) -> str:
        return self.rng.choice(MEDICATIONS if self.rng.random() < 0.2 else CONDITIONS)

    def finance(self) -> str:
        rng = self.rng
        n = rng.randint(28, 240)
        return rng.choice([
            f"${n},000", f"${n}k", f"{n}k", f"£{n},{rng.randint(0, 999):03d}", f"€{rng.randint(1800, 9500):,} a month", f"{n} grand",
            f"{n},000 dollars", f"${rng.randint(15, 95)}.{rng.randint(0, 99):02d} an hour", f"₹{rng.randint(4, 40)} lakh", f"CHF {n * 1000:,}",
            f"{rng.randint(2, 12)} million yen", f"about {n}k a year", f"${rng.randint(2, 900)},{rng.randint(0, 999):03d} in savings",
            f"{rng.randint(1, 30)} BTC", f"€{n}k in debt", f"R{rng.randint(10, 90)} 000 per month",
            f"${rng.randint(1500, 9900):,} a month", f"{n} thousand a year", f"{rng.randint(2, 9)} grand a month", f"${n}K base",
            f"{n},000 euros", f"€{rng.randint(1500, 4900):,} net", f"A${n},000", f"C${n},000", f"{rng.randint(20, 60)} dollars an hour",
            f"${rng.randint(300, 1500)} a week", f"${rng.randint(1, 9)}.{rng.randint(1, 9)} million", f"£{rng.randint(10, 90)},000 in student loans",
            f"a ${n}k mortgage", f"₦{rng.randint(100, 900)},000 monthly", f"¥{rng.randint(2, 12)},000,000", f"{n * 1000:,} USD",
            f"${rng.randint(5, 80)},000 in my 401k", f"kr {rng.randint(25, 70)} 000 a month", f"${rng.randint(1, 30)},{rng.randint(0, 999):03d} in medical debt",
        ])  # fmt: skip

    def secret(self) -> str:
        rng = self.rng
        return rng.choice([
            str(rng.randint(1000, 999999)), f"{rng.choice(SECRET_WORDS)}{rng.randint(1, 999)}", f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}",
            f"{rng.choice(SECRET_WORDS).capitalize()}!{rng.randint(10, 99)}", "".join(rng.choice("abcdefghkmnpqrstuvwxyz23456789") for _ in range(rng.randint(8, 14))),
            f"{rng.choice(SECRET_WORDS)}-{rng.choice(SECRET_WORDS)}-{rng.randint(1, 99)}",
        ])  # fmt: skip

    def famous(self) -> str:
        """Someone the world knows, talked about in public terms; a third are names no list holds
        (Faker's): the tagger has to read the talk (a biography, a match, an exhibition), not
        remember the name, because the famous people users write about are a long tail."""
        if self.rng.random() < 0.65:
            return self.rng.choice(PUBLIC_FIGURES)
        first, last = self._person()
        return f"{first} {last}"

    def place(self) -> str:
        """A place people visit or read about: a known one, a city, or a landmark-shaped name."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.5:
            return rng.choice(PLACES)
        fake = _faker(rng.choice(ADDRESS_LOCALES))
        if roll < 0.75:
            return fake.city()
        return rng.choice(LANDMARK_SHAPES).format(city=fake.city(), last=fake.last_name())

    def fill(self, slot: str) -> tuple[str, str | None]:
        rng = self.rng
        labelled = {
            "NAME": (self.name, "REAL_NAME"), "FIRST": (self.first, "REAL_NAME"), "ADDRESS": (self.address, "ADDRESS"),
            "EMPLOYER": (self.employer, "EMPLOYER"), "HEALTH": (self.health, "HEALTH"), "FINANCE": (self.finance, "FINANCE"),
            "SECRET": (self.secret, "CREDENTIAL"),
        }  # fmt: skip
        if slot in labelled:
            make, label = labelled[slot]
            return " ".join(make().split()), label  # some Faker values end in a space
        if slot == "REL":
            return rng.choice(RELATIVES), None
        if slot == "PUBLIC":
            return rng.choice(PUBLIC_FIGURES), None
        if slot == "FAMOUS":
            return self.famous(), None
        if slot == "PLACE":
            return (self.place() if self.public_talk else rng.choice(PLACES)), None
        if slot == "COMPANY":  # a company in the news, not the writer's employer
            return rng.choice(BIG_COMPANIES[:8] + ["Apple", "Microsoft", "Toyota", "Netflix"]), None
        if slot == "NUM":
            return str(rng.choice([rng.randint(2, 99), rng.randint(100, 99999)])), None
        if slot == "YEAR":
            return str(rng.randint(1950, 2025)), None
        if slot == "CONDITION":  # a condition in general talk, not the writer's
            return rng.choice(CONDITIONS), None
        raise KeyError(slot)


# -- templates -------------------------------------------------------------------------------
# {SLOT}: NAME, FIRST, ADDRESS, EMPLOYER, HEALTH, FINANCE, SECRET are labelled; REL, PUBLIC, FAMOUS,
# PLACE, COMPANY, NUM, YEAR, CONDITION are context only. Negatives also use words that are names (will, May, Frank).
PII_TEMPLATES = [
    # chat requests
    "Hi, I'm {NAME} and I need help writing a cover letter.", "can you draft an email to {NAME} about the invoice",
    "Please write a birthday message for my {REL} {FIRST}.", "My name is {NAME}, how do I reset my router?",
    "Translate this for my {REL} {FIRST}: dinner is at eight.", "I'm {FIRST}. My manager {NAME} keeps ignoring my emails, what should I say?",
    "Help me reply to {NAME}, who wants the slides by Friday.", "Summarise this thread between me and {NAME}.",
    "Write a reference letter for {NAME}, who worked with me for two years.", "How do I tell {FIRST} that I am moving out?",
    "I work at {EMPLOYER} and need to ask for a raise.", "I've been a nurse at {EMPLOYER} since {YEAR}, is it time to leave?",
    "I study at {EMPLOYER} and my rent is killing me.", "They offered me {FINANCE} at {EMPLOYER}, should I take it?",
    "I was diagnosed with {HEALTH} last year, what should I eat?", "My doctor put me on {HEALTH}, is it safe with alcohol?",
    "I have {HEALTH} and my boss doesn't know.", "Can you explain my lab results? They say I have {HEALTH}.",
    "I make {FINANCE} a year, how much house can I afford?", "My salary is {FINANCE} after tax, help me budget.",
    "We have {FINANCE} and want to invest it.", "I owe {FINANCE} on my credit cards.",
    "Ship it to {ADDRESS} please.", "I just moved to {ADDRESS}, how do I register to vote?",
    "Our new flat is at {ADDRESS}, can you write the change-of-address letter?", "Send the contract to {ADDRESS}, attention {NAME}.",
    "The wifi password at the cabin is {SECRET}, write it on the welcome card.", "The door code for the building is {SECRET}.",
    "My PIN is {SECRET}, can you remember it for me?", "The alarm code is {SECRET} if you get there before me.",
    "my locker combination is {SECRET}", "Security answer: {SECRET}",
    # posts
    "Update: {FIRST} and I finally got the keys to {ADDRESS}!", "After {NUM} days in hospital with {HEALTH}, I am home.",
    "Proud to announce I've joined {EMPLOYER} as a data analyst.", "Three years at {EMPLOYER} today. Thanks everyone!",
    "My {REL} {FIRST} graduated from {EMPLOYER} today!!", "Living with {HEALTH} is exhausting, but today was a good day.",
    "Finally hit {FINANCE} in my emergency fund.", "Shoutout to {NAME} for fixing my bike.",
    "RIP {NAME}, my grandfather, who taught me to fish.", "{FIRST} from accounting just got engaged lol",
    # emails
    "Dear {NAME},\n\nThank you for your application. We will be in touch.\n\nBest regards,\n{NAME}",
    "Hi {FIRST},\nThe parcel goes to {ADDRESS}. Let me know when it ships.\nCheers,\n{FIRST}",
    "Hello team, {NAME} will cover for me while I recover from {HEALTH}.", "Dear HR, I am writing to resign from {EMPLOYER}. Kind regards, {NAME}",
    "To whom it may concern: {NAME} earns {FINANCE} per year at {EMPLOYER}.", "Hey {FIRST}, the gate code is {SECRET}. See you Saturday!",
    # forms
    "Name: {NAME}\nAddress: {ADDRESS}\nEmployer: {EMPLOYER}", "Full name: {NAME}; Annual income: {FINANCE}",
    "Patient: {NAME}\nDiagnosis: {HEALTH}", "Emergency contact: {NAME} ({REL})", "Applicant - {NAME} | Current employer - {EMPLOYER}",
    "Billing address: {ADDRESS}", "Condition(s): {HEALTH}", "Household income: {FINANCE}",
    # lists
    "- {NAME}, {EMPLOYER}\n- {NAME}, {EMPLOYER}", "Guests: {NAME}, {NAME} and {NAME}", "1. call {FIRST}\n2. pay rent\n3. pick up {HEALTH} refill",
    "todo: email {NAME}, book dentist, transfer {FINANCE} to savings",
    # relatives
    "my {REL} {FIRST} has {HEALTH}", "My {REL}, {NAME}, works at {EMPLOYER}.", "Our {REL} {FIRST} starts school next week.",
    "me and my {REL} {FIRST} are planning a trip", "{FIRST}, my {REL}, lives at {ADDRESS}.",
    # free-standing names
    "{NAME} asked me to forward this.", "Meeting notes - attendees: {NAME}, {NAME}.", "Spoke to {FIRST} this morning about the lease.",
    "Can {FIRST} borrow your car on Sunday?", "I went to school with {NAME}.", "Tell {FIRST} I said thanks.",
    # more contexts, so no single word ("at", "with") decides
    "{FIRST} wants to know if the offer still stands.", "I had lunch with {NAME} at noon.", "We are meeting {FIRST} at eight at the station.",
    "Tonight {NAME} is cooking for everyone.", "Sorry {FIRST}, I can't make it.", "lol {FIRST} you were right",
    "Interview with {NAME} moved to 3pm.", "Any idea why {FIRST} hasn't replied?", "Can you help {NAME} set up her laptop?",
    "i live at {ADDRESS} and the heating broke again", "The landlord at {ADDRESS} never answers.", "{ADDRESS} is where the party is.",
    "new address: {ADDRESS}", "We bought a house - {ADDRESS} - and moved in last week.", "pick me up from {ADDRESS} at six",
    "Since {YEAR} I have worked for {EMPLOYER}.", "{EMPLOYER} just promoted me to team lead!", "Leaving {EMPLOYER} after {NUM} years was hard.",
    "Do I need to tell {EMPLOYER} about my side project?", "currently at {EMPLOYER}, looking for something new", "I did my degree at {EMPLOYER}.",
    "The pain from {HEALTH} is worse in the mornings.", "Still waiting on the results, they suspect {HEALTH}.", "{HEALTH} runs in my family and now I have it too.",
    "I take {HEALTH} every morning.", "my therapist says my {HEALTH} is improving", "Being pregnant with {HEALTH} scares me.",
    "I bring home {FINANCE}.", "With {FINANCE} in the bank I feel safe for once.", "I was offered {FINANCE} plus bonus.",
    "we live on {FINANCE} as a family of four", "My pension pot is {FINANCE}.", "I inherited {FINANCE} from my aunt.",
    "the wifi is {SECRET}", "Garage code: {SECRET}", "My bank app PIN is {SECRET}, don't tell anyone.",
    "use {SECRET} to open the lockbox", "The safe combination is {SECRET}.", "Login for the router: admin / {SECRET}",
    # health and money in more phrasings (the student has no pretrained context layers to carry unseen ones)
    "Ever since they found {HEALTH} I can't sleep.", "Is it normal to feel tired all the time with {HEALTH}?", "I got my {HEALTH} diagnosis on Monday.",
    "Does anyone else here deal with {HEALTH}? I was diagnosed in {YEAR}.", "The specialist thinks it's {HEALTH}, not stress.",
    "I've been on {HEALTH} for six months and the side effects are rough.", "They upped my dose of {HEALTH} again.",
    "My {REL} was just diagnosed with {HEALTH} and I don't know how to help.", "recovering from {HEALTH}, so no gym for me",
    "Can I fly with {HEALTH}?", "Writing to ask for sick leave: I have {HEALTH}.", "i've had {HEALTH} since i was a kid",
    "how do I explain my {HEALTH} to a new partner", "Meds: {HEALTH}, twice a day.", "Allergies: none. Medical history: {HEALTH}.",
    "Honestly I only earn {FINANCE}, is that bad for my age?", "Between us we make {FINANCE}.", "My take-home pay is {FINANCE}.",
    "I've got {FINANCE} saved and no idea what to do with it.", "The new job pays {FINANCE}.", "I still owe {FINANCE} on the car.",
    "we've paid off everything except {FINANCE}", "My rent is half of my {FINANCE} salary.", "Salary expectations: {FINANCE}.",
    "i got a raise to {FINANCE} finally", "Our savings are down to {FINANCE}.", "Net worth: roughly {FINANCE}.",
    "After the divorce I was left with {FINANCE}.", "My dad left me {FINANCE} and my brother is furious.",
    # employers and names in more phrasings
    "I'm a software engineer at {EMPLOYER}.", "I teach at {EMPLOYER}.", "My first job was at {EMPLOYER}.", "I got laid off from {EMPLOYER} last week.",
    "Just signed my offer from {EMPLOYER}!", "Anyone else working for {EMPLOYER}? The new policy is awful.", "My {REL} got into {EMPLOYER}!",
    "I've been with {EMPLOYER} for eleven years and never got promoted.", "Should I mention on LinkedIn that I left {EMPLOYER}?",
    "My coworker {NAME} keeps taking credit for my work.", "This is {NAME} from the third floor.", "Thanks {FIRST}, that helped a lot!",
    "Could you proofread this note for {NAME}?", "{NAME} and {NAME} will join the call.", "Yesterday {FIRST} told me she is pregnant.",
    "Please add {NAME} to the guest list.", "Reminder: {FIRST}'s birthday is on Tuesday.", "I'm writing on behalf of my {REL}, {NAME}.",
    "cc {NAME}", "Signed, {NAME}", "From: {NAME}\nTo: {NAME}\nSubject: lunch", "{FIRST} said the keys are under the mat.",
]  # fmt: skip

NEGATIVE_TEMPLATES = [
    "{PUBLIC} gave a speech in {PLACE} in {YEAR}.", "Did you watch the documentary about {PUBLIC}?", "I'm reading a biography of {PUBLIC}.",
    "{PUBLIC} was born in {YEAR}, I think.", "We visited {PLACE} last summer.", "What's the best time to see {PLACE}?",
    "{COMPANY} reported record profits this quarter.", "{COMPANY} is hiring {NUM} engineers, says the news.", "Is {COMPANY} stock a good buy?",
    "{CONDITION} affects millions of adults worldwide.", "What are the early symptoms of {CONDITION}?", "New research on {CONDITION} looks promising.",
    "I will call you later.", "Maybe in May we can go camping.", "To be frank, I hated the ending.", "Can you mark this as done?",
    "The bill came to {NUM} dollars.", "I hope the summer will be warm.", "What a joy to see the roses bloom.", "June is my favourite month.",
    "Order {NUM} shipped yesterday.", "Version {NUM}.{NUM} fixes the login bug.", "Page {NUM} explains the formula.",
    "The meeting is in room {NUM}.", "I ran {NUM} km this week.", "The flight is {NUM} minutes late.", "We need {NUM} chairs for the party.",
    "The password reset link expired.", "How do I make a strong password?", "Our code review takes too long.", "What is a good PIN length?",
    "The average salary in {PLACE} went up.", "Houses near {PLACE} cost a fortune.", "Bitcoin dropped {NUM} percent today.",
    "Can you recommend a novel like the ones {PUBLIC} liked?", "Happy new year everyone!", "Is it going to rain tomorrow?",
    "my laptop fan is so loud", "Any tips for learning Spanish?", "The street food in {PLACE} is amazing.",
    # companies, money and numbers that are not about the writer
    "{COMPANY} launched a new phone today.", "Why is {COMPANY} laying people off?", "I returned the blender to {COMPANY}.",
    "{COMPANY} and {COMPANY} are merging, apparently.", "Does {COMPANY} ship to Canada?", "The {COMPANY} app keeps crashing on my phone.",
    "A coffee costs {NUM} dollars at the airport.", "The tickets were {NUM} euros each.", "Gas went up to {NUM} cents a litre.",
    "The city spent {NUM} million on the bridge.", "That TV is on sale for ${NUM}.", "Netflix raised prices by {NUM} percent.",
    "See you at eight!", "Dinner is at seven at the usual place.", "We start at noon sharp.", "The match is at {NUM} pm.",
    "I'm exhausted after the hike.", "Living in a small flat is hard with two cats.", "It was a long day but a good one.",
    "{CONDITION} is more common than people think.", "My gym has a class for people recovering from injuries.", "Is {CONDITION} contagious?",
    "{PUBLIC} was on TV again last night.", "I watched an interview with {PUBLIC}.", "My favourite singer is {PUBLIC}.",
    "Call me when you land.", "Tell them I said hi.", "Can you send me the file again?", "My sister loves hiking.",
    "My boss is on holiday this week.", "Our neighbours got a new dog.", "The code is on GitHub.", "Room {NUM}, second floor.",
    "We ordered {NUM} pizzas for the team.", "The bus takes {NUM} minutes from here.", "There are {NUM} steps to the top.",
    "{NUM} people signed the petition.", "It weighs {NUM} grams.", "Bus {NUM} is always late.", "We sold {NUM} tickets in an hour.",
    # public figures and places in history, news, art and sport; people named in titles and things
    "{PUBLIC} won the award in {YEAR}.", "Who played {PUBLIC} in the film?", "{PUBLIC} and {PUBLIC} met in {PLACE} in {YEAR}.",
    "The museum has a room about {PUBLIC}.", "I quoted {PUBLIC} in my essay on climate policy.", "Is it true that {PUBLIC} lived in {PLACE}?",
    "{PUBLIC}'s new album drops on Friday.", "A statue of {PUBLIC} stands near {PLACE}.", "Our class is studying {PUBLIC} this term.",
    "The quote is usually attributed to {PUBLIC}.", "{PUBLIC} scored twice in the second half.", "Tickets for {PUBLIC} in {PLACE} sold out in minutes.",
    "what year did {PUBLIC} die", "is {PUBLIC} still alive?", "{PUBLIC} vs {PUBLIC}: who was better?", "Reading the letters of {PUBLIC} at the library.",
    "The trip to {PLACE} took {NUM} hours by train.", "{PLACE} was packed with tourists.", "How far is {PLACE} from {PLACE}?",
    "The hotel near {PLACE} has {NUM} rooms.", "We took photos at {PLACE}.", "Is {PLACE} worth visiting in winter?",
    # numbers that are not codes or secrets
    "Error code {NUM} means the server is down.", "Area code {NUM} covers most of the city.", "The code review found {NUM} bugs.",
    "Our team's code freeze starts on the {NUM}th.", "HTTP {NUM} is not an error.", "The PIN pad at the shop was broken again.",
    "It was {NUM} degrees in {PLACE} yesterday.", "The score was {NUM} to {NUM} at half time.", "Flight {NUM} to {PLACE} is boarding.",
    "Chapter {NUM} is the best part.", "The recipe needs {NUM} grams of flour.", "Track {NUM} on the album is my favourite.",
    "The build number is {NUM}, nothing changed.", "Platform {NUM} for the train to {PLACE}.", "Exercise {NUM} in the textbook is wrong.",
    "The population of {PLACE} is about {NUM} thousand.", "In {YEAR} the company had {NUM} staff.", "Apartment prices rose {NUM} percent in {YEAR}.",
    # money and health that are not the writer's
    "The average rent in {PLACE} is {NUM} a month.", "Minimum wage went up to {NUM} an hour.", "{COMPANY} paid {NUM} million in fines.",
    "Doctors say {CONDITION} can be managed with exercise.", "The charity raised money for {CONDITION} research.", "Is {CONDITION} hereditary?",
    "A new study links {CONDITION} to poor sleep.", "How is {CONDITION} usually treated?", "The documentary on {CONDITION} was moving.",
    "The median income in {PLACE} is {NUM} thousand.", "Interest rates rose to {NUM} percent.", "The budget deficit hit {NUM} billion.",
    "Entry-level jobs at {COMPANY} pay about {NUM}k, says the article.", "A house in {PLACE} costs {NUM} times the average salary.",
    # capitalised words that are not people: titles, products, brands, months, weekdays, streets in the news
    "Monday Night Football starts at {NUM}.", "Have you played Animal Crossing?", "I finally watched Breaking Bad.",
    "The Lord of the Rings is too long.", "Grand Theft Auto comes out next year.", "Microsoft Teams keeps logging me out.",
    "Google Maps sent us the wrong way.", "Black Friday deals are live.", "Happy Mother's Day!", "Merry Christmas from all of us.",
    "The Great Barrier Reef is bleaching.", "Premier League tickets are so expensive.", "Is Amazon Prime worth it?",
    "Dear Customer, your order has shipped.", "Hello World is the first program people write.", "Good Morning America had a segment on it.",
]  # fmt: skip

# Public talk and personal news (below) join the data only with `public_talk` (build-data
# --public-talk): measured and not adopted (the shipped student's card lists what it was trained on);
# the default data stay as the shipped student and teacher saw them.
# Public talk: people and places the world knows, in the ways people write about them (art,
# sport, science, books, politics, travel). Their {FAMOUS} and {PLACE} are often names no list
# holds, so the context, not the name, says they are nobody's personal data.
PUBLIC_TALK_TEMPLATES = [
    "The {FAMOUS} retrospective at {PLACE} runs until March.", "{FAMOUS}'s sculptures look even bigger in person.",
    "Has anyone read the new {FAMOUS} novel? No spoilers please.", "{FAMOUS} narrates the audiobook and it's wonderful.",
    "What did {FAMOUS} actually discover? Homework question.", "Our physics teacher showed a clip of {FAMOUS}'s lecture on black holes.",
    "{FAMOUS} signed for the club on a three-year deal.", "Unreal assist from {FAMOUS} in the last minute!!", "is {FAMOUS} injured again or just rested",
    "{FAMOUS} resigned as minister after the vote.", "The debate between {FAMOUS} and {FAMOUS} was painful to watch.",
    "{FAMOUS} directed it, so expect long silences.", "The soundtrack is by {FAMOUS}, you can tell from the strings.",
    "Just finished {FAMOUS}'s memoir. Brutal and funny.", "Podcast rec: the episode where {FAMOUS} talks about burnout.",
    "{FAMOUS} is playing {PLACE} in June, tickets go on sale Friday.", "Essay prompt: compare {FAMOUS} and {FAMOUS} on the role of the state.",
    "Which painting by {FAMOUS} hangs in {PLACE}?", "{FAMOUS} invented the process in {YEAR}, according to the textbook.",
    "The exhibition on {FAMOUS} and the women of the Bauhaus was excellent.", "{FAMOUS} took gold in the 400m.",
    "who won bake off, was it {FAMOUS}", "{FAMOUS} has a new cookbook out and the recipes actually work.",
    "Rewatching the {FAMOUS} documentary on the deep sea.", "The prize went to {FAMOUS} for her work on proteins.",
    "Fan theory: {FAMOUS} wrote the last chapter first.", "{FAMOUS} and the orchestra were incredible last night at {PLACE}.",
    "Top 5 guitarists: {FAMOUS}, {FAMOUS}, {FAMOUS}... fight me.", "The {FAMOUS} biopic got the accent all wrong.",
    "Reading list:\n- {FAMOUS}, collected essays\n- {FAMOUS}, the early poems", "Quote of the day, from {FAMOUS}: start where you are.",
    "{FAMOUS} was the first woman to climb it without oxygen.", "The senator, {FAMOUS}, voted against the bill.",
    "Interesting interview: {FAMOUS} on why cities need trees.", "Who is {FAMOUS}? Everyone on my feed is talking about her.",
    "{FAMOUS}'s paintings of {PLACE} at dawn are my favourite.", "Saw {FAMOUS} perform at the festival, from very far back lol.",
    # places in travel, news and history
    "Day trip to {PLACE}: worth it or skip?", "We hiked up to {PLACE} and the view was unreal.", "{PLACE} is closed for repairs until spring.",
    "Is the ferry to {PLACE} running in November?", "Best bakery near {PLACE}? Visiting next week.", "The festival moves from {PLACE} to {PLACE} this year.",
    "Floods closed the roads around {PLACE} again.", "The ruins at {PLACE} are older than the pyramids, apparently.",
    "Itinerary: {PLACE} (2 nights), {PLACE} (3 nights), then home.", "how crowded is {PLACE} at easter",
    "A landslide near {PLACE} blocked the railway.", "The guided tour of {PLACE} takes about two hours.",
    # names inside titles, products and events
    "Started watching {FAMOUS} & The Night Owls, the band series everyone recommends.", "The {FAMOUS} Prize shortlist came out today.",
    "Tickets for the {FAMOUS} Memorial Lecture are free.", "We read '{FAMOUS} and the Lighthouse' in class, it was fine.",
]  # fmt: skip

# The same shapes as public talk, about the people in the writer's life: a name opening a
# sentence with news of them is still theirs ("Ines signed the lease"); without these the
# tagger learns that a name before a verb is as likely a celebrity's.
PERSONAL_NEWS_TEMPLATES = [
    "{NAME} signed the lease on our flat yesterday.", "{FIRST} finally finished her thesis, so proud!", "{NAME} directed the school play and it was lovely.",
    "{FIRST} took gold at the club swim meet!!", "{NAME} narrated our wedding video lol", "{FIRST} resigned from the committee after the vote.",
    "{FIRST} and I watched the match at the pub.", "{NAME} is injured again, so I'm driving him to physio.", "{FIRST} says hi, she's back from Lisbon.",
    "{NAME} wrote the best toast at my {REL}'s wedding.", "{FIRST}'s paintings are in the village hall this week, go see them.",
    "{NAME} was born on a Tuesday, {NUM} years ago today.", "{FIRST} won the raffle at work again.", "{FIRST} played piano at the care home on Sunday.",
    "Reading list from {FIRST}:\n- the fox book\n- the one about bees", "{NAME} scored twice for the under-12s on Saturday!",
    "{FIRST} and {FIRST} are getting married in June.", "The debate between {FIRST} and me went on all night.", "{NAME} just texted, running late.",
    "{FIRST} quoted me in her newsletter, so embarrassing.", "Who is {NAME}? She keeps messaging me about the flat.",
]  # fmt: skip

# Wrappers put a template in a wider message; "{}" is the template.
WRAPPERS = [
    "{}",
    "{}",
    "{}",
    "Hey! {}",
    "{} Thanks in advance.",
    "Quick question. {}",
    "{} Any advice?",
    "ok so {}",
    "{} :)",
    "FYI {}",
    "{}\n\nSent from my phone",
]


# Erased slots: a PII template's context words with no value in them ("draft an email to my
# boss about the invoice"), so the context alone never makes a span.
GENERIC = {
    "NAME": ["my boss", "the team", "someone", "them", "the landlord", "my neighbour", "a friend", "everyone", "the new guy"],
    "ADDRESS": ["the office", "the station", "home", "the old place", "the usual spot", "the airport", "the city centre"],
    "EMPLOYER": ["a startup", "the hospital", "a bank", "my company", "the university", "a small firm", "the same place"],
    "HEALTH": ["it", "this", "something", "the results", "nothing serious"],
    "FINANCE": ["a raise", "enough", "not much", "a lot", "the usual", "less than before"],
    "SECRET": ["on the fridge", "in the email", "the usual one", "written down somewhere", "in the group chat"],
}  # fmt: skip
GENERIC["FIRST"] = GENERIC["NAME"]


def _render(template: str, values: Values, erase: bool = False) -> tuple[str, list[tuple[int, int, str]]]:
    text, spans, last = "", [], 0
    for match in re.finditer(r"\{([A-Z]+)\}", template):
        text += template[last : match.start()]
        value, label = (
            (values.rng.choice(GENERIC[match[1]]), None) if erase and match[1] in GENERIC else values.fill(match[1])
        )
        if label:
            spans.append((len(text), len(text) + len(value), label))
        text += value
        last = match.end()
    return text + template[last:], spans


def _lowercase_no_punct(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, list[tuple[int, int, str]]] | None:
    """The same message typed fast: lowercase, no sentence punctuation (spans shift with it)."""
    lowered = text.lower()
    if len(lowered) != len(text):
        return None  # a few letters change length when lowercased
    keep = [not (ch in ".!?," and (i + 1 == len(text) or text[i + 1] in " \n")) for i, ch in enumerate(lowered)]
    position, new_index = 0, []
    for kept in keep:
        new_index.append(position)
        position += kept
    new_index.append(position)
    out = "".join(ch for ch, kept in zip(lowered, keep, strict=True) if kept)
    moved = []
    for s, e, label in spans:
        start, end = new_index[s], new_index[e]
        while end > start and out[end - 1].isspace():  # the value's own last dot went with the punctuation
            end -= 1
        if end > start:
            moved.append((start, end, label))
    return out, moved


def template_id(template: str) -> str:
    return f"{zlib.crc32(template.encode()):08x}"


def validation_templates(templates: list[str], share: float, seed: int) -> set[str]:
    """Whole templates held out for validation, drawn per slot so every type keeps some unseen
    phrasings (at least two templates of each slot that has four or more)."""
    rng = random.Random(seed)
    held: set[str] = set()
    for slot in sorted({slot for t in templates for slot in re.findall(r"\{([A-Z]+)\}", t)}):
        with_slot = [t for t in templates if f"{{{slot}}}" in t]
        if len(with_slot) >= 4:
            held |= {template_id(t) for t in rng.sample(with_slot, max(2, round(share * len(with_slot))))}
    return held or {template_id(t) for t in rng.sample(templates, max(1, round(share * len(templates))))}


def build_examples(
    n: int,
    seed: int = 0,
    templates: list[str] | None = None,
    negatives: list[str] | None = None,
    public_talk: bool = False,
) -> list[Example]:
    """`n` messages: one or two templates (3 in 10 a hard negative, 15 % of the others with their
    values erased) in a wrapper, 1 in 6 lowercased without punctuation. The example's template
    id is its first template's."""
    rng = random.Random(seed)
    values = Values(rng, public_talk)
    personal_lists, negative_lists = _template_lists(public_talk)
    templates = sum(personal_lists, []) if templates is None else templates
    negatives = sum(negative_lists, []) if negatives is None else negatives
    examples = []
    for _ in range(n):
        picks = [
            rng.choice(negatives if rng.random() < 0.3 else templates) for _ in range(1 if rng.random() < 0.7 else 2)
        ]
        text, spans = "", []
        for template in picks:
            part, part_spans = _render(template, values, erase=template in templates and rng.random() < 0.15)
            offset = len(text) + (1 if text else 0)
            text = f"{text} {part}" if text else part
            spans += [(s + offset, e + offset, label) for s, e, label in part_spans]
        wrapper = rng.choice(WRAPPERS)
        offset = wrapper.index("{}")
        text, spans = wrapper.replace("{}", text), [(s + offset, e + offset, label) for s, e, label in spans]
        if rng.random() < 1 / 6:
            text, spans = _lowercase_no_punct(text, spans) or (text, spans)
        examples.append(Example(text, spans, template_id(picks[0])))
    return examples


def _template_lists(public_talk: bool) -> tuple[list[list[str]], list[list[str]]]:
    """(personal lists, negative lists)."""
    if public_talk:
        return [PII_TEMPLATES, PERSONAL_NEWS_TEMPLATES], [NEGATIVE_TEMPLATES, PUBLIC_TALK_TEMPLATES]
    return [PII_TEMPLATES], [NEGATIVE_TEMPLATES]


def _held_out_templates(public_talk: bool, seed: int, validation_share: float) -> tuple[list[str], list[str], set, set]:
    personal_lists, negative_lists = _template_lists(public_talk)
    # each list its own seed (personal news: seed + 3, as the eighth pass's runs drew them)
    held_pii = set().union(
        *(
            validation_templates(listed, validation_share, seed + 3 * index)
            for index, listed in enumerate(personal_lists)
        )
    )
    held_neg = {
        template_id(t)
        for index, listed in enumerate(negative_lists, start=1)
        for t in random.Random(seed + index).sample(listed, round(validation_share * len(listed)))
    }
    return sum(personal_lists, []), sum(negative_lists, []), held_pii, held_neg


def build_splits(
    n: int, seed: int = 0, validation_share: float = 0.15, public_talk: bool = False
) -> tuple[list[Example], list[Example]]:
    """(train, validation): validation messages come only from held-out templates (PII and
    negative), training messages never use them. Templates are held out per list, so adding
    public talk leaves the default data's held-out templates as they were."""
    personal, negatives, held_pii, held_neg = _held_out_templates(public_talk, seed, validation_share)
    train_t = [t for t in personal if template_id(t) not in held_pii]
    train_n = [t for t in negatives if template_id(t) not in held_neg]
    train = build_examples(n, seed, train_t, train_n, public_talk)
    return train, validation_split(n, seed, validation_share, public_talk)


def validation_split(n: int, seed: int = 0, validation_share: float = 0.15, public_talk: bool = False) -> list[Example]:
    """The validation messages of `build_splits(n, seed, ...)`, without building its training messages."""
    personal, negatives, held_pii, held_neg = _held_out_templates(public_talk, seed, validation_share)
    val_t = [t for t in personal if template_id(t) in held_pii]
    val_n = [t for t in negatives if template_id(t) in held_neg]
    return build_examples(max(n // 10, 50), seed + 1000, val_t, val_n, public_talk)


def write_splits(out_dir: Path, n: int, seed: int = 0, public_talk: bool = False) -> dict[str, int]:
    out_dir.mkdir(parents=True, exist_ok=True)
    train, validation = build_splits(n, seed, public_talk=public_talk)
    for name, rows in (("train", train), ("validation", validation)):
        (out_dir / f"{name}.jsonl").write_text("".join(e.to_json() + "\n" for e in rows), encoding="utf-8")
    return {
        "train": len(train),
        "validation": len(validation),
        "validation_templates": len({e.template for e in validation}),
    }
