"""Local Hugging Face checkpoint (+ optional PEFT adapter), batched generation on CPU or GPU.

Prompts of one batch differ in length by hundreds of tokens (each carries a whole profile).
Padding them to one length wastes the compute that dominates on a CPU, so each prompt is
prefilled alone and only the decoding steps run as a batch: the prompts' key/value caches are
left-padded into one batch cache that `generate` continues from.
"""

from __future__ import annotations

import threading
from pathlib import Path

from stealthflow.llm.base import BackendInfo, ChatBackend, ChatRequest, Completion


def resolve_dtype(dtype: str) -> str:
    """`auto`: bfloat16 where the hardware computes in it natively, float32 otherwise.

    On a CPU without bf16 instructions (e.g. AVX2 only) bf16 matrix products are emulated:
    measured here, prefilling a 1,400-token prompt ran 4.7x slower in bf16 than in fp32.
    """
    if dtype != "auto":
        return dtype
    import torch

    if torch.cuda.is_available() or torch.ops.mkldnn._is_mkldnn_bf16_supported():
        return "bfloat16"
    return "float32"


class TransformersBackend(ChatBackend):
    def __init__(
        self,
        path: str | Path,
        adapter: str | Path | None = None,
        dtype: str = "auto",
        batch_size: int = 16,
        threads: int | None = None,
        model_id: str | None = None,
    ):
        import torch
        import transformers
        from transformers import AutoModelForCausalLM, AutoTokenizer, DynamicCache
        from transformers.cache_utils import DynamicLayer

        transformers.utils.logging.disable_progress_bar()
        transformers.utils.logging.set_verbosity_error()
        if threads:
            torch.set_num_threads(threads)
        self.path = str(path)
        self.adapter = str(adapter) if adapter else None
        self.dtype = resolve_dtype(dtype)
        self.max_batch_size = batch_size
        self._model_id = model_id or self.path + (f"+{self.adapter}" if self.adapter else "")
        self._torch = torch
        # An adapter saved with its tokenizer may carry a different chat template.
        self.tokenizer = AutoTokenizer.from_pretrained(self.adapter or self.path, padding_side="left")
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        model = AutoModelForCausalLM.from_pretrained(self.path, dtype=getattr(torch, self.dtype))
        if self.adapter:
            from peft import PeftModel

            model = PeftModel.from_pretrained(model, self.adapter)
        self.model = model.eval()
        # Sliding-window caches drop old positions, so they cannot be padded and merged.
        self._ragged_prefill = all(type(layer) is DynamicLayer for layer in DynamicCache(config=model.config).layers)
        eos = model.generation_config.eos_token_id
        self._eos_ids = torch.tensor(eos if isinstance(eos, list) else [eos if eos is not None else self.tokenizer.eos_token_id])
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
            prompts = {i: self.encode(requests[i]) for i in indices}
            # Similar lengths share a batch: every row's cache is as wide as the longest prompt.
            indices.sort(key=lambda i: len(prompts[i]))
            for start in range(0, len(indices), self.max_batch_size):
                chunk = indices[start : start + self.max_batch_size]
                outputs = self._generate([prompts[i] for i in chunk], params)
                for i, completion in zip(chunk, outputs, strict=True):
                    results[i] = completion
        return [r for r in results if r is not None]

    def encode(self, request: ChatRequest) -> list[int]:
        text = self.tokenizer.apply_chat_template(request.message_dicts, tokenize=False, add_generation_prompt=True)
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def _generate(self, prompts: list[list[int]], params) -> list[Completion]:
        torch = self._torch
        width = max(len(p) for p in prompts)
        pad = self.tokenizer.pad_token_id
        input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in prompts])
        attention_mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts])
        with self._lock, torch.inference_mode():
            torch.manual_seed(params.seed)
            if self._ragged_prefill and min(len(p) for p in prompts) > 1:
                cache = self._prefill(prompts, width, params.max_new_tokens)
                answers = self._decode(input_ids, attention_mask, cache, params)
            else:
                answers = self._generate_padded(input_ids, attention_mask, params)
        return [
            Completion(
                text=self.tokenizer.decode(answer, skip_special_tokens=True).strip(),
                prompt_tokens=len(prompt),
                completion_tokens=len(answer),
            )
            for answer, prompt in zip(answers, prompts, strict=True)
        ]

    def _generate_padded(self, input_ids, attention_mask, params) -> list[list[int]]:
        """transformers' own `generate()` on the padded batch: for caches that cannot be merged."""
        pad = self.tokenizer.pad_token_id
        sample = params.temperature > 0
        sampling = dict(temperature=params.temperature, top_p=params.top_p) if sample else {}
        output = self.model.generate(
            input_ids=input_ids,
            attention_mask=attention_mask,
            max_new_tokens=params.max_new_tokens,
            do_sample=sample,
            pad_token_id=pad,
            repetition_penalty=params.repetition_penalty,
            **sampling,
        )
        width = input_ids.shape[1]
        return [[t for t in row[width:].tolist() if t != pad] for row in output]

    def _decode(self, input_ids, attention_mask, cache, params) -> list[list[int]]:
        """Decode the prefilled batch, dropping each row from it as soon as it ends.

        `generate()` keeps computing rows that have finished until the longest one ends; with
        answers of very different lengths (a small model that loops to the limit beside one
        that stops early) most of a batch's work was on finished rows.
        """
        from transformers import LogitsProcessorList, RepetitionPenaltyLogitsProcessor, TemperatureLogitsWarper, TopPLogitsWarper

        torch = self._torch
        processors = LogitsProcessorList()
        if params.repetition_penalty != 1.0:
            processors.append(RepetitionPenaltyLogitsProcessor(params.repetition_penalty))
        sample = params.temperature > 0
        if sample:
            processors += [TemperatureLogitsWarper(params.temperature), TopPLogitsWarper(params.top_p)]
        answers: list[list[int]] = [[] for _ in input_ids]
        rows = torch.arange(len(input_ids))  # the original row of each row still in the batch
        next_tokens = input_ids[:, -1:]
        for _step in range(params.max_new_tokens):
            positions = attention_mask.sum(-1, keepdim=True) - 1  # left padding shifts each row's positions
            logits = self.model(
                input_ids=next_tokens, attention_mask=attention_mask, position_ids=positions, past_key_values=cache, use_cache=True
            ).logits[:, -1, :].float()
            scores = processors(input_ids, logits)
            tokens = torch.multinomial(scores.softmax(-1), 1).squeeze(1) if sample else scores.argmax(-1)
            ended = torch.isin(tokens, self._eos_ids)
            for row, token, end in zip(rows.tolist(), tokens.tolist(), ended.tolist(), strict=True):
                if not end:
                    answers[row].append(token)
            if ended.all():
                break
            input_ids = torch.cat([input_ids, tokens[:, None]], dim=1)
            attention_mask = torch.cat([attention_mask, attention_mask.new_ones((len(tokens), 1))], dim=1)
            next_tokens = tokens[:, None]
            if ended.any():
                live = (~ended).nonzero().squeeze(1)
                cache.reorder_cache(live)
                rows, input_ids, attention_mask, next_tokens = rows[live], input_ids[live], attention_mask[live], next_tokens[live]
        return answers

    def _prefill(self, prompts: list[list[int]], width: int, max_new_tokens: int):
        """Each prompt but its last token through the model alone, then one left-padded batch cache.

        The batch cache is static (allocated once for prompt + answer): a growing cache
        re-allocates every layer's keys and values at every step, which measured here took
        more time than the model's own arithmetic at batch 8.
        """
        from transformers import DynamicCache, StaticCache

        torch = self._torch
        config = self.model.config
        caches = []
        for prompt in prompts:
            cache = DynamicCache(config=config)
            self.model(input_ids=torch.tensor([prompt[:-1]]), past_key_values=cache, use_cache=True, logits_to_keep=1)
            caches.append(cache)
        batch = StaticCache(config=config, max_cache_len=width - 1 + max_new_tokens)
        for layer in range(len(caches[0].layers)):
            keys, values = [], []
            for cache in caches:
                k, v = cache.layers[layer].keys, cache.layers[layer].values
                padding = (0, 0, width - 1 - k.shape[2], 0)  # left-pad the sequence axis
                keys.append(torch.nn.functional.pad(k, padding))
                values.append(torch.nn.functional.pad(v, padding))
            batch.update(torch.cat(keys), torch.cat(values), layer)
        return batch

    def close(self) -> None:
        self.model = None
