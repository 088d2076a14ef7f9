"""The `local` method: rewrite post by post, offline. The cue tagger marks the phrases that give
the author away; the local model (the embedded SmolLM2 with the shipped LoRA adapter, or any
`--model`) generalizes them in place, batched; every candidate rewrite passes a gate before it is
taken.

The gate: the answer parses, keeps each of protect's placeholders exactly as often as the post,
keeps enough of the post (lexical utility) and reads as fluently as the original where it differs
(`stealthflow.utility.fluency`). A post whose model rewrite fails the gate, and every marked phrase
the model left in place, goes to per-phrase generalization (`stealthflow.anonymize.generalize`):
candidate replacements scored by the embedded model in context. A phrase nothing can replace
fluently stays, reported, and the post as not fully protected; with the `remove_sentences` option
(`anonymize --remove-sentences`) one the cue tagger is confident of first leaves with its clause or sentence
(`stealthflow.anonymize.fallback`), at a cost in meaning.

`details["changes"]` lists, per post, exactly what changed (every stretch of the original that
left the text, what replaced it, the attribute of the cue it covers, and by what), and
`details["unprotected"]` the marked phrases that stayed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from stealthflow.anonymize.changes import text_changes
from stealthflow.anonymize.cues import find_cues, mark_confidence, split_cues
from stealthflow.anonymize.fallback import Fallback, Removal
from stealthflow.anonymize.generalize import Generalizer, whole
from stealthflow.anonymize.marks import holds_value, part_of_value, stayed, telling_attribute
from stealthflow.anonymize.methods import Anonymized, ProgressCallback, register_method
from stealthflow.anonymize.output import parse_rewrite
from stealthflow.anonymize.placeholders_kept import keeps_placeholders
from stealthflow.anonymize.read_languages import post_language, sentence_language
from stealthflow.anonymize.suggest import ADAPTER as PHRASE_ADAPTER
from stealthflow.anonymize.suggest import PhraseSuggester
from stealthflow.data.schema import Profile
from stealthflow.evaluation.evidence import span_survives
from stealthflow.harvest.posts import post_messages
from stealthflow.llm import LLM
from stealthflow.pii_tagger.model import SpanTagger, TaggedSpan
from stealthflow.placeholders.language import LanguageGuesser
from stealthflow.resources import shipped_adapter
from stealthflow.sentence_ends import sentence_ends, words_end
from stealthflow.utility.fluency import shared_scorer

ADAPTER = "local-anonymizer"
MIN_UTILITY = 0.4  # a rewrite keeping less of the post (mean BLEU/ROUGE) is not an edit of it
#: The model's rewrite passes the fluency gate at this score or above (utility/fluency.py). Chosen on 120
#: train comments (benchmarks/fluency_floor.py): 58 % of the teacher's rewrites pass, 17.5 % of the same
#: comments with their cues deleted.
MODEL_FLOOR = -0.5


MAX_PIECE_WORDS = 100  # the adapter's training posts were at most 120 words


def split_post(post: str, max_words: int = MAX_PIECE_WORDS) -> list[tuple[str, str]]:
    """(piece, the separator after it) pairs: whole sentences grouped up to `max_words` words
    (a longer sentence stays whole); joined back they give the post exactly."""
    if len(post.split()) <= max_words:
        return [(post, "")]
    sentences, start = [], 0
    for boundary in sentence_ends(post):
        sentences.append((post[start : words_end(boundary)], post[words_end(boundary) : boundary.end()]))
        start = boundary.end()
    sentences.append((post[start:], ""))
    groups: list[list[tuple[str, str]]] = [[]]
    words = 0
    for sentence, after in sentences:
        count = len(sentence.split())
        if groups[-1] and words + count > max_words:
            groups.append([])
            words = 0
        groups[-1].append((sentence, after))
        words += count
    return [("".join(s + a for s, a in group[:-1]) + group[-1][0], group[-1][1]) for group in groups]


def cue_messages(post: str, cues: list[TaggedSpan]) -> list[dict]:
    """The model's prompt for one post: rewrite it, naming the phrases the cue tagger marked."""
    return post_messages(post, [(post[s.start : s.end], s.label) for s in cues])


