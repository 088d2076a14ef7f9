"""Protect a whole dataset on Ray Data: `protect_dataset` (a `ray.data.Dataset` in and out) and
`run_job` (JSONL or Parquet files in, a resumable folder of JSONL parts out), behind
`stealthflow batch protect|anonymize`. Ray is an optional extra (`pip install 'stealthflow[ray]'`),
imported only when a job runs. See docs/batch.md."""

from stealthflow.batch.job import BatchError, Job, Pools, Progress, Result, protect_dataset, run_job
from stealthflow.batch.shards import ShardError, merge_shards

__all__ = [
    "BatchError",
    "Job",
    "Pools",
    "Progress",
    "Result",
    "ShardError",
    "merge_shards",
    "protect_dataset",
    "run_job",
]
