"""Settings section `classifier:` (the stylometric attacker), apart from the classifier itself:
reading settings imports neither numpy nor the embedder."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

COVERED: tuple[str, ...] = ("age", "gender", "education", "income", "married")


class ClassifierConfig(BaseModel):
    """Settings section `classifier:`: where the artefact lives and how to train one."""

    model_config = ConfigDict(extra="forbid")

    artifact: Path | None = None  # None = the artefact shipped in the package
    C: float = 10.0  # inverse regularisation of the logistic regressions
    max_iter: int = 5000
    min_hardness: int = 1  # labels below this hardness are not trained on
    attributes: tuple[str, ...] = COVERED
