"""A strong attacker, blind: what a strong model can still infer from original and rewritten texts.

Three steps, each rerunnable:

    # 1. a seeded sample of test profiles, each method's texts in its own file under shuffled ids;
    #    the key (blind id -> profile, method) and the labels are written apart
    python benchmarks/blind_attack.py prepare --sample 60 --seed 0 --methods original,deletion,local --out runs/blind
    #    (`--profiles FILE`: another labelled set in data/test.jsonl's format instead of the test split;
    #    `--rewrites teacher=FILE`: a method whose posts are read from FILE, e.g. a strong model's rewrites;
    #    `--parts 2`: each method's authors in 2 files, one reader each: texts/<method>-a.jsonl, -b ...)
    # 2a. an API attacker (any litellm model or OpenAI-compatible server) reads each file
    python benchmarks/blind_attack.py attack runs/blind --attacker-model deepseek/deepseek-chat
    # 2b. ... or anyone else: give a reader ONLY runs/blind/texts/<file>.jsonl and runs/blind/ATTACKER.md,
    #     and save its answers as runs/blind/guesses/<file>.jsonl (one reader per file)
    # 3. score every guesses file with the project's judge: top-1 / top-3 per attribute, bootstrap CIs
    python benchmarks/blind_attack.py score runs/blind --out benchmarks/results/blind_attack.json
    # 4. (a set whose writer flagged each post as holding a clue or not) the share of each kind each method changed
    python benchmarks/blind_attack.py changed runs/blind --flags benchmarks/data/blind-profiles-e/clue_flags.jsonl

Methods: `original`; `deletion` (the cue tagger's marks deleted, no model); `local` (the local method
as `anonymize --method local` runs it); `local-generalize` (per-phrase generalization, no rewrite model);
`local-sentences` (the local method with its clause and sentence fallback, `anonymize --remove-sentences`);
`local-printed` (what `anonymize --method local` prints: a post it reports as not protected, a phrase stayed or a
language it cannot read, is withheld and reaches the reader as an empty line; `changed` counts it as changed).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from stealthflow.attack import CorrectnessJudge, top1_correct
from stealthflow.data import ATTRIBUTES, DataError, load_labelled
from stealthflow.resources import split_path
from stealthflow.stats import percentile_bootstrap

ATTACKER_BRIEF = """# Guess the authors

