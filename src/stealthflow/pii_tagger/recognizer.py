"""The PII span tagger as a recognizer: names, addresses, employers, health, income and secrets
that only context gives away (models/pii-tagger-student: a small convolutional tagger distilled
from models/pii-tagger, MiniLM + a token-classification head, which loads the same way by name
or directory and costs ~7x more per KB).

It runs on CPU over the detector's whole batch (`find_many`), on the same normalised text as
the regex recognizers, so its spans map back to the original offsets like theirs. Each model span
is shaped (spans.py), checked by its label's filter (filters/) and kept when its confidence reaches
its label's threshold (the model card's `span_thresholds`); a text's kept spans are made disjoint (spans of one type
that overlap joined: `merge_spans`); the span says why it was kept and which tagger tagged it. By default each text goes to the shipped student of its language (route.py). It loads
its model, so `build_recognizers` builds it only when asked (`protect.tagger`, `--no-tagger`).

A student whose word-piece table cannot be had (the multilingual one without its package, or with unreadable files:
`TableUnavailable`) gives way to the English student for its texts from then on: they are still tagged, each span's
reason names the student that stood in, `warning_for` says so for each such text (the protected result's warnings)
and the log says it once.
"""

from __future__ import annotations

import logging
import re
import threading
from bisect import bisect_left, bisect_right
from dataclasses import replace
from itertools import accumulate
from pathlib import PurePath

from stealthflow.pii_tagger import spans
from stealthflow.pii_tagger.clauses import LABELS as CLAUSE_LABELS
from stealthflow.pii_tagger.clauses import ClauseTagger, sentence_maxima, shipped_clause_tagger
from stealthflow.pii_tagger.context_model import ContextModel, shipped_context_models
from stealthflow.pii_tagger.filters import kept
from stealthflow.pii_tagger.filters.employer import ORGANISATION, ORGANISATION_ENDS
from stealthflow.pii_tagger.filters.no_one import SAINT_OPENS
from stealthflow.pii_tagger.filters.unlisted import GATES_DECIDE
from stealthflow.pii_tagger.model import SpanTagger, TaggedSpan, load_pii_tagger, pii_tagger_languages
from stealthflow.pii_tagger.name_candidates import CandidateJudge, shipped_candidate_judge
from stealthflow.pii_tagger.reader import SpanReader, shipped_readers
from stealthflow.pii_tagger.route import ENGLISH_STUDENT, MULTILINGUAL_STUDENT, may_be_english, student_for
from stealthflow.pii_tagger.unavailable import TableUnavailable
from stealthflow.pii_tagger.verifier import KINDS, Candidate, Verifier, shipped_verifiers
from stealthflow.pii_tagger.verifier import clear_caches as clear_verifier_caches
from stealthflow.placeholders.cells import cell_edges, cell_pieces, cells
from stealthflow.placeholders.common_words import at_ceiling, common_in_language, common_word, job_word
from stealthflow.placeholders.domains import inside, url_hosts
from stealthflow.placeholders.language import ENGLISH, OTHERS, shared_guesser
from stealthflow.placeholders.recognizers.base import Recognizer, register_recognizer
from stealthflow.placeholders.recognizers.introductions import greeted
from stealthflow.placeholders.recognizers.national_ids import named_checksum_id
from stealthflow.placeholders.recognizers.public_names import brand, text_words
from stealthflow.placeholders.recognizers.sentences import capitalises, in_lowercase_if_shouted, sentence_start
from stealthflow.placeholders.recognizers.tables import place_labels
from stealthflow.placeholders.types import Level, Span, merge_spans

