"""Local Hugging Face checkpoint (+ optional PEFT adapter), batched generation on CPU or GPU."""

from __future__ import annotations

import threading
from pathlib import Path

from stealthflow.llm.base import BackendInfo, ChatBackend, ChatRequest, Completion


class TransformersBackend(ChatBackend):
    def __init__(
        self,
        path: str | Path,
        adapter: str | Path | None = None,
        dtype: str = "bfloat16",
        batch_size: int = 16,
        threads: int | None = None,
        model_id: str | None = None,
    ):
        import torch
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer

        transformers.utils.logging.disable_progress_bar()
        transformers.utils.logging.set_verbosity_error()
        if threads:
            torch.set_num_threads(threads)
        self.path = str(path)
        self.adapter = str(adapter) if adapter else None
        self.dtype = dtype
        self.max_batch_size = batch_size
        self._model_id = model_id or self.path + (f"+{self.adapter}" if self.adapter else "")
        self._torch = torch
        # An adapter saved with its tokenizer may carry a different chat template.
        self.tokenizer = AutoTokenizer.from_pretrained(self.adapter or self.path, padding_side="left")
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        model = AutoModelForCausalLM.from_pretrained(self.path, dtype=getattr(torch, dtype))
        if self.adapter:
            from peft import PeftModel

            model = PeftModel.from_pretrained(model, self.adapter)
        self.model = model.eval()
        self._lock = threading.Lock()  # one generate at a time on one model

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(
            model_id=self._model_id,
            backend="transformers",
            settings={"path": self.path, "adapter": self.adapter, "dtype": self.dtype, "batch_size": self.max_batch_size},
        )

    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        results: list[Completion | None] = [None] * len(requests)
        # Requests with different parameters cannot share one generate() call.
        groups: dict = {}
        for index, request in enumerate(requests):
            groups.setdefault(request.params, []).append(index)
        for params, indices in groups.items():
            prompts = [self._render(requests[i]) for i in indices]
            # Sorting by length keeps padding (wasted compute) low.
            order = sorted(range(len(prompts)), key=lambda k: len(prompts[k]))
            for start in range(0, len(order), self.max_batch_size):
                chunk = order[start : start + self.max_batch_size]
                outputs = self._generate([prompts[k] for k in chunk], params)
                for k, completion in zip(chunk, outputs, strict=True):
                    results[indices[k]] = completion
        return [r for r in results if r is not None]

    def _render(self, request: ChatRequest) -> str:
        return self.tokenizer.apply_chat_template(request.message_dicts, tokenize=False, add_generation_prompt=True)

    def _generate(self, prompts: list[str], params) -> list[Completion]:
        torch = self._torch
        encoded = self.tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        sample = params.temperature > 0
        kwargs = dict(
            max_new_tokens=params.max_new_tokens,
            do_sample=sample,
            pad_token_id=self.tokenizer.pad_token_id,
            repetition_penalty=params.repetition_penalty,
        )
        if sample:
            kwargs.update(temperature=params.temperature, top_p=params.top_p)
        with self._lock, torch.inference_mode():
            torch.manual_seed(params.seed)
            output = self.model.generate(**encoded, **kwargs)
        prompt_length = encoded["input_ids"].shape[1]
        completions = []
        for row, mask in zip(output, encoded["attention_mask"], strict=True):
            new_tokens = row[prompt_length:]
            new_tokens = new_tokens[new_tokens != self.tokenizer.pad_token_id]
            completions.append(
                Completion(
                    text=self.tokenizer.decode(new_tokens, skip_special_tokens=True).strip(),
                    prompt_tokens=int(mask.sum()),
                    completion_tokens=len(new_tokens),
                )
            )
        return completions

    def close(self) -> None:
        self.model = None
