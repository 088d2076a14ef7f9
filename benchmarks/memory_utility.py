"""Memory utility: raw vs placeholders vs irreversible masking (MemPrivacy's question on our stack), in one run.

    OMP_NUM_THREADS=2 .venv/bin/python benchmarks/memory_utility.py [--users 50] [--seed 21]   # ~5 min

1. A seeded synthetic set of users (Faker): each has 20-50 memories, facts about contacts
   (phones, emails, addresses), documents and finance (IBAN, passport, card), health, employer,
   credentials, sites and servers, and PII-free preferences, plus everyday filler; several
   memories of one kind per user (the dentist's phone beside the sister's), so retrieval has to
   tell them apart. Questions: "what is X's value?" (answer: one memory and its value) and
   questions naming a value ("whose number is V?", answer: the memory).
2. Three conditions, each a MemoryStore with the offline MiniLM: raw (nothing protected),
   placeholders (ours: deterministic recognizers, `llm_extractor=False`, the vault), and
   irreversible masking (the same detected spans replaced by `***`, nothing to restore); the last
   two again with gold spans (exactly the generated values), which separates what the
   representation costs from what detection misses.
3. Per condition: hit@1 / hit@3 of the right memory in the pack ranking, and answer recovery:
   the answer value is in the (hydrated) pack of a 60-token budget. Target (issue 21):
   placeholders lose <= 2 points of hit@3 vs raw.

Writes benchmarks/results/memory_utility.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

RESULTS = Path(__file__).parent / "results"
ANSWER_BUDGET = 60  # tokens: about four memories


# -- the synthetic users ---------------------------------------------------------------------
@dataclass(frozen=True)
class Kind:
    """One kind of fact: how a memory states it, how a question asks for it."""

    name: str
    pii_type: str | None  # the placeholder type of the value (None: not PII)
    owners: tuple[str, ...]  # whose value it is (several per user make confusable memories)
    memories: tuple[str, ...]  # templates with {owner} and {value}
    questions: tuple[str, ...]  # asking for the value: templates with {owner}
    reverse: tuple[str, ...] = ()  # naming the value, asking whose it is: templates with {value}


CONTACTS = (
    "dentist",
    "sister",
    "landlord",
    "plumber",
    "manager",
    "babysitter",
    "accountant",
    "vet",
    "brother",
    "neighbour",
)
KINDS = (
    Kind(
        "phone",
        "PHONE",
        CONTACTS,
        (
            "My {owner}'s phone number is {value}.",
            "You can reach my {owner} at {value}.",
            "Note: {owner} -> call {value}",
        ),
        ("What is my {owner}'s phone number?", "How do I call my {owner}?"),
        ("Whose phone number is {value}?", "Who answers at {value}?"),
    ),
    Kind(
        "email",
        "EMAIL",
        CONTACTS,
        ("My {owner}'s email is {value}.", "Write to my {owner} at {value}.", "The {owner} uses the address {value}"),
        ("What is my {owner}'s email address?", "Where do I email my {owner}?"),
        ("Who uses the email {value}?",),
    ),
    Kind(
        "address",
        "ADDRESS",
        ("home", "office", "parents' house", "holiday flat", "storage unit"),
        ("The address of my {owner} is {value}.", "My {owner} is at {value}."),
        ("What is the address of my {owner}?", "Where is my {owner}?"),
        ("What is at {value}?",),
    ),
    Kind(
        "iban",
        "IBAN",
        ("salary account", "savings account", "joint account"),
        ("The IBAN of my {owner} is {value}.", "My {owner}: IBAN {value}"),
        ("What is the IBAN of my {owner}?",),
        ("Which account has the IBAN {value}?",),
    ),
    Kind(
        "passport",
        "PASSPORT",
        ("my", "my son's", "my wife's"),
        ("{owner} passport number is {value}.",),
        ("What is {owner} passport number?",),
    ),
    Kind(
        "card",
        "CREDIT_CARD",
        ("travel card", "business card", "grocery card"),
        ("My {owner} number is {value}.", "I pay with my {owner}, number {value}."),
        ("What is the number of my {owner}?",),
    ),
    Kind(
        "health",
        "HEALTH",
        ("my father", "my daughter", "my mother"),
        ("{owner} was diagnosed with {value} last year.", "The doctor confirmed that {owner} has {value}."),
        ("What was {owner} diagnosed with?",),
    ),
    Kind(
        "employer",
        "EMPLOYER",
        ("my husband", "my best friend", "my sister-in-law"),
        ("{owner} works at {value} as an engineer.", "{owner} got a job at {value}."),
        ("Where does {owner} work?",),
    ),
    Kind(
        "password",
        "PASSWORD",
        ("home wifi", "gym locker", "old laptop"),
        ("The {owner} password is {value}", "Password for the {owner}: {value}"),
        ("What is the {owner} password?",),
    ),
    Kind(
        "url",
        "URL",
        ("blog", "portfolio", "band's website"),
        ("My {owner} is at {value}", "I keep my {owner} on {value}"),
        ("Where is my {owner} online?",),
        ("Whose site is {value}?",),
    ),
    Kind(
        "ip",
        "IP_ADDRESS",
        ("home server", "camera", "router"),
        ("My {owner} has the IP address {value}.",),
        ("What is the IP address of my {owner}?",),
        ("Which device is {value}?",),
    ),
    Kind(
        "name",
        "REAL_NAME",
        ("sister", "manager", "neighbour", "piano teacher"),
        ("My {owner} is called {value}.", "My {owner} {value} visited today."),
        ("What is my {owner}'s name?",),
    ),
    Kind("cuisine", None, ("favourite",), ("My {owner} cuisine is {value}.",), ("What food do I like most?",)),
    Kind(
        "pet",
        None,
        ("dog", "cat"),
        ("My {owner} is a {value}.", "We adopted a {value} as our {owner}."),
        ("What breed is my {owner}?",),
    ),
    Kind(
        "band",
        None,
        ("favourite band",),
        ("My {owner} is {value}.", "I keep listening to {value}, my {owner}."),
        ("Which music do I love?",),
    ),
    Kind("sport", None, ("weekend sport",), ("My {owner} is {value}.",), ("What do I play at the weekend?",)),
    Kind("car", None, ("car",), ("I drive a {value}.", "My {owner} is a {value}."), ("What car do I have?",)),
)
FILLER = (
    "I went hiking near {city} last weekend.",
    "Reminder: buy {food} for the party on {day}.",
    "We watched a documentary about {topic} yesterday.",
    "I want to visit {city} next summer.",
    "The meeting about {topic} moved to {day}.",
    "I started reading a book on {topic}.",
    "Cooked {food} for dinner, it turned out great.",
    "My train to {city} was late again on {day}.",
    "Thinking about learning more about {topic}.",
    "Ordered {food} from the new place downtown.",
)
DISEASES = (
    "asthma",
    "type 2 diabetes",
    "hypertension",
    "celiac disease",
    "migraine",
    "psoriasis",
    "an anxiety disorder",
)
CUISINES = ("Thai", "Ethiopian", "Peruvian", "Korean", "Lebanese", "Georgian", "Sichuan")
PETS = {
    "dog": ("border collie", "beagle", "labrador", "dachshund", "poodle"),
    "cat": ("maine coon", "siamese", "bengal", "sphynx"),
}
BANDS = ("Radiohead", "Fleetwood Mac", "Daft Punk", "ABBA", "Massive Attack", "Bon Iver")
SPORTS = ("tennis", "volleyball", "badminton", "squash", "rugby", "padel")
CARS = ("Toyota Corolla", "Volvo XC60", "Skoda Octavia", "Honda Civic", "Mazda 3", "Ford Focus")
TOPICS = (
    "volcanoes",
    "ancient Rome",
    "deep sea life",
    "urban gardening",
    "chess openings",
    "jazz history",
    "bird migration",
)
FOODS = ("lasagna", "dumplings", "tacos", "curry", "paella", "ramen", "falafel")
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


def value_for(kind: str, owner: str, fake, rng: random.Random) -> str:
    """A value the way people write it; PII kinds in formats our recognizers target."""
    if kind == "phone":
        return f"({rng.choice(['415', '212', '617', '303', '503'])}) 555-{rng.randint(100, 9999):04d}"
    if kind == "email":
        return fake.email()
    if kind == "address":
        return f"{fake.building_number()} {fake.street_name()}, {fake.city()}, {fake.state_abbr()} {fake.zipcode()}"
    if kind == "iban":
        return fake.iban()
    if kind == "passport":
        return fake.bothify("?########").upper()
    if kind == "card":
        number = fake.credit_card_number(card_type="visa16")
        return " ".join(number[i : i + 4] for i in range(0, 16, 4))
    if kind == "password":
        return fake.password(length=12)
    if kind == "url":
        return f"https://{fake.domain_name()}/{fake.slug()}"
    if kind == "ip":
        return fake.ipv4_private()
    if kind == "name":
        return fake.name()
    if kind == "employer":
        return fake.company()
    pools = {
        "health": DISEASES,
        "cuisine": CUISINES,
        "pet": PETS.get(owner),
        "band": BANDS,
        "sport": SPORTS,
        "car": CARS,
    }
    return rng.choice(pools[kind])


@dataclass
class Question:
    text: str
    memory: int  # index into the user's memories
    answer: str | None  # the value to find in the pack (None: a question naming the value)
    pii: bool
    names_value: bool


@dataclass
class User:
    id: str
    memories: list[str]
    values: list[tuple[str, str] | None]  # each memory's PII (value, type), to check detection
    questions: list[Question]


def make_users(n: int, seed: int) -> list[User]:
    from faker import Faker

    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    users = []
    for u in range(n):
        size = rng.randint(20, 50)
        facts: list[tuple[Kind, str, str]] = []  # kind, owner, value
        for kind in rng.sample(KINDS, rng.randint(8, len(KINDS))):
            for owner in rng.sample(kind.owners, rng.randint(1, min(3, len(kind.owners)))):
                facts.append((kind, owner, value_for(kind.name, owner, fake, rng)))
        rng.shuffle(facts)
        facts = facts[: size - 4]  # at least four filler memories
        memories, values, questions = [], [], []
        for kind, owner, value in facts:
            memory = rng.choice(kind.memories).format(owner=owner, value=value)
            memories.append(memory[0].upper() + memory[1:])
            values.append((value, kind.pii_type) if kind.pii_type else None)
        while len(memories) < size:
            slots = {
                "city": fake.city(),
                "food": rng.choice(FOODS),
                "day": rng.choice(DAYS),
                "topic": rng.choice(TOPICS),
            }
            memories.append(rng.choice(FILLER).format(**slots))
            values.append(None)
        order = list(range(size))
        rng.shuffle(order)  # facts and filler interleaved; order also drives the recency tie-break
        memories, values = [memories[i] for i in order], [values[i] for i in order]
        where = {i: order.index(i) for i in range(len(facts))}
        for i, (kind, owner, value) in enumerate(facts):
            if rng.random() < 0.35:
                continue
            pii = kind.pii_type is not None
            if kind.reverse and rng.random() < 0.3:
                questions.append(Question(rng.choice(kind.reverse).format(value=value), where[i], None, pii, True))
            else:
                questions.append(Question(rng.choice(kind.questions).format(owner=owner), where[i], value, pii, False))
        users.append(User(f"user{u:03d}", memories, values, questions))
    return users


# -- the conditions --------------------------------------------------------------------------
def gold_recognizer(users: list[User]):
    """A recognizer that knows every generated PII value: the spans a perfect detector finds.
    It separates what the representation (placeholder or ***) costs from what detection misses."""
    from stealthflow.placeholders.recognizers.base import Recognizer

    known = {v: t for u in users for v, t in filter(None, u.values)}

    class GoldSpans(Recognizer):
        name, type = "benchmark_gold", "PERSONAL"

        def find(self, text: str) -> list:
            return [
                self.span(start, start + len(value), span_type=t)
                for value, t in known.items()
                if (start := text.find(value)) >= 0
            ]

    return GoldSpans()


class Baseline:
    """The two baselines in the protector's place in MemoryStore: raw (nothing changed), and
    irreversible masking (the spans the protector masks become ***; restore changes nothing)."""

    def __init__(self, protector=None):
        self.protector = protector  # None: raw

    @staticmethod
    def _masked(text: str, spans) -> str:
        pieces, last = [], 0
        for span in sorted(spans, key=lambda s: s.start):
            pieces += [text[last : span.start], "***"]
            last = span.end
        return "".join(pieces) + text[last:]

    def protect_many(self, texts: list[str], session: str) -> list[SimpleNamespace]:
        if self.protector is None:
            return [SimpleNamespace(text=t) for t in texts]
        protected = self.protector.protect_many(texts, f"masking:{session}")
        return [SimpleNamespace(text=self._masked(t, p.spans)) for t, p in zip(texts, protected, strict=True)]

    def protect(self, text: str, session: str) -> SimpleNamespace:
        return self.protect_many([text], session)[0]

    def restore(self, text: str, session: str) -> SimpleNamespace:
        return SimpleNamespace(text=text)


def pct(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def evaluate(store, users: list[User]) -> dict:
    hits1 = hits3 = hits3_named = named = recovered = recovered_pii = answerable = answerable_pii = total = 0
    for user in users:
        ids = [item.id for item in store.append_many(user.id, user.memories)]
        for q in user.questions:
            ranked = [item.id for item in store.pack(user.id, q.text, budget_tokens=10**6).items]
            target = ids[q.memory]
            total += 1
            hits1 += ranked[:1] == [target]
            hits3 += target in ranked[:3]
            if q.names_value:
                named += 1
                hits3_named += target in ranked[:3]
            if q.answer is not None:
                packed = store.pack(user.id, q.text, budget_tokens=ANSWER_BUDGET)
                found = q.answer in store.hydrate(user.id, packed.text, packed.request)
                answerable += 1
                recovered += found
                if q.pii:
                    answerable_pii += 1
                    recovered_pii += found
    return {
        "questions": total,
        "hit@1": pct(hits1, total),
        "hit@3": pct(hits3, total),
        "hit@3_value_in_question": pct(hits3_named, named),
        "answer_recovered": pct(recovered, answerable),
        "answer_recovered_pii": pct(recovered_pii, answerable_pii),
    }


def masked_share(store, users: list[User]) -> dict[str, float]:
    """Per PII type, the share of generated values that no stored memory holds in clear."""
    stored = {u.id: " ".join(m.text for m in store.list(u.id)) for u in users}
    caught: dict[str, list[bool]] = {}
    for u in users:
        for value, pii_type in filter(None, u.values):
            caught.setdefault(pii_type, []).append(value not in stored[u.id])
    caught["all"] = [c for cs in caught.values() for c in cs]
    return {t: pct(sum(c), len(c)) for t, c in sorted(caught.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()

    from stealthflow.memory import MemoryStore
    from stealthflow.memory.store import minilm_embedder
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.keys import new_secret
    from stealthflow.placeholders.policy import ProtectConfig

    os.environ.setdefault("STEALTHFLOW_VAULT_KEY", new_secret())
    users = make_users(args.users, args.seed)
    memories = sum(len(u.memories) for u in users)
    questions = [q for u in users for q in u.questions]
    print(
        f"{len(users)} users, {memories} memories ({sum(v is not None for u in users for v in u.values)} with PII), {len(questions)} questions "
        f"({sum(q.names_value for q in questions)} naming a value, {sum(q.answer is not None and q.pii for q in questions)} asking for a PII value)",
        flush=True,
    )
    embed = minilm_embedder()
    rows, coverage = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        config = ProtectConfig(vault_path=Path(tmp) / "vault.sqlite", key_source="env", llm_extractor=False)
        vault = open_vault(config)
        detected = Protector(config, vault, Detector())
        gold = Protector(config.model_copy(update={"user": "gold"}), vault, Detector([gold_recognizer(users)]))
        conditions = {
            "raw": Baseline(),
            "placeholders": detected,
            "masking (***)": Baseline(detected),
            "placeholders, gold spans": gold,
            "masking (***), gold spans": Baseline(gold),
        }
        for number, (name, condition) in enumerate(conditions.items()):
            start = time.perf_counter()
            store = MemoryStore(Path(tmp) / f"condition{number}.sqlite", condition, embed=embed)
            rows[name] = evaluate(store, users)
            rows[name]["seconds"] = round(time.perf_counter() - start, 1)
            if name == "placeholders":
                coverage = masked_share(store, users)
            store.close()
            print(json.dumps({"condition": name, **rows[name]}), flush=True)

    raw = rows["raw"]
    lines = [
        (
            f"{len(users)} synthetic users, {memories} memories, {len(questions)} questions (seed {args.seed}); "
            f"answer recovered = the answer value is in the hydrated pack of {ANSWER_BUDGET} tokens; MiniLM embeddings."
        ),
        "",
        "| condition | hit@1 | hit@3 | Δ hit@3 vs raw | hit@3, value named in the question | answer recovered | answer recovered, PII values |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r in rows.items():
        lines.append(
            f"| {name} | {r['hit@1']} | {r['hit@3']} | {r['hit@3'] - raw['hit@3']:+.1f} | {r['hit@3_value_in_question']} | {r['answer_recovered']} | {r['answer_recovered_pii']} |"
        )
    lines += [
        "",
        "Generated PII values the deterministic recognizers masked (placeholders row; gold spans: 100 %):",
        "",
    ]
    lines += ["| type | masked |", "|---|---:|", *(f"| {t} | {share} % |" for t, share in coverage.items())]
    table = "\n".join(lines)
    print("\n" + table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "memory_utility.md").write_text(table + "\n")
    result = {
        "users": args.users,
        "seed": args.seed,
        "memories": memories,
        "answer_budget_tokens": ANSWER_BUDGET,
        "conditions": rows,
        "masked_by_type": coverage,
    }
    (RESULTS / "memory_utility.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
