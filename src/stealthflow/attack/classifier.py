"""A stylometric classifier attacker: MiniLM sentence embeddings and frequent words + logistic regression.

Independent of any LLM and strong enough on CPU to be worth evading (the embedded 135M LLM
attacker is at chance). One multinomial logistic regression per covered attribute over the feature
blocks its settings name (`stealthflow.attack.features`), trained on
the train split (and optionally more labelled sets, weighed per attribute) with labels normalised
onto the option lists (age onto `AGE_BUCKETS`), saved as a small versioned JSON artefact. A copy
trained on `data/train.jsonl` ships in the package.

Its answers use the LLM attacker's structure: top-3 classes, a 1-5 certainty from the top
probability, and an inference text with the class probabilities and the line that pushes
hardest towards the top class, so an anonymizer can be shown it as feedback.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import version
from pathlib import Path

import numpy as np

from stealthflow.attack.config import COVERED, ClassifierConfig
from stealthflow.attack.embeddings import SentenceEmbedder, model_version, text_lines
from stealthflow.attack.features import Featurizer, frequent_words, stack
from stealthflow.attack.types import AttackResult, AttributeGuess
from stealthflow.data.attributes import AGE_BUCKETS, OPTIONS, age_bucket, snap_to_options
from stealthflow.data.schema import Profile

ARTIFACT_FORMAT = 2
SHIPPED_ARTIFACT = Path(__file__).parent / "artifacts" / "classifier.json"
_VERSIONED_LIBRARIES = ("scikit-learn", "numpy", "torch", "transformers")
_SNIPPET_CHARS = 80


class ArtifactError(ValueError):
    """A classifier artefact is missing, unreadable or does not fit this version of the code."""


def classes_for(attribute: str) -> tuple[str, ...]:
    if attribute == "age":
        return AGE_BUCKETS
    if attribute in OPTIONS:
        return OPTIONS[attribute]
    raise ValueError(f"the classifier does not cover {attribute!r}; it covers {', '.join(COVERED)}")


def normalise_label(attribute: str, estimate: str) -> str | None:
    """The class a label belongs to, or None when it names no single class ("In College/HS Diploma")."""
    if attribute == "age":
        numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", estimate)][:2]
        return age_bucket(sum(numbers) / len(numbers)) if numbers else None
    options = snap_to_options(attribute, estimate)
    return options[0] if len(options) == 1 else None


def labelled_examples(
    profiles: Iterable[Profile], attribute: str, min_hardness: int = 1
) -> tuple[list[int], list[str]]:
    """Indices of the profiles with a usable label for `attribute`, and their classes."""
    indices, classes = [], []
    for index, profile in enumerate(profiles):
        label = profile.labelled(min_hardness).get(attribute)
        normalised = normalise_label(attribute, label.estimate) if label else None
        if normalised is not None:
            indices.append(index)
            classes.append(normalised)
    return indices, classes


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class StylometricClassifier:
    """One fitted logistic regression per attribute, plus the provenance of the training run."""

    def __init__(self, models: dict, blocks: dict[str, tuple[str, ...]], featurizer: Featurizer, metadata: dict):
        self.models = models  # attribute -> sklearn LogisticRegression
        self.blocks = blocks  # attribute -> the feature blocks its model reads, in order
        self.featurizer = featurizer
        self.metadata = metadata

    @property
    def attributes(self) -> tuple[str, ...]:
        return tuple(self.models)

    def features(self, line_vectors: list[np.ndarray], texts: list[str]) -> dict[str, np.ndarray]:
        """Feature blocks of profiles: `line_vectors[i]` embeds the lines of `texts[i]`."""
        return self.featurizer.blocks(line_vectors, texts)

    def probabilities(self, attribute: str, features: dict[str, np.ndarray]) -> np.ndarray:
        """Class probabilities, columns in `classes_for(attribute)` order."""
        model = self.models[attribute]
        # float64 throughout: the artefact stores float64 weights, so a reload predicts bit-identically.
        probs = model.predict_proba(stack(features, self.blocks[attribute]))
        full = np.zeros((len(probs), len(classes_for(attribute))))
        for column, cls in enumerate(model.classes_):
            full[:, classes_for(attribute).index(cls)] = probs[:, column]
        return full

    def margin_direction(self, attribute: str, cls: str) -> np.ndarray:
        """w such that w·x (x: the stacked blocks) grows with the log-odds of `cls` against the other classes."""
        model = self.models[attribute]
        index = list(model.classes_).index(cls)
        if model.coef_.shape[0] == 1:  # binary: one row for classes_[1]
            return model.coef_[0] if index == 1 else -model.coef_[0]
        others = np.delete(model.coef_, index, axis=0)
        return model.coef_[index] - others.mean(0)

    def save(self, path: Path) -> None:
        attributes = {
            attribute: {
                "classes": [str(c) for c in model.classes_],
                "blocks": list(self.blocks[attribute]),
                "coef": model.coef_.tolist(),
                "intercept": model.intercept_.tolist(),
            }
            for attribute, model in self.models.items()
        }
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "format": ARTIFACT_FORMAT,
            **self.metadata,
            "vocabulary": self.featurizer.vocabulary,
            "attributes": attributes,
        }
        path.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path | None = None) -> StylometricClassifier:
        """Read an artefact (default: the shipped one) and check it fits this code and model."""
        from sklearn.linear_model import LogisticRegression

        path = Path(path or SHIPPED_ARTIFACT)
        retrain = "train a new one with `stealthflow attacker train`"
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ArtifactError(f"no classifier artefact at {path}: {retrain}") from None
        except (OSError, ValueError) as exc:
            raise ArtifactError(f"{path}: unreadable classifier artefact ({exc}); {retrain}") from None
        if payload.get("format") != ARTIFACT_FORMAT:
            raise ArtifactError(
                f"{path}: artefact format {payload.get('format')!r}, expected {ARTIFACT_FORMAT}; {retrain}"
            )
        if payload.get("embedding_model") != model_version():
            raise ArtifactError(
                f"{path}: trained on embeddings of {payload.get('embedding_model')!r} but {model_version()!r} is installed; {retrain}"
            )
        if payload.get("label_options") != _label_options(payload["attributes"]):
            raise ArtifactError(f"{path}: the attribute option lists changed since it was trained; {retrain}")
        models, blocks = {}, {}
        for attribute, fitted in payload["attributes"].items():
            blocks[attribute] = tuple(fitted["blocks"])
            model = LogisticRegression()
            model.classes_ = np.array(fitted["classes"])
            model.coef_ = np.array(fitted["coef"])
            model.intercept_ = np.array(fitted["intercept"])
            model.n_features_in_ = model.coef_.shape[1]
            models[attribute] = model
        metadata = {k: v for k, v in payload.items() if k not in ("format", "vocabulary", "attributes")}
        return cls(models, blocks, Featurizer(payload["vocabulary"]), metadata)


def _label_options(attributes: Iterable[str]) -> dict[str, list[str]]:
    return {attribute: list(classes_for(attribute)) for attribute in attributes}


def refuse_held_out(profiles: Iterable[Profile], held_out: Iterable[Profile]) -> None:
    """Raise ValueError when a training profile shares an id or a text with a held-out (test) profile."""
    held_out = list(held_out)
    forbidden_ids = {p.id for p in held_out}
    forbidden_texts = {hashlib.sha256(p.text.encode()).digest() for p in held_out}
    leaked = [
        p.id for p in profiles if p.id in forbidden_ids or hashlib.sha256(p.text.encode()).digest() in forbidden_texts
    ]
    if leaked:
        raise ValueError(
            f"{len(leaked)} training profiles are also held-out test profiles (e.g. {leaked[0]!r}); refusing to train on them"
        )


def fit_attribute(
    attribute: str, features: np.ndarray, labels: Sequence[str], extra: Sequence[bool], config: ClassifierConfig
):
    """One attribute's logistic regression on its stacked feature blocks; `extra` marks the examples weighed by
    `config.extra_weight`."""
    from sklearn.linear_model import LogisticRegression

    weights = np.where(extra, config.extra_weight[attribute], 1.0)
    kept = weights > 0
    model = LogisticRegression(C=config.C[attribute], max_iter=config.max_iter)
    return model.fit(features[kept], np.asarray(labels)[kept], sample_weight=weights[kept])


def train_classifier(
    profiles: list[Profile],
    embedder: SentenceEmbedder,
    config: ClassifierConfig | None = None,
    *,
    extra: Sequence[Profile] = (),
    train_data_sha256: str = "",
    extra_data_sha256: dict[str, str] | None = None,
    held_out: Iterable[Profile] = (),
    on_progress: Callable[[int], None] | None = None,
) -> StylometricClassifier:
    """Fit one logistic regression per attribute on the labelled texts of `profiles` and `extra`.

    `extra` profiles (other labelled sets) weigh `config.extra_weight[attribute]` each.
    `held_out` are the evaluation profiles: training refuses any profile that shares an id or
    a text with them, so test profiles never reach the classifier. The word vocabulary comes from all
    training texts (labelled or not), only when some model reads words.
    """
    config = config or ClassifierConfig()
    held_out = list(held_out)
    everything = [*profiles, *extra]
    refuse_held_out(everything, held_out)
    texts = [p.text for p in everything]
    line_vectors = embedder.embed_profiles(texts, on_progress)
    featurizer = Featurizer(frequent_words(texts) if config.reads_words() else [])
    features = featurizer.blocks(line_vectors, texts)
    is_extra = np.arange(len(everything)) >= len(profiles)
    models, blocks, examples = {}, {}, {}
    for attribute in config.attributes:
        indices, labels = labelled_examples(everything, attribute, config.min_hardness)
        if len(set(labels)) < 2:
            raise ValueError(f"{attribute}: need labels of at least two classes to train, found {sorted(set(labels))}")
        blocks[attribute] = config.blocks[attribute]
        columns = stack(features, blocks[attribute])[indices]
        models[attribute] = fit_attribute(attribute, columns, labels, is_extra[indices], config)
        examples[attribute] = dict(sorted(Counter(labels).items()))
    metadata = {
        "embedding_model": model_version(),
        "versions": {name: version(name) for name in _VERSIONED_LIBRARIES},
        "label_options": _label_options(config.attributes),
        "train_data_sha256": train_data_sha256,
        "extra_data_sha256": extra_data_sha256 or {},
        "train_profiles": len(profiles),
        "extra_profiles": len(extra),
        "held_out_profiles_checked": len(held_out),
        "training_labels": examples,
        "config": config.model_dump(mode="json", exclude={"artifact"}),
    }
    return StylometricClassifier(models, blocks, featurizer, metadata)


def certainty(probability: float, n_classes: int) -> int:
    """1 (chance) … 5 (sure): the top probability rescaled between uniform chance and 1."""
    chance = 1 / n_classes
    return int(np.clip(1 + round(4 * (probability - chance) / (1 - chance)), 1, 5))


class ClassifierAttacker:
    """The `Attacker` protocol over a `StylometricClassifier`; uncovered attributes get no guess."""

    name = "classifier"

    def __init__(self, classifier: StylometricClassifier, embedder: SentenceEmbedder):
        self.classifier = classifier
        self.embedder = embedder
        trained_on = classifier.metadata.get("train_data_sha256", "")[:12] or "unknown data"
        self.model_id = f"minilm-logreg (trained on {trained_on})"

    def covers(self, attribute: str) -> bool:
        """Attributes outside the classifier get an empty guess; they say nothing about protection."""
        return attribute in self.classifier.models

    def attack_many(self, texts: list[str], attributes: list[list[str]]) -> list[AttackResult]:
        self.embedder.embed_lines(
            [line for text in texts for line in text_lines(text)]
        )  # one batched pass, then cached
        return [self.attack(text, attrs) for text, attrs in zip(texts, attributes, strict=True)]

    def attack(self, text: str, attributes: list[str]) -> AttackResult:
        lines = text_lines(text)
        line_vectors = self.embedder.embed_lines(lines)
        profile = self.classifier.features([line_vectors], [text])
        # Each line read as a one-line profile: the line whose own features push hardest is the telling one.
        each_line = self.classifier.features([line_vectors[i : i + 1] for i in range(len(lines))], lines)
        guesses = {}
        for attribute in attributes:
            if not self.covers(attribute):
                guesses[attribute] = AttributeGuess(attribute=attribute)
                continue
            classes = classes_for(attribute)
            probs = self.classifier.probabilities(attribute, profile)[0]
            known = set(self.classifier.models[attribute].classes_)  # classes absent from training are never guessed
            ranked = [classes[i] for i in np.argsort(-probs, kind="stable") if classes[i] in known]
            top_probability = float(probs.max())
            direction = self.classifier.margin_direction(attribute, ranked[0])
            pull = stack(each_line, self.classifier.blocks[attribute]) @ direction
            telling = lines[int(np.argmax(pull))].strip()
            snippet = telling if len(telling) <= _SNIPPET_CHARS else telling[: _SNIPPET_CHARS - 1] + "…"
            listed = ", ".join(f"P({c})={probs[classes.index(c)]:.2f}" for c in ranked)
            guesses[attribute] = AttributeGuess(
                attribute=attribute,
                inference=f'classifier: {listed}; line pointing most to {ranked[0]}: "{snippet}"',
                guesses=ranked[:3],
                certainty=certainty(top_probability, len(ranked)),
            )
        raw = "\n".join(f"{a}: {g.inference}" for a, g in guesses.items() if g.inference)
        return AttackResult(attacker=self.name, guesses=guesses, raw=raw, well_formed=True)


def load_classifier_attacker(
    config: ClassifierConfig | None = None, embedding_cache: Path | None = None
) -> ClassifierAttacker:
    config = config or ClassifierConfig()
    return ClassifierAttacker(StylometricClassifier.load(config.artifact), SentenceEmbedder(embedding_cache))
