"""The `local` method: rewrite post by post, offline — the cue tagger marks the phrases that
give the author away, the local model (the embedded SmolLM2 with the shipped LoRA adapter, or
any `--model`) rewrites each post with those phrases named in a short prompt, batched.

A post without cues is left as it is. When the model's answer is unreadable, keeps too little
of the post or drops, repeats or invents one of protect's placeholders, the post is kept; then any marked phrase
still in the text is deleted deterministically, so every marked phrase is acted on.
`details["changes"]` lists, per post, the phrases that are gone and the attribute each pointed
to (the risk report prints them).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from stealthflow.anonymize.cues import PROTECT_PLACEHOLDER, find_cues
from stealthflow.anonymize.methods import Anonymized, ProgressCallback, register_method
from stealthflow.anonymize.output import parse_rewrite
from stealthflow.data.evidence import find_phrase
from stealthflow.data.schema import Profile
from stealthflow.evaluation.evidence import span_survives
from stealthflow.harvest.posts import delete_spans, post_messages
from stealthflow.llm import LLM
from stealthflow.resources import resource_dir
from stealthflow.tagging import SpanTagger, TaggedSpan

ADAPTER = "local-anonymizer"
MIN_UTILITY = 0.4  # a rewrite keeping less of the post (mean BLEU/ROUGE) is not an edit of it


def shipped_adapter() -> Path | None:
    path = resource_dir("models") / ADAPTER
    return path if (path / "adapter_config.json").exists() else None


MAX_PIECE_WORDS = 100  # the adapter's training posts were at most 120 words
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")


def split_post(post: str, max_words: int = MAX_PIECE_WORDS) -> list[tuple[str, str]]:
    """(piece, the separator after it) pairs: whole sentences grouped up to `max_words` words
    (a longer sentence stays whole); joined back they give the post exactly."""
    if len(post.split()) <= max_words:
        return [(post, "")]
    sentences, start = [], 0
    for boundary in _SENTENCE_END.finditer(post):
        sentences.append((post[start : boundary.start()], boundary.group()))
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

    def __init__(self, llm: LLM | None, tagger: SpanTagger, load_llm: Callable[[], LLM] | None = None):
        self._llm = llm  # None (and no `load_llm`): deterministic deletion only
        self._load_llm = load_llm  # builds the model when a post first needs it: posts without cues never load it
        self.tagger = tagger

    @property
    def llm(self) -> LLM | None:
        if self._llm is None and self._load_llm is not None:
            self._llm, self._load_llm = self._load_llm(), None
        return self._llm

    def rewrite_posts(self, posts: list[str]) -> list[tuple[str, list[dict], str]]:
        """Per post: (new text, changes, how: unchanged | model | fallback | model+fallback).
        A long post is rewritten in pieces of whole sentences no longer than the posts the
        adapter was trained on (the tagger and the model see each piece; the text is rejoined)."""
        pieces = [split_post(post) for post in posts]
        flat = self._rewrite_pieces([text for parts in pieces for text, _ in parts])
        results, cursor = [], 0
        for parts in pieces:
            mine, cursor = flat[cursor : cursor + len(parts)], cursor + len(parts)
            text = "".join(new + separator for (new, _, _), (_, separator) in zip(mine, parts, strict=True))
            changes = [change for _, piece_changes, _ in mine for change in piece_changes]
            hows = {how for _, _, how in mine} - {"unchanged"}
            results.append((text, changes, "unchanged" if not hows else hows.pop() if len(hows) == 1 else "model+fallback"))
        return results

    def _rewrite_pieces(self, posts: list[str]) -> list[tuple[str, list[dict], str]]:
        from stealthflow.utility import lexical_utility

        cues = find_cues(self.tagger, posts)
        todo = [i for i, spans in enumerate(cues) if spans]
        answers = {}
        if todo and self.llm is not None:
            prompts = [cue_messages(posts[i], cues[i]) for i in todo]
            answers = dict(zip(todo, self.llm.chat_many(prompts), strict=True))
        results = []
        for i, post in enumerate(posts):
            spans = cues[i]
            if not spans:
                results.append((post, [], "unchanged"))
                continue
            phrases = list(dict.fromkeys((post[s.start : s.end], s.label) for s in spans))
            rewrite = parse_rewrite(answers[i].text, post) if i in answers else None
            # A rewrite must hold each of protect's placeholders as often as the post: one dropped would
            # make protect reject it; one repeated puts a value where it was not ("call me at <EMPLOYER_1>").
            kept_placeholders = rewrite is not None and Counter(PROTECT_PLACEHOLDER.findall(rewrite.text)) == Counter(PROTECT_PLACEHOLDER.findall(post))
            if rewrite is not None and rewrite.parsed and kept_placeholders and lexical_utility(post, rewrite.text).mean >= MIN_UTILITY:
                text, how = rewrite.text, "model"
            else:
                text, how = post, "fallback"
            # Every marked phrase is acted on: what the model left in place is deleted.
            kept = [(p, a) for p, a in phrases if span_survives(p, text)]
            found = [hit for p, _ in kept if (hit := find_phrase(p, text))]
            if found:
                text = delete_spans(text, found) or text
            changes = [{"post": i, "phrase": p, "attribute": a, "by": "fallback" if (p, a) in kept else how} for p, a in phrases if not span_survives(p, text)]
            if how == "model" and kept:
                how = "model+fallback"
            results.append((text, changes, how))
        return results

    def anonymize_many(self, profiles: list[Profile], on_progress: ProgressCallback | None = None) -> list[Anonymized]:
        posts = [c.text for p in profiles for c in p.comments]
        rewritten = self.rewrite_posts(posts)
        results, cursor = [], 0
        for profile in profiles:
            mine = rewritten[cursor : cursor + len(profile.comments)]
            cursor += len(profile.comments)
            changes = [dict(change, post=index) for index, (_, post_changes, _) in enumerate(mine) for change in post_changes]
            text = "\n".join(new for new, _, _ in mine)
            how = [h for _, _, h in mine]
            details = {"changes": changes, "posts_changed": sum(h != "unchanged" for h in how), "fallback_posts": sum("fallback" in h for h in how)}
            nothing = all(h == "unchanged" for h in how)  # no post holds a phrase the cue tagger marks
            results.append(Anonymized(profile.id, text, [text], parsed=True, details=details, nothing_to_change=nothing))
        if on_progress:
            on_progress(len(profiles))
        return results


def _build(settings, pool, options) -> LocalAnonymizer:
    from stealthflow.anonymize.cues import load_cue_tagger

    model = settings.model
    if model.model == "embedded" and model.adapter is None:
        # The base 135M cannot do this edit (it parrots the prompt): without the trained adapter,
        # the marked phrases are deleted deterministically.
        adapter = shipped_adapter()
        model = model.model_copy(update={"adapter": str(adapter), "repetition_penalty": 1.0, "max_new_tokens": 192}) if adapter else None
    if options.get("deterministic") or model is None:
        return LocalAnonymizer(None, load_cue_tagger())
    return LocalAnonymizer(None, load_cue_tagger(), load_llm=lambda: pool.get(model))


register_method("local", _build)
