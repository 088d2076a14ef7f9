"""Turn files of marked messages (one a line, each personal value marked in place as [value](TYPE), as the taggers
are taught) into benchmarks/pii_registers.py's format ({"text", "lang", "pii": [{"value", "type"}]}), each message's
language guessed by the detector's guesser, so a reader (`stealthflow tagger reader`) can learn from them as from an
annotated set. Messages guessed in none of the covered languages, or unsure, are left out and counted:

    python training/marked_to_annotated.py OUT.jsonl FILE.txt [FILE.txt ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from stealthflow.pii_tagger.training.data import read_marked
from stealthflow.placeholders.language import shared_guesser


def main(out: Path, files: list[Path]) -> None:
    guesser = shared_guesser()
    rows, left_out = [], 0
    for path in files:
        for text, spans in read_marked(path):
            guess = guesser.guess(text)
            if guess.language is None or guess.unsure:
                left_out += 1
                continue
            pii = [{"value": text[start:end], "type": kind} for start, end, kind in spans]
            rows.append({"text": text, "lang": guess.language, "pii": pii})
    out.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    print(f"{len(rows)} messages written to {out}; {left_out} left out (no covered language, or unsure)")


if __name__ == "__main__":
    main(Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]])
