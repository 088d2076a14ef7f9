"""Where the pattern layer's CPU time goes: detection without the PII tagger (`Detector.deterministic` over the
deterministic recognizers, as benchmarks/tagger_threads.py's "regex layer alone") on its 1 KB texts, step by step.

Steps: the normalised shadow text (`normalize.shadow`), the language read (`language.read`; beside it lingua's one
call per text alone), each recognizer's `find_many` over the texts the detector gives it, in the detector's order and
within its pass (`words_kept`: a text's words, numbers and folded form are found by the first recognizer that asks and
serve the others, so a shared cost falls on that one), and the rest (the detector's loop, cells' values, offsets mapped
back). CPU time (`time.process_time`), ms per KB, the median of `--passes` passes after a warm one; the recognizers are
also summed by family (their class's base). `--hottest N`: the N functions of most own CPU time under cProfile (its
overhead inflates small Python calls: a ranking, not a cost).

    .venv/bin/python benchmarks/detection_profile.py [--language de] [--texts 80 --passes 5]
    .venv/bin/python benchmarks/detection_profile.py --before /tmp/before/src [--language de]

`--before SRC`: the same profile of another checkout's src/ (a fresh process each, alternated over `--rounds`), side
by side with this one's. Writes `--out STEM`.json and .md (default benchmarks/results/detection_profile[_de]); prints
no word of a text.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from result_files import add_out_options, refuse_overwrite, result_stem, write_results  # noqa: E402
from tables import table  # noqa: E402
from tagger_threads import FIRST_TEXT, kilobyte_texts  # noqa: E402

STEPS = ("whole regex layer", "shadow text", "language read", "  of it lingua alone", "recognizers", "the rest")


def profile(language: str, count: int, passes: int, hottest: int) -> dict:
    """This process's profile (the code on its PYTHONPATH)."""
    import stealthflow.placeholders.detector as detector_module
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.language import shared_guesser
    from stealthflow.placeholders.recognizers import build_recognizers

    texts = kilobyte_texts(language, count)
    kilobytes = sum(map(len, texts)) / 1000
    detector = Detector(build_recognizers())

    def per_kb(seconds: float) -> float:
        return seconds * 1000 / kilobytes

    def whole() -> float:
        start = time.process_time()
        for text in texts:
            detector.deterministic(text)
        return per_kb(time.process_time() - start)

    whole()  # warm: lexicons, automata, lingua's models
    regex_layer = statistics.median(whole() for _ in range(passes))
    lingua = shared_guesser()._lingua
    start = time.process_time()
    for _ in range(passes):
        for text in texts:
            lingua.compute_language_confidence_values(text)
    lingua_alone = per_kb((time.process_time() - start) / passes)

    hot: list[tuple[str, float]] = []
    if hottest:
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        whole()
        profiler.disable()
        stats = pstats.Stats(profiler).stats  # (file, line, function) -> (calls, primitive, own time, cumulative, ...)
        ranked = sorted(stats.items(), key=lambda item: -item[1][2])[:hottest]
        hot = [(f"{Path(where[0]).name}:{where[1]}({where[2]})", per_kb(row[2])) for where, row in ranked]
    spent: dict[str, float] = {}

    def timed(name: str, run):
        def run_timed(*args, **kwargs):
            start = time.process_time()
            try:
                return run(*args, **kwargs)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - start

        return run_timed

    detector_module.shadow = timed("shadow text", detector_module.shadow)
    detector_module.read = timed("language read", detector_module.read)
    for recognizer in detector.recognizers:
        recognizer.find_many = timed(f"recognizer {recognizer.name}", recognizer.find_many)
    for _ in range(passes):
        whole()
    parts = {name: per_kb(seconds / passes) for name, seconds in spent.items()}
    recognizers = {
        name.removeprefix("recognizer "): cost for name, cost in parts.items() if name.startswith("recognizer ")
    }
    families: dict[str, float] = {}
    for recognizer in detector.recognizers:
        family = _family(recognizer)
        families[family] = families.get(family, 0.0) + recognizers.get(recognizer.name, 0.0)
    summed = parts.get("shadow text", 0) + parts.get("language read", 0) + sum(recognizers.values())
    found = {
        "whole regex layer": regex_layer,
        "shadow text": parts.get("shadow text", 0.0),
        "language read": parts.get("language read", 0.0),
        "  of it lingua alone": lingua_alone,
        "recognizers": sum(recognizers.values()),
        "the rest": regex_layer - summed,  # the detector's loop, cells, offsets; and the passes' noise
    }
    return {
        "steps": found,
        "recognizers": recognizers,
        "families": families,
        "recognizers_called": len(recognizers),
        "recognizers_built": len(detector.recognizers),
        "hottest": hot,
        "load_average": os.getloadavg()[0],
    }