class LocalAnonymizer:
    name = "local"
    checks_what_stays = True  # its own marks that stayed are `details["unprotected"]` (`stays.check_what_stays`)

    def __init__(
        self,
        llm: LLM | None,
        tagger: SpanTagger,
        generalizer: Generalizer,
        load_llm: Callable[[], LLM] | None = None,
        languages: LanguageGuesser | None = None,
        fallback: Fallback | None = None,
    ):
        self._llm = llm  # None (and no `load_llm`): per-phrase generalization only
        self._load_llm = load_llm  # builds the model when a post first needs it: posts without cues never load it
        self.tagger = tagger
        self.generalizer = generalizer
        self.languages = languages  # None: the process's lingua guesser, loaded at the first post with a cue
        self.fallback = fallback  # None: off; else the clause or sentence of a confident mark that stayed leaves

    @property
    def llm(self) -> LLM | None:
        if self._llm is None and self._load_llm is not None:
            self._llm, self._load_llm = self._load_llm(), None
        return self._llm

    def rewrite_posts(self, posts: list[str], values: list[Mapping[str, str]] | None = None) -> list[PostRewrite]:
        """Per post, its rewrite. A long post is rewritten in pieces of whole sentences no longer than
        the posts the adapter was trained on (the tagger and the model see each piece; the text is rejoined).
        `values`: per post, protect's placeholders with the values they stand for, which the cue tagger alone
        reads (`cues.TaggerView`); nothing else sees them."""
        pieces = [split_post(post) for post in posts]
        flat = self._rewrite_pieces(
            [text for parts in pieces for text, _ in parts],
            [values[i] if values else {} for i, parts in enumerate(pieces) for _ in parts],
        )
        results, cursor = [], 0
        for post, parts in zip(posts, pieces, strict=True):
            mine, cursor = flat[cursor : cursor + len(parts)], cursor + len(parts)
            text = "".join(piece.text + separator for piece, (_, separator) in zip(mine, parts, strict=True))
            hows = {piece.how for piece in mine} - {"unchanged"}
            how = "unchanged" if not hows else hows.pop() if len(hows) == 1 else "model+generalized"
            cues = [cue for piece in mine for cue in piece.cues]
            unprotected = [phrase for piece in mine for phrase in piece.unprotected]
            unread = list(dict.fromkeys(language for piece in mine for language in piece.unread))
            removals = [removal for piece in mine for removal in piece.removals]
            changes = text_changes(post, text, cues, how, [(r.removed, r.how) for r in removals])
            read = any(piece.read for piece in mine)
            results.append(PostRewrite(text, changes, how, cues, unprotected, unread, removals, read))
        return results

    def _rewrite_pieces(self, posts: list[str], values: list[Mapping[str, str]]) -> list[PostRewrite]:
        # A post the rewrite does not read (`read_languages`) is not tagged; it keeps its words and says what it could
        # not read.
        unread = [post_language(self._guesser(), post) for post in posts]
        read = [i for i in range(len(posts)) if unread[i] is None]
        read_posts, read_values = [posts[i] for i in read], [values[i] for i in read]
        spans = find_cues(self.tagger, read_posts, values=read_values)
        found = split_cues(self.tagger, read_posts, spans, read_values)
        cues: list[list[tuple[str, str]]] = [[] for _ in posts]
        marks: dict[int, list] = {}
        for i, post_cues, post_spans in zip(read, found, spans, strict=True):
            cues[i], marks[i] = post_cues, post_spans
        todo = [i for i in read if cues[i]]
        texts = {i: posts[i] for i in todo}
        hows = dict.fromkeys(todo, "generalized")
        if todo and self.llm is not None:
            answers = self.llm.chat_many([post_messages(posts[i], cues[i]) for i in todo])
            drafts = {
                i: draft
                for i, answer in zip(todo, answers, strict=True)
                if (draft := self._readable(posts[i], answer.text)) not in (None, posts[i])
            }
            ids = list(drafts)
            for i, fluency in zip(
                ids, self.generalizer.scorer.compare([posts[i] for i in ids], [drafts[i] for i in ids]), strict=True
            ):
                if fluency.score >= MODEL_FLOOR:
                    texts[i], hows[i] = drafts[i], "model"
        # Every marked phrase is acted on: what the model left in place is generalized phrase by phrase, but for one
        # in a sentence of another language, which stays unread (`read_languages.sentence_language`).
        left = {i: [(p, a) for p, a in cues[i] if span_survives(p, texts[i])] for i in todo}
        foreign = {i: {mark: sentence_language(self._guesser(), texts[i], mark[0]) for mark in left[i]} for i in todo}
        left = {
            i: [mark for mark in left[i] if foreign[i][mark] is None and not holds_value(mark[0], posts[i])]
            for i in todo
        }
        ids = [i for i in todo if left[i]]
        unprotected: dict[int, list[str]] = {i: [] for i in todo}
        removals: dict[int, list[Removal]] = {i: [] for i in todo}
        for i, (text, replacements) in zip(
            ids, self.generalizer.generalize([texts[i] for i in ids], [left[i] for i in ids]), strict=True
        ):
            stays = [r for r in replacements if r.replacement is None]
            if self.fallback is None:
                unprotected[i] = [r.phrase for r in stays]
            else:
                confident = [(r.phrase, r.attribute, mark_confidence(posts[i], marks[i], r.phrase)) for r in stays]
                text, unprotected[i], removals[i] = self.fallback.remove(text, confident)
            if text != texts[i] and hows[i] == "model":
                hows[i] = "model+generalized"
            texts[i] = text
        results = []
        for i, post in enumerate(posts):
            if i not in texts:
                languages = [] if unread[i] is None else [unread[i]]
                results.append(PostRewrite(post, [], "unchanged", [], [], languages, read=unread[i] is None))
                continue
            how = hows[i] if texts[i] != post else "unchanged"
            languages = list(dict.fromkeys(language for language in foreign[i].values() if language))
            read_marks = [mark for mark in cues[i] if foreign[i].get(mark) is None]  # an unread sentence's stay unread
            left_in = list(
                dict.fromkeys(part_of_value(post, p) or p for p in stayed(post, texts[i], read_marks, unprotected[i]))
            )
            results.append(PostRewrite(texts[i], [], how, cues[i], left_in, languages, removals[i]))
        return results

    def _guesser(self) -> LanguageGuesser:
        if self.languages is None:
            from stealthflow.placeholders.language import shared_guesser

            self.languages = shared_guesser()
        return self.languages

    @staticmethod
    def _readable(post: str, answer: str) -> str | None:
        """The model's rewrite when it parses, keeps every placeholder exactly as often as the post
        (one dropped would make protect reject it; one repeated puts a value where it was not) and
        keeps enough of the post and every sentence whole (no preposition left without its object); else None."""
        from stealthflow.utility import lexical_utility

        rewrite = parse_rewrite(answer, post)
        if not rewrite.parsed or not keeps_placeholders(post, rewrite.text):
            return None
        if lexical_utility(post, rewrite.text).mean < MIN_UTILITY or not whole(post, rewrite.text):
            return None
        return rewrite.text

    def anonymize_many(self, profiles: list[Profile], on_progress: ProgressCallback | None = None) -> list[Anonymized]:
        posts = [c.text for p in profiles for c in p.comments]
        rewritten = self.rewrite_posts(posts, [c.masked for p in profiles for c in p.comments])
        results, cursor = [], 0
        for profile in profiles:
            mine = rewritten[cursor : cursor + len(profile.comments)]
            cursor += len(profile.comments)
            changes = [dict(change, post=index) for index, post in enumerate(mine) for change in post.changes]
            unprotected = [
                {"post": index, "phrase": phrase, "attribute": attribute_of(phrase, post.cues)}
                for index, post in enumerate(mine)
                for phrase in post.unprotected
            ]
            text = "\n".join(post.text for post in mine)
            details = {
                "changes": changes,
                "unprotected": unprotected,
                "not_read": [  # whole: no sentence of the post was read
                    {"post": index, "language": language, "whole": not post.read}
                    for index, post in enumerate(mine)
                    for language in post.unread
                ],
                "posts_changed": sum(post.how != "unchanged" for post in mine),
                "generalized_posts": sum("generalized" in post.how for post in mine),
            }
            # no phrase the cue tagger marks, in posts it can read
            nothing = all(post.how == "unchanged" and not post.cues and not post.unread for post in mine)
            results.append(
                Anonymized(
                    profile.id, text, [text], parsed=True, details=details, nothing_to_change=nothing, checked=True
                )
            )
        if on_progress:
            on_progress(len(profiles))
        return results


