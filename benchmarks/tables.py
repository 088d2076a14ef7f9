"""Markdown tables of the benchmarks' results, and the note on how busy the machine was."""

from __future__ import annotations

import os
from collections.abc import Iterable


def table(header: list[str], body: Iterable[list[str]]) -> list[str]:
    """The lines of a markdown table: the header, its rule, a row per list of cells."""
    return [_row(header), "|" + "---|" * len(header), *map(_row, body)]


def _row(cells: list[str]) -> str:
    return "|" + "|".join(f" {cell} " if cell else " " for cell in cells) + "|"


def load_range(rows: list[dict]) -> str:
    """The rows' least and greatest `load_average`, on this machine's cores."""
    loads = [row["load_average"] for row in rows]
    return f"load average {min(loads)}-{max(loads)} on the machine's {os.cpu_count()} cores"
