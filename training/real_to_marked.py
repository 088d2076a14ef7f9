"""Turn an annotated file of real web passages ({"lang", "text", "pii": [{"value", "type"}]} a line, as
/work/real32/real_pii.jsonl) into marked training lines outside the repository (the texts are not ours to commit):

    python training/real_to_marked.py /work/real32/real_pii.jsonl runs/real32

writes OUT/personal.txt (the passages with values, each occurrence marked [value](TYPE) as
training/heldout_to_marked.py marks a held-back set) and OUT/negatives.txt (the passages without), every language in
one file each, every passage (no validation split: the judge is another annotated set). A passage whose marks would
not read back as its values is left out and counted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from heldout_to_marked import marked_line  # noqa: E402

from stealthflow.pii_tagger.training.data import read_marked  # noqa: E402


def main(annotated: Path, out: Path) -> dict[str, int]:
    lines: dict[str, list[str]] = {"personal": [], "negatives": []}
    left_out = 0
    for raw in annotated.read_text(encoding="utf-8").splitlines():
        if not raw.strip():
            continue
        row = json.loads(raw)
        line = marked_line(row)
        if line is None:
            left_out += 1
            continue
        lines["personal" if row["pii"] else "negatives"].append(line)
    out.mkdir(parents=True, exist_ok=True)
    for kind, kept in lines.items():
        (out / f"{kind}.txt").write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    read_marked(out / "personal.txt")  # every mark reads back with a known type
    counts = {kind: len(kept) for kind, kept in lines.items()} | {"left out": left_out}
    print(f"{annotated} -> {out}: {counts}")
    return counts


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python training/real_to_marked.py ANNOTATED.jsonl OUT_FOLDER")
    main(Path(sys.argv[1]), Path(sys.argv[2]))