# A list item's marker at the start of a line ("- ", "2. "): no span runs on from one item into the
# next ("- Jairaj Gade, Sanjuan S.L.\n- Martin Johnson, ..." was one employer span).
# A name the tagger tags right after a greeting that opens a line ("Hi Deepak,") is kept from this confidence, below
# REAL_NAME's threshold: the student's confidence in an unfamiliar name drops with what the message says before it
# ("Subject: Q3 access for the new contractor\n\nHi Deepak," 0.60 against 0.88 alone; ux19's report M6). Gain
# (benchmarks/pii_registers.py, tagger on, pii-heldout-k..r and u concatenated, 2 160 English and 3 240 six-language
# texts): 1 annotated name found more ("Ghita"), no span added on no annotated value; without the common-word check of
# `_greeted_name`, 1 ("Liebe Kundin,"). English unchanged: its salutation names already reach the threshold there.
GREETED_FLOOR = 0.5
_LIST_MARKER = re.compile(r"(?m)^[ \t]*(?:[-*•]|\d{1,2}[.)])(?=[ \t])")
_WORD_CHAR = re.compile(r"\w")
# White space and a quoted reply's markers ("\n> ", "\n> > ") between a person's name and the rest of an address: the
# rest took the ">" ("> Holloway Estates, 3 Queen Square" was one ADDRESS, and the reply lost its quote; ux26 M2)
_SPACE_OR_QUOTE_MARK = re.compile(r"[\s>]*")
log = logging.getLogger("stealthflow.pii_tagger")


