"""The dual model attacking with a probe: logistic regressions on its own hidden states.

A text's features are the causal LM's hidden states (with or without its LoRA adapter) mean-pooled over
the text's tokens, one vector per layer (the embeddings first). Per categorical attribute (`classes_for`:
gender, age buckets, income, education, relationship status) a multinomial logistic regression reads one
layer, standardised; the layer and the L2 strength C are chosen by cross-validation on the training
profiles only, folds by profile (`fit_probe`), and `refuse_held_out` keeps the test profiles out.

The fitted probe is a small JSON artefact with its provenance (the model and adapter it read, the data, the
cross-validation grid and scores). Its probabilities are computed here from the stored weights, so
answering needs numpy and the model, not scikit-learn.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import numpy as np

from stealthflow.attack.choice import CHOICE_ATTRIBUTES, Choice, as_attack_result
from stealthflow.attack.classifier import classes_for, file_sha256, labelled_examples, refuse_held_out
from stealthflow.attack.judge import rule_verdict
from stealthflow.attack.types import AttackResult
from stealthflow.data.schema import Profile
from stealthflow.llm.checkpoints import load_causal_lm

PROBE_FORMAT = 1
#: the probe fitted on the embedded SmolLM2-135M's own states (no adapter), `benchmarks/dual_probe.py fit`
SHIPPED_PROBE = Path(__file__).parent / "artifacts" / "probe-base.json"
#: the attributes the probe answers: those with options, as the choice attacker asks them
PROBE_ATTRIBUTES = CHOICE_ATTRIBUTES
#: a text is read up to this many tokens
MAX_TOKENS = 1024
_VERSIONED_LIBRARIES = ("scikit-learn", "numpy", "torch", "transformers")


class ProbeError(ValueError):
    """A probe artefact is missing, unreadable or does not fit this code or this model."""


def text_states(model, tokenizer, texts: Sequence[str], on_done: Callable[[int], None] | None = None) -> np.ndarray:
    """(texts, layers + 1, hidden) float32: each layer's hidden states mean-pooled over a text's tokens (up to
    `MAX_TOKENS`), the embedding layer first. One text per forward pass, so no padding enters a mean."""
    import torch

    rows = []
    with torch.no_grad():
        for text in texts:
            ids = tokenizer(text, truncation=True, max_length=MAX_TOKENS, return_tensors="pt")["input_ids"]
            out = model(input_ids=ids, output_hidden_states=True, logits_to_keep=1)
            rows.append(torch.stack([h[0].float().mean(0) for h in out.hidden_states]).numpy())
            if on_done:
                on_done(1)
    return np.stack(rows).astype(np.float32)


@dataclass(frozen=True)
class AttributeProbe:
    """One attribute's logistic regression on one layer's standardised mean state."""

    layer: int
    C: float
    classes: tuple[str, ...]  # the classes seen in training, in `classes_for` order
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray  # (1, hidden) for two classes (the second's log-odds), else (classes, hidden)
    intercept: np.ndarray

    def probabilities(self, attribute: str, states: np.ndarray) -> np.ndarray:
        """(texts, options) class probabilities in `classes_for(attribute)` order (unseen classes get 0)."""
        x = (states[:, self.layer] - self.mean) / self.scale
        logits = x @ self.coef.T + self.intercept
        if self.coef.shape[0] == 1:
            logits = np.concatenate([np.zeros_like(logits), logits], axis=1)
        logits -= logits.max(1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(1, keepdims=True)
        options = classes_for(attribute)
        full = np.zeros((len(states), len(options)))
        full[:, [options.index(c) for c in self.classes]] = probs
        return full

    def as_json(self) -> dict:
        return {
            "layer": self.layer,
            "C": self.C,
            "classes": list(self.classes),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "coef": self.coef.tolist(),
            "intercept": self.intercept.tolist(),
        }

    @classmethod
    def from_json(cls, fitted: dict) -> AttributeProbe:
        arrays = {key: np.asarray(fitted[key], dtype=np.float64) for key in ("mean", "scale", "coef", "intercept")}
        return cls(layer=int(fitted["layer"]), C=float(fitted["C"]), classes=tuple(fitted["classes"]), **arrays)


class HiddenStateProbe:
    """The fitted probes of the attributes it covers, and the provenance of the fit."""

    def __init__(self, attributes: dict[str, AttributeProbe], metadata: dict):
        self.attributes = attributes
        self.metadata = metadata

    def choices(self, states: np.ndarray, asked: Sequence[Sequence[str]]) -> list[dict[str, Choice]]:
        """Per text (`states[i]` with `asked[i]`), a `Choice` on each asked attribute the probe covers."""
        wanted = {a for attributes in asked for a in attributes if a in self.attributes}
        probs = {a: self.attributes[a].probabilities(a, states) for a in wanted}
        return [
            {a: Choice(a, classes_for(a), tuple(probs[a][i])) for a in attributes if a in self.attributes}
            for i, attributes in enumerate(asked)
        ]

    def save(self, path: Path) -> None:
        payload = {
            "format": PROBE_FORMAT,
            **self.metadata,
            "attributes": {a: probe.as_json() for a, probe in self.attributes.items()},
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> HiddenStateProbe:
        refit = "refit it with `python benchmarks/dual_probe.py fit`"
        try:
            payload = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ProbeError(f"no probe artefact at {path}: {refit}") from None
        except (OSError, ValueError) as exc:
            raise ProbeError(f"{path}: unreadable probe artefact ({exc}); {refit}") from None
        if not isinstance(payload, dict) or payload.get("format") != PROBE_FORMAT:
            raise ProbeError(f"{path}: not a probe artefact of format {PROBE_FORMAT}; {refit}")
        if payload.get("label_options") != _label_options(payload["attributes"]):
            raise ProbeError(f"{path}: the attribute option lists changed since it was fitted; {refit}")
        attributes = {a: AttributeProbe.from_json(fitted) for a, fitted in payload["attributes"].items()}
        return cls(attributes, {k: v for k, v in payload.items() if k not in ("format", "attributes")})

    def check_reads(self, model: str, adapter_sha256: str) -> None:
        """Raise ProbeError unless the probe was fitted on the states of this model and adapter."""
        fitted = (self.metadata.get("model"), self.metadata.get("adapter_sha256", ""))
        if fitted != (model, adapter_sha256):
            raise ProbeError(
                f"the probe was fitted on {fitted[0]!r} with adapter {fitted[1][:12] or 'none'}, "
                f"not on {model!r} with adapter {adapter_sha256[:12] or 'none'}: fit one on this model's states"
            )

    def check_width(self, hidden: int) -> None:
        """Raise ProbeError unless the probe reads states of `hidden` dimensions."""
        widths = {probe.coef.shape[1] for probe in self.attributes.values()}
        if widths != {hidden}:
            raise ProbeError(f"the probe reads {widths} hidden dimensions, the model has {hidden}")


def _label_options(attributes) -> dict[str, list[str]]:
    return {attribute: list(classes_for(attribute)) for attribute in attributes}


def adapter_sha256(adapter: str | Path | None) -> str:
    """SHA-256 of a LoRA adapter's weights file ('' without an adapter): which adapter a probe read."""
    if not adapter:
        return ""
    weights = Path(adapter) / "adapter_model.safetensors"
    if not weights.exists():
        raise ProbeError(f"{adapter}: no adapter_model.safetensors")
    return file_sha256(weights)


