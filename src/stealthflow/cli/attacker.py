"""`stealthflow attacker train|eval`: the stylometric classifier attacker."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from stealthflow.cli.app import (
    ConfigOption,
    command_group,
    console,
    fail,
    out,
    progress_bar,
    settings_from,
    user_errors,
)
from stealthflow.resources import resource_dir, split_path

attacker_app = command_group(
    "attacker", "The stylometric classifier attacker (MiniLM embeddings + logistic regression)."
)

HeldOutOption = Annotated[
    Optional[Path],
    typer.Option("--held-out", help="test split the training data must not overlap; default: test.jsonl beside --data"),
]


def _checkout() -> Path:
    """The source checkout, which `classifier.extra_data`'s relative paths are read from."""
    return resource_dir("benchmarks").parent


def _extra_files(given: list[Path] | None, configured: tuple[Path, ...]) -> list[Path]:
    """--extra as given, else the config's `extra_data`."""
    if given is not None:
        return given
    return [path if path.is_absolute() else _checkout() / path for path in configured]


def _shown(path: Path) -> str:
    """A training file's name in the artefact: relative to the source checkout when inside it (no local paths)."""
    try:
        return str(path.resolve().relative_to(_checkout().resolve()))
    except (ValueError, FileNotFoundError):
        return path.name


def _embedder(no_cache: bool):
    from stealthflow.attack.embeddings import SentenceEmbedder, default_cache_path

    return SentenceEmbedder(None if no_cache else default_cache_path())


@attacker_app.command()
def train(
    data: Annotated[
        Path, typer.Option("--data", help="labelled training profiles (JSONL)", exists=True, dir_okay=False)
    ] = split_path("train"),
    held_out: HeldOutOption = None,
    extra: Annotated[
        Optional[list[Path]],
        typer.Option(
            "--extra",
            help="more labelled profiles to train on (repeat it); default: classifier.extra_data of the config",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    output: Annotated[
        Optional[Path],
        typer.Option(
            "--out", "-o", help="artefact path; default: classifier.artifact from the config, else the shipped one"
        ),
    ] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="do not keep line embeddings on disk")] = False,
    config: ConfigOption = None,
) -> None:
    """Train the classifier on the train split (and the extra labelled sets) and save a versioned artefact."""
    from stealthflow.attack.classifier import SHIPPED_ARTIFACT, file_sha256, train_classifier
    from stealthflow.attack.embeddings import text_lines
    from stealthflow.data import load_profiles
    from stealthflow.pii_tagger.minilm import EmbeddingModelMissing

    settings = settings_from(config, None, None)
    target = output or settings.classifier.artifact or SHIPPED_ARTIFACT
    held_out = held_out or (data.parent / "test.jsonl")
    with user_errors():
        profiles = load_profiles(data)
        extra_files = _extra_files(extra, settings.classifier.extra_data)
        extra_profiles = [p for path in extra_files for p in load_profiles(path)]
        guarded = load_profiles(held_out) if held_out.exists() else []
        if not guarded:
            console.print(f"[yellow]warning:[/] no held-out split at {held_out}; cannot check the split discipline")
        embedder = _embedder(no_cache)
        lines = sum(len(text_lines(p.text)) for p in [*profiles, *extra_profiles])
        try:
            with progress_bar("embedding comments", lines, "cached lines are skipped") as progress:
                classifier = train_classifier(
                    profiles,
                    embedder,
                    settings.classifier,
                    extra=extra_profiles,
                    train_data_sha256=file_sha256(data),
                    extra_data_sha256={_shown(path): file_sha256(path) for path in extra_files},
                    held_out=guarded,
                    on_progress=lambda n: progress.advance(0, n),
                )
        except (ValueError, EmbeddingModelMissing) as exc:
            fail(str(exc))
        finally:
            embedder.close()
    classifier.save(target)
    table = Table(title=f"trained on {len(profiles)} + {len(extra_profiles)} extra profiles → {target}")
    table.add_column("attribute")
    table.add_column("labels per class")
    for attribute, counts in classifier.metadata["training_labels"].items():
        table.add_row(attribute, ", ".join(f"{c}: {n}" for c, n in counts.items()))
    out.print(table)


@attacker_app.command("eval")
def evaluate(
    data: Annotated[
        Path, typer.Option("--data", help="labelled evaluation profiles (JSONL)", exists=True, dir_okay=False)
    ] = split_path("test"),
    artifact: Annotated[
        Optional[Path],
        typer.Option("--artifact", help="default: classifier.artifact from the config, else the shipped one"),
    ] = None,
    limit: Annotated[Optional[int], typer.Option(help="first N profiles only")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="do not keep line embeddings on disk")] = False,
    config: ConfigOption = None,
) -> None:
    """Accuracy of the classifier per attribute on labelled profiles, beside chance, with bootstrap CIs."""
    from stealthflow.attack.classifier import (
        COVERED,
        ArtifactError,
        ClassifierAttacker,
        StylometricClassifier,
        file_sha256,
    )
    from stealthflow.attack.strength import TABLE_HEADER, attacker_accuracy, table_cells
    from stealthflow.data import load_profiles

    settings = settings_from(config, None, None)
    with user_errors():
        profiles = load_profiles(data, limit)
        try:
            classifier = StylometricClassifier.load(artifact or settings.classifier.artifact)
        except ArtifactError as exc:
            fail(str(exc))
        if classifier.metadata.get("train_data_sha256") == file_sha256(data):
            fail(f"{data} is the file the classifier was trained on; evaluate on held-out profiles")
        attacker = ClassifierAttacker(classifier, _embedder(no_cache))
        results = []
        with progress_bar("classifying", len(profiles)) as progress:
            for profile in profiles:
                results += attacker.attack_many([profile.text], [[a for a in COVERED if a in profile.labelled()]])
                progress.advance(0)
        attacker.embedder.close()
    table = Table(title=f"classifier attacker on {data} ({len(profiles)} profiles)")
    for column in TABLE_HEADER:
        table.add_column(column)
    for row in attacker_accuracy("classifier", profiles, results, COVERED):
        table.add_row(*table_cells(row))
    out.print(table)