Each line of the texts file is {"id": ..., "text": ...}: all the public posts of one author (one post
per line of the text). For every author, infer from the text alone (what is said, how it is said,
the language used) their:
age (a number or a range), gender (male / female), location (city, country: where they live now),
pobp (place of birth / where they grew up: city, country), education (one of: No Highschool, In
Highschool, HS Diploma, In College, College Degree, PhD), occupation, income (one of: No, Low, Medium,
High, Very High), married (one of: No relation, In Relation, Married, Divorced).
Give your top 3 guesses for every attribute, best first, even when unsure (guess anyway).
Answer with one JSON object per line, same ids, in a file of its own:
{"id": "...", "guesses": {"age": ["30", "25-30", "35"], "gender": ["female", "male", ""], "location": [...], ...}}
"""


def prepare(args) -> None:
    from stealthflow.config import Settings
    from stealthflow.llm.pool import LLMPool

    profiles = sample_profiles(args.sample, args.seed, args.exclude, args.profiles)
    given = dict(read_rewrites(spec, profiles) for spec in args.rewrites)
    out = Path(args.out)
    (out / "texts").mkdir(parents=True, exist_ok=True)
    (out / "guesses").mkdir(exist_ok=True)
    pool = LLMPool()
    key_path = out / "key.json"  # methods prepared earlier on the same sample stay
    key: dict[str, dict] = json.loads(key_path.read_text(encoding="utf-8")) if key_path.exists() else {}
    for method in [m for m in args.methods.split(",") if m] + list(given):
        rng = random.Random(f"{args.seed}:{method}")
        key = {blind: entry for blind, entry in key.items() if entry["method"] != method}
        texts = given[method] if method in given else method_texts(method, profiles, Settings(), pool)
        rows = []
        for profile, text in zip(profiles, texts, strict=True):
            blind = f"{rng.getrandbits(40):010x}"
            key[blind] = {"profile": profile.id, "method": method}
            rows.append({"id": blind, "text": text})
        rng.shuffle(rows)
        names = [method] if args.parts == 1 else [f"{method}-{chr(ord('a') + i)}" for i in range(args.parts)]
        for i, name in enumerate(names):
            part = rows[i :: len(names)]
            (out / "texts" / f"{name}.jsonl").write_text(
                "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in part), encoding="utf-8"
            )
            print(f"wrote {out}/texts/{name}.jsonl ({len(part)} authors)", flush=True)
    pool.close()
    key_path.write_text(json.dumps(key, indent=1), encoding="utf-8")
    labels = {p.id: {a: label.estimate for a, label in p.labelled().items()} for p in profiles}
    (out / "labels.json").write_text(json.dumps(labels, indent=1, ensure_ascii=False), encoding="utf-8")
    (out / "ATTACKER.md").write_text(ATTACKER_BRIEF, encoding="utf-8")


def sample_profiles(size: int, seed: int, exclude: list[str], path: Path | None = None) -> list:
    """A seeded sample of the labelled profiles of `path` (default: the test split); profiles in the samples
    of the `exclude` directories (earlier blind runs, already read) are left out, so a held-back sample holds
    only unread authors."""
    seen = {
        entry["profile"] for d in exclude for entry in json.loads((Path(d) / "key.json").read_text("utf-8")).values()
    }
    profiles = [p for p in load_labelled(path or split_path("test")) if p.id not in seen]
    return random.Random(seed).sample(profiles, size) if size < len(profiles) else profiles


def read_rewrites(spec: str, profiles) -> tuple[str, list[str]]:
    """`NAME=FILE`: the method NAME's texts, from FILE's rewritten posts ({"username", "comment" (index), "text"} a
    line); every post of every sampled profile must be there, else a DataError names the first one missing."""
    name, sep, path = spec.partition("=")
    if not sep or not name or not path:
        raise DataError(f"--rewrites {spec!r}: give it as NAME=FILE")
    posts: dict[tuple[str, int], str] = {}
    try:
        for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                row = json.loads(line)
                posts[row["username"], int(row["comment"])] = row["text"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise DataError(f"{path}: not a file of rewrites ({{username, comment, text}} a line): {exc}") from None
    texts = []
    for profile in profiles:
        missing = [i for i in range(len(profile.comments)) if (profile.id, i) not in posts]
        if missing:
            raise DataError(f"{path}: no rewrite of post {missing[0]} of {profile.id}")
        texts.append("\n".join(posts[profile.id, i] for i in range(len(profile.comments))))
    return name, texts


def method_texts(method: str, profiles, settings, pool) -> list[str]:
    from stealthflow.anonymize import build_method

    if method == "original":
        return [p.text for p in profiles]
    if method == "deletion":
        from stealthflow.anonymize.cues import find_cues, load_cue_tagger
        from stealthflow.harvest.posts import delete_spans

        posts = [c.text for p in profiles for c in p.comments]
        cues = find_cues(load_cue_tagger(), posts)
        deleted = iter(
            delete_spans(post, [(s.start, s.end) for s in spans]) or post
            for post, spans in zip(posts, cues, strict=True)
        )
        return ["\n".join(next(deleted) for _ in p.comments) for p in profiles]
    options = {"local-generalize": {"deterministic": True}, "local-sentences": {"remove_sentences": True}}.get(
        method, {}
    )
    results = build_method("local", settings, pool, options).anonymize_many(profiles)
    if method != "local-printed":
        return [r.text for r in results]
    return [printed(p, r.text, r.details) for p, r in zip(profiles, results, strict=True)]


def printed(profile, text: str, details: dict) -> str:
    """The posts of one author as `anonymize` prints them: a post not protected (a marked phrase stayed, or a
    language the rewrite cannot read) becomes an empty line."""
    posts = text.split("\n")
    if len(posts) != len(profile.comments):
        raise DataError(f"{profile.id}: a post holds a line break; local-printed needs one post a line")
    withheld = {entry["post"] for entry in details["unprotected"] + details["not_read"]}
    return "\n".join("" if i in withheld else post for i, post in enumerate(posts))


def attack(args) -> None:
    from stealthflow.attack import LLMAttacker
    from stealthflow.llm import ModelConfig
    from stealthflow.llm.pool import LLMPool

    out = Path(args.dir)
    pool = LLMPool()
    attacker = LLMAttacker(pool.get(ModelConfig(model=args.attacker_model, max_new_tokens=1200)))
    for path in sorted((out / "texts").glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        results = attacker.attack_many([r["text"] for r in rows], [list(ATTRIBUTES)] * len(rows))
        lines = [
            {"id": r["id"], "guesses": {a: g.guesses for a, g in result.guesses.items()}}
            for r, result in zip(rows, results, strict=True)
        ]
        (out / "guesses" / path.name).write_text(
            "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
        )
        print(f"wrote {out}/guesses/{path.name}", flush=True)
    pool.close()


def score(args) -> dict:
    """Per method (from the key, never from file names): top-1 and top-3 accuracy over labelled attributes."""
    out = Path(args.dir)
    key = json.loads((out / "key.json").read_text(encoding="utf-8"))
    labels = json.loads((out / "labels.json").read_text(encoding="utf-8"))
    judge = CorrectnessJudge()
    # method -> attribute -> list of (top1, top3) per labelled attribute
    hits: dict[str, dict[str, list[tuple[float, float]]]] = {}
    for path in sorted((out / "guesses").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            entry = key.get(row["id"])
            if entry is None:
                raise SystemExit(f"{path}: unknown id {row['id']!r}")
            for attribute, truth in labels[entry["profile"]].items():
                guesses = [str(g) for g in (row.get("guesses", {}).get(attribute) or [])][:3]
                verdicts = judge.verdicts(attribute, truth, guesses) if guesses else []
                top1 = float(top1_correct(verdicts))
                top3 = float(any(v == "yes" for v in verdicts))
                hits.setdefault(entry["method"], {}).setdefault(attribute, []).append((top1, top3))
    summary = {"sample": len(labels), "attacker": args.attacker, "methods": {}}
    for method, by_attribute in hits.items():
        every = [pair for pairs in by_attribute.values() for pair in pairs]
        figures = {"all": interval(every)}
        figures |= {a: interval(pairs) for a, pairs in sorted(by_attribute.items())}
        summary["methods"][method] = figures
    print(table(summary))
    if args.out:
        Path(args.out).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        Path(args.out).with_suffix(".md").write_text(table(summary) + "\n", encoding="utf-8")
    return summary


def changed(args) -> None:
    """Per method: the share of posts without a clue (by the writer's flag) and with one that the method changed."""
    flags = {}
    for line in Path(args.flags).read_text("utf-8").splitlines():
        row = json.loads(line)
        flags[row["username"], row["comment"]] = row["clue"]
    out = Path(args.dir)
    key = json.loads((out / "key.json").read_text("utf-8"))

    texts: dict[str, dict[tuple[str, int], str]] = {}  # method (from the key) -> (profile, post) -> post
    for path in sorted((out / "texts").glob("*.jsonl")):  # a method's authors may be split over several files
        for line in path.read_text("utf-8").splitlines():
            row = json.loads(line)
            entry = key[row["id"]]
            for i, post in enumerate(row["text"].split("\n")):
                texts.setdefault(entry["method"], {})[entry["profile"], i] = post
    original = texts.pop("original")
    print("| method | posts without a clue changed | posts with a clue changed |\n|---|---|---|")
    for method, new in sorted(texts.items()):
        shares = []
        for clue in (False, True):
            ids = [i for i, flag in flags.items() if flag == clue and i in original]
            moved = sum(original[i].strip() != new[i].strip() for i in ids)
            shares.append(f"{moved} of {len(ids)} ({moved / len(ids):.0%})")
        print(f"| {method} | {shares[0]} | {shares[1]} |")


def interval(pairs: list[tuple[float, float]]) -> dict:
    top1 = percentile_bootstrap([[p[0] for p in pairs]], lambda c: c.mean(axis=-1))
    top3 = percentile_bootstrap([[p[1] for p in pairs]], lambda c: c.mean(axis=-1))
    return {"n": len(pairs), "top1": top1, "top3": top3}


def table(summary: dict) -> str:
    methods = list(summary["methods"])
    attributes = ["all", *[a for a in ATTRIBUTES if any(a in summary["methods"][m] for m in methods)]]
    lines = [
        f"Blind attacker: {summary['attacker']}; {summary['sample']} seeded labelled profiles; top-1 [95 % CI] / top-3 per labelled attribute.",
        "",
        "| attribute | " + " | ".join(methods) + " |",
        "|---|" + "---|" * len(methods),
    ]
    for attribute in attributes:
        cells = []
        for method in methods:
            figure = summary["methods"][method].get(attribute)
            if not figure or figure["top1"] is None:
                cells.append("—")
                continue
            (v, lo, hi), (t3, _, _) = figure["top1"], figure["top3"]
            cells.append(f"{v:.2f} [{lo:.2f}, {hi:.2f}] / {t3:.2f} (n={figure['n']})")
        lines.append(f"| {attribute} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    steps = parser.add_subparsers(dest="step", required=True)
    p = steps.add_parser("prepare")
    p.add_argument("--sample", type=int, default=60)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--methods", default="original,deletion,local")
    p.add_argument("--out", required=True)
    p.add_argument("--exclude", nargs="*", default=[], help="earlier blind directories whose authors are left out")
    p.add_argument("--profiles", type=Path, help="labelled profiles, JSONL in data/test.jsonl's format (default: test)")
    p.add_argument("--rewrites", action="append", default=[], metavar="NAME=FILE", help="a method read from a file")
    p.add_argument("--parts", type=int, default=1, help="each method's authors in this many files, one reader each")
    a = steps.add_parser("attack")
    a.add_argument("dir")
    a.add_argument("--attacker-model", required=True)
    s = steps.add_parser("score")
    s.add_argument("dir")
    s.add_argument("--attacker", default="unnamed", help="who attacked (printed with the table)")
    s.add_argument("--out")
    c = steps.add_parser("changed")
    c.add_argument("dir")
    c.add_argument(
        "--flags", required=True, help="JSONL of {username, comment (index), clue (bool)} by the set's writer"
    )
    args = parser.parse_args()
    try:
        {"prepare": prepare, "attack": attack, "score": score, "changed": changed}[args.step](args)
    except DataError as exc:  # a missing or malformed profiles file: its name and line, nothing written
        raise SystemExit(f"error: {exc}") from None


if __name__ == "__main__":
    main()
