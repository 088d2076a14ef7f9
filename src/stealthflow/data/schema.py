"""Typed profile model shared by the labelled corpus and user input."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from stealthflow.data.attributes import ATTRIBUTES

LabelSource = Literal["human_evaluated", "synth"]


class Comment(BaseModel):
    text: str
    timestamp: datetime | None = None
    subreddit: str | None = None
    # protect's placeholders in `text` with the values they stand for, in memory only (never dumped nor shown): the
    # local method's cue tagger reads the values in their place, as it was trained to (`anonymize.cues.TaggerView`)
    masked: dict[str, str] = Field(default_factory=dict, exclude=True, repr=False)

    @field_validator("timestamp", mode="before")
    @classmethod
    def _parse_epoch(cls, value: Any) -> Any:
        # The corpus stores Unix epochs as strings ("1722586067.0").
        if isinstance(value, str) and value.replace(".", "", 1).isdigit():
            return datetime.fromtimestamp(float(value), tz=timezone.utc)
        if isinstance(value, (int, float)):
            return datetime.fromtimestamp(float(value), tz=timezone.utc)
        return value


class AttributeLabel(BaseModel):
    """Ground truth for one attribute. `hardness` 0 means unlabelled."""

    estimate: str
    hardness: int = Field(ge=0, le=5)
    certainty: int = Field(ge=0, le=5)
    source: LabelSource

    @field_validator("estimate", mode="before")
    @classmethod
    def _stringify(cls, value: Any) -> str:
        # Ages arrive both as "25" and 25.
        return "" if value is None else str(value).strip()


class Profile(BaseModel):
    id: str
    comments: list[Comment] = Field(min_length=1)
    labels: dict[str, AttributeLabel] = Field(default_factory=dict)
    # Answers of reference attackers on the original text, keyed by model name (kept raw;
    # the harvest stage turns the strong model's answers into training examples).
    reference_predictions: dict[str, dict[str, Any]] = Field(default_factory=dict)

    @field_validator("labels")
    @classmethod
    def _known_attributes(cls, labels: dict[str, AttributeLabel]) -> dict[str, AttributeLabel]:
        unknown = set(labels) - set(ATTRIBUTES)
        if unknown:
            raise ValueError(f"unknown attributes {sorted(unknown)}; expected some of {list(ATTRIBUTES)}")
        return labels

    @property
    def text(self) -> str:
        """The comments joined by newlines, without timestamps (they would inflate BLEU/ROUGE)."""
        return "\n".join(c.text for c in self.comments)

    def labelled(self, min_hardness: int = 1) -> dict[str, AttributeLabel]:
        """Attributes with a usable label, in canonical attribute order."""
        return {
            a: self.labels[a]
            for a in ATTRIBUTES
            if a in self.labels and self.labels[a].hardness >= min_hardness and self.labels[a].estimate
        }
