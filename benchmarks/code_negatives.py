"""Code and config snippets without personal data, from the installed packages' sources (many authors): how often the
detector flags what developers paste.

    python benchmarks/code_negatives.py build            # the manifest, benchmarks/data/code-negatives/manifest.jsonl
    python benchmarks/code_negatives.py measure fit choose   # snippets flagged per 1,000 and spans masked per type

`build` reads the Python sources, READMEs, docs and config files of the packages under site-packages and takes from
each package up to `PER_PACKAGE` windows of 1-30 lines (seeded by the package's name), split by package into fit,
choose and check (a hash of its name: 6, 2 and 2 tenths). Left out, so that the snippets hold no personal data: the
packages' metadata (`*.dist-info`), and windows holding an e-mail address, an author's, maintainer's or copyright line
(names of real people), or a long token of letters and digits (an example key). Only the manifest is stored (package,
file under site-packages, line range, sha256 of the text); `snippets` reads the text back and skips a window whose
file changed.

`measure` runs the detector as `protect` builds it (default levels) on each snippet.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import sysconfig
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "benchmarks" / "data" / "code-negatives" / "manifest.jsonl"
SITE = Path(sysconfig.get_paths()["purelib"])
SUFFIXES = (".py", ".md", ".rst", ".txt", ".cfg", ".toml", ".ini", ".yaml", ".yml", ".json")
PER_PACKAGE = 20  # windows a package gives at most
MAX_LINES = 30
MAX_BYTES = 200_000  # larger files (generated tables, data) are passed over
_LEFT_OUT = re.compile(
    r"[\w.+-]+@[\w-]+\.[\w.-]+"  # an e-mail address
    r"|(?i:author|maintainer|copyright|\(c\))"  # a line naming people
    r"|(?=[A-Za-z0-9_+/=-]{24,})(?=\S*\d)(?=\S*[A-Za-z])[A-Za-z0-9_+/=-]{24,}"  # a long token: an example key
)


def split_of(package: str) -> str:
    """fit, choose or check, by a hash of the package's name."""
    tenth = int(hashlib.sha256(package.encode()).hexdigest(), 16) % 10
    return "fit" if tenth < 6 else "choose" if tenth < 8 else "check"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def packages() -> dict[str, list[Path]]:
    """package -> its readable files (a top-level directory of site-packages; metadata left out)."""
    found = {}
    for top in sorted(SITE.iterdir()):
        if not top.is_dir() or top.name.endswith((".dist-info", ".egg-info")) or top.name.startswith(("_", ".")):
            continue
        files = sorted(
            path
            for path in top.rglob("*")
            if path.suffix in SUFFIXES and path.is_file() and path.stat().st_size <= MAX_BYTES
        )
        if files:
            found[top.name] = files
    return found


def windows(package: str, files: list[Path]) -> list[dict]:
    """Up to `PER_PACKAGE` windows of the package's files, none left out by `_LEFT_OUT`."""
    pick = random.Random(package)
    taken, tries = [], 0
    while len(taken) < PER_PACKAGE and tries < PER_PACKAGE * 10:
        tries += 1
        path = pick.choice(files)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        if not lines:
            continue
        size = pick.randint(1, MAX_LINES)
        first = pick.randrange(len(lines))
        text = "\n".join(lines[first : first + size])
        if len(text.strip()) < 20 or _LEFT_OUT.search(text):
            continue
        end = min(first + size, len(lines))
        taken.append(
            {"package": package, "split": split_of(package), "file": str(path.relative_to(SITE)),
             "lines": [first + 1, end], "sha": digest(text)}
        )  # fmt: skip
    return taken


def build() -> None:
    MANIFEST.parent.mkdir(parents=True, exist_ok=True)
    rows = [window for package, files in packages().items() for window in windows(package, files)]
    MANIFEST.write_text("".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows), encoding="utf-8")
    print(json.dumps(Counter(row["split"] for row in rows)), f"packages {len({r['package'] for r in rows})}")


def snippets(splits: tuple[str, ...]) -> list[tuple[dict, str]]:
    """(manifest row, text) of the windows of `splits` whose file is installed and unchanged."""
    found, missing = [], 0
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["split"] not in splits:
            continue
        path = SITE / row["file"]
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            missing += 1
            continue
        text = "\n".join(lines[row["lines"][0] - 1 : row["lines"][1]])
        if digest(text) != row["sha"]:
            missing += 1
            continue
        found.append((row, text))
    if missing:
        print(f"{missing} windows changed or missing", file=sys.stderr)
    return found


def measure(splits: tuple[str, ...], show: int) -> dict:
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.policy import ProtectConfig
    from stealthflow.placeholders.recognizers import build_recognizers

    detector, config = Detector(build_recognizers(models=True)), ProtectConfig()
    flagged, types, sources, shown = 0, Counter(), Counter(), 0
    read = snippets(splits)
    for row, text in read:
        spans = [s for s in detector.detect(text) if config.masks(s.type, s.level)]
        flagged += bool(spans)
        types.update(s.type for s in spans)
        sources.update(f"{s.type} {s.source}" for s in spans)
        for s in spans[: max(0, show - shown)]:
            shown += 1
            print(f"{row['file']}:{row['lines']} {s.type} {s.source} {text[s.start : s.end]!r}", file=sys.stderr)
    report = {
        "splits": list(splits),
        "snippets": len(read),
        "packages": len({row["package"] for row, _ in read}),
        "flagged": flagged,
        "flagged_per_1000": round(1000 * flagged / max(len(read), 1), 1),
        "spans_by_type": dict(types.most_common()),
        "spans_by_source": dict(sources.most_common()),
    }
    print(json.dumps(report, indent=1))
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("build", help="write the manifest")
    measure_command = commands.add_parser("measure", help="snippets flagged and spans masked")
    measure_command.add_argument("splits", nargs="+", choices=("fit", "choose", "check"))
    measure_command.add_argument("--show", type=int, default=0, help="print this many spans (stderr)")
    args = parser.parse_args()
    if args.command == "build":
        build()
    else:
        measure(tuple(args.splits), args.show)


if __name__ == "__main__":
    main()
