"""The phrase generalizer: the embedded SmolLM2 with a LoRA adapter trained on the teacher's generalizations of
single phrases (`stealthflow harvest-phrases`, training/phrase-generalizer.yaml) suggests stand-ins for a marked
phrase in its sentence. `Generalizer` adds them to the phrase's candidates; its fluency and meaning scoring chooses.

Suggestions are the `k` likeliest first tokens of the answer, each continued greedily (deterministic), batched over
all the phrases asked at once. torch, transformers and peft are imported when the first phrase is asked, never before.
"""

from __future__ import annotations

import json
from pathlib import Path

from stealthflow.data import DataError
from stealthflow.harvest.phrases import phrase_messages
from stealthflow.torch_threads import single_threaded_in_workers

ADAPTER = "phrase-generalizer"
#: suggestions per phrase (first tokens continued)
SUGGESTIONS = 4
#: the files peft saves an adapter's weights in
WEIGHTS = ("adapter_model.safetensors", "adapter_model.bin")
RECIPE = "training/phrase-generalizer.yaml"
#: a stand-in is a phrase: the teacher's are at most 12 words
MAX_NEW_TOKENS = 20


def checked_adapter(path: Path) -> Path:
    """`path`, when it holds a peft adapter: an adapter_config.json naming its `peft_type`, and its weights; else a
    one-line `DataError` (before any work, not a traceback after it)."""
    config = path / "adapter_config.json"
    try:
        peft_type = json.loads(config.read_text(encoding="utf-8")).get("peft_type")
    except (OSError, ValueError, AttributeError):
        peft_type = None
    if not peft_type:
        raise DataError(f"{path}: no adapter_config.json naming a peft_type (train one: {RECIPE})")
    if not any((path / name).is_file() for name in WEIGHTS):
        raise DataError(f"{path}: no adapter weights ({' or '.join(WEIGHTS)}; train one: {RECIPE})")
    return path


class PhraseSuggester:
    """(sentence, phrase, attribute) items -> `k` suggested stand-ins each, best first (a `generalize.Suggest`)."""

    def __init__(self, adapter: str | Path, k: int = SUGGESTIONS, batch_size: int = 8):
        self.adapter = checked_adapter(Path(adapter))
        self.k = k
        self.batch_size = batch_size
        self._model = None
        self._tokenizer = None

    def _load(self) -> None:
        import torch
        from peft import PeftModel
        from transformers import AutoModelForCausalLM

        from stealthflow.llm.checkpoints import load_tokenizer
        from stealthflow.llm.embedded import converted_model_path

        base = converted_model_path()
        model = AutoModelForCausalLM.from_pretrained(base, dtype=torch.float32)
        self._model = PeftModel.from_pretrained(model, str(self.adapter)).merge_and_unload().eval()
        self._tokenizer = load_tokenizer(base)
        self._tokenizer.padding_side = "left"

    @single_threaded_in_workers
    def __call__(self, items: list[tuple[str, str, str]]) -> list[list[str]]:
        if not items:
            return []
        if self._model is None:
            self._load()
        found: list[list[str]] = []
        for first in range(0, len(items), self.batch_size):
            found.extend(self._batch(items[first : first + self.batch_size]))
        return found

    def _batch(self, items: list[tuple[str, str, str]]) -> list[list[str]]:
        """The `k` likeliest first tokens of each answer, each continued greedily: the prompt is read once (beam
        search would read it `k` times), then its cache is shared by the `k` continuations."""
        import torch

        prompts = [
            self._tokenizer.apply_chat_template(phrase_messages(*item), tokenize=False, add_generation_prompt=True)
            for item in items
        ]
        encoded = self._tokenizer(prompts, return_tensors="pt", padding=True)
        mask = encoded["attention_mask"]
        with torch.inference_mode():
            prefill = self._model(**encoded, position_ids=(mask.cumsum(-1) - 1).clamp(min=0), use_cache=True)
            cache = prefill.past_key_values
            cache.batch_repeat_interleave(self.k)
            first = prefill.logits[:, -1].topk(self.k).indices.reshape(-1, 1)
            prompt = encoded["input_ids"].repeat_interleave(self.k, 0)
            output = self._model.generate(
                input_ids=torch.cat([prompt, first], 1),
                attention_mask=torch.cat([mask.repeat_interleave(self.k, 0), torch.ones_like(first)], 1),
                past_key_values=cache,
                max_new_tokens=MAX_NEW_TOKENS - 1,
                do_sample=False,
                pad_token_id=self._tokenizer.pad_token_id,
            )
        texts = self._tokenizer.batch_decode(output[:, prompt.shape[1] :], skip_special_tokens=True)
        return [
            list(dict.fromkeys(t.strip().split("\n")[0].strip() for t in texts[i * self.k : (i + 1) * self.k]))
            for i in range(len(items))
        ]
