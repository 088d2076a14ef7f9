"""llama.cpp (optional extra `stealthflow[llamacpp]`): low latency for single requests on a laptop.

It has no batching, so for the workflow the batched transformers path is faster on CPU
(measured here: ~60 tokens/s single stream vs ~220 tokens/s at batch 32). On this machine's
CPU llama-cpp-python must be built portable (see README) or it segfaults. One `Llama` object
is not thread-safe, hence the lock.
"""

from __future__ import annotations

import threading

from stealthflow.llm.base import BackendInfo, ChatBackend, ChatRequest, Completion


class LlamaCppBackend(ChatBackend):
    max_batch_size = 1

    def __init__(self, gguf_path: str, n_ctx: int = 8192, threads: int = 1):
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise RuntimeError("the llamacpp backend needs: pip install 'stealthflow[llamacpp]'") from exc
        self.gguf_path = gguf_path
        self.threads = threads
        self.llama = Llama(model_path=gguf_path, n_ctx=n_ctx, n_threads=threads, verbose=False)
        self._lock = threading.Lock()

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(model_id=self.gguf_path, backend="llamacpp", settings={"threads": self.threads})

    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        completions = []
        for request in requests:
            with self._lock:
                response = self.llama.create_chat_completion(
                    messages=request.message_dicts,
                    max_tokens=request.params.max_new_tokens,
                    temperature=request.params.temperature,
                    top_p=request.params.top_p,
                    seed=request.params.seed,
                    repeat_penalty=request.params.repetition_penalty,
                )
            usage = response.get("usage", {})
            completions.append(
                Completion(
                    text=(response["choices"][0]["message"]["content"] or "").strip(),
                    prompt_tokens=usage.get("prompt_tokens", 0),
                    completion_tokens=usage.get("completion_tokens", 0),
                )
            )
        return completions
