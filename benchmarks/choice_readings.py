"""The choice attacker's top-1 per attribute against majority, per reading of the text and calibration alpha.

`split` holds back a seeded share of the train profiles as a validation split (harvest the SFT rows from
the rest: `stealthflow harvest-posts --profiles DIR/train-rest.jsonl ...`). `score` asks the model (+ adapter)
every labelled choice attribute of each profile and writes the options' raw log-probabilities per reading
(`full`: the whole text, as `train choice-eval` reads it; `cue150`: the cue tagger's sentences for the asked
attribute first, up to 150 words, `--cue-first 150`) and the content-free ones (`attack/choice.py`): a JSONL
file, resumed when rerun. `table` scores them at each alpha (`--calibration`) without the model: choose the
reading and alpha on the validation split, then run `train choice-eval` on the test split once.

    python benchmarks/choice_readings.py split --out runs/choice --share 0.2 --seed 47
    python benchmarks/choice_readings.py score --data runs/choice/validation.jsonl --adapter A --scores val.jsonl
    python benchmarks/choice_readings.py table --data runs/choice/validation.jsonl --scores val.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from stealthflow.attack import CorrectnessJudge
from stealthflow.attack.choice import CHOICE_ATTRIBUTES, Choice, as_attack_result
from stealthflow.attack.classifier import classes_for
from stealthflow.attack.strength import POOLED, attacker_accuracy
from stealthflow.data import load_labelled
from stealthflow.resources import split_path

CONTENT_FREE_ROW = "content-free"
READINGS = ("full", "cue150")


def split(out: Path, share: float, seed: int) -> None:
    lines = [line for line in split_path("train").read_text(encoding="utf-8").splitlines() if line.strip()]
    order = list(range(len(lines)))
    random.Random(seed).shuffle(order)
    held = set(order[: round(share * len(lines))])
    out.mkdir(parents=True, exist_ok=True)
    for name, keep in (("validation", True), ("train-rest", False)):
        chosen = [line for i, line in enumerate(lines) if (i in held) == keep]
        (out / f"{name}.jsonl").write_text("".join(line + "\n" for line in chosen), encoding="utf-8")
        print(f"{out / name}.jsonl: {len(chosen)} profiles")


def score(data: Path, limit: int | None, sample_seed: int | None, adapter: str | None, out: Path) -> None:
    import torch

    from stealthflow.anonymize.cues import CueFirst, load_cue_tagger
    from stealthflow.training.models import load_choice_attacker

    torch.set_num_threads(1)
    attacker = load_choice_attacker("embedded", adapter)
    readers = {"full": lambda text, _: " ".join(text.split()), "cue150": CueFirst(load_cue_tagger(), 150)}
    done = {json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()} if out.exists() else set()
    with out.open("a", encoding="utf-8") as sink:
        if CONTENT_FREE_ROW not in done:
            free = {a: attacker.content_free_logprobs(a) for a in CHOICE_ATTRIBUTES}
            sink.write(json.dumps({"id": CONTENT_FREE_ROW, "scores": free}) + "\n")
        for profile in load_labelled(data, limit, sample_seed):
            asked = [a for a in profile.labelled() if a in CHOICE_ATTRIBUTES]
            if profile.id in done or not asked:
                continue
            shown = {(r, a): readers[r](profile.text, a) for r in READINGS for a in asked}
            scored = {}
            for text in dict.fromkeys(shown.values()):
                wanted = list(dict.fromkeys(a for (_, a), seen in shown.items() if seen == text))
                scored[text] = attacker.option_logprobs_many(text, wanted)
            rows = {r: {a: scored[shown[r, a]][a] for a in asked} for r in READINGS}
            sink.write(json.dumps({"id": profile.id, "scores": rows}) + "\n")
            sink.flush()


def table(
    data: Path, limit: int | None, sample_seed: int | None, scores: Path, alphas: list[float], readings: list[str]
) -> None:
    lines = [json.loads(line) for line in scores.read_text(encoding="utf-8").splitlines()]
    free = next(line["scores"] for line in lines if line["id"] == CONTENT_FREE_ROW)
    by_id = {line["id"]: line["scores"] for line in lines if line["id"] != CONTENT_FREE_ROW}
    profiles = [p for p in load_labelled(data, limit, sample_seed) if p.id in by_id]
    print(f"{len(profiles)} profiles scored; top-1 / majority per attribute (summed log-probabilities)")
    for reading in readings:
        for alpha in alphas:
            results = []
            for profile in profiles:
                choices = {}
                for attribute, (logprobs, lengths) in by_id[profile.id][reading].items():
                    calibrated = [lp - alpha * f for lp, f in zip(logprobs, free[attribute], strict=True)]
                    choices[attribute] = Choice.from_scores(
                        attribute, classes_for(attribute), calibrated, lengths, False
                    )
                results.append(as_attack_result(choices))
            order = [a for a in CHOICE_ATTRIBUTES if any(a in p.labelled() for p in profiles)]
            rows = attacker_accuracy(reading, profiles, results, order, judge=CorrectnessJudge())
            above = sum(r.attribute != POOLED and r.top1.value > r.chance.majority_top1.mean() for r in rows)
            cells = [f"{r.attribute} ({r.n}) {r.top1.value:.2f}/{r.chance.majority_top1.mean():.2f}" for r in rows]
            print(f"{reading} alpha={alpha:g}: above majority on {above} | " + " | ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("split", "score", "table"))
    parser.add_argument("--data", type=Path, default=split_path("test"))
    parser.add_argument("--limit", type=int)
    parser.add_argument("--sample-seed", type=int)
    parser.add_argument("--adapter")
    parser.add_argument("--scores", type=Path, help="score: where to write; table: what to read")
    parser.add_argument("--out", type=Path, help="split: directory of the two parts")
    parser.add_argument("--share", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--alphas", default="0,0.25,0.5,0.75,1")
    parser.add_argument("--readings", default=",".join(READINGS), help="table: the readings to show")
    args = parser.parse_args()
    if args.step == "split":
        split(args.out, args.share, args.seed)
    elif args.step == "score":
        score(args.data, args.limit, args.sample_seed, args.adapter, args.scores)
    else:
        alphas = [float(a) for a in args.alphas.split(",")]
        table(args.data, args.limit, args.sample_seed, args.scores, alphas, args.readings.split(","))


if __name__ == "__main__":
    main()
