"""Settings section `classifier:` (the stylometric attacker), apart from the classifier itself:
reading settings imports neither numpy nor the embedder."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

COVERED: tuple[str, ...] = ("age", "gender", "education", "income", "married")
Block = Literal["mean", "words"]  # the feature blocks of stealthflow.attack.features


class ClassifierConfig(BaseModel):
    """Settings section `classifier:`: where the artefact lives and how to train one.

    The defaults train on data/train.jsonl only, the mean embedding, C=10 for every attribute;
    `configs/classifier-words-a-m.yaml` is the shipped artefact's recipe (blind sets a-m added, the mean embedding
    and words, settings chosen by `benchmarks/attacker_cv.py`); `configs/classifier-blind-sets.yaml` (a-k) and
    `configs/classifier-blind-sets-a-m.yaml` (a-m) are mean-embedding candidates, not shipped.
    """

    model_config = ConfigDict(extra="forbid")

    artifact: Path | None = None  # None = the artefact shipped in the package
    # Per attribute: the feature blocks its model reads, in order, and its inverse regularisation.
    blocks: dict[str, tuple[Block, ...]] = dict.fromkeys(COVERED, ("mean",))
    C: dict[str, float] = dict.fromkeys(COVERED, 10.0)
    # Labelled profile files trained on besides --data; relative paths are read from the source checkout.
    extra_data: tuple[Path, ...] = ()
    # Sample weight of an extra profile per attribute (a --data profile weighs 1; 0 leaves them out).
    extra_weight: dict[str, float] = dict.fromkeys(COVERED, 1.0)
    max_iter: int = 5000
    min_hardness: int = 1  # labels below this hardness are not trained on
    attributes: tuple[str, ...] = COVERED

    @model_validator(mode="after")
    def _every_attribute_has_its_settings(self) -> ClassifierConfig:
        for name, values in (("blocks", self.blocks), ("C", self.C), ("extra_weight", self.extra_weight)):
            missing = [a for a in self.attributes if a not in values]
            if missing:
                raise ValueError(f"classifier.{name} has no value for {', '.join(missing)}")
        if any(not self.blocks[a] for a in self.attributes):
            raise ValueError("classifier.blocks: every attribute's model reads at least one block")
        return self

    def reads_words(self) -> bool:
        """Whether some model reads the `words` block (then training builds a vocabulary)."""
        return any("words" in self.blocks[a] for a in self.attributes)
