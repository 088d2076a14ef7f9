"""Any provider litellm knows (DeepSeek, OpenAI, Anthropic, ...) or any OpenAI-compatible server.

Requests of one batch run concurrently under a per-backend limit; each has a timeout and a
bounded number of retries (litellm's own, on top of the client's batch retries).
"""

from __future__ import annotations

import asyncio
import os

from stealthflow.llm.base import BackendInfo, ChatBackend, ChatRequest, Completion

# Without this, importing litellm tries to download a model cost map from the internet.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


class LiteLLMBackend(ChatBackend):
    def __init__(
        self,
        model: str,
        api_base: str | None = None,
        api_key_env: str | None = None,
        concurrency: int = 8,
        timeout: float = 120.0,
        max_retries: int = 2,
        mock_response: str | None = None,
    ):
        self.model = model
        self.api_base = api_base
        self.api_key_env = api_key_env
        self.max_batch_size = concurrency
        self.timeout = timeout
        self.max_retries = max_retries
        # litellm's offline mock, for tests and dry runs.
        self.mock_response = mock_response

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(
            model_id=self.model if not self.api_base else f"{self.model}@{self.api_base}",
            backend="litellm",
            settings={"api_base": self.api_base, "concurrency": self.max_batch_size, "timeout": self.timeout},
        )

    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        return asyncio.run(self._generate_all(requests))

    async def _generate_all(self, requests: list[ChatRequest]) -> list[Completion]:
        limit = asyncio.Semaphore(self.max_batch_size)

        async def one(request: ChatRequest) -> Completion:
            async with limit:
                return await self._generate_one(request)

        return list(await asyncio.gather(*(one(r) for r in requests)))

    async def _generate_one(self, request: ChatRequest) -> Completion:
        import litellm

        kwargs = dict(
            model=self.model,
            messages=request.message_dicts,
            max_tokens=request.params.max_new_tokens,
            temperature=request.params.temperature,
            top_p=request.params.top_p,
            seed=request.params.seed,
            timeout=self.timeout,
            num_retries=self.max_retries,
        )
        if self.api_base:
            kwargs["api_base"] = self.api_base
            kwargs["api_key"] = os.environ.get(self.api_key_env or "", "") or "not-needed"
        elif self.api_key_env:
            kwargs["api_key"] = os.environ.get(self.api_key_env)
        if self.mock_response is not None:
            kwargs["mock_response"] = self.mock_response
        try:
            response = await litellm.acompletion(**kwargs)
        except Exception as exc:  # reported per request; the client retries a bounded number of times
            return Completion(text="", error=f"{type(exc).__name__}: {str(exc)[:300]}")
        usage = getattr(response, "usage", None)
        return Completion(
            text=(response.choices[0].message.content or "").strip(),
            prompt_tokens=getattr(usage, "prompt_tokens", 0) or 0,
            completion_tokens=getattr(usage, "completion_tokens", 0) or 0,
        )
