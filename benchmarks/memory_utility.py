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
4. Pack's relevance floor (min_score): every row is scored at each floor of SWEEP, at the default and at none, from
   one ranking per question, and the scores of the right memory and the others are listed. Rule for the default,
   written before it was scored: the highest floor of SWEEP at which answer recovered and hit@3 of the raw and
   placeholders rows lose 0.0 points against no floor, and at or below the p1 of the right memory's score there.

Writes benchmarks/results/memory_utility.json and .md (`--render JSON`: a run's tables again, at the store's default
floor, which must be one the run scored).
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

import numpy as np

from stealthflow.memory.store import MIN_SCORE

RESULTS = Path(__file__).parent / "results"
ANSWER_BUDGET = 60  # tokens: about four memories
NO_FLOOR = -1.0  # a relevance floor below every cosine: pack as it was without one
SWEEP = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3)  # relevance floors scored beside the default


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
            return [SimpleNamespace(text=t, warnings=(), keys=()) for t in texts]
        protected = self.protector.protect_many(texts, f"masking:{session}")
        return [
            SimpleNamespace(text=self._masked(t, p.spans), warnings=(), keys=())
            for t, p in zip(texts, protected, strict=True)
        ]

    def redact(self, text: str, session: str) -> str:
        return self.protect_many([text], session)[0].text

    config = SimpleNamespace(guarded_types=frozenset)  # nothing to guard: restore changes nothing

    def restore(self, text: str, session: str, scope=None) -> SimpleNamespace:
        return SimpleNamespace(text=text)


def pct(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def evaluate(store, users: list[User], floors: tuple[float, ...]) -> tuple[dict, dict]:
    """The condition's row for each relevance floor (packs with no floor, filtered: the greedy pack keeps every
    memory at or above a floor whatever lies below it, so the filter is the floor's pack), and the scores of the
    right memory and of the others (each question's top 10 but the right one)."""
    counts = {f: dict.fromkeys(("h1", "h3", "h3n", "rec", "recp", "sent"), 0) for f in floors}
    total = named = answerable = answerable_pii = 0
    right, others = [], []
    for user in users:
        ids = [item.id for item in store.append_many(user.id, user.memories)]
        for q in user.questions:
            ranking = store.pack(user.id, q.text, budget_tokens=10**6, min_score=-1.0).items
            target = ids[q.memory]
            right += [i.score for i in ranking if i.id == target]
            others += [i.score for i in ranking[:10] if i.id != target]
            total += 1
            named += q.names_value
            if q.answer is not None:
                answerable += 1
                answerable_pii += q.pii
                packed = store.pack(user.id, q.text, budget_tokens=ANSWER_BUDGET, min_score=-1.0)
            for floor, c in counts.items():
                ranked = [i.id for i in ranking if i.score >= floor]
                c["h1"] += ranked[:1] == [target]
                c["h3"] += target in ranked[:3]
                c["h3n"] += q.names_value and target in ranked[:3]
                if q.answer is not None:
                    kept = [i for i in packed.items if i.score >= floor]
                    text = "\n".join(f"- {i.text}" for i in kept)
                    c["sent"] += len(kept)
                    found = q.answer in store.hydrate(user.id, text, packed.request)
                    c["rec"] += found
                    c["recp"] += q.pii and found
    rows = {
        floor: {
            "questions": total,
            "hit@1": pct(c["h1"], total),
            "hit@3": pct(c["h3"], total),
            "hit@3_value_in_question": pct(c["h3n"], named),
            "answer_recovered": pct(c["rec"], answerable),
            "answer_recovered_pii": pct(c["recp"], answerable_pii),
            "memories_per_pack": round(c["sent"] / answerable, 2) if answerable else None,
        }
        for floor, c in counts.items()
    }
    return rows, {"right": right, "others": others}


def quantiles(scores: list[float]) -> dict[str, float]:
    points = np.quantile(np.asarray(scores), [0.0, 0.01, 0.05, 0.5, 0.95, 0.99, 1.0]) if scores else []
    return {name: round(float(v), 3) for name, v in zip(("min", "p1", "p5", "p50", "p95", "p99", "max"), points)}


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
    parser.add_argument("--render", type=Path, help="a run's memory_utility.json: its tables again, at today's default")
    args = parser.parse_args()
    if args.render:
        write(json.loads(args.render.read_text()))
        return

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
    floors = tuple(sorted({NO_FLOOR, MIN_SCORE, *SWEEP}))
    by_floor, scores, coverage = {}, {}, {}
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
            by_floor[name], found = evaluate(store, users, floors)
            scores[name] = {side: quantiles(values) for side, values in found.items()}
            if name == "placeholders":
                coverage = masked_share(store, users)
            store.close()
            print(json.dumps({"condition": name, "seconds": round(time.perf_counter() - start, 1)}), flush=True)

    write(
        {
            "users": args.users,
            "seed": args.seed,
            "memories": memories,
            "questions": len(questions),
            "answer_budget_tokens": ANSWER_BUDGET,
            "by_floor": {name: {str(f): r for f, r in rows.items()} for name, rows in by_floor.items()},
            "scores": scores,
            "masked_by_type": coverage,
        }
    )


def write(result: dict) -> None:
    """The run's tables, at the store's default floor (MIN_SCORE) and by floor, into results/memory_utility.md and
    (with the default floor's rows as `conditions`) .json."""
    by_floor = result["by_floor"]
    rows = {name: r[str(MIN_SCORE)] for name, r in by_floor.items()}
    floors = list(next(iter(by_floor.values())))
    raw = rows["raw"]
    lines = [
        (
            f"{result['users']} synthetic users, {result['memories']} memories, {result['questions']} questions "
            f"(seed {result['seed']}); answer recovered = the answer value is in the hydrated pack of "
            f"{result['answer_budget_tokens']} tokens; MiniLM embeddings; pack's relevance floor min_score {MIN_SCORE} "
            "(its default)."
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
        "Answer recovered (hit@3; memories in a pack of the budget) by relevance floor (min_score; -1.0: no floor):",
        "",
        "| condition | " + " | ".join(floors) + " |",
        "|---|" + "---:|" * len(floors),
        *(
            f"| {name} | "
            + " | ".join(f"{r[f]['answer_recovered']} ({r[f]['hit@3']}; {r[f]['memories_per_pack']})" for f in floors)
            + " |"
            for name, r in by_floor.items()
        ),
        "",
        "Cosine scores of the right memory and of the others in each question's top 10:",
        "",
        "| condition | memory | min | p1 | p5 | p50 | p95 | p99 | max |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {name} | {side} | " + " | ".join(str(v) for v in q.values()) + " |"
            for name, sides in result["scores"].items()
            for side, q in sides.items()
        ),
        "",
        "Generated PII values the deterministic recognizers masked (placeholders row; gold spans: 100 %):",
        "",
        "| type | masked |",
        "|---|---:|",
        *(f"| {t} | {share} % |" for t, share in result["masked_by_type"].items()),
    ]
    table = "\n".join(lines)
    print("\n" + table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "memory_utility.md").write_text(table + "\n")
    result = {**result, "min_score": MIN_SCORE, "conditions": rows}
    (RESULTS / "memory_utility.json").write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
