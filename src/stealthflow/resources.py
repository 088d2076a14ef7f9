"""Files that ship with stealthflow: prompts, the labelled splits, models, insight memories.

Each lives at the repository's top level in a source checkout (`prompts/`, `data/`, ...) and
is packaged under `stealthflow/_<name>` in a wheel, so every command finds it from any
working directory.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str, override: str | None = None) -> Path:
    """The directory of bundled resource `name` (`override`, e.g. from an env var, wins)."""
    candidates = [Path(override)] if override else []
    candidates += [_PACKAGE_DIR / f"_{name}", _PACKAGE_DIR.parent.parent / name]
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no {name} directory among {[str(c) for c in candidates]}")


def shipped_adapter(name: str) -> Path | None:
    """`models/<name>/` when a peft adapter ships there (its adapter_config.json), else None."""
    path = resource_dir("models") / name
    return path if (path / "adapter_config.json").exists() else None


def data_yaml(name: str) -> object:
    """The bundled data file `name` (a path under the data directory) parsed as YAML: with libyaml's
    safe parser when PyYAML has it (~8x faster than the pure-Python one, a cold command's start-up)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((resource_dir("data") / name).read_text(encoding="utf-8"), Loader=loader)


def data_words(name: str) -> frozenset[str]:
    """The bundled word list `name` (a path under the data directory; words separated by white space)."""
    return frozenset((resource_dir("data") / name).read_text(encoding="utf-8").split())


def listed_words(path: Path) -> frozenset[str]:
    """The word list at `path`: one entry a line (spaces inside kept), blank lines and comment lines ("#") skipped."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def write_words(words: list[str], out: Path) -> int:
    """Write a word list one word a line (how `data_words` reads it back); returns how many."""
    out.write_text("".join(f"{word}\n" for word in words), encoding="utf-8")
    return len(words)


def split_path(split: str) -> Path:
    """The bundled labelled split (`train` or `test`)."""
    return resource_dir("data") / f"{split}.jsonl"
