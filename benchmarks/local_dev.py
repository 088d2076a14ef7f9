"""A development check of `--method local` on posts with the teacher's cues, never test text: the
default is `data/teacher-rewrites/synthetic-posts-b.jsonl` (450 posts of a second writer; the shipped
cue tagger is not trained on them).

Per run: the share of the teacher's cues that left the text (the words the teacher changed in each
cue phrase, `TeacherCue.core`, no longer found by `span_survives`), by attribute; the share of cued
and of cue-free posts changed (`--harmless` adds posts without cues, written apart), and how many cue-free posts came
back not protected (a mark left unprotected: the CLI prints none of them); the share of the
tagger's marks (as the generalizer acts on them) still in the text, and those left unprotected per
cued post; a fluency proxy (the embedded model's edit score of each changed post against its original,
utility/fluency.py: the share at or above local.MODEL_FLOOR, and the median); seconds per post.
`--samples FILE` writes (original, rewrite) pairs to read. `--posts FILE` (repeatable) adds posts without
teacher rewrites, each line of each text a post (a blind sample's `texts/original.jsonl` of
benchmarks/blind_attack.py), reported apart: the tagger's marks still in them, the share changed, the fluency
proxy. Both report `unprotected_why`: each mark left unprotected, by attribute and by reason, read again in the
rewrite it stayed in (why no stand-in replaced it, `why_stand_in`; why it did not leave with what is around it,
`why_kept`); `place_marks`: the location and place-of-birth marks, those naming a chain, bank or
transit network (`brands.holds_brand`) and those of them gone. `--stays FILE` replays the generalizer's stages on each mark that stayed, in the rewrite it stayed in (`first_stay`), and
reports the first stage that left it no acceptable edit (`stays`: count and share by reason) with the best rejected
edit and its gate probability, with `--profiles` also for a seeded sample of `--stays-posts` blind-set posts
(`clue_sets.stays`); FILE gets `--stays-examples` of them drawn at random.
`--profiles DIR` (repeatable) adds every comment of a blind set (`DIR/profiles.jsonl`) split by its writer's clue flags
(`DIR/clue_flags.jsonl`), reported apart (`clue_sets`): posts not protected, marks by attribute (`by_attribute`) and by
what became of them (`outcomes`: replaced, removed, stayed; also for `--posts` and the teacher posts), marked posts
fully protected,
clue and clue-free posts changed, the fluency proxy, seconds per post; `--profile-rows FILE` writes each with its
rewrite, marks, changes and the clauses and sentences the fallback removed (benchmarks/fallback_floor.py reads two
such files); `--remove-sentences` turns the clause and sentence fallback on (off by default, as in `anonymize`),
`--fallback-floor F` sets its confidence floor (default: data/generalize/fallback.yaml).
`--phrase-adapter DIR` adds the phrase generalizer's suggestions to the candidates. `--teacher FILE` outside
data/teacher-rewrites (the phrase generalizer's validation posts) hides the shipped posts with the same ids from
the generalizer.

    python benchmarks/local_dev.py --limit 150 --samples runs/dev-samples.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections import Counter, defaultdict
from pathlib import Path

from stealthflow.anonymize import brands, generalize, meaning, places, referents, syntax
from stealthflow.anonymize.cues import load_cue_tagger
from stealthflow.anonymize.fallback import Fallback
from stealthflow.anonymize.generalize import Generalizer
from stealthflow.anonymize.local import MODEL_FLOOR, LocalAnonymizer, PostRewrite
from stealthflow.data.evidence import find_phrase
from stealthflow.evaluation.evidence import span_survives
from stealthflow.harvest.teacher_rewrites import TeacherRewrite, load_teacher_rewrites
from stealthflow.resources import resource_dir
from stealthflow.utility.fluency import shared_scorer

POSTS = resource_dir("data") / "teacher-rewrites" / "synthetic-posts-b.jsonl"


def hide_from_generalizer(held_out: Path, ids: set[str]) -> None:
    """The generalizer's teacher cues without the posts measured here (the whole file `held_out` when it ships,
    else the shipped posts with the measured `ids`): their phrases are then generalized as in a post nobody wrote
    a rewrite for."""
    kept = tuple(
        cue
        for file in sorted(POSTS.parent.glob("*.jsonl"))
        if file != held_out
        for rewrite in load_teacher_rewrites(file).values()
        if rewrite.id not in ids
        for cue in rewrite.cues
    )
    generalize.teacher_cues = lambda: kept  # looked up by name in teacher_table and cue_heads


def sample_rewrites(path: Path, limit: int, seed: int) -> list[TeacherRewrite]:
    """The first `limit` teacher rewrites of `path`, shuffled with `seed` (benchmarks/local_speed.py takes the same)."""
    rewrites = list(load_teacher_rewrites(path).values())
    random.Random(seed).shuffle(rewrites)
    return rewrites[:limit]


def write_rewrites(path: Path, rows: list[tuple[str, PostRewrite]], original: str) -> None:
    """Each (post, rewrite) as a JSON line: the post under the key `original`, the rewrite's text, changes and
    unprotected phrases."""
    path.write_text(
        "".join(
            json.dumps({original: post, "rewrite": r.text, "changes": r.changes, "unprotected": r.unprotected}) + "\n"
            for post, r in rows
        ),
        encoding="utf-8",
    )


def report(summary: dict, out: Path | None) -> None:
    """Print the figures; also write them to `out` (JSON) when given."""
    print(json.dumps(summary, indent=1))
    if out:
        out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


def read_harmless(paths: list[Path]) -> list[str]:
    return [
        json.loads(line)["text"] for path in paths for line in path.read_text(encoding="utf-8").splitlines() if line
    ]


def suggester(adapter: Path | None):
    """The phrase generalizer of `adapter`, or None (candidates from the data only)."""
    if adapter is None:
        return None
    from stealthflow.anonymize.suggest import PhraseSuggester

    return PhraseSuggester(adapter)


def marks_left(results: list[PostRewrite]) -> float:
    """The share of the tagger's marks (as the generalizer acts on them) still in the rewrites."""
    return round(
        sum(span_survives(p, r.text) for r in results for p, _ in r.cues) / max(1, sum(len(r.cues) for r in results)),
        3,
    )


