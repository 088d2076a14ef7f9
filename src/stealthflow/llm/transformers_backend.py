"""Local Hugging Face checkpoint (+ optional PEFT adapter), batched generation on CPU or GPU.

Prompts of one batch differ in length by hundreds of tokens (each carries a whole profile).
Padding them to one length wastes the compute that dominates on a CPU, so each prompt is
prefilled alone and only the decoding steps run as a batch: the prompts' key/value caches are
left-padded into one batch cache that a step-by-step decode loop continues from. The loop is
continuous: a row leaves the batch the step it ends, and a waiting request (of this call, or
admitted from the client's queue) is prefilled and joins in its place.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from stealthflow.llm.base import Admit, BackendInfo, ChatBackend, ChatRequest, Completion, Finish, GenerationParams, Job


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
        self._eos_ids = set(eos if isinstance(eos, list) else [eos if eos is not None else self.tokenizer.eos_token_id])
        self._lock = threading.Lock()  # one generate at a time on one model

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(
            model_id=self._model_id,
            backend="transformers",
            settings={
                "path": self.path,
                "adapter": self.adapter,
                "dtype": self.dtype,
                "batch_size": self.max_batch_size,
            },
        )

    def generate_batch(self, requests: list[ChatRequest]) -> list[Completion]:
        jobs = [Job(request) for request in requests]
        answers: dict[Job, Completion] = {}
        self.generate_admitting(jobs, lambda _params, _free: [], answers.__setitem__)
        return [answers[job] for job in jobs]

    def generate_admitting(self, jobs: list[Job], admit: Admit, finish: Finish) -> None:
        # Requests with different parameters cannot share decoding steps.
        groups: dict[GenerationParams, list[Job]] = {}
        for job in jobs:
            groups.setdefault(job.request.params, []).append(job)
        for params, group in groups.items():
            # Similar lengths share a batch: every row's cache is as wide as the longest prompt.
            waiting = sorted(((job, self.encode(job.request)) for job in group), key=lambda pair: len(pair[1]))
            if self._ragged_prefill:
                self._decode(self._refill(waiting, params, admit), params, finish)
            else:
                self._generate_padded(waiting, params, finish)

    def _refill(self, waiting: list[tuple[Job, list[int]]], params: GenerationParams, admit: Admit):
        """`take(free)` for the decode loop: this call's own requests first, then admitted ones."""

        def take(free: int) -> list[tuple[Job, list[int]]]:
            taken = waiting[:free]
            del waiting[:free]
            if len(taken) < free:
                taken += [(job, self.encode(job.request)) for job in admit(params, free - len(taken))]
            return taken

        return take

    def encode(self, request: ChatRequest) -> list[int]:
        text = self.tokenizer.apply_chat_template(request.message_dicts, tokenize=False, add_generation_prompt=True)
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def _completion(self, prompt: list[int], answer: list[int]) -> Completion:
        return Completion(
            text=self.tokenizer.decode(answer, skip_special_tokens=True).strip(),
            prompt_tokens=len(prompt),
            completion_tokens=len(answer),
        )

    def _generate_padded(self, jobs: list[tuple[Job, list[int]]], params: GenerationParams, finish: Finish) -> None:
        """transformers' own `generate()` on padded batches: for caches that cannot be merged."""
        torch = self._torch
        pad = self.tokenizer.pad_token_id
        sample = params.temperature > 0
        sampling = dict(temperature=params.temperature, top_p=params.top_p) if sample else {}
        for start in range(0, len(jobs), self.max_batch_size):
            chunk = jobs[start : start + self.max_batch_size]
            prompts = [prompt for _job, prompt in chunk]
            width = max(len(p) for p in prompts)
            with self._lock, torch.inference_mode():
                torch.manual_seed(params.seed)
                output = self.model.generate(
                    input_ids=torch.tensor([[pad] * (width - len(p)) + p for p in prompts]),
                    attention_mask=torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in prompts]),
                    max_new_tokens=params.max_new_tokens,
                    do_sample=sample,
                    pad_token_id=pad,
                    repetition_penalty=params.repetition_penalty,
                    **sampling,
                )
            for (job, prompt), row in zip(chunk, output, strict=True):
                finish(job, self._completion(prompt, [t for t in row[width:].tolist() if t != pad]))

    def _decode(self, take, params: GenerationParams, finish: Finish) -> None:
        """Decode step by step; a row leaves the batch the step it ends, and `take` refills it.

        `generate()` keeps computing rows that have finished until the longest one ends; with
        answers of very different lengths (a small model that loops to the limit beside one
        that stops early) most of a batch's work was on finished rows, and the next requests
        waited for the whole batch.
        """
        from transformers import (
            LogitsProcessorList,
            RepetitionPenaltyLogitsProcessor,
            TemperatureLogitsWarper,
            TopPLogitsWarper,
        )

        torch = self._torch
        processors = LogitsProcessorList()
        if params.repetition_penalty != 1.0:
            processors.append(RepetitionPenaltyLogitsProcessor(params.repetition_penalty))
        sample = params.temperature > 0
        if sample:
            processors += [TemperatureLogitsWarper(params.temperature), TopPLogitsWarper(params.top_p)]
        batch = _Batch()
        with self._lock, torch.inference_mode():
            torch.manual_seed(params.seed)
            while True:
                free = self.max_batch_size - len(batch.rows)
                if free and (new := take(free)):
                    batch = self._admit(batch, new, params)
                if not batch.rows:
                    return
                positions = batch.attention_mask.sum(-1, keepdim=True) - 1  # left padding shifts each row's positions
                logits = (
                    self.model(
                        input_ids=batch.input_ids[:, -1:],
                        attention_mask=batch.attention_mask,
                        position_ids=positions,
                        past_key_values=batch.cache,
                        use_cache=True,
                    )
                    .logits[:, -1, :]
                    .float()
                )
                scores = processors(batch.input_ids, logits)
                tokens = torch.multinomial(scores.softmax(-1), 1).squeeze(1) if sample else scores.argmax(-1)
                batch.input_ids = torch.cat([batch.input_ids, tokens[:, None]], dim=1)
                batch.attention_mask = torch.cat(
                    [batch.attention_mask, batch.attention_mask.new_ones((len(tokens), 1))], dim=1
                )
                live = []
                for index, (row, token) in enumerate(zip(batch.rows, tokens.tolist(), strict=True)):
                    ended = token in self._eos_ids
                    if not ended:
                        row.answer.append(token)
                    if ended or len(row.answer) >= params.max_new_tokens:
                        finish(row.job, self._completion(row.prompt, row.answer))
                    else:
                        live.append(index)
                batch.keep(live)

    def _admit(self, batch: "_Batch", new: list[tuple[Job, list[int]]], params: GenerationParams) -> "_Batch":
        """Prefill each new prompt but its last token alone, then one left-padded batch cache for all rows.

        The batch cache is static (allocated once for the longest prompt + the most answer
        tokens any row may still add): a growing cache re-allocates every layer's keys and
        values at every step, which measured here took more time than the model's own
        arithmetic at batch 8. Rebuilding it on admission also drops padding that rows which
        have left no longer need.
        """
        from transformers import StaticCache

        torch = self._torch
        rows = batch.rows + [_Row(job, prompt) for job, prompt in new]
        sequences = batch.sequences() + [
            prompt for _job, prompt in new
        ]  # each row's tokens, the last one not yet cached
        prefixes = batch.cached_prefixes() + [self._prefill(prompt) for _job, prompt in new]
        width = max(len(sequence) for sequence in sequences) - 1
        remaining = max(params.max_new_tokens - len(row.answer) for row in rows)
        cache = StaticCache(config=self.model.config, max_cache_len=width + remaining)
        if width:
            reference = next(prefix for prefix in prefixes if prefix)
            for layer in range(len(cache.layers)):
                merged = []
                for part in (0, 1):  # keys, values
                    pieces = [
                        prefix[layer][part] if prefix else reference[layer][part][:, :, :0] for prefix in prefixes
                    ]
                    merged.append(
                        torch.cat([torch.nn.functional.pad(x, (0, 0, width - x.shape[2], 0)) for x in pieces])
                    )
                cache.update(*merged, layer)
        # Padding repeats each row's first token, so the repetition penalty sees only the row's own tokens.
        input_ids = torch.tensor([[s[0]] * (width + 1 - len(s)) + s for s in sequences])
        attention_mask = torch.tensor([[0] * (width + 1 - len(s)) + [1] * len(s) for s in sequences])
        return _Batch(rows, input_ids, attention_mask, cache)

    def _prefill(self, prompt: list[int]) -> list[tuple] | None:
        """Keys and values per layer of the prompt but its last token (None for a one-token prompt)."""
        from transformers import DynamicCache

        if len(prompt) < 2:
            return None
        cache = DynamicCache(config=self.model.config)
        self.model(input_ids=self._torch.tensor([prompt[:-1]]), past_key_values=cache, use_cache=True, logits_to_keep=1)
        return [(layer.keys, layer.values) for layer in cache.layers]

    def close(self) -> None:
        self.model = None


