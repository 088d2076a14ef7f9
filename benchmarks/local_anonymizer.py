"""The local per-post anonymizer against its baselines, on a seeded sample of test profiles.

Per method: Evidence survival (share of DeepSeek-V3's evidence spans still in the text; lower
is better), Anonymity against the classifier attacker (share of labelled attributes whose top-1
guess is wrong; higher is better), BLEU / ROUGE-1 / ROUGE-L against the original, the share of
posts changed and seconds per post — all with bootstrap 95 % CIs over profiles, side by side in
one run. Methods: original, ner-mask, local (tagger + deterministic deletion, no model),
local with an adapter (`--adapter NAME=DIR`, repeatable), standard (base model, whole profile;
`--standard`, slow).

    python benchmarks/local_anonymizer.py --limit 100 --adapter sft=runs/local/sft/adapter --adapter grpo=runs/local/grpo/adapter
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from stealthflow.anonymize import build_method
from stealthflow.anonymize.local import LocalAnonymizer
from stealthflow.attack import CorrectnessJudge, top1_correct
from stealthflow.attack.classifier import load_classifier_attacker
from stealthflow.config import Settings
from stealthflow.data import load_labelled
from stealthflow.data.evidence import locate_evidence
from stealthflow.evaluation.evidence import span_survives, words
from stealthflow.evaluation.metrics import mean, share
from stealthflow.llm import ModelConfig
from stealthflow.llm.pool import LLMPool
from stealthflow.resources import split_path
from stealthflow.utility import lexical_utility

RESULTS = Path(__file__).parent / "results"


def measure(name: str, profiles, texts: list[str], seconds: float, attacker, judge) -> dict:
    kept, spans, protected, labelled, changed, posts = [], [], [], [], [], []
    bleu, rouge1, rougel = [], [], []
    attacks = attacker.attack_many(texts, [[a for a in p.labelled() if attacker.covers(a)] for p in profiles])
    for profile, text, attack in zip(profiles, texts, attacks, strict=True):
        evidence = [s.text for s in locate_evidence(profile).spans]
        tokens = words(text)
        kept.append(sum(span_survives(e, tokens) for e in evidence))
        spans.append(len(evidence))
        asked = [a for a in profile.labelled() if attacker.covers(a)]
        right = sum(
            top1_correct(judge.verdicts(a, profile.labels[a].estimate, attack.guesses[a].guesses))
            for a in asked
            if a in attack.guesses
        )
        protected.append(len(asked) - right)
        labelled.append(len(asked))
        lexical = lexical_utility(profile.text, text)
        bleu.append(lexical.bleu), rouge1.append(lexical.rouge1), rougel.append(lexical.rougel)
        new_posts = text.split("\n")
        changed.append(
            sum(a.strip() != b.strip() for a, b in zip([c.text for c in profile.comments], new_posts))
            if len(new_posts) == len(profile.comments)
            else len(profile.comments) * (text != profile.text)
        )
        posts.append(len(profile.comments))
    figures = {
        "Evidence": share(kept, spans),
        "Anonymity (classifier)": share(protected, labelled),
        "BLEU": mean(bleu),
        "ROUGE-1": mean(rouge1),
        "ROUGE-L": mean(rougel),
        "posts changed": share(changed, posts),
    }
    return {
        "method": name,
        "figures": {k: [v.value, v.low, v.high, v.n] for k, v in figures.items()},
        "seconds_per_post": seconds / max(sum(posts), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--adapter", action="append", default=[], help="NAME=DIR: the local method with this adapter")
    parser.add_argument(
        "--standard", action="store_true", help="also the base model's one-shot whole-profile rewrite (slow)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "local_anonymizer.json")
    parser.add_argument(
        "--only-adapters",
        action="store_true",
        help="run only the --adapter rows; keep --out's other rows (same sample)",
    )
    args = parser.parse_args()

    profiles = load_labelled(split_path("test"), args.limit, args.seed)
    attacker, judge = load_classifier_attacker(), CorrectnessJudge()
    settings, pool = Settings(), LLMPool()
    rows = []
    if args.only_adapters:
        kept = json.loads(args.out.read_text(encoding="utf-8"))
        if (kept["profiles"], kept["seed"]) != (len(profiles), args.seed):
            raise SystemExit(f"{args.out} holds another sample ({kept['profiles']} profiles, seed {kept['seed']})")
        replaced = {f"local ({spec.partition('=')[0]})" for spec in args.adapter}
        rows = [row for row in kept["rows"] if row["method"] not in replaced]

    def run(name: str, rewrite) -> None:
        started = time.perf_counter()
        texts = rewrite()
        rows.append(measure(name, profiles, texts, time.perf_counter() - started, attacker, judge))
        print(json.dumps(rows[-1]), flush=True)

    local = build_method("local", settings, pool, {"deterministic": True})
    if not args.only_adapters:
        run("original", lambda: [p.text for p in profiles])
        run("ner-mask", lambda: [r.text for r in build_method("ner-mask", settings, pool).anonymize_many(profiles)])
        run("local (tagger + generalization, no model)", lambda: [r.text for r in local.anonymize_many(profiles)])
    for spec in args.adapter:
        name, _, directory = spec.partition("=")
        model = ModelConfig(adapter=directory, repetition_penalty=1.0, max_new_tokens=192, batch_size=16)
        method = LocalAnonymizer(pool.get(model), local.tagger, local.generalizer)
        run(f"local ({name})", lambda method=method: [r.text for r in method.anonymize_many(profiles)])
    if args.standard and not args.only_adapters:
        run(
            "standard (base model)",
            lambda: [r.text for r in build_method("standard", settings, pool).anonymize_many(profiles)],
        )
    pool.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps({"profiles": len(profiles), "seed": args.seed, "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )
    header = "| method | Evidence ↓ | Anonymity (classifier) ↑ | BLEU | ROUGE-1 | ROUGE-L | posts changed | s/post |\n|---|---|---|---|---|---|---|---|"
    lines = [header]
    for row in rows:
        cells = [f"{v:.2f} [{lo:.2f}, {hi:.2f}]" for v, lo, hi, _ in row["figures"].values()]
        lines.append(f"| {row['method']} | " + " | ".join(cells) + f" | {row['seconds_per_post']:.3f} |")
    print("\n".join(lines))
    (args.out.with_suffix(".md")).write_text(
        f"{len(profiles)} test profiles (seeded sample, seed {args.seed}); 95 % bootstrap CIs over profiles.\n\n"
        + "\n".join(lines)
        + "\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
