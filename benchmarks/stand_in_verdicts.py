"""Blind readers' verdicts on each stand-in, and a refusal threshold fitted holding one seed out at a time.

Every edit of the judged pairs of `--seeds` (`reader_edits.edits`) that puts words in a phrase's place is a stand-in
edit, keyed by the words it puts there (`stand_in_key`). It is **accepted** when both readers judged
its post fluent and faithful, **rejected** when a reader judged the post not fluent or not faithful and that reader's
note names it (`reader_replay.names_edit`), else not counted; an edit counts once per pair.

The fit: for each threshold of the grid (a stand-in refused when rejected at least MIN times and accepted in at most
SHARE of its judged edits, `refused`) and each seed, the table of the other seeds refuses stand-ins,
and the held-out seed's labelled edits of those stand-ins are counted. The threshold chosen refuses the most rejected
edits with the accepted edits refused at most half of them (then the fewer accepted). `--out` keeps the fit and the
counts of every stand-in over all seeds. A refusal of this kind was measured and not shipped
(benchmarks/results/reader_rejects.md).

    python benchmarks/stand_in_verdicts.py --seeds 9,10,11,12,13,14,15,16,17,23,29,31,37,41,43,47,51,53,57 \
        --held-out 29,31,37,41,43,47,51,53,57 --out benchmarks/results/stand_in_verdicts.json
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from reader_edits import edits
from reader_replay import judged_pairs, names_edit

from stealthflow.evaluation.evidence import STOP_WORDS

MINS = (2, 3, 4, 5, 6)
SHARES = (0.2, 0.25, 0.34, 0.4, 0.5, 0.6)
_WORDS = re.compile(r"[\w'’-]+")


def stand_in_key(phrase: str, replacement: str) -> str:
    """The words `replacement` puts in the place of `phrase`: case-folded, without the words both share at their ends
    nor the function words opening them ("at TUM" -> "at school": "school"; "my salary" -> "my income": "income");
    "" for a removal."""
    old, new = _WORDS.findall(phrase.casefold()), _WORDS.findall(replacement.casefold())
    while old and new and old[0] == new[0]:
        old, new = old[1:], new[1:]
    while old and new and old[-1] == new[-1]:
        old, new = old[:-1], new[:-1]
    while len(new) > 1 and new[0] in STOP_WORDS:
        new = new[1:]
    return " ".join(new)


def refused(accepted: int, rejected: int, min_rejected: int, max_accepted_share: float) -> bool:
    """A stand-in with these verdicts is refused: rejected at least `min_rejected` times, and accepted in at most
    `max_accepted_share` of its judged edits."""
    return rejected >= min_rejected and accepted <= max_accepted_share * (accepted + rejected)


def labelled(seeds: list[int]) -> list[dict]:
    """Every judged pair of `seeds`: its seed, kind ("rejected": a reader judged it not fluent or not faithful;
    "accepted": both judged it fluent and faithful), the keys of its stand-in edits, and of them the labelled ones:
    (key, "accepted" or "rejected"), each counted once per pair."""
    found = []
    for kind, pairs in judged_pairs(seeds, unfaithful=True).items():
        for pair in pairs:
            readers = [
                {"fluent": fluent, "faithful": faithful, "note": note}
                for (fluent, faithful), note in zip(pair["verdicts"], pair["notes"], strict=True)
            ]
            keys, named = set(), set()
            for edit in edits(pair["original"], pair["rewrite"]):
                key = stand_in_key(edit.old, edit.new) if edit.old.strip() else ""
                if key:
                    keys.add(key)
                    if kind == "accepted" or any(names_edit(r, edit, pair["rewrite"]) for r in readers):
                        named.add(key)
            found.append({"seed": pair["seed"], "kind": kind, "keys": keys, "labelled": named})
    return found


def table(pairs: list[dict]) -> dict[str, tuple[int, int]]:
    """stand-in -> (accepted, rejected): its labelled edits."""
    counts = Counter((key, pair["kind"]) for pair in pairs for key in pair["labelled"])
    keys = sorted({key for pair in pairs for key in pair["labelled"]})
    return {key: (counts[key, "accepted"], counts[key, "rejected"]) for key in keys}


def held_out(pairs: list[dict], held: list[int], min_rejected: int, share: float) -> dict[str, int]:
    """The judged pairs of each `held` seed holding a stand-in edit the other seeds' table refuses, summed over seeds:
    the pairs a replay would no longer produce word for word, were the code that wrote them to refuse it."""
    hit: Counter = Counter()
    for seed in held:
        others = table([p for p in pairs if p["seed"] != seed])
        refused_keys = {k for k, (a, r) in others.items() if refused(a, r, min_rejected, share)}
        hit.update(p["kind"] for p in pairs if p["seed"] == seed and p["keys"] & refused_keys)
    return {"rejected": hit["rejected"], "accepted": hit["accepted"]}


def fit(pairs: list[dict], held: list[int]) -> dict:
    """Every threshold of the grid with its held-out counts, and the one chosen (see the module)."""
    grid = [{"min_rejected": m, "max_accepted_share": s, **held_out(pairs, held, m, s)} for m in MINS for s in SHARES]
    fair = [g for g in grid if g["rejected"] and 2 * g["accepted"] <= g["rejected"]]
    chosen = max(fair, key=lambda g: (g["rejected"], -g["accepted"]), default=None)
    return {"grid": grid, "chosen": chosen}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--held-out", required=True, help="the seeds each held out in turn to fit the threshold")
    parser.add_argument("--out", type=Path, help="JSON: the fit")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    held = [int(s) for s in args.held_out.split(",")]
    pairs = labelled(seeds)
    counts = table(pairs)
    report = {"seeds": seeds, "held_out": held, "pairs": dict(Counter(p["kind"] for p in pairs)), **fit(pairs, held)}
    report["counts"] = {k: v for k, v in sorted(counts.items(), key=lambda kv: (-sum(kv[1]), kv[0]))}
    chosen = report["chosen"]
    if chosen:
        report["refused"] = {
            k: v for k, v in counts.items() if refused(*v, chosen["min_rejected"], chosen["max_accepted_share"])
        }
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k not in {"grid", "counts"}}, indent=1))


if __name__ == "__main__":
    main()