def why_stand_in(sentence: str, start: int, end: int, attribute: str) -> str:
    """Why no stand-in replaced sentence[start:end], read again in the sentence it stayed in: no candidate (and why:
    the parse, the slot's form, what the phrase is to the attribute's stand-ins), or candidates that the meaning floor
    or the fluency floor turned away."""
    if not syntax.has_content(sentence, start, end):
        return "function words only"
    found = [c for c in generalize.candidates(sentence, start, end, attribute) if c]
    if found:
        near = meaning.nearness([(sentence[start:end], c) for c in found])
        if all(n < meaning.MEANING_FLOOR for n in near):
            return "every candidate below the meaning floor"
        return "every candidate below the fluency floor"
    where = syntax.slot(sentence, start, end)
    if where is None:
        return "no slot (not whole tokens)"
    if where.kind not in {"nominal", "adverbial"}:
        return f"no stand-in form for {generalize.with_article('a', where.kind)}"
    kind = generalize.slot_kind(sentence, start, end, [attribute], where)
    if kind == generalize.COMMON_NOUN:
        return "common noun with no taught stand-in"
    if kind == generalize.OTHER_KIND:
        return "name, number or adjective of another kind"
    if generalize.about_someone_else(sentence, start, end):
        return "about someone else: no stand-in in the author's words"
    return "name of its kind: no stand-in fits the slot"


def why_kept(text: str, start: int, end: int, attribute: str) -> str:
    """Why text[start:end] did not leave with what is around it: it is no evidence of its attribute by the data
    (`generalize.gives_away`: no removal is tried), or its sentence stands without no constituent holding it, or the
    acceptance gate passed no such removal, or each left a word dangling (its sentence is never dropped whole)."""
    first, last = generalize.sentence_bounds(text, start, end)
    sentence, a, b = text[first:last], start - first, end - first
    if not generalize.gives_away(sentence, a, b, attribute):
        return "no evidence by the data: never removed"
    if not syntax.removals(sentence, a, b):
        return "no constituent to remove (an argument, or its verb's only complement)"
    return "every removal reads badly or leaves a fragment"


def stayed(results: list[PostRewrite]) -> dict:
    """Each mark reported unprotected, by attribute and by reason (`why_stand_in`, `why_kept`), as read in the
    rewrite it stayed in."""
    counts: dict[str, dict[str, Counter]] = {"stand_in": defaultdict(Counter), "removal": defaultdict(Counter)}
    for result in results:
        for phrase in result.unprotected:
            attribute = next((a for p, a in result.cues if phrase in p), "?")
            found = find_phrase(phrase, result.text)
            if found is None:
                continue
            first, last = generalize.sentence_bounds(result.text, *found)
            reason = why_stand_in(result.text[first:last], found[0] - first, found[1] - first, attribute)
            for key, why in (("stand_in", reason), ("removal", why_kept(result.text, *found, attribute))):
                counts[key][attribute][why] += 1
                counts[key]["all"][why] += 1
    return {key: {a: dict(c.most_common()) for a, c in sorted(by.items())} for key, by in counts.items()}


