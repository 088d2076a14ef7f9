"""The shortest labelled profile of data/test.jsonl: runs of the real embedded model on one profile read a short
prompt (the first profile is 11 KB; the shortest about 2 KB), which is all an end-to-end run needs."""

from functools import cache
from pathlib import Path

from stealthflow.data import load_profiles


@cache
def shortest_labelled_line(data: Path) -> str:
    """The JSONL line (with its newline) of the labelled profile of `data` whose text is shortest."""
    lines = data.read_text(encoding="utf-8").splitlines(keepends=True)
    profiles = load_profiles(data)
    assert len(profiles) == len(lines)
    labelled = [i for i, profile in enumerate(profiles) if profile.labelled()]
    return lines[min(labelled, key=lambda i: len(profiles[i].text))]
