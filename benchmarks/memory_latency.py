"""Latency of append / pack / hydrate at 1k, 10k and 100k memories of one user.

The store is filled by inserting redacted rows with random unit vectors straight into SQLite
(embedding 100k texts with MiniLM would take most of an hour on this CPU); the timed calls run the
real thing: deterministic recognizers + the vault + the offline MiniLM + the float32 matrix.
Targets (issue 21): pack <= 20 ms p50 at 10k, hydrate <= 1 ms.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/memory_latency.py [--sizes 1000 10000 100000]

Writes benchmarks/results/memory_latency.json and .md.
"""

# ruff: noqa: B023  (the timed lambdas run at once, inside their loop iteration)
from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).parent / "results"


def timed(fn, repeat: int) -> list[float]:
    out = []
    for i in range(repeat):
        start = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    args = parser.parse_args()

    from stealthflow.memory import MemoryStore, vault_session
    from stealthflow.memory.store import minilm_embedder
    from stealthflow.pipeline.protector import Protector, open_vault
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.keys import new_secret
    from stealthflow.placeholders.policy import ProtectConfig

    os.environ.setdefault("STEALTHFLOW_VAULT_KEY", new_secret())
    embed = minilm_embedder()
    embed(["warm up"])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        config = ProtectConfig(vault_path=Path(tmp) / "vault.sqlite", key_source="env", llm_extractor=False)
        protector = Protector(config, open_vault(config), Detector())
        rng = np.random.default_rng(0)
        for size in args.sizes:
            store = MemoryStore(Path(tmp) / f"m{size}.sqlite", protector, embed=embed)
            vectors = rng.standard_normal((size, 384)).astype(np.float32)
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            with store._db:  # bulk fill (see the docstring)
                store._db.executemany(
                    "INSERT INTO memories (user, number, text, metadata, created, vector) VALUES ('u', ?, ?, '{}', 0, ?)",
                    ((i, f"filler memory {i} about topic {i % 97}", v.tobytes()) for i, v in enumerate(vectors, 1)),
                )
                store._db.execute("INSERT INTO numbers (user, last) VALUES ('u', ?)", (size,))
            start = time.perf_counter()
            store._matrix("u")
            load_ms = (time.perf_counter() - start) * 1000
            store.append("u", "My email is ann.lee@example.org and my phone is (415) 555-2671")
            # texts differ per size: the embedder caches vectors by text
            append = timed(
                lambda i: store.append(
                    "u", f"note {size}-{i}: call me at (415) 555-{1000 + i:04d} about the trip to Oslo"
                ),
                20,
            )
            pack = timed(lambda i: store.pack("u", f"what is my phone number {size}-{i}", 400), 50)
            embed_query = timed(
                lambda i: embed([f"what is my phone number {size}/{i}"]), 50
            )  # the part of a pack no index can save
            packed = store.pack("u", "my email is ann.lee@example.org", 400)  # a reply to it: the pack's text
            hydrate = timed(lambda i: store.hydrate("u", packed.text, packed.request), 200)
            row = {
                "memories": size,
                "matrix_load_ms": round(load_ms, 1),
                "append_p50_ms": round(statistics.median(append), 2),
                "pack_p50_ms": round(statistics.median(pack), 2),
                "pack_p95_ms": round(float(np.percentile(pack, 95)), 2),
                "query_embedding_p50_ms": round(statistics.median(embed_query), 2),
                "hydrate_p50_ms": round(statistics.median(hydrate), 3),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
            store.close()
        assert vault_session("u") == "memory:u"
    lines = [
        "| memories | append p50 | pack p50 | pack p95 | of a pack: query embedding p50 | hydrate p50 | matrix load |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['memories']:,} | {r['append_p50_ms']} ms | {r['pack_p50_ms']} ms | {r['pack_p95_ms']} ms | {r['query_embedding_p50_ms']} ms | {r['hydrate_p50_ms']} ms | {r['matrix_load_ms']} ms |"
        )
    table = "\n".join(lines)
    print("\n" + table)
    RESULTS.mkdir(exist_ok=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())  # other jobs on the machine inflate every number
    header = f"One user, {os.cpu_count()} CPU cores (load average at the end {load}), OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}; MiniLM embedding, brute-force float32 matrix."
    (RESULTS / "memory_latency.md").write_text(f"{header}\n\n{table}\n")
    (RESULTS / "memory_latency.json").write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
