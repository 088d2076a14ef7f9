"""Where the acceptance gate's stand-in floor (`gate.STAND_IN_FLOOR`) comes from: the blind readers' judged stand-ins,
scored as the generalizer scores a candidate, at each floor of a grid.

The judged edits are those of `benchmarks/acceptance_gate.py` (`judged`, with `--single-edits`: the one edit of a
rewrite that made only one is rejected when its post was judged not fluent or not faithful), kept when they put words
in (a stand-in). Each is scored in its sentence (the embedded model's fluency, MiniLM nearness) and passes when the
shipped gate's chance reaches its threshold, its fluency reaches the floor and it does not `gate.breaks_structure`.
Per floor, on the stand-ins with a majority verdict: how many pass, how many of them readers rejected (`bad_share`: the
share of reader-rejected stand-ins among those passed), and the share of readers' accepted and rejected stand-ins
passed.

The rule, fixed before the check seeds are read: the floor is the lowest of the grid (0 down to -3 by 0.05) at which
`bad_share` on the `--choose` seeds, at that floor and at every floor above it up to 0, is no higher than at 0 (the
old floor). The `--check` seeds are then scored once at the old and the chosen floor.

    python benchmarks/stand_in_floor.py --choose 10 11 12 13 14 15 16 17 23 --check 29 \
        --out benchmarks/results/stand_in_floor.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from acceptance_gate import RESULTS, judged, score  # noqa: E402

from stealthflow.anonymize import gate  # noqa: E402

GRID = np.round(np.arange(0.0, -3.0001, -0.05), 2)


def stand_ins(seeds: list[int]) -> list[dict]:
    """The judged stand-ins of every reader file of `seeds`, each with its gate features (`x`), its gate chance
    (`chance`) and whether it `breaks_structure`."""
    paths = sorted(p for s in seeds for p in RESULTS.glob(f"fluency_reader_seed{s}[._]*jsonl"))
    items = [i for i in judged(paths, single_edits=True) if gate.edited_words(i["sentence"], i["edited"])[1].strip()]
    x = score(items)
    chances = gate.shipped_gate().probability(x)
    for item, row, chance in zip(items, x, chances, strict=True):
        item |= {"x": row.tolist(), "chance": float(chance)}
        item["breaks"] = gate.breaks_structure(item["sentence"], item["edited"])
    return items


def at_floor(items: list[dict], floor: float) -> dict:
    """What passes the gate with the stand-in floor at `floor`, on the items with a majority verdict."""
    clear = [i for i in items if i["accepted"] != 0.5]
    good = np.array([i["accepted"] > 0.5 for i in clear], dtype=bool)
    passed = np.array(
        [
            i["chance"] >= gate.shipped_gate().threshold
            and i["x"][gate.FEATURES.index("fluency")] >= floor
            and not i["breaks"]
            for i in clear
        ],
        dtype=bool,
    )
    return {
        "floor": float(floor),
        "passed": int(passed.sum()),
        "passed_rejected": int((passed & ~good).sum()),
        "bad_share": round(float((~good[passed]).mean()), 3) if passed.any() else 0.0,
        "accepted_passed": f"{int((passed & good).sum())} of {int(good.sum())}",
        "rejected_passed": f"{int((passed & ~good).sum())} of {int((~good).sum())}",
    }


def choose(curve: list[dict]) -> float:
    """The rule of the module: the lowest floor whose `bad_share`, and that of every floor above it, is no higher
    than at 0 (`curve` runs from 0 down)."""
    ceiling, chosen = curve[0]["bad_share"], curve[0]["floor"]
    for point in curve:
        if point["bad_share"] > ceiling:
            break
        chosen = point["floor"]
    return chosen


def examples(items: list[dict], low: float, high: float) -> list[dict]:
    """The stand-ins the floor `low` passes and `high` did not, with their verdicts."""
    fluency = gate.FEATURES.index("fluency")
    return [
        {k: i[k] for k in ("seed", "sentence", "edited", "accepted")} | {"fluency": round(i["x"][fluency], 3)}
        for i in items
        if i["chance"] >= gate.shipped_gate().threshold and not i["breaks"] and low <= i["x"][fluency] < high
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--choose", type=int, nargs="+", default=[10, 11, 12, 13, 14, 15, 16, 17, 23])
    parser.add_argument("--check", type=int, nargs="*", default=[], help="seeds scored once, after choosing")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    items = stand_ins(args.choose)
    curve = [at_floor(items, floor) for floor in GRID]
    floor = choose(curve)
    report = {
        "choose_seeds": args.choose,
        "stand_ins": len(items),
        "readers_disagree": sum(i["accepted"] == 0.5 for i in items),
        "chosen_floor": floor,
        "curve": curve,
        "newly_passed": examples(items, floor, 0.0),
    }
    if args.check:
        held = stand_ins(args.check)
        report["check"] = {
            "seeds": args.check,
            "stand_ins": len(held),
            "at_old_floor": at_floor(held, 0.0),
            "at_chosen_floor": at_floor(held, floor),
            "newly_passed": examples(held, floor, 0.0),
        }
    print(json.dumps({k: v for k, v in report.items() if k != "curve"}, indent=1, ensure_ascii=False))
    if args.out:
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
