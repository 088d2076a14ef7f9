"""Batch protection on Ray Data: `protect_dataset` (a Dataset in, a Dataset out) and `run_job`
(files in, a resumable output folder out: `stealthflow batch protect|anonymize`).

Detection runs in one actor pool (`Detect`: the recognizers and the tagger loaded once per actor,
`threads` torch threads each), the rewrite, when asked for, in another sized on its own
(`Rewrite`: the local anonymizer's models, or a GPU model with `rewrite_gpus`). Every actor
issues keyed placeholders into its own vault shard; `merge_shards` then puts them into the
user's vault. Ray is imported here only, and only when a job runs: it is an optional extra.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from stealthflow.batch import local_ray
from stealthflow.batch.blocks import (
    BLOCK_BYTES,
    Block,
    file_identity,
    input_files,
    outside_input,
    plan_blocks,
    read_block,
    row_id,
    row_number,
)
from stealthflow.batch.output import JobOutput
from stealthflow.batch.shards import merge_shards
from stealthflow.batch.workers import ERROR, ID, META, Detect, Rewrite, lone_surrogate, no_text
from stealthflow.config import Settings
from stealthflow.data.jsonl import dump_line
from stealthflow.data.output_file import not_inside
from stealthflow.pipeline.records import Record, has_lone_surrogate, matching

if TYPE_CHECKING:
    import pandas as pd
    import ray.data

    from stealthflow.placeholders.vault import Vault

DETECTION = {
    "levels",
    "overrides",
    "hmac_chars",
    "recognizers",
    "tagger",
    "tagger_model",
    "clause_tagger",
    "llm_extractor",
    "user",
}
RESERVED = ("id", "session", "vault", "text", "spans", "language", "rewrite", "warnings")


class BatchError(RuntimeError):
    """A job that cannot run as asked (Ray missing, too many failed rows...)."""


def ray_module():
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise BatchError("stealthflow batch runs on Ray Data: pip install 'stealthflow[ray]'") from None
    return ray


@dataclass(frozen=True)
class Pools:
    """Actor pools: `workers` detection actors of `threads` CPUs each; `rewrite_workers` rewrite
    actors of `threads` CPUs and `rewrite_gpus` GPUs each (None: sized from the cluster's CPUs);
    `batch_size` rows per call of an actor."""

    workers: int | None = None
    threads: int = 1
    rewrite_workers: int | None = None
    rewrite_gpus: float = 0
    batch_size: int = 32

    def sizes(self, rewriting: bool, cpus: int) -> tuple[int, int]:
        """(detection actors, rewrite actors) on a cluster of `cpus` CPUs; `BatchError` when they
        cannot all start there (a fixed pool waits for all its actors: the job would hang)."""
        slots = max(1, cpus // self.threads)
        if not rewriting:
            workers, rewrite_workers = self.workers or slots, 0
        else:  # a rewrite costs ~1 s a post, detection ~4 ms/KB: most of the CPUs go to the rewrite
            workers = self.workers or 1
            rewrite_workers = self.rewrite_workers or max(1, slots - workers)
        if (workers + rewrite_workers) * self.threads > cpus:
            raise BatchError(
                f"{workers} detection and {rewrite_workers} rewrite actor(s) of {self.threads} CPU(s) each need "
                f"{(workers + rewrite_workers) * self.threads} CPUs; the Ray cluster has {cpus}: "
                "ask for fewer (--workers, --rewrite-workers, --threads-per-actor)"
            )
        return workers, rewrite_workers


def protect_dataset(
    ds: ray.data.Dataset,
    settings: Settings,
    vault: Vault,
    shards: Path,
    *,
    session: str = "default",
    text_column: str = "text",
    rewrite: str = "none",
    pools: Pools = Pools(),
    whole_blocks: bool = False,
) -> ray.data.Dataset:
    """`ds` with `text_column` protected (keyed placeholders, then the `rewrite` unless `none`), a
    `stealthflow` column (JSON: session, vault, spans, language[, rewrite][, warnings]) and a
    `stealthflow_error` column (a failed row's reason; its text is then None). Lazy, as any
    Dataset: nothing runs until it is consumed. Placeholders go into vault shards in `shards`;
    once the result is consumed, `merge_shards(shards, vault, settings.protect)` makes them
    restorable from `vault` (the user's vault). `whole_blocks`: detection takes each block of `ds`
    whole, in one call (`run_job`, whose blocks are its file blocks: Ray Data would otherwise bundle
    `pools.batch_size` of them into one call, one actor's)."""
    ray = ray_module()
    settings = settings.model_copy(update={"protect": settings.protect.model_copy(update={"style": "hmac"})})
    workers, rewrite_workers = pools.sizes(rewrite != "none", int(ray.cluster_resources().get("CPU", 0)))
    ds = ds.map_batches(
        Detect,
        fn_constructor_kwargs={
            "settings": settings,
            "session": session,
            "shards": str(shards),
            "vault_id": vault.id,
            "key_check": vault.key_check(),
            "text_column": text_column,
            "threads": pools.threads,
        },
        batch_size=None if whole_blocks else pools.batch_size,
        batch_format="pandas",
        compute=ray.data.ActorPoolStrategy(size=workers),
        num_cpus=pools.threads,
    )
    if rewrite != "none":
        ds = ds.map_batches(
            Rewrite,
            fn_constructor_kwargs={
                "settings": settings,
                "rewrite": rewrite,
                "text_column": text_column,
                "threads": pools.threads,
            },
            batch_size=pools.batch_size,
            batch_format="pandas",
            compute=ray.data.ActorPoolStrategy(size=rewrite_workers),
            num_cpus=pools.threads,
            **({"num_gpus": pools.rewrite_gpus} if pools.rewrite_gpus else {}),
        )
    return ds


@dataclass(frozen=True)
class Job:
    """What `run_job` does: the columns of the input, the session, the rewrite (`none` for
    `batch protect`), which input columns are copied to the output beside the protected row."""

    session: str = "default"
    text_column: str = "text"
    id_column: str = "id"
    keep: tuple[str, ...] = ()
    rewrite: str = "none"
    max_failures: int = 100
    block_bytes: int = BLOCK_BYTES

    def __post_init__(self) -> None:
        """`BatchError` for a kept column an output row has already (`RESERVED`), or a kept column or the id that is
        the text column: every row's raw text would be written beside its protected copy (rev27 L2)."""
        if clash := sorted(set(self.keep) & set(RESERVED)):
            raise BatchError(f"--keep {clash[0]}: the output rows have a field of that name")
        if self.text_column in (self.id_column, *self.keep):
            option = "--id-column" if self.text_column == self.id_column else "--keep"
            raise BatchError(
                f"{option} {self.text_column}: that is the --text-column, whose raw text would be written beside its "
                "protected copy"
            )

    def describe(self, vault_id: str, inputs: list[dict], settings: Settings) -> dict:
        """The manifest's job line: a rerun resumes only the same job (the same detection and
        rewrite model too: a resumed job never mixes rows protected two ways)."""
        return {
            "session": self.session,
            "text_column": self.text_column,
            "id_column": self.id_column,
            "keep": list(self.keep),
            "rewrite": self.rewrite,
            "block_bytes": self.block_bytes,
            "vault": vault_id,
            "inputs": inputs,
            "detection": settings.protect.model_dump(mode="json", include=DETECTION),
            "model": settings.model.model if self.rewrite != "none" else None,
        }


@dataclass
class Progress:
    blocks: int  # blocks to do in this run
    bytes: int
    started: float = field(default_factory=time.monotonic)
    blocks_done: int = 0
    bytes_done: int = 0
    rows: int = 0
    failed: int = 0

    @property
    def rows_per_second(self) -> float:
        return self.rows / max(time.monotonic() - self.started, 1e-9)

    @property
    def eta_seconds(self) -> float | None:
        """Time left at the rate so far (by bytes), None before the first block."""
        if not self.bytes_done:
            return None
        return (time.monotonic() - self.started) * (self.bytes - self.bytes_done) / self.bytes_done


@dataclass
class Result:
    output: Path
    blocks: int  # of the whole job
    skipped: int  # blocks already done by an earlier run
    rows: int  # rows written by the whole job
    failures: list[dict]  # every failed row of the whole job: {id, file, row, at, block, reason}
    merged: int  # values merged into the user's vault by this run
    seconds: float
    not_protected: int = 0  # rows written whose rewrite left a marked phrase in them (`rewrite.protected` false)
    changed: int = 0  # blocks done by an earlier run whose input changed since: done again (`changed_blocks`)
    empty: int = 0  # rows written whose text was empty or blank: nothing in them to protect


def run_job(
    source: str,
    output: Path,
    settings: Settings,
    vault: Vault,
    job: Job = Job(),
    pools: Pools = Pools(),
    ray_address: str | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    ray_logs: bool = True,
) -> Result:
    """Protect every row of `source` (JSONL or Parquet: a file, a folder or a glob) into part files
    in `output`, resuming what an earlier run of the same job did; the placeholders end up in
    `vault`. `BatchError` when more than `job.max_failures` rows fail (what was done is kept).
    `ray_logs=False` keeps Ray's own log lines (Ray core's and Ray Data's) to errors."""
    started = time.monotonic()
    own_session(job.session, settings, vault)
    outside_input(source, output)
    files = input_files(source)
    not_inside(output, [file.path for file in files])
    blocks = plan_blocks(files, job.block_bytes)
    out = JobOutput(output, job.describe(vault.id, file_identity(files), settings))
    merged = merge_shards(out.shards, vault, settings.protect)  # what a killed run issued
    changed = changed_blocks(blocks, out, job, vault.input_digester(settings.protect.user, job.session))
    out.forget(changed)
    todo = [block for block in blocks if block.id not in out.done]
    progress = Progress(len(todo), sum(block.size for block in todo))
    try:
        if todo:
            with _ray_for(ray_address, ray_logs) as ray:
                _run(ray, todo, out, settings, vault, job, pools, progress, on_progress)
    finally:
        try:
            merged += merge_shards(out.shards, vault, settings.protect)
        finally:
            out.close()
    done = time.monotonic() - started
    return Result(
        output,
        len(blocks),
        len(blocks) - len(todo),
        out.rows(),
        out.failures(),
        merged,
        done,
        out.not_protected(),
        len(changed),
        out.empty(),
    )


def own_session(session: str, settings: Settings, vault: Vault) -> None:
    """`PersonalName` (or `SessionNameError`) for a session whose name holds a personal value or is no name, before
    anything is written: the manifest and every row keep it in clear (`Protector.own_session`, as `protect` checks it;
    rev27 L3: each row failed in its actor, and the manifest held the name)."""
    from stealthflow.pipeline.protector import Protector
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    Protector(settings.protect, vault, Detector(build_recognizers(settings.protect.recognizers))).own_session(session)


def changed_blocks(blocks: list[Block], out: JobOutput, job: Job, digest: Callable[[str], str]) -> list[str]:
    """The blocks done whose input changed since (`matching`: a row's id AND the `digest` of its text, as `protect -i`
    resumes): an input with the size and time it had ("cp -p", "touch -r" of another version) is the same job, but a
    row of it edited, or an id now given to another text, is protected again, never kept as it was."""
    changed = []
    for block in blocks:
        entry = out.done.get(block.id)
        if entry is None:
            continue
        failed = {failure.get("at", failure["row"]) for failure in entry["failed"]}
        texts = [
            (row_id(row.record, job.id_column, block, row.row), text)
            for row in read_block(block)
            if row.row not in failed and isinstance(text := (row.record or {}).get(job.text_column), str)
        ]
        records = [Record(id, text) for id, (_, text) in zip(_numbered(id for id, _ in texts), texts, strict=True)]
        written = out.finished_rows(block.id)
        finished = dict(zip(_numbered(id for id, _ in written), (recorded for _, recorded in written), strict=True))
        if len(finished) != len(records) or len(matching(finished, records, digest).done) != len(records):
            changed.append(block.id)
    return changed


def _numbered(ids: Iterable[str]) -> list[str]:
    """Each id with the count of its earlier occurrences ("a#0", "a#1"): a block may hold an id twice."""
    seen: Counter = Counter()
    numbered = []
    for id in ids:
        numbered.append(f"{id}#{seen[id]}")
        seen[id] += 1
    return numbered


#: where Ray keeps the token its cluster authenticates callers with, unless RAY_AUTH_TOKEN_PATH says elsewhere
RAY_TOKEN = Path("~/.ray/auth_token")


@contextlib.contextmanager
def _owner_only_files() -> Iterator[None]:
    """Ray's auth token readable by this user only: Ray writes it under the process umask (0644 under 022), and
    whoever reads it can run code in the job's workers, which hold the rows' raw text and the vault key (security
    review rev31, R4). A token left by an earlier run is made private too. (Ray's session folder, which it opens to
    everyone, is kept private by `local_ray.started`.)"""
    previous = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(previous)
        token = Path(os.environ.get("RAY_AUTH_TOKEN_PATH") or RAY_TOKEN).expanduser()
        with contextlib.suppress(OSError):
            if token.stat().st_uid == os.getuid():
                token.chmod(0o600)


@contextlib.contextmanager
def _backend_log_level(level: str | None) -> Iterator[None]:
    """Ray's C++ core worker, started by `ray.init`, at `level` (None: its own), unless the user set one: it writes to
    stderr at ERROR what is a notice ("core_worker.cc: Actor with class name ... has constructor arguments in the
    object store and max_restarts > 0", ray-project/ray#53727), on every run."""
    if level is None or "RAY_BACKEND_LOG_LEVEL" in os.environ:
        yield
        return
    os.environ["RAY_BACKEND_LOG_LEVEL"] = level
    try:
        yield
    finally:
        del os.environ["RAY_BACKEND_LOG_LEVEL"]


@contextlib.contextmanager
def _ray_for(ray_address: str | None, ray_logs: bool) -> Iterator[ModuleType]:
    """Ray for a job: the one this process started already; else the cluster at `ray_address` (or `$RAY_ADDRESS`),
    left at the end; else a Ray of the job's own on this machine only (`local_ray`), stopped at the end. `ray_logs`:
    Ray's own log lines below errors too."""
    local = local_ray.wanted(ray_address)
    with local_ray.loopback_import() if local else contextlib.nullcontext():
        ray = ray_module()
    ray_level = logging.INFO if ray_logs else logging.ERROR  # logging.INFO: ray.init's own default
    if not ray_logs:  # Ray Data's logger is its own (not under ray.init's level); set at its import
        logging.getLogger("ray.data").setLevel(ray_level)
    init = {"include_dashboard": False, "log_to_driver": False, "logging_level": ray_level}
    with contextlib.ExitStack() as stack:
        if not ray.is_initialized():
            with _backend_log_level(None if ray_logs else "fatal"), _owner_only_files():
                if not local:
                    ray.init(address=ray_address, **init)
                    stack.callback(ray.shutdown)
                else:
                    try:
                        stack.enter_context(local_ray.started(ray, **init))
                    except local_ray.RayNotLocal as exc:
                        raise BatchError(str(exc)) from None
        ray.data.DataContext.get_current().enable_progress_bars = False
        yield ray


def _run(
    ray: ModuleType,
    todo: list[Block],
    out: JobOutput,
    settings: Settings,
    vault: Vault,
    job: Job,
    pools: Pools,
    progress: Progress,
    on_progress: Callable[[Progress], None] | None,
) -> None:
    ds = ray.data.from_items([block.to_json() for block in todo], override_num_blocks=len(todo))
    ds = ds.map_batches(
        read_blocks,
        fn_kwargs={"text_column": job.text_column, "id_column": job.id_column, "keep": job.keep},
        batch_size=1,
        batch_format="pandas",
        # The CPUs of a detection actor, so that Ray Data fuses the read into it: a read task of its
        # own would wait forever for a CPU once the actors hold them all.
        num_cpus=pools.threads,
    )
    ds = protect_dataset(
        ds,
        settings,
        vault,
        out.shards,
        session=job.session,
        text_column=job.text_column,
        rewrite=job.rewrite,
        pools=pools,
        whole_blocks=True,
    )
    by_id = {block.id: block for block in todo}
    pending: dict[str, list[dict]] = defaultdict(list)
    for batch in ds.iter_batches(batch_size=None, batch_format="pandas"):
        for row in batch.to_dict("records"):
            pending[row["_block"]].append(row)
            if len(pending[row["_block"]]) == row["_rows"]:
                write_block(by_id.pop(row["_block"]), pending.pop(row["_block"]), out, job, progress, on_progress)
    if pending:
        raise BatchError(f"block(s) {', '.join(sorted(pending))} came back incomplete: run the job again")
    for block in list(by_id.values()):  # no line starts in it (one long line may span several blocks)
        write_block(block, [], out, job, progress, on_progress)


def write_block(
    block: Block,
    rows: list[dict],
    out: JobOutput,
    job: Job,
    progress: Progress,
    on_progress: Callable[[Progress], None] | None,
) -> None:
    """A block's rows as they came back from the pools (any order): its part file in input order
    and its manifest line with the failed rows. `BatchError` once more than `job.max_failures`
    rows of the job have failed."""
    lines, failures, not_protected, empty = [], [], 0, 0
    for row in sorted(rows, key=lambda r: r["_row"]):
        if isinstance(row[ERROR], str):
            refused = not isinstance(row[ID], str)  # an id that holds a value (`Detect`): not written
            failures.append(
                {
                    "id": None if refused else row[ID],
                    "file": block.path,
                    "row": row_number(block, row["_row"]),
                    "at": row["_row"],
                    "block": block.id,
                    "reason": row[ERROR],
                }
            )
            continue
        meta = json.loads(row[META])
        first = {
            "id": row[ID],
            "session": meta.pop("session"),
            "vault": meta.pop("vault"),
            "text": row[job.text_column],
        }
        lines.append(dump_line(first | meta | json.loads(row["_keep"])))
        not_protected += meta.get("rewrite", {}).get("protected") is False
        empty += not (row[job.text_column] or "").strip()
    out.record(block.id, lines, len(lines), failures, not_protected, empty)
    progress.blocks_done += 1
    progress.bytes_done += block.size
    progress.rows += len(lines)
    progress.failed += len(failures)
    if on_progress:
        on_progress(progress)
    if len(out.failures()) > job.max_failures:
        raise BatchError(
            f"{len(out.failures())} rows failed (more than --max-failures {job.max_failures}); the job stopped. "
            f"Their reasons are in {out.path}; the blocks done are kept and a rerun resumes"
        )


def read_blocks(batch: pd.DataFrame, text_column: str, id_column: str, keep: tuple[str, ...]) -> pd.DataFrame:
    """The rows of each block of `batch` (`Block.to_json` records): `_block`, `_row`, `_rows` (the
    block's row count), `_id`, the text column, `_keep` (JSON of the kept columns) and the error
    column (a row that could not be read). A row whose text, id or kept columns hold a lone surrogate fails here, its
    values dropped: pandas cannot hold one, and would fail the whole block (rev27 M2)."""
    import pandas as pd

    rows = []
    for record in batch.to_dict("records"):
        block = Block(**record)
        found = list(read_block(block))
        for row in found:
            data = row.record or {}
            text, error = data.get(text_column), row.error
            id, kept = row_id(data, id_column, block, row.row), {name: data.get(name) for name in keep}
            if not error and not isinstance(text, str):
                text, error = None, no_text(text_column)
            if unreadable := _lone_surrogate_in({text_column: text, id_column: id, **kept}):
                text, id, kept, error = None, None, {}, error or unreadable
            rows.append(
                {
                    "_block": block.id,
                    "_row": row.row,
                    "_rows": len(found),
                    ID: id,
                    text_column: text,
                    "_keep": json.dumps(kept, ensure_ascii=False, default=str),
                    ERROR: error or None,
                }
            )
    columns = ["_block", "_row", "_rows", ID, text_column, "_keep", ERROR]
    return pd.DataFrame(rows, columns=columns)


def _lone_surrogate_in(fields: dict[str, object]) -> str:
    """Why a row cannot be written: the first of its `fields` (column: value) whose value holds a lone surrogate, a
    value in a kept column's list or object too (`lone_surrogate`); or ""."""
    for column, value in fields.items():
        if has_lone_surrogate(json.dumps(value, ensure_ascii=False, default=str)):
            return lone_surrogate(column)
    return ""