@register_recognizer
class PiiTaggerRecognizer(Recognizer):
    name, type = "pii_tagger", "REAL_NAME"  # each span carries the type the tagger gave it
    model_backed = True
    batch_size = 32

    def __init__(
        self,
        directory: str | None = None,
        tagger: SpanTagger | None = None,
        verifiers: dict[str, Verifier] | None = None,
        gates: tuple[ContextModel | SpanReader, ...] | None = None,
        candidates: CandidateJudge | None = None,
        clauses: ClauseTagger | bool = False,
    ):
        """`directory`: a tagger's directory or a shipped one's name, which reads every text (default: each text
        goes to the shipped student of its language, route.py); `tagger`: a loaded tagger (or a fake in tests)
        used instead of loading one, for every text; `verifiers`: label -> what scores the spans of that label it keeps
        (verifier.py; default: the shipped ones for a loaded tagger, none for a tagger given); `gates`: what scores the
        spans the verifiers keep by their context (context_model.py, reader.py; default: the shipped ones for a
        loaded tagger without verifiers given, else none); `candidates`: what judges the words of the name lexicon the spans leave
        in clear (name_candidates.py; default: the shipped one for a loaded tagger without verifiers given); `clauses`:
        what marks health and money told in a clause (clauses.py; True: the shipped one; default: none)."""
        self.directory = directory
        self._tagger = tagger
        self._verifiers = verifiers
        self._gates = gates
        self._candidates = candidates
        self._clauses = clauses
        self.routed = directory is None and tagger is None
        self.unavailable = ""  # why a student could not be loaded ("" while none failed): the English one stands in
        self._falling_back = threading.Lock()  # threads that meet the failure at once: one sets `unavailable` and logs

    @property
    def tagger(self) -> SpanTagger:
        """The tagger of `directory`, or the one given (routed: the English student)."""
        return self._tagger if self._tagger is not None else load_pii_tagger(self.directory)

    @property
    def verifiers(self) -> dict[str, Verifier]:
        """The verifiers given, else the shipped ones unless a tagger was given (its confidences are not a
        student's)."""
        if self._verifiers is not None or self._tagger is not None:
            return self._verifiers or {}
        return shipped_verifiers()

    @property
    def gates(self) -> tuple[ContextModel | SpanReader, ...]:
        """What drops the spans the verifiers keep that read as no private person's (health talk in general, an
        organisation no one works for: context_model.py, reader.py): the ones given, else the shipped ones unless
        verifiers or a tagger were given."""
        if self._gates is not None or self._verifiers is not None or self._tagger is not None:
            return self._gates or ()
        return (*shipped_context_models(), *shipped_readers())

    @property
    def match_readers(self) -> tuple[SpanReader, ...]:
        """The readers among its gates: the detector reads the pattern recognizers' matches of their labels
        (reader.py's `MATCHES_READ | MATCHED`) with them too, so one set of readers judges both."""
        return tuple(gate for gate in self.gates if isinstance(gate, SpanReader))

    @property
    def candidates(self) -> CandidateJudge | None:
        """What judges the name lexicon's words left in clear (name_candidates.py): the one given, else the shipped one
        unless verifiers or a tagger were given."""
        if self._candidates is not None or self._verifiers is not None or self._tagger is not None:
            return self._candidates
        return shipped_candidate_judge()

    @property
    def clauses(self) -> ClauseTagger | None:
        """What marks health and money told in a clause (clauses.py): the one given, the shipped one when asked for
        (`protect.clause_tagger`), else none."""
        return shipped_clause_tagger() if self._clauses is True else self._clauses or None

    @property
    def languages(self) -> frozenset[str]:
        """The languages its taggers were trained on (their model cards'; English for a tagger whose card is silent),
        read from the cards, so a text in another language loads no tagger."""
        if self._tagger is not None:
            return frozenset(getattr(self._tagger, "languages", None) or [ENGLISH])
        directories = (ENGLISH_STUDENT, MULTILINGUAL_STUDENT) if self.routed else (self.directory,)
        return frozenset().union(*(pii_tagger_languages(directory) or [ENGLISH] for directory in directories))

    def _directory_for(self, languages: frozenset[str]) -> str | None:
        """The directory of the tagger for a text that may be in any of `languages`: its language's student
        (route.py), `directory`, or None for the tagger given."""
        if self._tagger is not None:
            return None
        return student_for(languages) if self.routed else self.directory

    def _tagger_in(self, directory: str | None) -> tuple[SpanTagger, str]:
        """The tagger of `directory` (None: the one given) and its name ("" for one given)."""
        if directory is None:
            return self._tagger, ""
        return load_pii_tagger(directory), PurePath(directory).name  # no file look-up per batch

    def find(self, text: str) -> list[Span]:
        return self.find_many([text])[0]

    def find_many(
        self, texts: list[str], settled: list[list[Span]] | None = None, languages: list[frozenset[str]] | None = None
    ) -> list[list[Span]]:
        """`settled`: the pattern recognizers' spans; the structured values among them (types the
        tagger does not label: a phone number, an email) bound its spans, so a name the model runs
        into a phone number is kept on its own instead of giving way with it; so do list markers.
        `languages`: the languages each text may be in (the detector's guesses' candidates; guessed here when
        not given and the route or the tagger's thresholds by language need them), which choose its tagger
        (route.py) and the thresholds its spans must reach."""
        settled = settled or [[] for _ in texts]
        texts = [in_lowercase_if_shouted(text) for text in texts]
        if languages is None and (self.routed or tagger_by_language(self.tagger)):
            languages = [shared_guesser().guess(text).candidates for text in texts]
        languages = languages or [frozenset()] * len(texts)
        groups: dict[str | None, list[int]] = {}  # a tagger's directory -> the texts it reads
        for index, candidates in enumerate(languages):
            groups.setdefault(self._directory_for(candidates), []).append(index)
        found: list[list[Span]] = [[] for _ in texts]
        try:
            for directory, indices in groups.items():
                batch, name = self._find_in(
                    directory,
                    [texts[i] for i in indices],
                    [settled[i] for i in indices],
                    [languages[i] for i in indices],
                )
                for index, spans_of_text in zip(indices, batch, strict=True):
                    found[index] = (
                        [replace(s, reason=f"{s.reason}; tagged by {name}") for s in spans_of_text]
                        if name
                        else spans_of_text
                    )
            return found
        finally:  # none of the batch's texts stays in memory
            text_words.cache_clear()
            spans.clear_caches()
            kept.cache_clear()
            clear_verifier_caches()

    def _find_in(
        self, directory: str | None, texts: list[str], settled: list[list[Span]], languages: list[frozenset[str]]
    ) -> tuple[list[list[Span]], str]:
        """`_find_with` the tagger of `directory`, and its name; the English student's spans, and its name with the one
        it stands in for, when that tagger's table cannot be had (now or before: `unavailable`)."""
        if directory in (None, ENGLISH_STUDENT) or not self.unavailable:
            try:
                tagger, name = self._tagger_in(directory)
                return self._find_with(tagger, texts, settled, languages), name
            except TableUnavailable as missing:
                if directory in (None, ENGLISH_STUDENT):
                    raise
                self._fall_back(directory, missing)
        tagger, name = self._tagger_in(ENGLISH_STUDENT)
        return self._find_with(tagger, texts, settled, languages), f"{name} in place of {PurePath(directory).name}"

    def _fall_back(self, directory: str, missing: TableUnavailable) -> None:
        """Remember that the student of `directory` cannot be loaded and log it, once whatever the threads."""
        with self._falling_back:
            if self.unavailable:
                return
            self.unavailable = f"{PurePath(directory).name} could not be loaded: {missing}"
        log.warning("%s; the English PII tagger reads its texts instead, which finds less", self.unavailable)

    def warning_for(self, languages: frozenset[str]) -> str | None:
        """For a text that may be in `languages`: that its student could not be loaded and the English one tagged it."""
        if not self.unavailable or self._directory_for(languages) in (None, ENGLISH_STUDENT):
            return None
        return (
            f"{self.unavailable}; names, addresses, employers and health details in this text were looked for by the "
            f"English PII tagger ({ENGLISH_STUDENT}), which finds fewer of them in other languages"
        )

    def _find_with(
        self, tagger: SpanTagger, texts: list[str], settled: list[list[Span]], languages: list[frozenset[str]]
    ) -> list[list[Span]]:
        """`find_many` with one tagger."""
        # Ranges the tagger's runs stop at: another type's values, and secrets a pattern found (its extent is exact:
        # "postgres://<user:password>@db.internal:5432", the host and port no part of it).
        structured = [
            [(s.start, s.end) for s in found if s.type not in tagger.labels or s.level == Level.PL4]
            for found in settled
        ]
        names = [{(s.start, s.end) for s in found if s.type == "REAL_NAME"} for found in settled]
        verified = [{(s.start, s.end, s.type) for s in found if s.type in KINDS} for found in settled]
        bounds = [
            ranges + [match.span() for match in _LIST_MARKER.finditer(text)]
            for text, ranges in zip(texts, structured, strict=True)
        ]
        floors = [span_floors(tagger, candidates) for candidates in languages]
        probabilities = hasattr(tagger, "token_probabilities")  # a fake student may not give them
        judge = self.candidates if probabilities else None
        clauses = self.clauses if probabilities and hasattr(tagger, "tags") else None
        tokens = tagger.token_probabilities(texts, self.batch_size) if judge or clauses else None
        tagged_texts = self._tag(tagger, texts, bounds, tokens)
        found = [
            [
                span
                for span in self._spans_in(text, tagged, ranges, named, may_be_english(candidates))
                if self._reaches(text, span, least) and not _word_of_language(text, span, candidates)
            ]
            for text, tagged, ranges, named, least, candidates in zip(
                texts, tagged_texts, structured, names, floors, languages, strict=True
            )
        ]
        if checks := [*self.verifiers.values(), *self.gates]:
            found = _verified(checks, texts, found, verified, languages)
        if judge:
            added = judge.added(texts, found, settled, tokens, tagger.labels, languages)
            judged = [
                self._judged_names(text, kept_names, ranges, named, candidates)
                for text, kept_names, ranges, named, candidates in zip(
                    texts, added, structured, names, languages, strict=True
                )
            ]
            if self.gates:  # the judge stands in for the name verifier only: the gates read its names as the student's
                judged = _verified(list(self.gates), texts, judged, verified, languages)
            found = [spans_of_text + more for spans_of_text, more in zip(found, judged, strict=True)]
        if clauses:
            told = self._told_in_clauses(clauses, tagger.tags, texts, tokens, found, settled, verified, languages)
            found = [spans_of_text + more for spans_of_text, more in zip(found, told, strict=True)]
        return [merge_spans(_with_family_names(spans, text), text) for spans, text in zip(found, texts, strict=True)]

    def _told_in_clauses(
        self,
        clauses: ClauseTagger,
        tags: list[str],
        texts: list[str],
        tokens: list,
        found: list[list[Span]],
        settled: list[list[Span]],
        verified: list[set[tuple[int, int, str]]],
        languages: list[frozenset[str]],
    ) -> list[list[Span]]:
        """The spans `clauses` marks in the sentences the student finds suspect (`sentence_maxima`: its `tokens`, over
        its `tags`) that overlap nothing found (`found`, the pattern recognizers' `settled`), each kept by the reader of
        its label (the readers alone, no filter or verifier: as measured, benchmarks/results/pii_clause_tagger.md)."""
        added = []
        for text, (offsets, probabilities), own, matches in zip(texts, tokens, found, settled, strict=True):
            marked = clauses.tag(text, sentence_maxima(text, offsets, probabilities, tags))
            added.append(
                [
                    self.span(t.start, t.end, t.score, t.label, f"told in a clause, clause tagger {t.score:.2f}")
                    for t in _apart(marked, [(s.start, s.end) for s in (*own, *matches)])
                ]
            )
        readers = [reader for reader in self.match_readers if reader.label in CLAUSE_LABELS]
        return _verified(readers, texts, added, verified, languages)

    def _judged_names(
        self,
        text: str,
        judged: list[tuple[int, int, float]],
        structured: list[tuple[int, int]],
        names: set[tuple[int, int]],
        languages: frozenset[str],
    ) -> list[Span]:
        """The name candidates the judge keeps in `text` ((start, end, score): name_candidates.py) through what a
        REAL_NAME span of the student goes through after it: a table's cells under a place label, shaping, the name
        filter (pets, places, public names), brands and organisations (`_spans_in`) and a language's frequent words
        (`_word_of_language`); the judge stands in for the name verifier, whose features it reads (the gates then read
        them as the student's names: `_find_with`)."""
        if not judged:
            return []
        tagged = [TaggedSpan(start, end, "REAL_NAME", score) for start, end, score in judged]
        return [
            replace(span, reason=f"{span.reason}; a name of the lexicons, name candidate judge {span.score:.2f}")
            for span in self._spans_in(text, tagged, structured, names, may_be_english(languages))
            if not _word_of_language(text, span, languages)
        ]

    def _tag(
        self, tagger: SpanTagger, texts: list[str], bounds: list[list[tuple[int, int]]], tokens: list | None = None
    ) -> list[list[TaggedSpan]]:
        """Each text's tagged spans (`tokens`: the texts' token probabilities, when computed already)."""
        if tokens is None:  # a tagger given (a fake) need not take them
            return tagger.tag_many(texts, self.batch_size, bounds)
        return tagger.tag_many(texts, self.batch_size, bounds, tokens=tokens)

    def _reaches(self, text: str, span: Span, floors: dict[str, float]) -> bool:
        """Whether a shaped and filtered span is kept: its confidence reaches its type's threshold, or `GREETED_FLOOR`
        for the name a salutation line opens with (`greeted`)."""
        floor = floors.get(span.type, 0.0)
        if span.type == "REAL_NAME" and span.score < floor and _greeted_name(text, span.start, span.end):
            floor = min(floor, GREETED_FLOOR)
        return span.score >= floor

    def _spans_in(
        self,
        text: str,
        tagged_spans: list[TaggedSpan],
        structured: list[tuple[int, int]],
        names: set[tuple[int, int]] = frozenset(),
        english: bool = True,
    ) -> list[Span]:
        """The tagged spans shaped and filtered; `names`: the names the pattern recognizers found (`_person_apart`);
        `english`: the text may be English (the filters' `kept`)."""
        found = []
        starts, ends = sorted(start for start, _ in structured), sorted(end for _, end in structured)
        # A CREDENTIAL tagged at a URL's host or port is none ("db.internal:5432/prod"): on benchmarks/data/pii-heldout*/
        # (not written with this rule) 3 such spans on ports, none on an annotated secret.
        hosts = url_hosts(text)
        for tagged in self._within_cells(text, tagged_spans):
            if tagged.label == "CREDENTIAL" and (
                _beside(text, tagged.start, tagged.end, starts, ends) or inside(hosts, tagged.start)
            ):
                continue
            span = self._span(text, tagged, english)
            if span and span.type == "CREDENTIAL":
                span = _off_hosts(text, span, hosts, tagged.start)
            if span:
                found += self._person_apart(text, span, names)
        return found

    @staticmethod
    def _within_cells(text: str, tagged_spans: list[TaggedSpan]) -> list[TaggedSpan]:
        """The tagged spans cut at the edges of the text's table cells (`cells.cell_pieces`), each piece then shaped and
        filtered on its own: a span run across a CSV's cells was judged whole ("3\nAustin,Pro,12" as "a place and a
        house number"), then cut into one ADDRESS per cell ("Lagos", "Free", "0"). A name that is a whole cell under a
        label of places ("city": `tables.place_labels`) is a town, no one's name ("York")."""
        found = cells(text) if tagged_spans else []
        if not found:
            return tagged_spans
        edges, places = cell_edges(found), {(c.start, c.end) for c in found if c.label in place_labels()}
        return [
            replace(tagged, start=a, end=b)
            for tagged in tagged_spans
            for a, b in cell_pieces(text, tagged.start, tagged.end, edges)
            if not (tagged.label == "REAL_NAME" and (a, b) in places)
        ]

    def _person_apart(self, text: str, span: Span, names: set[tuple[int, int]] = frozenset()) -> list[Span]:
        """An employer span that opens with a person's name and a comma, or an address span that opens with one and
        a comma or a line break, as two spans: the person, and the rest where it still passes as what the span was
        ("- Pascuala Cuevas, University of Port Amy" in a list of people and where they work; "John Smith, 221B Baker
        St." on an envelope); else the span as it is. Addresses on the development sets pii-heldout-c..k: 9 names
        split off, 8 of them annotated names ("Town Hall, Market Square" is the other); address values found unchanged.
        A name a pattern recognizer found before the comma (`names`: "Mrs Valerie Dent" of titled_name) opens one too,
        which runs to the comma: else the whole span, overlapping it, would give way to it and leave the address in
        clear."""
        ends = spans.PERSON_ENDS.get(span.type)
        after = ends.search(text, span.start, span.end) if ends else None
        if (
            after is None
            or after.start() <= span.start
            or not (name := _opening_name(text, span, after.start(), names))
        ):
            return [span]
        rest = _SPACE_OR_QUOTE_MARK.match(text, after.end(), span.end).end()  # past the comma and the spaces after it
        if not (why := kept(span.type, text, rest, span.end)):
            return [span]
        return [
            self.span(*name, span.score, "REAL_NAME", f"a person's name before a comma in an {span.type.lower()} span"),
            self.span(rest, span.end, span.score, span.type, why),
        ]

    def _span(self, text: str, tagged: TaggedSpan, english: bool = True) -> Span | None:
        start, end = spans.shaped(text, tagged.start, tagged.end, tagged.label)
        if tagged.label not in ("CREDENTIAL", "FINANCE") and spans.function_words_only(text, start, end):
            return None
        label, relabelled = tagged.label, ""
        if label == "REAL_NAME" and (
            brand(text, start, end)
            or ORGANISATION_ENDS.search(text, start, end)
            or (SAINT_OPENS.match(text, start, end) and ORGANISATION.search(text, start, end))
        ):
            # a brand, a firm or a school the model took for a person ("Employer: KPMG", "Levesque BV",
            # "St. Aidan's Academy"): kept where an employer would be
            label, relabelled = "EMPLOYER", "tagged REAL_NAME, a brand or an organisation's name; "
        if label == "CREDENTIAL" and named_checksum_id(text, start, end):
            label, relabelled = "NATIONAL_ID", "tagged CREDENTIAL, a national ID by its name and checksum; "
        why = kept(label, text, start, end, english)
        undecided = not why or why.endswith(GATES_DECIDE)  # no word list shows it
        if undecided and label in ("ADDRESS", "EMPLOYER") and (name := spans.person_within(text, start, end, label)):
            # a person taken for a place or a company where nothing bears that out
            relabelled = f"tagged {label}, reads as a person's name; "
            label, (start, end) = "REAL_NAME", name
            why = kept(label, text, start, end, english)
        if not why:
            return None
        if label != "CREDENTIAL":  # a secret's whole token: `spans.whole_secret`
            start, end = spans.whole_tokens(text, start, end)  # not its value's token's head or tail left in clear
        return self.span(start, end, tagged.score, label, relabelled + why)


