"""Instructions per KB of detection at 1 KB (valgrind's callgrind): the regex layer and the PII tagger, this
checkout against another checkout's src/. On a shared machine the CPU time moves with the load (caches, clock);
an instruction count does not, so it shows a change's size where timings cannot.

Each side runs in a process under callgrind with counting off while it loads and warms up (two passes over the
texts), then counts one pass of the regex layer alone (deterministic recognizers and the language guess) and one
of detection with the tagger; the tagger's share is the difference. The texts are the 1 KB messages of
benchmarks/tagger_threads.py.

    git archive main src | tar -x -C /tmp/before   # the code to compare with (and link models/, data/ beside it)
    .venv/bin/python benchmarks/tagger_instructions.py --before /tmp/before/src [--texts 10]

Writes benchmarks/results/tagger_instructions.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tables import table  # noqa: E402

RESULTS = Path(__file__).parent / "results"
PARTS = ("regex layer", "regex layer + tagger")


def _callgrind(command: str) -> None:
    subprocess.run(["callgrind_control", command, str(os.getpid())], check=True, capture_output=True)


def count(texts: int) -> None:
    """Run in a process under callgrind: load, warm up, then count each part once (a dump per part)."""
    from pii_detection import build_set, kilobyte_messages

    from stealthflow.pii_tagger.model import load_pii_tagger
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    messages = kilobyte_messages(build_set(400, seed=7), texts, seed=11)
    detectors = {
        "regex layer": Detector(build_recognizers()),
        "regex layer + tagger": Detector([*build_recognizers(), PiiTaggerRecognizer(tagger=load_pii_tagger())]),
    }
    for _ in range(2):
        for detector in detectors.values():
            for text in messages:
                detector.deterministic(text)
    _callgrind("--instr=on")
    for detector in detectors.values():
        _callgrind("--zero")
        for text in messages:
            detector.deterministic(text)
        _callgrind("--dump")
    _callgrind("--instr=off")
    print(json.dumps({"kilobytes": sum(map(len, messages)) / 1000}))


def measure(source: Path | None, texts: int) -> dict[str, float]:
    """Millions of instructions per KB of each part, in a callgrind process running `source` (None: this checkout)."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", **({"PYTHONPATH": str(source)} if source else {})}
    with tempfile.TemporaryDirectory() as tmp:
        command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/cg.out"]
        command += [sys.executable, __file__, "--count", "--texts", str(texts)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        kilobytes = json.loads(done.stdout.strip().splitlines()[-1])["kilobytes"]
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda path: int(path.name.rsplit(".", 1)[1]))
        totals = [int(re.search(r"^(?:summary|totals): (\d+)", d.read_text(), re.M)[1]) for d in dumps[: len(PARTS)]]
    found = {part: total / 1e6 / kilobytes for part, total in zip(PARTS, totals, strict=True)}
    found["tagger"] = found["regex layer + tagger"] - found["regex layer"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=False, help="another checkout's src/ to compare with")
    parser.add_argument("--texts", type=int, default=10)
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)  # this process is under callgrind
    args = parser.parse_args()
    if args.count:
        count(args.texts)
        return
    if not args.before:
        parser.error("--before SRC is required")
    sides = {"before": measure(args.before.resolve(), args.texts), "this checkout": measure(None, args.texts)}
    lines = [
        "# Detection at 1 KB in instructions (callgrind): before against this checkout",
        "",
        f"{args.texts} texts of 1 KB, each part counted over one pass after two warm-up passes; millions of"
        " instructions per KB.",
        "",
        *table(
            ["", "before", "this checkout", "this checkout / before"],
            [
                [part, f"{sides['before'][part]:.1f}", f"{sides['this checkout'][part]:.1f}"]
                + [f"{sides['this checkout'][part] / sides['before'][part]:.2f}x"]
                for part in ("regex layer", "tagger")
            ],
        ),
    ]
    print("\n".join(lines))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "tagger_instructions.json").write_text(json.dumps(sides, indent=1) + "\n", encoding="utf-8")
    (RESULTS / "tagger_instructions.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