@dataclass(eq=False)
class _Row:
    job: Job
    prompt: list[int]
    answer: list[int] = field(default_factory=list)


@dataclass
class _Batch:
    """The rows decoding together, right-aligned: column -1 of `input_ids` is each row's next input."""

    rows: list[_Row] = field(default_factory=list)
    input_ids: object = None  # [rows, width + 1]; the left padding repeats the row's first token
    attention_mask: object = None  # [rows, width + 1]; 0 on padding
    cache: object = None  # StaticCache holding `width` positions per row

    def keep(self, live: list[int]) -> None:
        if len(live) == len(self.rows):
            return
        self.rows = [self.rows[i] for i in live]
        if self.rows:
            import torch

            index = torch.tensor(live)
            self.cache.reorder_cache(index)
            self.input_ids, self.attention_mask = self.input_ids[index], self.attention_mask[index]

    def sequences(self) -> list[list[int]]:
        lengths = self.attention_mask.sum(-1).tolist() if self.rows else []
        return [self.input_ids[i, self.input_ids.shape[1] - n :].tolist() for i, n in enumerate(lengths)]

    def cached_prefixes(self) -> list[list[tuple]]:
        """Each row's cached keys and values per layer, without its padding."""
        if not self.rows:
            return []
        width = self.input_ids.shape[1] - 1
        lengths = (self.attention_mask.sum(-1) - 1).tolist()
        return [
            [
                (layer.keys[i : i + 1, :, width - n : width], layer.values[i : i + 1, :, width - n : width])
                for layer in self.cache.layers
            ]
            for i, n in enumerate(lengths)
        ]
