"""The student's torch module (training runs it; detection runs the numpy runtime, fp32): its matrix products
in bf16 or fp32, on this CPU (student.native_bf16).

Regex + tagger wall ms per KB on 1 / 10 / 100 KB texts (made of this benchmark's synthetic
messages), torch on 2 threads, both precisions alternating in one process after a warm-up pass
each (median of --passes), and whether the tagged spans differ. Short passes (under 64 word
pieces) stay fp32 either way. What the shipped code picks here is printed beside the ratio: bf16
only where the CPU has AMX.

    .venv/bin/python benchmarks/tagger_precision.py [--passes 3]

Writes benchmarks/results/tagger_precision.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
SIZES = ((1_000, 40), (10_000, 8), (100_000, 2))  # characters, texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()

    import torch

    sys.path.insert(0, str(Path(__file__).parent))
    from pii_detection import build_set, texts_of_size

    from stealthflow.pii_tagger.model import SpanTagger, shipped_pii_tagger_dir
    from stealthflow.pii_tagger.recognizer import PiiTaggerRecognizer
    from stealthflow.pii_tagger.student import native_bf16
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    torch.set_num_threads(2)
    messages, rng = build_set(600, seed=7), random.Random(11)
    torch_tagger = SpanTagger.load(shipped_pii_tagger_dir(), trainable=True)  # the torch module: its precisions
    plain = Detector(build_recognizers())
    tagged = Detector([*build_recognizers(), PiiTaggerRecognizer(tagger=torch_tagger)])
    model = torch_tagger.model
    precisions = {"fp32": torch.float32, "bf16": torch.bfloat16}

    def run(detector: Detector, texts: list[str]) -> tuple[float, list]:
        start = time.perf_counter()
        spans = [[(s.start, s.end, s.type) for s in detector.deterministic(text)] for text in texts]
        return (time.perf_counter() - start) * 1000 / (sum(map(len, texts)) / 1000), spans

    def use(precision: str) -> None:
        model.inference_dtype, model._low_precision = (
            precisions[precision],
            None,
        )  # the packed bf16 weights are rebuilt on first use

    rows = []
    for size, count in SIZES:
        texts = texts_of_size(messages, size, count, rng)
        timings: dict[str, list[float]] = {"regex only": [], **{name: [] for name in precisions}}
        spans = {}
        for name in precisions:
            use(name)
            run(tagged, texts)
        run(plain, texts)
        for _ in range(args.passes):
            timings["regex only"].append(run(plain, texts)[0])
            for name in precisions:
                use(name)
                seconds, spans[name] = run(tagged, texts)
                timings[name].append(seconds)
        median = {name: statistics.median(values) for name, values in timings.items()}
        tagger = {name: median[name] - median["regex only"] for name in precisions}
        differ = sum(a != b for a, b in zip(spans["fp32"], spans["bf16"], strict=True))
        rows.append(
            {
                "kb": size // 1000,
                "texts": count,
                "ms_per_kb": median,
                "tagger_ms_per_kb": tagger,
                "bf16_over_fp32": tagger["bf16"] / tagger["fp32"],
                "texts_with_other_spans": differ,
                "passes": timings,
            }
        )
        print(
            f"{size // 1000} KB: tagger fp32 {tagger['fp32']:.2f}, bf16 {tagger['bf16']:.2f} ms/KB (bf16/fp32 {rows[-1]['bf16_over_fp32']:.2f}x); texts with other spans {differ} of {count}",
            flush=True,
        )

    picks = "bf16" if native_bf16() else "fp32"
    cpu = {
        "processor": _cpu_name(),
        "amx": bool(torch.cpu._is_amx_tile_supported()),
        "avx512_bf16": bool(torch.cpu._is_avx512_bf16_supported()),
        "load_average": os.getloadavg()[0],
    }
    lines = [
        "# The student tagger's products: fp32 or bf16 (student.native_bf16)",
        "",
        f"CPU: {cpu['processor']}; AMX {'yes' if cpu['amx'] else 'no'}, AVX512-BF16 {'yes' if cpu['avx512_bf16'] else 'no'}; the shipped code picks **{picks}** here.",
        f"Regex + tagger minus regex alone, wall ms per KB, 2 threads, median of {args.passes} alternating passes; synthetic messages.",
        "",
        "| text | texts | fp32 | bf16 | bf16 / fp32 | texts with other spans |",
        "|---|---|---|---|---|---|",
        *(
            f"| {r['kb']} KB | {r['texts']} | {r['tagger_ms_per_kb']['fp32']:.2f} | {r['tagger_ms_per_kb']['bf16']:.2f} | {r['bf16_over_fp32']:.2f}x | {r['texts_with_other_spans']} |"
            for r in rows
        ),
    ]
    print("\n".join(lines[2:]))
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "tagger_precision.json").write_text(
        json.dumps({"cpu": cpu, "picks": picks, "rows": rows}, indent=1) + "\n", encoding="utf-8"
    )
    (RESULTS / "tagger_precision.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


if __name__ == "__main__":
    main()