def outcomes(results: list[PostRewrite]) -> dict:
    """Per attribute, each of the tagger's marks by what became of it: `replaced` (it left and a change sharing one of
    its words put words in its place: a stand-in), `removed` (it left with nothing in its place), `stayed` (still in
    the text, `span_survives`), with the share that stayed."""
    table: dict[str, Counter] = defaultdict(Counter)
    for result in results:
        for phrase, attribute in result.cues:
            words = set(re.findall(r"\w+", phrase.casefold()))
            if span_survives(phrase, result.text):
                outcome = "stayed"
            elif any(
                c["replacement"] and words & set(re.findall(r"\w+", c["phrase"].casefold())) for c in result.changes
            ):
                outcome = "replaced"
            else:
                outcome = "removed"
            for key in (attribute, "all"):
                table[key][outcome] += 1
    return {
        a: {**dict(c), "stayed_share": round(c["stayed"] / max(1, sum(c.values())), 3)}
        for a, c in sorted(table.items())
    }


def brand_marks(results: list[PostRewrite]) -> dict:
    """The tagger's location and place-of-birth marks, those naming a chain, bank or transit network
    (`brands.holds_brand`), and those of them gone from the rewrite."""
    marks = [(phrase, r.text) for r in results for phrase, a in r.cues if a in places.PLACE_ATTRIBUTES]
    named = [(phrase, text) for phrase, text in marks if brands.holds_brand(phrase)]
    return {"marks": len(marks), "naming_a_brand": len(named), "gone": sum(not span_survives(*m) for m in named)}


def no_candidate(sentence: str, start: int, end: int, attribute: str) -> str:
    """Why sentence[start:end] has no candidate: `why_stand_in`, a place name whose kind and frame give no stand-in
    named apart, a drop the sentence would stand without refused by `syntax.damage` named with its kind."""
    where = syntax.slot(sentence, start, end)
    if where is not None and where.removable and (kind := syntax.damage(sentence, start, end)):
        return f"no candidate: drop refused by syntax.damage ({kind})"
    why = why_stand_in(sentence, start, end, attribute)
    if attribute in places.PLACE_ATTRIBUTES and why == "name of its kind: no stand-in fits the slot":
        return "no candidate: place kind or frame"
    return f"no candidate: {why}"


def first_stay(generalizer: Generalizer, text: str, phrase: str, attribute: str, marked: list[str]) -> dict | None:
    """Why `phrase` of `text` stayed: the generalizer's stages replayed on it in the sentence it stayed in, and the
    first that left it no acceptable stand-in: no candidate (`no_candidate`), every candidate under the meaning floor,
    every one refused by `referents.keeps_referent` or by `generalize._trial` (a placeholder lost, a word left
    dangling), every edit scored (with the removals of a cue that `gives_away`) under the gate's threshold, or every
    one the gate passes under a hard floor (`gate.clears_floors`). "accepted on replay": an edit passes in the rewrite
    (its context changed after the phrase was tried). With the best edit the gate scored, its probability, and
    whether any edit reached the gate; None when the phrase is not in `text`."""
    found = find_phrase(phrase, text)
    if found is None:
        return None
    first, last = generalize.sentence_bounds(text, *found)
    window, start, end = text[first:last], found[0] - first, found[1] - first
    row = {"phrase": phrase, "attribute": attribute, "sentence": window, "best": None, "chance": None}
    if not syntax.has_content(window, start, end):
        return {**row, "reason": "function words only", "gate_scored": False}
    where, item = {0: (start, end, window)}, (phrase, attribute, False)
    tried = generalizer._candidates(where, {0: attribute}, [marked], [text])[0]
    near = generalizer._meaningful({0: tried}, where)[0]
    place = attribute in places.PLACE_ATTRIBUTES  # a place's name is no one's, as in `Generalizer._trials`
    kept = [c for c in near if referents.keeps_referent(window, start, end, c, text[last:], place)]
    trials = generalizer._trials(text, item, start, end, window, kept)
    stage = next(
        (
            why
            for empty, why in (
                (not tried, None),
                (not near, "every candidate under the meaning floor"),
                (not kept, "refused by referents"),
                (not trials, "refused by replace (placeholder or dangling word)"),
            )
            if empty
        ),
        "",
    )
    if stage is None:
        stage = no_candidate(window, start, end, attribute)
    if generalize.gives_away(window, start, end, attribute):
        trials += generalizer._removals(text, item, start, end, window)
    if not trials:
        return {**row, "reason": stage, "gate_scored": False}
    scores = generalizer.scorer.compare([t[1] for t in trials], [t[2] for t in trials])
    swaps = [generalize.kin_swap(t[1], t[2]) for t in trials]
    verdicts = generalizer.gate.verdicts([(t[1], t[2]) for t in trials], scores, generalizer.embed, swaps)
    (chance, _), (new, _, edited, _) = max(zip(verdicts, trials, strict=True), key=lambda v: v[0][0])
    row = {**row, "best": new, "edited": edited, "chance": round(chance, 3), "gate_scored": True}
    if any(ok for _, ok in verdicts):
        return {**row, "reason": "accepted on replay"}
    if stage:
        return {**row, "reason": stage}
    over = [(t, f) for t, f, (c, _) in zip(trials, scores, verdicts, strict=True) if c >= generalizer.gate.threshold]
    if over:
        return {**row, "reason": "a hard floor of gate.py"}
    return {**row, "reason": "gate probability under the threshold"}


