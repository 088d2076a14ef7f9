"""The LLM layer: one interface for batched chat generation, with pluggable backends."""

from stealthflow.llm.base import ChatBackend, ChatRequest, Completion, GenerationParams, LLMCallError, Message
from stealthflow.llm.client import LLM
from stealthflow.llm.config import ModelConfig
from stealthflow.llm.registry import build_backend, build_llm, register_backend

__all__ = [
    "LLM",
    "ChatBackend",
    "ChatRequest",
    "Completion",
    "GenerationParams",
    "LLMCallError",
    "Message",
    "ModelConfig",
    "build_backend",
    "build_llm",
    "register_backend",
]
