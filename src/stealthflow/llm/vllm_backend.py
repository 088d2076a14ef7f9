"""vLLM on a GPU (optional extra `stealthflow[vllm]`). vllm is imported only when this backend
is built, so CPU installs never need it. For a remote vLLM server use the litellm backend with
`api_base` instead."""

from __future__ import annotations

from stealthflow.llm.base import BackendInfo, ChatBackend, ChatRequest, Completion


class VLLMBackend(ChatBackend):
    def __init__(self, model: str, adapter: str | None = None, batch_size: int = 256, max_model_len: int = 8192):
        try:
            from vllm import LLM as VLLMEngine
        except ImportError as exc:
            raise RuntimeError("the vllm backend needs a GPU install: pip install 'stealthflow[vllm]'") from exc
        self.model = model
        self.adapter = adapter
        self.max_batch_size = batch_size
        self.engine = VLLMEngine(model=model, enable_lora=adapter is not None, max_model_len=max_model_len)

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(model_id=self.model + (f"+{self.adapter}" if self.adapter else ""), backend="vllm")

    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        from vllm import SamplingParams
        from vllm.lora.request import LoRARequest

        lora = LoRARequest("adapter", 1, self.adapter) if self.adapter else None
        results: list[Completion | None] = [None] * len(requests)
        groups: dict = {}
        for index, request in enumerate(requests):
            groups.setdefault(request.params, []).append(index)
        for params, indices in groups.items():
            sampling = SamplingParams(
                max_tokens=params.max_new_tokens,
                temperature=params.temperature,
                top_p=params.top_p,
                seed=params.seed,
                repetition_penalty=params.repetition_penalty,
            )
            outputs = self.engine.chat([requests[i].message_dicts for i in indices], sampling, lora_request=lora)
            for index, output in zip(indices, outputs, strict=True):
                results[index] = Completion(
                    text=output.outputs[0].text.strip(),
                    prompt_tokens=len(output.prompt_token_ids),
                    completion_tokens=len(output.outputs[0].token_ids),
                )
        return [r for r in results if r is not None]