def judged_correct(attribute: str, truths: Sequence[str]) -> np.ndarray:
    """(labels, options) booleans: would answering option j be judged right for label i (`rule_verdict`)?"""
    options = classes_for(attribute)
    return np.array([[rule_verdict(attribute, truth, option) == "yes" for option in options] for truth in truths])


def _fit_one(features: np.ndarray, labels: Sequence[str], C: float, max_iter: int):
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(features)
    model = LogisticRegression(C=C, max_iter=max_iter).fit(scaler.transform(features), labels)
    return scaler, model


def cross_validated(
    attribute: str,
    states: np.ndarray,
    truths: Sequence[str],
    labels: Sequence[str],
    folds: np.ndarray,
    layers: Sequence[int],
    Cs: Sequence[float],
    max_iter: int = 2000,
) -> dict[tuple[int, float], float]:
    """Per (layer, C), the judged top-1 accuracy of predictions by models that did not see the profile:
    `folds[i]` is example i's fold (all examples of one profile share it)."""
    correct = judged_correct(attribute, truths)
    options = classes_for(attribute)
    labels = np.asarray(labels)
    scores = {}
    for layer in layers:
        predicted = {C: np.empty(len(labels), dtype=int) for C in Cs}
        for fold in np.unique(folds):
            test = folds == fold
            seen = np.unique(labels[~test])
            for C in Cs:
                if len(seen) < 2:  # a fold whose training part has one class answers it
                    predicted[C][test] = options.index(seen[0])
                    continue
                scaler, model = _fit_one(states[~test, layer], labels[~test], C, max_iter)
                guesses = model.predict(scaler.transform(states[test, layer]))
                predicted[C][test] = [options.index(g) for g in guesses]
        for C in Cs:
            scores[(layer, C)] = float(correct[np.arange(len(labels)), predicted[C]].mean())
    return scores


def profile_folds(n_profiles: int, folds: int, seed: int) -> np.ndarray:
    """A fold per profile, seeded and balanced: every attribute's examples of one profile fall in its fold."""
    order = np.random.default_rng(seed).permutation(n_profiles)
    assigned = np.empty(n_profiles, dtype=int)
    assigned[order] = np.arange(n_profiles) % folds
    return assigned


