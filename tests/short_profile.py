"""The shortest labelled profile of data/test.jsonl: runs of the real embedded model on one profile read a short
prompt (the first profile is 11 KB; the shortest about 2 KB), which is all an end-to-end run needs."""

from functools import cache
from pathlib import Path

from stealthflow.data import Profile, load_profiles


@cache
def shortest_labelled(data: Path) -> tuple[Profile, str]:
    """The labelled profile of `data` whose text is shortest, and its JSONL line (with its newline)."""
    lines = data.read_text(encoding="utf-8").splitlines(keepends=True)
    profiles = load_profiles(data)
    assert len(profiles) == len(lines)
    labelled = [i for i, profile in enumerate(profiles) if profile.labelled()]
    shortest = min(labelled, key=lambda i: len(profiles[i].text))
    return profiles[shortest], lines[shortest]
