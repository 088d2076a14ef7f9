"""`stealthflow batch protect|anonymize INPUT --output DIR`: a whole dataset on Ray Data
(`stealthflow.batch`), resumable, every row restorable from the user's vault."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn

from stealthflow.batch.job import BatchError, Job, Pools
from stealthflow.cli.app import (
    ClauseTaggerOption,
    ConfigOption,
    ModelOption,
    TaggerOption,
    check_rewrite,
    command_group,
    console,
    fail,
    open_user_vault,
    protect_settings,
    said_when_interrupted,
    vault_errors,
)
from stealthflow.config import Settings

batch_app = command_group("batch", "Protect a whole dataset on Ray Data (a local Ray, or a cluster).")

InputArgument = Annotated[
    str, typer.Argument(metavar="INPUT", help="JSONL or Parquet: a file, a folder of them, or a quoted glob")
]
OutputDirOption = Annotated[
    Path, typer.Option("--output", "-o", help="folder of part files and manifest.jsonl (a rerun resumes it)")
]
TextColumnOption = Annotated[str, typer.Option("--text-column", help="the column to protect")]
IdColumnOption = Annotated[str, typer.Option("--id-column", help="each row's id (rows without one get FILE:ROW)")]
KeepOption = Annotated[
    Optional[list[str]],
    typer.Option(
        "--keep",
        metavar="COLUMN",
        help="an input column copied unchanged to the output (repeatable; it is NOT protected)",
    ),
]
SessionOption = Annotated[
    str, typer.Option("--session", "-s", help="the vault session every row's placeholders are issued to")
]
RayAddressOption = Annotated[
    Optional[str], typer.Option("--ray-address", help="an existing Ray cluster (default: a local Ray on this machine)")
]
WorkersOption = Annotated[
    Optional[int], typer.Option("--workers", min=1, help="detection actors (default: the cluster's CPUs / threads)")
]
ThreadsOption = Annotated[int, typer.Option("--threads-per-actor", min=1, help="CPUs (torch threads) per actor")]
MaxFailuresOption = Annotated[
    int, typer.Option("--max-failures", min=0, help="stop once more rows than this have failed")
]
VerboseOption = Annotated[
    bool, typer.Option("--verbose", "-v", help="also show Ray's own INFO and WARNING log lines (default: errors only)")
]
BlockMbOption = Annotated[
    float, typer.Option("--block-mb", min=0.001, help="JSONL block size in MB: the unit of work and of resumption")
]


@batch_app.command("protect")
def batch_protect(
    source: InputArgument,
    output: OutputDirOption,
    text_column: TextColumnOption = "text",
    id_column: IdColumnOption = "id",
    keep: KeepOption = None,
    session: SessionOption = "default",
    ray_address: RayAddressOption = None,
    workers: WorkersOption = None,
    threads_per_actor: ThreadsOption = 1,
    max_failures: MaxFailuresOption = 100,
    block_mb: BlockMbOption = 4.0,
    tagger: TaggerOption = None,
    clause_tagger: ClauseTaggerOption = None,
    verbose: VerboseOption = False,
    config: ConfigOption = None,
) -> None:
    """Explicit PII -> keyed placeholders ([[EMAIL:3f81a2c9]]) in every row, into the user's vault."""
    job = _job(session, text_column, id_column, keep, "none", max_failures, block_mb)
    pools = Pools(workers=workers, threads=threads_per_actor)
    settings = protect_settings(config, None, None, tagger=tagger, clause_tagger=clause_tagger)
    _batch(source, output, settings, job, pools, ray_address, verbose)


@batch_app.command("anonymize")
def batch_anonymize(
    source: InputArgument,
    output: OutputDirOption,
    text_column: TextColumnOption = "text",
    id_column: IdColumnOption = "id",
    keep: KeepOption = None,
    session: SessionOption = "default",
    rewrite: Annotated[
        str, typer.Option("--rewrite", help="the rewrite after placeholders: local (offline), a method or a model spec")
    ] = "local",
    ray_address: RayAddressOption = None,
    workers: WorkersOption = None,
    threads_per_actor: ThreadsOption = 1,
    rewrite_workers: Annotated[
        Optional[int],
        typer.Option("--rewrite-workers", min=1, help="rewrite actors (default: the CPUs detection leaves)"),
    ] = None,
    rewrite_gpus: Annotated[
        float, typer.Option("--rewrite-gpus", min=0, help="GPUs per rewrite actor (a cluster with GPUs; docs/batch.md)")
    ] = 0,
    max_failures: MaxFailuresOption = 100,
    block_mb: BlockMbOption = 4.0,
    tagger: TaggerOption = None,
    clause_tagger: ClauseTaggerOption = None,
    model: ModelOption = None,
    verbose: VerboseOption = False,
    config: ConfigOption = None,
) -> None:
    """Placeholders as `batch protect`, then each row rewritten against attribute inference
    (`protect --rewrite local`, the rewrite in its own actor pool)."""
    settings = protect_settings(config, model, None, tagger=tagger, clause_tagger=clause_tagger)
    check_rewrite(rewrite, settings)
    job = _job(session, text_column, id_column, keep, rewrite, max_failures, block_mb)
    pools = Pools(workers, threads_per_actor, rewrite_workers, rewrite_gpus)
    _batch(source, output, settings, job, pools, ray_address, verbose)