def stays(generalizer: Generalizer, results: list[PostRewrite]) -> list[dict]:
    """`first_stay` of each mark reported unprotected."""
    found = []
    for result in results:
        marked = [p for p, _ in result.cues]
        for phrase in result.unprotected:
            attribute = next((a for p, a in result.cues if phrase in p), "?")
            if (row := first_stay(generalizer, result.text, phrase, attribute, marked)) is not None:
                found.append(row)
    return found


def stay_table(rows: list[dict], threshold: float) -> dict:
    """Count and share of the marks that stayed by their first reason, and the median gate probability of the best
    rejected edit where one was scored; how many had an edit scored by the gate, and how many of those a best edit
    within reach of the gate's `threshold`."""
    counts = Counter(r["reason"] for r in rows)
    table = {why: {"count": n, "share": round(n / len(rows), 3)} for why, n in counts.most_common()}
    for why, entry in table.items():
        chances = sorted(r["chance"] for r in rows if r["reason"] == why and r["chance"] is not None)
        if chances:
            entry["median_best_chance"] = chances[len(chances) // 2]
    scored = [r for r in rows if r["gate_scored"]]
    return {
        "marks": len(rows),
        "by_reason": table,
        "an_edit_reached_the_gate": len(scored),
        "best_chance_at_least": {
            str(t): sum(r["chance"] >= t for r in scored) for t in (0.1, 0.15, 0.2, round(threshold, 3))
        },
    }


def fluency_proxy(pairs: list[tuple[str, str]]) -> dict:
    """The share of (post, changed rewrite) pairs whose edit score is at least MODEL_FLOOR, and the median."""
    fluency = sorted(f.score for f in shared_scorer().compare([a for a, _ in pairs], [b for _, b in pairs]))
    return {
        "fluent_share": round(sum(s >= MODEL_FLOOR for s in fluency) / max(1, len(fluency)), 3),
        "fluency_median": round(fluency[len(fluency) // 2], 3) if fluency else None,
    }


def other_posts(anonymizer: LocalAnonymizer, paths: list[Path]) -> dict:
    """Figures for posts without teacher rewrites (`--posts`): every line of every text is a post."""
    posts = [post for text in read_harmless(paths) for post in text.split("\n") if post.strip()]
    results = anonymizer.rewrite_posts(posts)
    pairs = [(post, r.text) for post, r in zip(posts, results, strict=True) if r.text != post]
    return {
        "posts": len(posts),
        "marks_left": marks_left(results),
        "outcomes": outcomes(results),
        "marked_posts_fully_protected": sum(bool(r.cues) and not r.unprotected for r in results),
        "marked_posts": sum(bool(r.cues) for r in results),
        "posts_changed": round(len(pairs) / max(1, len(posts)), 3),
        "unprotected_per_marked_post": round(
            sum(len(r.unprotected) for r in results) / max(1, sum(bool(r.cues) for r in results)), 3
        ),
        **fluency_proxy(pairs),
        "unprotected_why": stayed(results),
        "place_marks": brand_marks(results),
    }


def clue_posts(directory: Path) -> tuple[list[str], list[bool]]:
    """Every comment of a blind set's `profiles.jsonl`, and whether its writer put a clue in it (`clue_flags.jsonl`)."""
    from stealthflow.data.loader import load_profiles

    flags = {}
    for line in (directory / "clue_flags.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        flags[row["username"], row["comment"]] = row["clue"]
    pairs = [
        (comment.text, flags[profile.id, index])
        for profile in load_profiles(directory / "profiles.jsonl")
        for index, comment in enumerate(profile.comments)
    ]
    return [text for text, _ in pairs], [clue for _, clue in pairs]


def by_attribute(results: list[PostRewrite]) -> dict:
    """Per attribute of the tagger's marks: how many, how many still in the text, how many reported unprotected, and
    the posts with at least one of them unprotected (the CLI prints none of those)."""
    table: dict[str, Counter] = defaultdict(Counter)
    for result in results:
        stayed_in = set()
        for phrase, attribute in result.cues:
            for key in (attribute, "all"):
                table[key]["marks"] += 1
                table[key]["left"] += span_survives(phrase, result.text)
        for phrase in result.unprotected:
            attribute = next((a for p, a in result.cues if phrase in p), "?")
            stayed_in.add(attribute)
            for key in (attribute, "all"):
                table[key]["unprotected"] += 1
        for key in stayed_in | ({"all"} if stayed_in else set()):
            table[key]["posts_not_protected"] += 1
    return {a: dict(c) for a, c in sorted(table.items())}


def clue_sets(anonymizer: LocalAnonymizer, directories: list[Path], rows: Path | None) -> tuple[dict, list]:
    """Figures for the comments of blind sets (`--profiles`), split by their writer's clue flags: posts not protected,
    marks by attribute (`by_attribute`), the shares of clue and clue-free posts changed, the fluency proxy, seconds per
    post; `rows` gets every post with its rewrite, clue flag, marks and changes. With the rewrites."""
    posts, clues = [], []
    for directory in directories:
        found, flags = clue_posts(directory)
        posts += found
        clues += flags
    started = time.time()
    results = anonymizer.rewrite_posts(posts)
    seconds = time.time() - started
    changed = [r.text != post for post, r in zip(posts, results, strict=True)]
    pairs = [(post, r.text) for post, r, c in zip(posts, results, changed, strict=True) if c]
    clue_free = [not clue for clue in clues]
    if rows:
        rows.write_text(
            "".join(
                json.dumps(
                    {
                        "original": post,
                        "clue": clue,
                        "rewrite": r.text,
                        "cues": r.cues,
                        "changes": r.changes,
                        "unprotected": r.unprotected,
                        "removals": [vars(removal) for removal in r.removals],
                    }
                )
                + "\n"
                for post, clue, r in zip(posts, clues, results, strict=True)
            ),
            encoding="utf-8",
        )
    summary = {
        "posts": len(posts),
        "clue_posts": sum(clues),
        "posts_not_protected": sum(bool(r.unprotected) for r in results),
        "clue_free_posts_not_protected": sum(bool(r.unprotected) for r, f in zip(results, clue_free, strict=True) if f),
        "clue_posts_changed": round(sum(c for c, k in zip(changed, clues, strict=True) if k) / max(1, sum(clues)), 3),
        "clue_free_posts_changed": round(
            sum(c for c, f in zip(changed, clue_free, strict=True) if f) / max(1, sum(clue_free)), 3
        ),
        "marks": by_attribute(results),
        "outcomes": outcomes(results),
        "marked_posts_fully_protected": sum(bool(r.cues) and not r.unprotected for r in results),
        "marked_posts": sum(bool(r.cues) for r in results),
        **fluency_proxy(pairs),
        "seconds_per_post": round(seconds / max(1, len(posts)), 2),
    }
    return summary, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teacher", type=Path, default=POSTS, help="teacher rewrites (never test comments)")
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tagger", help="cue tagger directory (default: the shipped one)")
    parser.add_argument(
        "--harmless", type=Path, action="append", default=[], help='JSONL of posts without cues ({"text": ...})'
    )
    parser.add_argument("--posts", type=Path, action="append", default=[], help="JSONL of texts, one post a line")
    parser.add_argument(
        "--profiles", type=Path, action="append", default=[], help="a blind set's folder (profiles and clue flags)"
    )
    parser.add_argument("--profile-rows", type=Path, help="JSONL: every --profiles post with its rewrite")
    parser.add_argument(
        "--remove-sentences", action="store_true", help="the clause and sentence fallback on (anonymize's option)"
    )
    parser.add_argument(
        "--fallback-floor",
        type=float,
        help="with --remove-sentences: the fallback's confidence floor (default: shipped)",
    )
    parser.add_argument("--samples", type=Path)
    parser.add_argument("--phrase-adapter", type=Path, help="a phrase-generalizer adapter suggesting stand-ins")
    parser.add_argument("--stays", type=Path, help="JSONL: random examples of marks that stayed, with their reason")
    parser.add_argument("--stays-examples", type=int, default=40)
    parser.add_argument("--stays-posts", type=int, default=600, help="with --profiles: blind-set posts replayed")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rewrites = sample_rewrites(args.teacher, args.limit, args.seed) + [
        TeacherRewrite(f"harmless-{n}", text, (), "", None) for n, text in enumerate(read_harmless(args.harmless))
    ]
    posts = [r.text for r in rewrites]
    hide_from_generalizer(args.teacher, {r.id for r in rewrites})
    generalizer = Generalizer(shared_scorer, suggest=suggester(args.phrase_adapter))
    fallback = Fallback(generalizer, args.fallback_floor) if args.remove_sentences else None
    anonymizer = LocalAnonymizer(None, load_cue_tagger(args.tagger), generalizer, fallback=fallback)
    started = time.time()
    results = anonymizer.rewrite_posts(posts)
    seconds = time.time() - started
    left: dict[str, list[bool]] = defaultdict(list)
    for rewrite, result in zip(rewrites, results, strict=True):
        for cue in rewrite.cues:
            start, end, _ = cue.core()
            gone = not span_survives(cue.phrase[start:end], result.text)
            left[cue.attribute].append(gone)
            left["all"].append(gone)
    cued = [bool(r.cues) for r in rewrites]
    changed = [result.text != post for post, result in zip(posts, results, strict=True)]
    pairs = [(post, result.text) for post, result, c in zip(posts, results, changed, strict=True) if c]
    summary = {
        "posts": len(posts),
        "cues_gone": {a: round(sum(v) / len(v), 3) for a, v in sorted(left.items())},
        "cues": {a: len(v) for a, v in sorted(left.items())},
        "cued_posts_changed": round(sum(c for c, k in zip(changed, cued, strict=True) if k) / max(1, sum(cued)), 3),
        "cue_free_posts_changed": round(
            sum(c for c, k in zip(changed, cued, strict=True) if not k) / max(1, len(cued) - sum(cued)), 3
        ),
        "cue_free_posts_not_protected": sum(bool(r.unprotected) for r, k in zip(results, cued, strict=True) if not k),
        "marks_left": marks_left(results),
        "marks": by_attribute(results),
        "outcomes": outcomes(results),
        "posts_not_protected": sum(bool(r.unprotected) for r in results),
        "unprotected_per_cued_post": round(
            sum(len(r.unprotected) for r, k in zip(results, cued, strict=True) if k) / max(1, sum(cued)), 3
        ),
        **fluency_proxy(pairs),
        "seconds_per_post": round(seconds / len(posts), 2),
        "unprotected_why": stayed(results),
        "place_marks": brand_marks(results),
    }
    if args.profiles:
        summary["clue_sets"], profile_results = clue_sets(anonymizer, args.profiles, args.profile_rows)
    if args.stays:
        rows = stays(generalizer, results)
        summary["stays"] = stay_table(rows, generalizer.gate.threshold)
        if args.profiles:  # the blind sets' marks that stayed, replayed on a seeded sample of their posts
            sample = random.Random(args.seed).sample(profile_results, min(args.stays_posts, len(profile_results)))
            profile_rows = stays(generalizer, sample)
            summary["clue_sets"]["stays"] = stay_table(profile_rows, generalizer.gate.threshold)
            rows += profile_rows
        examples = random.Random(args.seed).sample(rows, min(args.stays_examples, len(rows)))
        args.stays.write_text("".join(json.dumps(r) + "\n" for r in examples), encoding="utf-8")
    if args.posts:
        summary["other_posts"] = other_posts(anonymizer, args.posts)
    report(summary, args.out)
    if args.samples:
        changed_or_cued = [(p, r) for p, r in zip(posts, results, strict=True) if r.text != p or r.cues]
        write_rewrites(args.samples, changed_or_cued, "original")


if __name__ == "__main__":
    main()
