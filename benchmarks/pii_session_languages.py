"""A session's values masked again in later texts of six languages: each language's texts of annotated files
({"text", "lang", "pii": [{"value", "type"}]}, e.g. the languages files of benchmarks/data/pii-heldout-*) protected in
one session, in file order, by the detector `stealthflow protect` builds (recognizers and the routed PII tagger,
default levels) with a fresh vault and key in a temporary directory. Counts the spans re-masked as a session's known
value: right when they overlap an annotated value, a false alarm spread when not; and the texts flagged only by
them.

    python benchmarks/pii_session_languages.py FILE [FILE ...] [--english] [--show]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pii_registers import gold_spans  # noqa: E402

from stealthflow.pipeline.protector import Protector, open_vault  # noqa: E402
from stealthflow.placeholders.detector import Detector  # noqa: E402
from stealthflow.placeholders.language import OTHERS  # noqa: E402
from stealthflow.placeholders.policy import ProtectConfig  # noqa: E402
from stealthflow.placeholders.recognizers import build_recognizers  # noqa: E402

KNOWN = "known value"  # the source of a span re-masked from the session's values (pipeline/protector.py)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--show", action="store_true", help="print each value re-masked and whether it is annotated")
    parser.add_argument("--english", action="store_true", help="English texts too, in a session of their own")
    args = parser.parse_args()
    sessions: dict[str, list[dict]] = defaultdict(list)
    for path in args.files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["lang"] in OTHERS or args.english and row["lang"] == "en":
                sessions[row["lang"]].append(row)
    os.environ["STEALTHFLOW_VAULT_KEY"] = base64.b64encode(secrets.token_bytes(32)).decode()
    counts: dict[str, Counter] = {}
    with tempfile.TemporaryDirectory() as tmp:
        config = ProtectConfig(vault_path=Path(tmp) / "vault.sqlite", key_source="env", llm_extractor=False)
        detector = Detector(build_recognizers(config.recognizers, models=True, model=config.tagger_model))
        protector = Protector(config, open_vault(config), detector)
        for code, rows in sessions.items():
            count = counts[code] = Counter(texts=len(rows))
            for row, protected in zip(rows, protector.protect_many([r["text"] for r in rows], code), strict=True):
                gold = gold_spans(row)
                known = [s for s in protected.spans if s.source == KNOWN]
                for span in known:
                    right = any(span.start < end and start < span.end for start, end, _ in gold)
                    count["right" if right else "spread"] += 1
                    if args.show:
                        print(code, "right " if right else "spread", repr(row["text"][span.start : span.end]))
                count["only_known"] += bool(known) and all(s.source == KNOWN for s in protected.spans) and not gold
        protector.close()
    total = sum(counts.values(), Counter())
    print(
        "| language | texts | re-masked, annotated | re-masked, not annotated (spread) | texts without PII flagged only so |"
    )
    print("|---|---|---|---|---|")
    for code, count in [*counts.items(), ("all", total)]:
        print(f"| {code} | {count['texts']} | {count['right']} | {count['spread']} | {count['only_known']} |")


if __name__ == "__main__":
    main()
