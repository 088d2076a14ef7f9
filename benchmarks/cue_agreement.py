"""Whether `protect` and `anonymize --method local` mark the same cues in a post: per post that protect masks a value
in, the cue tagger's (phrase, attribute) marks as the local method takes them (`find_cues`, `split_cues`) on the raw
post (`anonymize`), on it cut around the masked values (the most protect can mark: a placeholder is never a cue), and
on protect's text read as the placeholder text and as the values the placeholders stand for (`cues.TaggerView`).
Protect runs as `stealthflow protect` does (its recognizers and PII tagger, no LLM extractor), in a vault of a
temporary directory, each text alone. Prints the counts as JSON; nothing of the posts is written.

    python benchmarks/cue_agreement.py benchmarks/data/blind-profiles-l/profiles.jsonl
    python benchmarks/cue_agreement.py data/test.jsonl --limit 400
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import tempfile
from pathlib import Path

from stealthflow.anonymize.cues import find_cues, load_cue_tagger, split_cues
from stealthflow.config import Settings
from stealthflow.data import load_labelled
from stealthflow.pipeline.protector import Protector


def protector(vault_dir: str) -> Protector:
    os.environ["STEALTHFLOW_VAULT_KEY"] = base64.urlsafe_b64encode(secrets.token_bytes(32)).decode()
    settings = Settings()
    config = settings.protect.model_copy(
        update={"vault_path": Path(vault_dir) / "vault.sqlite", "key_source": "env", "llm_extractor": False}
    )
    return Protector.from_settings(settings.model_copy(update={"protect": config}), recall=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profiles", nargs="+", type=Path, help="labelled profiles (JSONL); each comment is a post")
    parser.add_argument("--limit", type=int, default=None, help="the first N posts only")
    args = parser.parse_args()
    posts = [c.text for path in args.profiles for p in load_labelled(path) for c in p.comments][: args.limit]
    with tempfile.TemporaryDirectory() as vault_dir:
        protected = protector(vault_dir).protect_many(posts, "cue-agreement")
    masked = [i for i, p in enumerate(protected) if p.spans]
    raw = [posts[i] for i in masked]
    texts = [protected[i].text for i in masked]
    values = [protected[i].values for i in masked]
    tagger = load_cue_tagger()
    anonymize = split_cues(tagger, raw, find_cues(tagger, raw))
    stretches = [[(s.start, s.end) for s in protected[i].spans] for i in masked]
    outside = split_cues(tagger, raw, find_cues(tagger, raw, stretches))
    readings = {
        "placeholder text": split_cues(tagger, texts, find_cues(tagger, texts)),
        "values": split_cues(tagger, texts, find_cues(tagger, texts, values=values), values),
    }

    def differ(a: list, b: list) -> int:
        return sum(x != y for x, y in zip(a, b, strict=True))

    report = {
        "posts": len(posts),
        "posts with a masked value": len(masked),
        "anonymize cut around the values differs from anonymize": differ(outside, anonymize),
        **{
            f"protect reading the {name}": {
                "differs from anonymize": differ(marks, anonymize),
                "differs from anonymize cut around the values": differ(marks, outside),
                "marks": sum(map(len, marks)),
            }
            for name, marks in readings.items()
        },
        "marks of anonymize, cut around the values": [sum(map(len, anonymize)), sum(map(len, outside))],
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