def _verified(
    verifiers: list[Verifier | ContextModel | SpanReader],
    texts: list[str],
    found: list[list[Span]],
    settled: list[set[tuple[int, int, str]]],
    languages: list[frozenset[str]],
) -> list[list[Span]]:
    """Each text's spans without those of a verified label whose score by one of `verifiers` (in turn) falls below its
    threshold, the kept ones with their scores in their reason (a batch's spans of a label scored at once; none where
    the threshold for the text's languages is 0). `settled`: the spans of the
    verified labels the pattern recognizers found, whose agreement is one of the verifiers' features."""
    judged: dict[tuple[int, int], str | None] = {}  # (text, span) -> what its reason adds, None when it is dropped
    for verifier in verifiers:
        at = [
            (i, j)
            for i, spans_of_text in enumerate(found)
            for j, span in enumerate(spans_of_text)
            if span.type == verifier.label
            and (verifier.reads is None or verifier.reads in span.reason)  # the spans it reads (context_model.py)
            and verifier.least(languages[i]) > 0  # a threshold of 0 verifies nothing: unscored
            and judged.get((i, j), "") is not None  # dropped by an earlier one
        ]
        if not at:
            continue
        candidates = [
            Candidate(texts[i], span.start, span.end, span.score, languages[i], _agrees(span, settled[i]))
            for i, j in at
            for span in (found[i][j],)
        ]
        for (i, j), score in zip(at, verifier.judge_many(candidates), strict=True):
            least = verifier.least(languages[i], found[i][j].reason)
            if score is None:
                note = f"{verifier.kind.word} verifier: kept unscored ({', '.join(verifier.kind.settling)})"
            else:
                note = f"{verifier.kind.word} verifier {score:.2f} (keeps from {least:.2f})" if score >= least else None
            judged[i, j] = note and "; ".join(filter(None, (judged.get((i, j)), note)))
    return [
        [
            replace(span, reason=f"{span.reason}; {judged[i, j]}") if (i, j) in judged else span
            for j, span in enumerate(spans_of_text)
            if judged.get((i, j), "") is not None
        ]
        for i, spans_of_text in enumerate(found)
    ]


