"""One person, one placeholder, measured on annotated files ({"text", "lang", "pii": [{"value", "type"}]}, default: every
benchmarks/data/pii-heldout-* file): sessions of two turns, protected by the detector `stealthflow protect` builds
(recognizers and the PII tagger, default levels) with a fresh vault and key in a temporary directory. Turn 1 is a text
with an annotated person's name of two capitalised words; turn 2 a text of the same language with one annotated name of
one word, replaced by the person's given name (its first word) in one session and by the family name (its last word)
in another. Counts, where turn 1 masked the name whole: the parts in turn 2 given the person's placeholder (linked) or
masked at all, and the spans of turn 2 given the person's placeholder that are not the part (wrong links). And within
one text, every text with an annotated name of two words, each in a session of its own: the other occurrences of a part
of the name alone given the person's placeholder, and the spans inside another annotated name of several words given
it (wrong links: "Diop" of "Ousmane Diop" given "Mamadou Diop"'s).

    python benchmarks/pii_name_links.py [FILE ...] [--pairs N] [--seed S] [--show]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import random
import re
import secrets
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from stealthflow.pipeline.protector import Protector, open_vault
from stealthflow.placeholders.detector import Detector
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.placeholders.recognizers import build_recognizers

DATA = Path(__file__).resolve().parent / "data"
NAME = "REAL_NAME"
_CAPITALISED = re.compile(r"[^\W\d_][^\W\d_'’-]+(?:-[^\W\d_]+)?")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="*")
    parser.add_argument("--pairs", type=int, default=40, help="sessions per language and part (default 40)")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--show", action="store_true", help="print each turn 2 as masked")
    args = parser.parse_args()
    files = args.files or sorted(DATA.glob("pii-heldout*/*.jsonl"))
    rows = [json.loads(line) for path in files for line in path.read_text(encoding="utf-8").splitlines() if line]
    people, mentions, named = defaultdict(list), defaultdict(list), []
    for row in rows:
        names = [p["value"] for p in row["pii"] if p["type"] == NAME]
        for name in names:
            if _full_name(name) and name in row["text"]:
                people[row["lang"]].append((row["text"], name))
        if any(_full_name(name) and name in row["text"] for name in names):
            named.append((row["text"], names))
        if len(names) == 1 and _word(names[0]) and len(re.findall(rf"\b{re.escape(names[0])}\b", row["text"])) == 1:
            mentions[row["lang"]].append((row["text"], names[0]))
    rng = random.Random(args.seed)
    os.environ["STEALTHFLOW_VAULT_KEY"] = base64.b64encode(secrets.token_bytes(32)).decode()
    counts: dict[str, Counter] = defaultdict(Counter)
    with tempfile.TemporaryDirectory() as tmp:
        config = ProtectConfig(vault_path=Path(tmp) / "vault.sqlite", key_source="env", llm_extractor=False)
        detector = Detector(build_recognizers(config.recognizers, models=True, model=config.tagger_model))
        protector = Protector(config, open_vault(config), detector)
        number = 0
        for code in sorted(set(people) & set(mentions)):
            pairs = [(rng.choice(people[code]), rng.choice(mentions[code])) for _ in range(args.pairs)]
            for (first, name), (second, word) in pairs:
                words = name.split()
                for part, which in ((words[0], "given"), (words[-1], "family")):
                    number += 1
                    count = counts[which]
                    count["sessions"] += 1
                    session = f"links-{number}"
                    turn1 = protector.protect(first, session)
                    whole = [s.placeholder for s in turn1.spans if first[s.start : s.end] == name]
                    if not whole:
                        count["name not masked whole"] += 1
                        continue
                    placeholder = whole[0]
                    start = re.search(rf"\b{re.escape(word)}\b", second).start()
                    text = second[:start] + part + second[start + len(word) :]
                    turn2 = protector.protect(text, session)
                    at = [s for s in turn2.spans if s.start <= start < s.end]
                    count["held"] += 1
                    count["masked"] += bool(at)
                    count["linked"] += bool(at) and at[0].placeholder == placeholder
                    count["wrong links"] += sum(
                        s.placeholder == placeholder and text[s.start : s.end] not in (part, name) for s in turn2.spans
                    )
                    if args.show:
                        print(which, placeholder, "|", turn2.text)
        for text, names in dict.fromkeys((text, tuple(names)) for text, names in named):
            number += 1
            spans = protector.protect(text, f"links-{number}").spans
            for name in names:
                if _full_name(name) and (held := [s.placeholder for s in spans if text[s.start : s.end] == name]):
                    _within(text, name, names, spans, held[0], counts["within"])
        protector.close()
    print("| part in turn 2 | sessions | name masked whole in turn 1 | part masked | part linked | wrong links |")
    print("|---|---|---|---|---|---|")
    for which in ("given", "family"):
        count = counts[which]
        held = count["held"] or 1
        print(
            f"| {which} name | {count['sessions']} | {count['held']} | {count['masked']} ({count['masked'] / held:.0%})"
            f" | {count['linked']} ({count['linked'] / held:.0%}) | {count['wrong links']} |"
        )
    within = counts["within"]
    print(
        f"\nwithin one text: {within['parts']} other mentions of a part alone, {within['masked']} masked,"
        f" {within['linked']} given the person's placeholder; wrong links {within['wrong links']}"
    )


def _full_name(name: str) -> bool:
    """A person's name of two capitalised words, each of three letters or more."""
    words = name.split()
    return len(words) == 2 and all(_word(word) for word in words)


def _word(word: str) -> bool:
    return len(word) >= 3 and word[:1].isupper() and bool(_CAPITALISED.fullmatch(word))


def _within(text: str, name: str, names, spans, placeholder: str, count: Counter) -> None:
    """Count the mentions of a part of `name` alone in `text` (outside any annotated name of several words), masked and
    given `placeholder`; and the spans given it inside another annotated name of several words (wrong links)."""
    others = [
        (m.start(), m.end()) for other in names if other != name and len(other.split()) > 1 for m in _found(other, text)
    ]
    count["wrong links"] += sum(
        s.placeholder == placeholder and any(a <= s.start < b for a, b in others) for s in spans
    )
    inside = [(m.start(), m.end()) for m in _found(name, text)] + others
    for part in dict.fromkeys(name.split()):
        for match in re.finditer(rf"\b{re.escape(part)}\b", text):
            if any(start <= match.start() < end for start, end in inside):
                continue
            at = [s for s in spans if s.start <= match.start() < s.end]
            count["parts"] += 1
            count["masked"] += bool(at)
            count["linked"] += bool(at) and at[0].placeholder == placeholder


def _found(value: str, text: str):
    return re.finditer(re.escape(value), text)


if __name__ == "__main__":
    main()
