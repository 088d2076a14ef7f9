"""Lower-case variants of the chat texts of used held-back sets, for training (people often chat in lower case):

    python training/lowercase_chat_variants.py hlc benchmarks/data/pii-heldout-k benchmarks/data/pii-heldout-l ...

Each row of register "chat" whose marked line (training/heldout_to_marked.py) went to training, not to validation
(the split rule of training/split_marked_batch.py), is written once more, marked as taught, with its text and its
name, address, employer and health values lower-cased; the marks are the set's own, so no label is invented.
Structured values (phone numbers, IBANs, emails, IDs, secrets) keep their case, as a pasted value does. Output:
data/tagger-natural/languages/KIND-L-SUFFIX.txt (personal and negatives, as heldout_to_marked.py names them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from heldout_to_marked import marked_line  # noqa: E402
from split_marked_batch import OUT, as_taught, held_out  # noqa: E402

from stealthflow.pii_tagger.training.data import MARKED, read_marked  # noqa: E402

LOWERED_TYPES = {"REAL_NAME", "ADDRESS", "EMPLOYER", "HEALTH"}


def lowered(line: str) -> str:
    """`line` lower-cased outside its marks and inside the marks of LOWERED_TYPES; type names kept."""
    out, last = "", 0
    for mark in MARKED.finditer(line):
        value = mark[1].lower() if mark[2] in LOWERED_TYPES else mark[1]
        out += line[last : mark.start()].lower() + f"[{value}]({mark[2]})"
        last = mark.end()
    return out + line[last:].lower()


def chat_variants(folders: list[Path]) -> dict[str, list[str]]:
    """File name (KIND-L) -> the lower-cased training lines of the folders' chat rows."""
    variants: dict[str, list[str]] = {}
    for folder in folders:
        for path in sorted(folder.glob("*.jsonl")):
            for raw in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(raw)
                line = marked_line(row)
                kind = "personal" if row["pii"] else "negatives"
                if row["register"] != "chat" or line is None or held_out(f"{kind}-{row['lang']}.txt", line):
                    continue
                variants.setdefault(f"{kind}-{row['lang']}", []).append(lowered(as_taught(line)))
    return variants


def main(suffix: str, folders: list[Path]) -> None:
    for name, lines in sorted(chat_variants(folders).items()):
        out = OUT / "languages" / f"{name}-{suffix}.txt"
        out.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        read_marked(out)  # every mark reads back with a known type
        print(f"{out}: {len(lines)} lines")


if __name__ == "__main__":
    main(sys.argv[1], [Path(arg) for arg in sys.argv[2:]])