def _apart(tagged: list[TaggedSpan], taken: list[tuple[int, int]]) -> list[TaggedSpan]:
    """The spans of `tagged` that overlap none of the ranges `taken`, found by bisection over the ranges sorted by start
    with each prefix's furthest end (a long text's thousands of spans: not every pair)."""
    taken = sorted(taken)
    starts, furthest = [a for a, _ in taken], list(accumulate((b for _, b in taken), max))
    return [t for t in tagged if not ((at := bisect_left(starts, t.end)) and furthest[at - 1] > t.start)]


def _with_family_names(found: list[Span], text: str) -> list[Span]:
    """The names that are one given name grown to the family name after them where the writer capitalises
    (`spans.family_name_end`: "Met Pieter de Vries.")."""
    return [
        replace(span, end=spans.family_name_end(text, span.start, span.end))
        if span.type == "REAL_NAME" and capitalises(text, span.start)
        else span
        for span in found
    ]


def _agrees(span: Span, settled: set[tuple[int, int, str]]) -> bool:
    """Whether a pattern recognizer found a span of `span`'s type overlapping it."""
    return any(kind == span.type and start < span.end and span.start < end for start, end, kind in settled)


def _greeted_name(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is the name a salutation line opens with (`greeted`) and none of its words is a common
    word of a covered language ("Liebe Kundin,", "Hi Team," greet no one by name)."""
    return greeted(text, start, end) and not any(
        common_word(word) or any(common_in_language(word, code) for code in OTHERS) for word in text[start:end].split()
    )


def _word_of_language(text: str, span: Span, languages: frozenset[str]) -> bool:
    """Whether a one-word REAL_NAME span is one of the most frequent words of a language other than English the text may
    be in (`at_ceiling`), where it opens a sentence or a line, or else is no given name the tagger's lexicon knows:
    Dutch "Alleen" ("only") and "Beste" ("dear") opening a sentence (ux20's report M2). Gain (benchmarks/pii_registers.py
    --types, pii-heldout-q, r, u, the language files, 1 080 texts): 6 wrong names fewer, 1 text without personal data
    less flagged (141 -> 140 of 540), no annotated value lost; English unchanged."""
    value = text[span.start : span.end]
    if span.type != "REAL_NAME" or not _WORD_CHAR.search(value) or " " in value:
        return False
    line = text[text.rfind("\n", 0, span.start) + 1 : span.start]
    as_name = bool(text[sentence_start(text, span.start) : span.start].strip(" \t\"'«„“(-")) and not (
        _CHAT_SPEAKER.fullmatch(line)
    )
    return any(at_ceiling(value, code, as_name) or job_word(value, code) for code in languages if code in OTHERS)


# A chat log line's stamp and speaker: the message's first word opens it ("[10:05] Ich: Ja, mach das."; ux28 finding 9)
_CHAT_SPEAKER = re.compile(r"[ \t]*\[[^\]\n]{1,30}\][ \t]*[^\W\d][^:\n]{0,40}:[ \t]*")


def tagger_by_language(tagger: SpanTagger) -> dict[str, dict[str, float]]:
    """language -> label -> threshold: the card's `span_thresholds_by_language` (none for a fake without them)."""
    return getattr(tagger, "language_thresholds", None) or {}


def span_floors(tagger: SpanTagger, languages: frozenset[str]) -> dict[str, float]:
    """label -> the least confidence a span keeps in a text that may be in any of `languages`: its type's threshold
    (`span_thresholds`), raised to the card's threshold for a language only when every language the text may be in
    raises it (an English message with a Spanish sign-off keeps the English threshold: a miss leaks, a false alarm
    does not), never lowered by one; a mean probability rounded just under it stays."""
    own = getattr(tagger, "span_thresholds", None) or {}
    by_language = tagger_by_language(tagger)
    labels = set(own).union(*(set(rows) for rows in by_language.values()))
    chosen = {}
    for label in labels:
        floor = own.get(label, 0.0)
        chosen[label] = min(
            (max(floor, by_language.get(language, {}).get(label, floor)) for language in languages), default=floor
        )
    return {label: value - 1e-9 for label, value in chosen.items()}


def _opening_name(text: str, span: Span, end: int, names: set[tuple[int, int]]) -> tuple[int, int] | None:
    """The person's name that opens `span` and runs to `end`: from a name a pattern recognizer found there
    (`names`), else the one `spans.person_in` reads in text[span.start:end]."""
    found = next((start for start, stop in names if span.start <= start < stop <= end), None)
    return (found, end) if found is not None else spans.person_in(text, span.start, end)


# What joins a URL's host to a secret beside it: "https://dl.acme.io?Zx81kQ0pLm7Hq", "https://ghp_8fK2qL...@github.com"
_HOST_JOINS = "?#@:/"


def _off_hosts(text: str, span: Span, hosts: list[tuple[int, int]], origin: int) -> Span | None:
    """A secret `span` without the URL hosts (`url_hosts`) it was grown into (a secret's whole token runs on through
    "?" and "@"): of each host it overlaps, the side where the model's span began (`origin`), without what joins it to
    the host; None when no letter or digit is left. On benchmarks/data/pii-heldout-c..p (benchmarks/pii_recognizer_gain.py
    pii_tagger --before main): 1 span of 8 100 texts changes, "aferri:Lambrusco!77@db:5432" to the annotated
    "aferri:Lambrusco!77"; no annotated value lost, no false alarm added."""
    start, end = span.start, span.end
    for host_start, host_end in hosts:
        if host_start < end and start < host_end:
            if origin >= host_end:
                start = max(start, host_end)
                while start < end and text[start] in _HOST_JOINS:
                    start += 1
            else:
                end = min(end, host_start)
                while end > start and text[end - 1] in _HOST_JOINS:
                    end -= 1
    if (start, end) == (span.start, span.end):
        return span
    return replace(span, start=start, end=end) if _WORD_CHAR.search(text, start, end) else None


def _beside(text: str, start: int, end: int, starts: list[int], ends: list[int]) -> bool:
    """Whether text[start:end] touches a range of the sorted `starts` and `ends`, with no word between:
    a secret the model ran into a structured value ("token: xoxb-...", "Security answer: f59p48a97ys7ug
    Enver") is that value, which its recognizer holds; what is left beside it is its cue or a
    neighbour. Only the nearest range on each side can touch it."""
    after, before = bisect_left(starts, end), bisect_right(ends, start) - 1
    return (after < len(starts) and _WORD_CHAR.search(text, end, starts[after]) is None) or (
        before >= 0 and _WORD_CHAR.search(text, ends[before], start) is None
    )
