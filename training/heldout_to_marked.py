"""Turn a used held-back set (benchmarks/data/pii-heldout-X/*.jsonl: {"lang", "text", "pii": [{"value", "type"}]})
into a writer's batch of marked messages and split it as training/split_marked_batch.py splits one:

    python training/heldout_to_marked.py benchmarks/data/pii-heldout-c hc
    python training/heldout_to_marked.py benchmarks/data/pii-train-tr23a t23a --all   # no validation split

Each text becomes one line (line breaks and tabs read as spaces, as the tagger's word pieces read them), every
occurrence of each annotated value marked in place as [value](TYPE) with the set's type, which is the detector's
(a value inside a longer one, "Derek" in "Derek Whitcombe", goes with the longer; a value is marked only as a whole
word, not "Ann" in "Annual"). Texts with values go to personal-L.txt, the others to negatives-L.txt; then the split:
~20 % to data/tagger-natural/validation-SUFFIX/L.txt, the rest to languages/KIND-L-SUFFIX.txt as the tagger is taught
(with --all, every line goes to training: a set written as training data).
A text whose marks would not read back as its values (a value holding "[" or "]") is left out and counted.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from split_marked_batch import main as split_batch  # noqa: E402

from stealthflow.pii_tagger.training.data import MARKED, read_marked  # noqa: E402

BREAKS = re.compile(r"[\r\n\t]")


def occurrences(text: str, pii: list[dict]) -> list[tuple[int, int, str]]:
    """Non-overlapping (start, end, type) of every whole-word occurrence of each value, longer values first."""
    found = []
    for item in pii:
        value = item["value"]
        before = r"(?<!\w)" if re.match(r"\w", value) else ""
        after = r"(?!\w)" if re.search(r"\w$", value) else ""
        for match in re.finditer(before + re.escape(value) + after, text):
            found.append((match.start(), match.end(), item["type"]))
    kept: list[tuple[int, int, str]] = []
    for span in sorted(found, key=lambda s: (s[0] - s[1], s[0])):
        if all(span[1] <= other[0] or other[1] <= span[0] for other in kept):
            kept.append(span)
    return sorted(kept)


def marked_line(row: dict) -> str | None:
    """The row's text on one line, its values marked; None when the marks would not read back as written."""
    text = BREAKS.sub(" ", row["text"])
    spans = occurrences(text, row["pii"])
    line, last = "", 0
    for start, end, kind in spans:
        line += text[last:start] + f"[{text[start:end]}]({kind})"
        last = end
    line += text[last:]
    marks = [(mark.start(), mark[1], mark[2]) for mark in MARKED.finditer(line)]
    if len(marks) != len(spans) or [(m[1], m[2]) for m in marks] != [(text[s:e], k) for s, e, k in spans]:
        return None
    return line


def write_batch(folder: Path, batch: Path) -> dict[str, int]:
    """Write personal-L.txt and negatives-L.txt of every jsonl file of `folder` into `batch`; counts per kind."""
    lines: dict[tuple[str, str], list[str]] = {}
    counts = {"personal": 0, "negatives": 0, "left out": 0}
    for path in sorted(folder.glob("*.jsonl")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(raw)
            kind = "personal" if row["pii"] else "negatives"
            line = marked_line(row)
            if line is None:
                counts["left out"] += 1
                continue
            lines.setdefault((kind, row["lang"]), []).append(line)
            counts[kind] += 1
    for (kind, language), kept in lines.items():
        (batch / f"{kind}-{language}.txt").write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return counts


def main(folder: Path, suffix: str, hold_out: bool = True) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        counts = write_batch(folder, Path(tmp))
        print(f"{folder}: {counts}")
        split_batch(Path(tmp), suffix, hold_out=hold_out)
    for path in (Path(__file__).resolve().parent.parent / "data" / "tagger-natural" / "languages").glob(
        f"personal-*-{suffix}.txt"
    ):
        read_marked(path)  # every mark reads back with a known type


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], hold_out="--all" not in sys.argv[3:])
