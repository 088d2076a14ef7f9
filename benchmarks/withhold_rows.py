"""Record, per post of blind sets, what decides whether `anonymize` withholds it: the `local` rewrite's marks that
stayed, each with its attribute, the cue tagger's confidence of the mark holding it (`cues.mark_confidence`) and whether
the data takes it as evidence of its attribute (`generalize.gives_away`); whether the post changed; its writer's clue
flag. One run per set (the rewrite is slow), then `benchmarks/withhold_floor.py` chooses offline. Rows hold the stayed
phrases, not the posts.

    python benchmarks/withhold_rows.py benchmarks/data/blind-profiles-w --out runs/withhold_rows_w.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from stealthflow.anonymize.cues import find_cues, load_cue_tagger, mark_confidence
from stealthflow.anonymize.generalize import Generalizer, gives_away
from stealthflow.anonymize.local import LocalAnonymizer, attribute_of, split_post
from stealthflow.data.evidence import find_phrase
from stealthflow.utility.fluency import shared_scorer


def clue_posts(directory: Path) -> list[tuple[str, str, bool]]:
    """Every comment of a blind set: its author, its text, and whether its writer put a clue in it."""
    from stealthflow.data.loader import load_profiles

    rows = [json.loads(line) for line in (directory / "clue_flags.jsonl").read_text(encoding="utf-8").splitlines()]
    flags = {(row["username"], row["comment"]): row["clue"] for row in rows}
    return [
        (profile.id, comment.text, flags[profile.id, index])
        for profile in load_profiles(directory / "profiles.jsonl")
        for index, comment in enumerate(profile.comments)
    ]


def stayed_rows(tagger, post: str, cues: list[tuple[str, str]], unprotected: list[str]) -> list[dict]:
    """Each phrase that stayed in `post`: its attribute, the tagger's confidence of its mark, evidence by the data."""
    pieces = [piece for piece, _ in split_post(post)]
    spans = find_cues(tagger, pieces)
    rows = []
    for phrase in unprotected:
        attribute = attribute_of(phrase, cues)
        confidence = max(mark_confidence(piece, found, phrase) for piece, found in zip(pieces, spans, strict=True))
        where = find_phrase(phrase, post)
        evidence = bool(where) and bool(attribute) and gives_away(post, where[0], where[1], attribute)
        rows.append(
            {"phrase": phrase, "attribute": attribute, "confidence": round(confidence, 4), "evidence": evidence}
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("profiles", type=Path, help="a blind set's folder (profiles.jsonl, clue_flags.jsonl)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    found = clue_posts(args.profiles)
    posts = [post for _, post, _ in found]
    tagger = load_cue_tagger()
    anonymizer = LocalAnonymizer(None, tagger, Generalizer(shared_scorer))
    results = anonymizer.rewrite_posts(posts)
    with args.out.open("w", encoding="utf-8") as out:
        for index, ((author, post, clue), result) in enumerate(zip(found, results, strict=True)):
            row = {
                "set": args.profiles.name,
                "author": author,
                "post": index,
                "clue": clue,
                "changed": result.text != post,
                "marks": len(result.cues),
                "unread": result.unread,
                "stayed": stayed_rows(tagger, post, result.cues, result.unprotected),
            }
            out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
