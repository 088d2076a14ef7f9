"""Typed settings, loaded from one YAML file per recipe (see `configs/`).

Every model role defaults to `model`, so `model: deepseek/deepseek-chat` alone switches the
anonymizer, the attacker and the judges to DeepSeek; give `attacker:` or `judge:` to keep an
evaluation attacker independent of the anonymizer.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field

from stealthflow.attack.config import ClassifierConfig
from stealthflow.evaluation.config import EvaluationConfig
from stealthflow.llm.config import ModelConfig
from stealthflow.placeholders.policy import ProtectConfig
from stealthflow.proxy.config import ProxyConfig
from stealthflow.workflow.config import WorkflowConfig


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: ModelConfig = Field(default_factory=ModelConfig)
    attacker: ModelConfig | None = None
    judge: ModelConfig | None = None
    classifier: ClassifierConfig = Field(default_factory=ClassifierConfig)
    workflow: WorkflowConfig = Field(default_factory=WorkflowConfig)
    evaluation: EvaluationConfig = Field(default_factory=EvaluationConfig)
    protect: ProtectConfig = Field(default_factory=ProtectConfig)
    proxy: ProxyConfig = Field(default_factory=ProxyConfig)

    def attacker_model(self) -> ModelConfig:
        return self.attacker or self.model

    def judge_model(self) -> ModelConfig:
        return self.judge or self.attacker_model()


def load_settings(path: str | Path | None = None, model: str | None = None, adapter: str | None = None) -> Settings:
    """Settings from `path` (YAML), with the CLI's `--model`/`--adapter` applied to `model`."""
    data = {}
    if path is not None:
        loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        if loaded is not None and not isinstance(loaded, dict):
            raise ValueError(f"{path}: expected a mapping at the top level")
        data = loaded or {}
    settings = Settings.model_validate(data)
    if model is not None or adapter is not None:
        update = {k: v for k, v in {"model": model, "adapter": adapter}.items() if v is not None}
        settings.model = ModelConfig.model_validate({**settings.model.model_dump(), **update})
    return settings