def _family(recognizer) -> str:
    """Its class's name; one registered per language (`street_address_de`) under its base's (StreetAddressRecognizer)."""
    return type(recognizer).__name__.removesuffix(f"_{getattr(recognizer, 'language', '')}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--language", choices=list(FIRST_TEXT), default="en")
    parser.add_argument("--texts", type=int, default=80)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2, help="fresh processes per column, alternated (A B B A)")
    parser.add_argument("--hottest", type=int, default=15)
    parser.add_argument("--before", type=Path, help="another checkout's src/: its profile beside this one's")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # this process's profile, as JSON
    add_out_options(parser, "detection_profile[_de]")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(profile(args.language, args.texts, args.passes, args.hottest)))
        return
    stem = result_stem(args.out, "detection_profile" + ("" if args.language == "en" else f"_{args.language}"))
    refuse_overwrite(stem, args.force)
    columns = {"before": args.before.resolve(), "this checkout": None} if args.before else {"this checkout": None}
    runs: dict[str, list[dict]] = {column: [] for column in columns}
    for turn in range(args.rounds):
        for column, source in list(columns.items())[:: 1 if turn % 2 == 0 else -1]:
            command = [sys.executable, __file__, "--one", "--language", args.language, "--texts", str(args.texts)]
            command += ["--passes", str(args.passes), "--hottest", str(args.hottest)]
            env = dict(os.environ) if source is None else {**os.environ, "PYTHONPATH": str(source)}
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            runs[column].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(column, f"{runs[column][-1]['steps']['whole regex layer']:.2f} ms/KB", flush=True)

    def median(column: str, part: str, name: str) -> float:
        return statistics.median(run[part].get(name, 0.0) for run in runs[column])

    def rows(part: str, names: list[str]) -> list[list[str]]:
        return [[name] + [f"{median(column, part, name):.3f}" for column in columns] for name in names]

    last = list(columns)[-1]
    recognizers = sorted(runs[last][0]["recognizers"], key=lambda name: -median(last, "recognizers", name))
    families = sorted(runs[last][0]["families"], key=lambda name: -median(last, "families", name))
    loads = [run["load_average"] for column in columns for run in runs[column]]
    header = ["CPU ms per KB", *columns]
    lines = [
        f"# Where the pattern layer's CPU time goes ({args.language}, {args.texts} texts of 1 KB)",
        "",
        f"Median of {args.passes} passes in a process and of {args.rounds} fresh processes per column (alternated);"
        f" load average {min(loads):.1f}-{max(loads):.1f} on the machine's {os.cpu_count()} cores.",
        f" Recognizers called on these texts: {runs[last][0]['recognizers_called']} of the"
        f" {runs[last][0]['recognizers_built']} built.",
        "",
        *table(header, rows("steps", list(STEPS))),
        "",
        "By family (a recognizer's class; one registered per language counts under its base):",
        "",
        *table(header, rows("families", families)),
        "",
        "Each recognizer (those costing 0.02 ms per KB or more in the last column):",
        "",
        *table(header, rows("recognizers", [n for n in recognizers if median(last, "recognizers", n) >= 0.02])),
    ]
    for column in columns:
        lines += ["", f"Hottest functions by own CPU time under cProfile ({column}, first run), ms per KB:", ""]
        lines += table(["function", "own"], [[name, f"{cost:.3f}"] for name, cost in runs[column][0]["hottest"]])
    report = "\n".join(lines) + "\n"
    print(report, end="")
    files = {".json": json.dumps(runs, indent=1) + "\n", ".md": report}
    print(f"wrote {write_results(stem, files, args.force)}.json and .md", file=sys.stderr)


if __name__ == "__main__":
    main()