def fit_probe(
    profiles: Sequence[Profile],
    states: np.ndarray,
    *,
    layers: Sequence[int],
    Cs: Sequence[float],
    folds: int = 5,
    seed: int = 0,
    held_out: Sequence[Profile] = (),
    metadata: dict | None = None,
    max_iter: int = 2000,
) -> tuple[HiddenStateProbe, dict[str, dict[tuple[int, float], float]]]:
    """Choose each attribute's layer and C by `folds`-fold cross-validation over `profiles` (`states[i]` are
    profile i's), then fit on all of them; returns the probe and the cross-validated accuracy per setting.

    The best setting has the highest judged top-1; ties go to the smaller C, then the lower layer."""
    refuse_held_out(profiles, held_out)
    if len(states) != len(profiles):
        raise ValueError(f"{len(states)} state rows for {len(profiles)} profiles")
    fold_of = profile_folds(len(profiles), folds, seed)
    fitted, scores, examples, chosen = {}, {}, {}, {}
    for attribute in PROBE_ATTRIBUTES:
        indices, labels = labelled_examples(profiles, attribute)
        if len(set(labels)) < 2:
            continue
        truths = [profiles[i].labelled()[attribute].estimate for i in indices]
        scores[attribute] = cross_validated(
            attribute, states[indices], truths, labels, fold_of[indices], layers, Cs, max_iter
        )
        layer, C = max(scores[attribute], key=lambda s: (scores[attribute][s], -s[1], -s[0]))
        scaler, model = _fit_one(states[indices, layer], labels, C, max_iter)
        classes = tuple(c for c in classes_for(attribute) if c in set(model.classes_))
        coef, intercept = _in_order(model, classes)
        fitted[attribute] = AttributeProbe(layer, C, classes, scaler.mean_, scaler.scale_, coef, intercept)
        examples[attribute] = dict(sorted(Counter(labels).items()))
        chosen[attribute] = {"layer": layer, "C": C, "cv_top1": round(scores[attribute][(layer, C)], 4)}
    provenance = {
        **(metadata or {}),
        "versions": {name: version(name) for name in _VERSIONED_LIBRARIES},
        "label_options": _label_options(fitted),
        "train_profiles": len(profiles),
        "held_out_profiles_checked": len(held_out),
        "training_labels": examples,
        "selection": {"folds": folds, "seed": seed, "layers": list(layers), "C": list(Cs), "chosen": chosen},
        "max_tokens": MAX_TOKENS,
    }
    return HiddenStateProbe(fitted, provenance), scores


def _in_order(model, classes: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """A fitted LogisticRegression's weights with their rows in `classes` order; for two classes the one row
    gives the log-odds of `classes[1]`."""
    if len(classes) == 2:
        sign = 1.0 if model.classes_[1] == classes[1] else -1.0
        return sign * model.coef_, sign * model.intercept_
    order = [list(model.classes_).index(c) for c in classes]
    return model.coef_[order], model.intercept_[order]


class ProbeAttacker:
    """The `Attacker` protocol over a causal LM and a probe fitted on its states: top-3 options per attribute."""

    name = "probe"

    def __init__(self, model, tokenizer, probe: HiddenStateProbe):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.probe = probe
        self.model_id = f"probe on {probe.metadata.get('model', 'an unnamed model')}" + (
            " + adapter" if probe.metadata.get("adapter_sha256") else ""
        )

    def covers(self, attribute: str) -> bool:
        """Attributes without a fitted probe (free text: location, ...) get no guess; they say nothing."""
        return attribute in self.probe.attributes

    def states(self, texts: Sequence[str], on_done: Callable[[int], None] | None = None) -> np.ndarray:
        return text_states(self.model, self.tokenizer, texts, on_done)

    def choose_many(self, texts: Sequence[str], attributes: Sequence[Sequence[str]]) -> list[dict[str, Choice]]:
        return self.probe.choices(self.states(texts), attributes)

    def attack_many(self, texts: list[str], attributes: list[list[str]]) -> list[AttackResult]:
        return [as_attack_result(choices, self.name) for choices in self.choose_many(texts, attributes)]


def load_probe_attacker(base: str, adapter: str | None, fitted: HiddenStateProbe, dtype: str = "float32"):
    """The base checkpoint (+ adapter) attacking with a probe fitted on its own hidden states
    (`HiddenStateProbe.load`); ProbeError when the probe was fitted on another model or adapter."""
    fitted.check_reads(base, adapter_sha256(adapter))
    model, tokenizer = load_causal_lm(base, adapter, dtype)
    fitted.check_width(model.config.hidden_size)
    return ProbeAttacker(model, tokenizer, fitted)