@dataclass
class PostRewrite:
    text: str
    changes: list[dict]
    how: str  # unchanged | model | generalized | model+generalized
    cues: list[tuple[str, str]]  # (phrase, attribute) the cue tagger marked
    unprotected: list[str]  # marked phrases that stayed: nothing replaced them fluently
    unread: list[str] = field(default_factory=list)  # languages of the post or its sentences the rewrite cannot read
    removals: list[Removal] = field(default_factory=list)  # clauses and sentences that left with a mark (fallback.py)
    read: bool = True  # some of the post was read (False: none, it is in another language; `read_languages`)


def attribute_of(phrase: str, cues: list[tuple[str, str]]) -> str:
    """The attribute of the cue a phrase that stayed is; for a piece of a cue (`marks.telling_left`), the one its
    telling word points to ("nurse": occupation, of a cue labelled location); else the attribute of the cue it holds
    or is part of (a stayed phrase may have grown to the value it is part of: `marks.part_of_value`); "" when none."""
    exact = next((attribute for cue, attribute in cues if cue == phrase), None)
    return (
        exact
        or telling_attribute(phrase)
        or next((attribute for cue, attribute in cues if cue in phrase or phrase in cue), "")
    )


def _build(settings, pool, options) -> LocalAnonymizer:
    from stealthflow.anonymize.cues import load_cue_tagger

    model = settings.model
    if model.model == "embedded" and model.adapter is None:
        # The base 135M cannot do this edit (it parrots the prompt): the model runs only with an adapter
        # trained on generalizing rewrites (`--adapter DIR`, or one shipped in models/local-anonymizer/);
        # without, every marked phrase goes to per-phrase generalization.
        adapter = shipped_adapter(ADAPTER)
        model = (
            model.model_copy(update={"adapter": str(adapter), "repetition_penalty": 1.0, "max_new_tokens": 192})
            if adapter
            else None
        )
    phrases = options.get("phrase_adapter") or shipped_adapter(PHRASE_ADAPTER)
    # the fluency model (and the phrase generalizer, when there is one) load when a phrase first needs them
    generalizer = Generalizer(shared_scorer, suggest=PhraseSuggester(phrases) if phrases else None)
    # `remove_sentences`: a mark the tagger is sure of that stayed leaves with its clause or sentence (fallback.py)
    fallback = Fallback(generalizer) if options.get("remove_sentences") else None
    if options.get("deterministic") or model is None:
        return LocalAnonymizer(None, load_cue_tagger(), generalizer, fallback=fallback)
    return LocalAnonymizer(None, load_cue_tagger(), generalizer, load_llm=lambda: pool.get(model), fallback=fallback)


register_method("local", _build)
