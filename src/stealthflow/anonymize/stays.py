"""What a rewrite no one checked left in the text: the cue tagger's marks of the original that stayed, and markers
(`[[EMPLOYER]]`, `<LOCATION>`) that stand where words were.

`local` checks its own rewrite (`details["unprotected"]`); `standard`, `aa`, `stealth` and a model's rewrite do not,
so `anonymize` said "protected" of a model's rewrite that kept "fellow farmers", and printed the `[[EMPLOYER]]` it
wrote. `check_what_stays` gives such results the same verdict `local` gives its own (`Anonymized.failure`): a marked
phrase that stayed, or a marker the original did not hold, and the text is not protected."""

from __future__ import annotations

from dataclasses import replace

from stealthflow.anonymize.methods import Anonymized, Method
from stealthflow.anonymize.placeholders_kept import PROTECT_PLACEHOLDER
from stealthflow.data.schema import Profile

STAYED_REASON = "no generalization by the rewrite"  # `Anonymized.stayed_why` of a rewrite checked here


def check_what_stays(method: Method, profiles: list[Profile], results: list[Anonymized]) -> list[Anonymized]:
    """`results` of `method` on `profiles`, each of a method that does not check its own rewrite (`checks_what_stays`)
    with the cue tagger's marks of the original that stayed in the rewrite as `details["unprotected"]` (`marks.stayed`;
    a mark that holds a placeholder of protect's is the placeholder's to protect). A result not checked (ner-mask),
    whose rewrite was not read, or that says itself what stayed stays as it is; without the cue tagger, none is
    checked (`checked` False)."""
    if getattr(method, "checks_what_stays", False):
        return results
    todo = [
        i
        for i, result in enumerate(results)
        if result.checked and result.parsed and not {"error", "unprotected"} & result.details.keys()
    ]
    if not todo:
        return results
    from stealthflow.anonymize.cues import cues_outside_values, load_cue_tagger
    from stealthflow.anonymize.marks import stayed
    from stealthflow.anonymize.read_languages import post_language, sentence_language
    from stealthflow.placeholders.language import shared_guesser

    try:
        tagger = load_cue_tagger()
    except FileNotFoundError:
        return [replace(result, checked=False) if i in todo else result for i, result in enumerate(results)]
    checked = list(results)
    guesser = shared_guesser()
    for i in todo:
        profile, result = profiles[i], results[i]
        posts = [comment.text for comment in profile.comments]
        # the cue tagger reads English: marks in a post or sentence of another language are unread there, as `local`
        # leaves them (`read_languages`), not phrases that stayed
        read = [post_language(guesser, post) is None for post in posts]
        marks = {
            (phrase, attribute): post
            for post, cues in enumerate(cues_outside_values(tagger, posts)[0])
            if read[post]
            for phrase, attribute in cues
            if not PROTECT_PLACEHOLDER.search(phrase) and sentence_language(guesser, posts[post], phrase) is None
        }
        left = stayed(profile.text, result.text, list(marks), [])
        if left:
            unprotected = [_where(piece, marks) for piece in left]
            checked[i] = replace(
                result, details={**result.details, "unprotected": unprotected, "stayed_reason": STAYED_REASON}
            )
    return checked


def _where(piece: str, marks: dict[tuple[str, str], int]) -> dict:
    """`piece` (a mark's phrase, or a piece of one: `marks.telling_left`) with the attribute and post of its mark."""
    (attribute, post), *_ = [(a, post) for (phrase, a), post in marks.items() if piece in phrase] or [("", 0)]
    return {"phrase": piece, "attribute": attribute, "post": post}
