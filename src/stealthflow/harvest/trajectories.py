"""Read a run's trajectory lines back into `RoundRecord`s, grouped by profile.

A run directory holds one or more `trajectories*.jsonl` files (a resumed run may append a
round again: the last line for a (profile, round) wins). Malformed lines stop with
`FILE:LINE: reason`; nothing is skipped silently.
"""

from __future__ import annotations

from pathlib import Path

from stealthflow.data import DataError
from stealthflow.data.jsonl import read_models
from stealthflow.workflow.trajectory import RoundRecord

TRAJECTORY_GLOB = "trajector*.jsonl"


def trajectory_files(run: str | Path) -> list[Path]:
    run = Path(run)
    if run.is_file():
        return [run]
    if not run.is_dir():
        raise DataError(f"{run}: no such run directory or trajectory file")
    files = sorted(run.rglob(TRAJECTORY_GLOB))
    if not files:
        raise DataError(f"{run}: no {TRAJECTORY_GLOB} files (write them with `stealthflow generate ... --out {run}`)")
    return files


def load_trajectories(run: str | Path) -> dict[str, list[RoundRecord]]:
    """Profile id -> its rounds in order (round 0 first)."""
    latest: dict[tuple[str, int], RoundRecord] = {}
    for path in trajectory_files(run):
        for record in read_models(path, RoundRecord, "trajectory line"):
            latest[(record.profile_id, record.round)] = record
    by_profile: dict[str, list[RoundRecord]] = {}
    for (profile_id, _), record in sorted(latest.items()):
        by_profile.setdefault(profile_id, []).append(record)
    return by_profile