def _job(
    session: str,
    text_column: str,
    id_column: str,
    keep: list[str] | None,
    rewrite: str,
    max_failures: int,
    block_mb: float,
) -> Job:
    block_bytes = max(1, int(block_mb * 1024 * 1024))
    try:
        return Job(session, text_column, id_column, tuple(keep or ()), rewrite, max_failures, block_bytes)
    except BatchError as exc:
        fail(str(exc))


def _batch(
    source: str, output: Path, settings: Settings, job: Job, pools: Pools, ray_address: str | None, verbose: bool
) -> None:
    from stealthflow.batch import ShardError, run_job
    from stealthflow.batch.output import failed_row

    with vault_errors():
        vault = open_user_vault(settings)
        try:
            progress = _progress("protecting" if job.rewrite == "none" else "anonymizing")
            with said_when_interrupted(lambda: progress.how_far(output)), progress as show:
                result = run_job(source, output, settings, vault, job, pools, ray_address, show, ray_logs=verbose)
        except (BatchError, ShardError) as exc:
            fail(str(exc))
        finally:
            vault.close()
    if result.skipped:
        console.print(f"resumed: {result.skipped} of {result.blocks} blocks were already done")
    if result.changed:
        console.print(
            f"[yellow]{result.changed} block(s) done before were protected from rows the input no longer holds (a row "
            "edited, an id given to another text): done again[/]",
            highlight=False,
        )
    console.print(
        f"wrote {result.rows} rows with placeholders to {output} in {result.seconds:.1f} s "
        f"(session {job.session!r}; restore with: stealthflow restore --session {job.session} -i PART)",
        highlight=False,
        soft_wrap=True,
    )
    if result.empty:
        console.print(
            f"[yellow]{result.empty} row(s) had an empty text[/]: written as they are, with nothing to protect (each "
            'block\'s line in manifest.jsonl counts them: "empty")',
            highlight=False,
            soft_wrap=True,
        )
    if result.not_protected:
        console.print(
            f'[yellow]{result.not_protected} of them not fully rewritten[/] ("rewrite": {{"protected": false}}): '
            'phrases that point to the author stayed in their text ("unprotected"), or it was not read ("reason")',
            highlight=False,
            soft_wrap=True,
        )
    if result.failures:
        shown = "; ".join(map(failed_row, result.failures[:3]))
        console.print(
            f"[yellow]{len(result.failures)} row(s) failed and were not written[/] ({shown}"
            f"{'; ...' if len(result.failures) > 3 else ''}); all are listed in {output / 'manifest.jsonl'}",
            highlight=False,
            soft_wrap=True,
        )


class _progress:
    """A progress line, from the first block on: bytes done of the blocks to do, rows, rows/s,
    failures, time left."""

    rows = blocks = 0  # written by this run, as last shown

    def __init__(self, doing: str):
        self.doing = doing  # what the bar says the job does: "protecting", "anonymizing"

    def __enter__(self):
        self.bar = Progress(
            TextColumn(f"[bold]{self.doing}"),
            BarColumn(),
            DownloadColumn(),
            TextColumn("{task.fields[info]}"),
            console=console,
        )
        self.task = None
        return self.show

    def how_far(self, output: Path) -> str:
        """What an interrupted run wrote (whole blocks only), and how to go on."""
        return (
            f"{self.rows} rows in {self.blocks} whole block(s) written to {output} by this run; rerun the same "
            "command to resume (the blocks done are skipped)"
        )

    def show(self, progress) -> None:
        self.rows, self.blocks = progress.rows, progress.blocks_done
        eta, rate = progress.eta_seconds, progress.rows_per_second
        info = f"{progress.rows} rows, {rate:.{1 if rate >= 1 else 3}f} rows/s, {progress.failed} failed" + (
            f", ETA {int(eta // 60)}:{int(eta % 60):02d}" if eta is not None else ""
        )
        if self.task is None:
            self.bar.start()
            self.task = self.bar.add_task(self.doing, total=progress.bytes, info=info)
        self.bar.update(self.task, completed=progress.bytes_done, info=info)

    def __exit__(self, *exc) -> None:
        if self.task is not None:
            self.bar.stop()
