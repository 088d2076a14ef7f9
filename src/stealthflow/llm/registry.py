"""Backends by name, and building an `LLM` client from a `ModelConfig`.

Built-in prefixes are below; a plugin adds its own with an entry point in the group
`stealthflow.backends` whose value is a `factory(spec_rest, config) -> ChatBackend`
(or by calling `register_backend` directly, as the tests do for their fake backend).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

from stealthflow.llm.base import ChatBackend
from stealthflow.llm.cache import ResponseCache
from stealthflow.llm.client import LLM
from stealthflow.llm.config import ModelConfig

BackendFactory = Callable[[str, ModelConfig], ChatBackend]
_BACKENDS: dict[str, BackendFactory] = {}


def register_backend(prefix: str, factory: BackendFactory) -> None:
    _BACKENDS[prefix] = factory


def _embedded(_: str, config: ModelConfig) -> ChatBackend:
    from stealthflow.llm.embedded import MODEL_ID, converted_model_path
    from stealthflow.llm.transformers_backend import TransformersBackend

    model_id = MODEL_ID + (f"+{config.adapter}" if config.adapter else "")
    return TransformersBackend(
        converted_model_path(), config.adapter, config.dtype, config.batch_size, config.threads, model_id=model_id
    )


def _huggingface(path: str, config: ModelConfig) -> ChatBackend:
    from stealthflow.llm.transformers_backend import TransformersBackend

    if not Path(path).exists():
        raise FileNotFoundError(f"hf:{path}: no such checkpoint directory (models are never downloaded)")
    return TransformersBackend(path, config.adapter, config.dtype, config.batch_size, config.threads)


def _vllm(name: str, config: ModelConfig) -> ChatBackend:
    from stealthflow.llm.vllm_backend import VLLMBackend

    return VLLMBackend(name, config.adapter, batch_size=max(config.batch_size, 64))


def _llamacpp(path: str, config: ModelConfig) -> ChatBackend:
    from stealthflow.llm.embedded import gguf_path
    from stealthflow.llm.llamacpp_backend import LlamaCppBackend

    return LlamaCppBackend(path or str(gguf_path()), threads=config.threads or 1)


def _litellm(model: str, config: ModelConfig) -> ChatBackend:
    from stealthflow.llm.litellm_backend import LiteLLMBackend

    # the endpoint `is_local` judged, pinned: litellm would read `$OLLAMA_API_BASE` again on every call
    return LiteLLMBackend(
        model, config.endpoint(), config.api_key_env, config.concurrency, config.timeout, config.max_retries
    )


def _router(_: str, config: ModelConfig) -> ChatBackend:
    from stealthflow.llm.litellm_backend import RouterBackend

    return RouterBackend(config.model_list, config.routing_strategy, config.timeout, config.max_retries)


register_backend("embedded", _embedded)
register_backend("hf", _huggingface)
register_backend("vllm", _vllm)
register_backend("llamacpp", _llamacpp)


def _load_plugins() -> None:
    for entry in entry_points(group="stealthflow.backends"):
        _BACKENDS.setdefault(entry.name, entry.load())


def off_machine(config: ModelConfig) -> bool:
    """Whether a text sent to `config` leaves this machine: litellm serves it from an endpoint that is not local."""
    return served_by_litellm(config) and not config.is_local()


def served_by_litellm(config: ModelConfig) -> bool:
    """Whether litellm serves `config` (an API endpoint, `ModelConfig.is_local` says where), not a registered backend
    (in process, or a plugin's own)."""
    _load_plugins()
    return config.model == "router" or config.model.partition(":")[0] not in _BACKENDS


def build_backend(config: ModelConfig) -> ChatBackend:
    _load_plugins()
    if config.model == "router":
        return _router("", config)
    prefix, _, rest = config.model.partition(":")
    if prefix in _BACKENDS:
        return _BACKENDS[prefix](rest, config)
    return _litellm(config.model, config)


def build_llm(config: ModelConfig, cache_path: str | Path | None = None) -> LLM:
    """The client for `config`; `cache_path` turns the on-disk response cache on."""
    cache = ResponseCache(cache_path) if cache_path else None
    return LLM(build_backend(config), config.generation_params(), cache=cache, max_retries=config.max_retries)
