"""Prompt templates live as files under `prompts/` (never as long strings in code).

Templates use `string.Template` placeholders (`$text`, `${attributes}`) so JSON examples
with braces need no escaping. The directory is the repository's `prompts/` in a source
checkout, the copy packaged as `stealthflow/_prompts` in a wheel, or `$STEALTHFLOW_PROMPTS_DIR`.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from string import Template

from stealthflow.resources import resource_dir


def prompts_dir() -> Path:
    return resource_dir("prompts", os.environ.get("STEALTHFLOW_PROMPTS_DIR"))


@cache
def _template(name: str) -> Template:
    return Template((prompts_dir() / f"{name}.txt").read_text(encoding="utf-8").strip())


def render(name: str, **values: object) -> str:
    """Fill prompt `name` (file `prompts/<name>.txt`); a missing value raises KeyError."""
    return _template(name).substitute({k: str(v) for k, v in values.items()})
