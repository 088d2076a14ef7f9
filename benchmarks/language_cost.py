"""What telling the language costs (`placeholders/language.py`): CPU seconds per MB of the letter and function-word
counting alone, of one guess of the whole text (`LinguaGuesser.guess`, lingua included) and of `read` (what detection
runs: the whole text's guess, then sentences apart where they may be in another language), on ordinary messages, on
mixed-language text and on hostile tokens. A first guess, which loads lingua, is made before the timings (and timed apart).

    python benchmarks/language_cost.py [--size 1000000] [--repeats 3]

English messages: data/pii_test.jsonl, one per line, repeated to the size; German: the `de` lines of
data/pii_multilingual_test.jsonl; hostile tokens: `stealthflow.testing.hostile`. Each figure is the median CPU time
(`time.process_time`) of `--repeats` runs; 1 KB is timed 200 times. Writes benchmarks/results/language_cost.json and
.md; prints no word of a text.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections import Counter
from pathlib import Path

from stealthflow.placeholders.language import LinguaGuesser, function_word_counts, read, uncovered_letters
from stealthflow.testing.hostile import hostile_text

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
KB = 1_000


def _lines(path: Path, lang: str | None = None) -> list[str]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row["text"] for row in rows if lang is None or row.get("lang") == lang]


def _filled(pieces: list[str], size: int, separator: str = "\n") -> str:
    text = separator.join(pieces)
    return (text * (size // len(text) + 1))[:size]


def texts(size: int) -> dict[str, str]:
    english = _lines(ROOT / "data" / "pii_test.jsonl")
    german = _lines(ROOT / "data" / "pii_multilingual_test.jsonl", "de")
    in_turn = [
        sentence for pair in zip(english, german * (len(english) // len(german) + 1), strict=False) for sentence in pair
    ]
    return {
        "English messages": _filled(english, size),
        "German and English messages in turn": _filled(in_turn, size),
        "English messages, each after two Chinese characters": _filled([f"你好 {line}" for line in english], size),
        "one token of letters and digits": hostile_text("alnum token", size),
        "words glued without spaces": hostile_text("glued words", size),
    }


def counting(text: str) -> None:
    uncovered_letters(Counter(text))
    function_word_counts(text)


def cpu_seconds(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def measure(size: int, repeats: int) -> dict:
    guesser = LinguaGuesser()
    start = time.process_time()
    guesser.guess("This sentence loads the language models before anything is timed.")
    load = time.process_time() - start
    operations = {
        "counting": counting,
        "guess": guesser.guess,
        "read": lambda text: read(text, guesser),
    }
    rows = []
    for name, text in texts(size).items():
        row = {"text": name, "characters": len(text)}
        for operation, run in operations.items():
            row[f"{operation} s per MB"] = round(cpu_seconds(lambda: run(text), repeats) * 1e6 / len(text), 3)
        rows.append(row)
    english = texts(KB)["English messages"]
    small = {op: round(cpu_seconds(lambda: run(english), 200) * 1e3, 3) for op, run in operations.items()}
    return {"first guess s": round(load, 2), "rows": rows, "1 KB English messages, ms": small}


def markdown(report: dict, size: int, repeats: int) -> str:
    lines = [
        "# What telling the language costs (`placeholders/language.py`)",
        "",
        f"`python benchmarks/language_cost.py --size {size} --repeats {repeats}`; CPU time (`time.process_time`), "
        f"median of {repeats} runs; load average {os.getloadavg()[0]:.1f} on the machine's "
        f"{os.cpu_count()} cores at the end. A first guess, which loads lingua, came before the timings "
        f"({report['first guess s']} s of CPU).",
        "",
        "counting: the letter and function-word counts alone; guess: one `LinguaGuesser.guess` of the whole text "
        "(counting and lingua); read: `language.read`, what detection runs (the whole text's guess, then sentences "
        "apart where they may be in another language).",
        "",
        "| text | characters | counting s per MB | guess s per MB | read s per MB |",
        "|---|---|---|---|---|",
    ]
    for row in report["rows"]:
        lines.append(
            f"| {row['text']} | {row['characters']} | {row['counting s per MB']} | {row['guess s per MB']} "
            f"| {row['read s per MB']} |"
        )
    small = report["1 KB English messages, ms"]
    lines += [
        "",
        f"1 KB of English messages, median of 200: counting {small['counting']} ms, guess {small['guess']} ms, "
        f"read {small['read']} ms.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="characters of each text")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    report = measure(args.size, args.repeats)
    (RESULTS / "language_cost.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    text = markdown(report, args.size, args.repeats)
    (RESULTS / "language_cost.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
