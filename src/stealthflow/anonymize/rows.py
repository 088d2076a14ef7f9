"""The rows `stealthflow anonymize` writes (`-o`) and prints (`--json`), one per profile, failing closed: a text that
could not be protected carries none of its words, and no credential goes out in clear whatever the method."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stealthflow.anonymize.methods import Anonymized
from stealthflow.config import Settings

if TYPE_CHECKING:
    from stealthflow.pipeline.protector import Protector


def not_protected(result: Anonymized, original: str, method: str) -> str | None:
    """Why a text is not protected (None: it is): the method's own reason, or that nothing checked what stayed (a
    method that does not report the phrases left that give the author away, ner-mask or a model's rewrite)."""
    if reason := result.failure(original):
        return reason
    return None if result.checked else f"not checked: {method} does not check what stays"


def secret_masker(settings: Settings) -> Protector:
    """A protector masking credentials (PL4) only: whatever the method, no secret goes out in clear."""
    from stealthflow.pipeline.protector import Protector

    secrets_only = settings.model_copy(
        update={"protect": settings.protect.model_copy(update={"levels": ["PL4"], "llm_extractor": False})}
    )
    return Protector.from_settings(secrets_only)


def output_row(result: Anonymized, original: str, secrets: Protector, method: str) -> tuple[dict, list[str]]:
    """The row of a profile and the warnings of masking its credentials (`secrets`). A text that could not be
    protected carries none of its words (no text, no changes, no phrase that stayed: they are the post's): its id,
    `"protected": false`, the reason and, per post, how many phrases stayed."""
    if reason := not_protected(result, original, method):
        row = {"id": result.profile_id, "protected": False, "reason": reason}
        if stayed := result.stayed_by_post():
            count = f"{result.stayed_why()}: {sum(map(len, stayed.values()))} phrase(s) stayed"
            row["reason"] = "; ".join(filter(None, [count, result.unread()]))
            row["unprotected"] = [{"post": post, "phrases": len(phrases)} for post, phrases in stayed.items()]
        return row, []
    protected = secrets.protect(result.text, "anonymize")
    row = {"id": result.profile_id, "text": protected.text, "protected": True}
    if result.nothing_to_change and protected.text == result.text:  # a masked credential is a change
        row["unchanged"] = True
    if changes := result.details.get("changes"):  # their words too: a credential the rewrite cut is masked
        row["changes"] = [
            {**c, **{k: secrets.protect(c[k], "anonymize").text for k in ("phrase", "replacement") if c.get(k)}}
            for c in changes
        ]
    if "risk" in result.details:
        row["risk"] = result.details["risk"]
    return row, list(protected.warnings)
