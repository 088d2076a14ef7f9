"""`stealthflow harvest RUN --out DIR` and `stealthflow train sft|grpo|merge`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from stealthflow.cli.app import (
    AdapterOption,
    ConfigOption,
    ModelOption,
    SeedOption,
    app,
    command_group,
    console,
    fail,
    out,
    print_markdown,
    progress_bar,
    recipe_overrides,
    settings_from,
    user_errors,
)
from stealthflow.data.loader import describe_validation_error
from stealthflow.resources import split_path

if TYPE_CHECKING:  # training pulls in torch and trl: imported when a command runs
    from stealthflow.training.recipes import Recipe

train_app = command_group("train", "LoRA-SFT and GRPO training of a local anonymizer (recipes in training/).")

RecipeOption = Annotated[
    Path, typer.Option("--recipe", "-r", help="training recipe (YAML, see training/)", exists=True, dir_okay=False)
]
DataOption = Annotated[Optional[Path], typer.Option("--data", help="harvest output directory (overrides the recipe)")]
OutputOption = Annotated[
    Optional[Path], typer.Option("--output-dir", help="where adapters and logs go (overrides the recipe)")
]
TableOutputOption = Annotated[Optional[Path], typer.Option("--output", "-o", help="also write the markdown table here")]
LabelledDataOption = Annotated[Path, typer.Option(help="labelled profiles (JSONL)")]
EvalLimitOption = Annotated[
    Optional[int], typer.Option(min=1, help="first N labelled profiles (or a sample of N, see --sample-seed)")
]
SampleSeedOption = Annotated[Optional[int], typer.Option(help="a seeded random sample of --limit profiles")]
LocalModelOption = Annotated[str, typer.Option("--model", "-m", help="base model: embedded, hf:PATH or PATH")]
TorchThreadsOption = Annotated[int, typer.Option(min=1, help="torch threads")]
SetOption = Annotated[
    Optional[list[str]], typer.Option("--set", help="override a recipe key, e.g. --set grpo.max_steps=40 (repeatable)")
]


@app.command()
def harvest(
    run: Annotated[Path, typer.Argument(help="a `stealthflow generate` run directory (or one trajectories JSONL)")],
    out_dir: Annotated[Path, typer.Option("--out", help="output directory for the datasets and their card")],
    profiles: Annotated[
        Path, typer.Option(help="the labelled corpus the run used (for the reference answers)")
    ] = split_path("train"),
    attack_keep: Annotated[str, typer.Option(help="attack answers to keep: correct (top-1 right) or all")] = "correct",
    reference_model: Annotated[
        str, typer.Option(help="reference answers shipped with the corpus; '' for none")
    ] = "deepseek-ai/DeepSeek-V3",
    reference_scope: Annotated[
        str, typer.Option(help="reference answers of the run's profiles (run) or of every corpus profile (all)")
    ] = "run",
    inference_words: Annotated[
        Optional[int], typer.Option(help="keep at most N words of each attack inference (whole sentences first)")
    ] = None,
    teacher: Annotated[
        Optional[str],
        typer.Option(
            help="answer the anonymizer turns the model left unreadable with a rule-based teacher: quoted-lines"
        ),
    ] = None,
) -> None:
    """Turn trajectories into SFT examples (anonymize + attack) and GRPO prompts."""
    from pydantic import ValidationError

    from stealthflow.data import load_profiles
    from stealthflow.harvest import HarvestConfig
    from stealthflow.harvest import harvest as build

    try:
        config = HarvestConfig(
            attack_keep=attack_keep,
            reference_model=reference_model or None,
            reference_scope=reference_scope,
            inference_words=inference_words,
            teacher=teacher,
        )
    except ValidationError as exc:
        fail(f"invalid option: {describe_validation_error(exc)}")
    with user_errors():
        try:
            summary = build(run, out_dir, load_profiles(profiles), config)
        except ValueError as exc:
            fail(str(exc))
    rows = summary["rows"]
    out.print(
        f"{summary['profiles']} profiles -> {rows['anonymize']} anonymization + {rows['attack']} attack examples, {rows['grpo']} GRPO prompts"
    )
    console.print(f"wrote {out_dir}/sft, {out_dir}/grpo and the card {out_dir}/README.md")


@app.command("harvest-posts")
def harvest_posts(
    out_dir: Annotated[Path, typer.Option("--out", help="output directory for the datasets and their card")],
    profiles: Annotated[
        Path, typer.Option(help="labelled train profiles with the strong attacker's answers")
    ] = split_path("train"),
    copy_share: Annotated[
        float, typer.Option(min=0.0, max=0.9, help="share of SFT rows that copy a post without evidence unchanged")
    ] = 0.2,
    trajectories: Annotated[
        Optional[Path],
        typer.Option("--trajectories", help="a `generate` run: add the strong model's per-comment rewrites"),
    ] = None,
    teacher: Annotated[
        Optional[Path],
        typer.Option("--teacher", help="teacher rewrites (JSONL); default: the shipped data/teacher-rewrites"),
    ] = None,
    deletion: Annotated[
        bool, typer.Option("--deletion", help="teach deleting the evidence spans instead of the teacher's rewrites")
    ] = False,
    attack: Annotated[bool, typer.Option("--attack/--no-attack", help="add the dual model's attack examples")] = True,
    attack_words: Annotated[
        int, typer.Option(min=10, help="attack examples: profiles whose text has at most this many words")
    ] = 100,
    attack_style: Annotated[
        str,
        typer.Option(
            help="attack examples as the strong model's answers (answer) or one option per attribute (choice)"
        ),
    ] = "answer",
    seed: SeedOption = 0,
) -> None:
    """Per-post data for the local anonymizer: teacher rewrites, attack examples and GRPO prompts."""
    from stealthflow.data import load_profiles
    from stealthflow.harvest.posts import harvest_posts as build
    from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites, shipped_teacher_file
    from stealthflow.harvest.trajectories import load_trajectories

    with user_errors():
        try:
            runs = load_trajectories(trajectories) if trajectories else None
            teacher_file = None if deletion else teacher or shipped_teacher_file()
            rewrites = load_teacher_rewrites(teacher_file) if teacher_file else None
            if attack_style not in ("answer", "choice"):
                fail(f"--attack-style {attack_style!r}: answer or choice")
            summary = build(
                load_profiles(profiles), out_dir, copy_share, seed, runs, rewrites, attack, attack_words, attack_style
            )
        except ValueError as exc:
            fail(str(exc))
    out.print(f"{summary['profiles']} profiles -> SFT rows {summary['sft']}, {summary['grpo_prompts']} GRPO prompts")
    console.print(f"wrote {out_dir}/sft, {out_dir}/grpo and the card {out_dir}/README.md")


@app.command("harvest-phrases")
def harvest_phrases(
    out_dir: Annotated[Path, typer.Option("--out", help="output directory for the dataset and its validation rows")],
    teacher: Annotated[
        Optional[Path],
        typer.Option(
            "--teacher", help="teacher rewrites (JSONL or a folder); default: the shipped data/teacher-rewrites"
        ),
    ] = None,
    validation_share: Annotated[
        float, typer.Option(min=0.0, max=0.5, help="share of the posts held back as validation (by post id)")
    ] = 0.1,
    seed: SeedOption = 0,
) -> None:
    """Phrase-generalizer data: one row per teacher cue (its sentence, phrase, attribute -> the teacher's stand-in)."""
    from stealthflow.harvest.phrases import harvest_phrases as build
    from stealthflow.harvest.teacher_rewrites import load_teacher_rewrites, shipped_teacher_file

    with user_errors():
        try:
            source = teacher or shipped_teacher_file()
            if source is None:
                fail("no teacher rewrites: pass --teacher FILE")
            summary = build(load_teacher_rewrites(source), out_dir, validation_share, seed)
        except ValueError as exc:
            fail(str(exc))
    out.print(
        f"{summary['train_rows']} training rows ({summary['train_posts']} posts), "
        f"{summary['validation_rows']} validation rows ({summary['validation_posts']} posts)"
    )
    console.print(f"wrote {out_dir}/sft, {out_dir}/validation.jsonl and {out_dir}/summary.json")


def _recipe(recipe: Path, data: Path | None, output_dir: Path | None, sets: list[str] | None):
    from pydantic import ValidationError

    from stealthflow.training import load_recipe

    overrides = recipe_overrides(sets)
    if data is not None:
        overrides["sft.data"] = str(data)
    if output_dir is not None:
        overrides["output_dir"] = str(output_dir)
    try:
        return load_recipe(recipe, overrides)
    except ValidationError as exc:
        fail(f"{recipe}: {describe_validation_error(exc)}")
    except (ValueError, OSError) as exc:
        fail(str(exc))


def _progress() -> list:
    from trl.trainer.callbacks import RichProgressCallback

    return [RichProgressCallback()]


def _skipped(message: str) -> None:
    console.print(f"[yellow]skipped:[/] {message}")


@train_app.command()
def sft(recipe: RecipeOption, data: DataOption = None, output_dir: OutputOption = None, set_: SetOption = None) -> None:
    """LoRA-SFT on harvested examples; resumes from the last checkpoint if interrupted."""
    from stealthflow.training import run_sft

    _train(run_sft, _recipe(recipe, data, output_dir, set_), "SFT", "loss curve", "loss.png")


@train_app.command()
def grpo(
    recipe: RecipeOption, data: DataOption = None, output_dir: OutputOption = None, set_: SetOption = None
) -> None:
    """GRPO from the SFT adapter with the frozen SFT model attacking each rewrite."""
    from stealthflow.training import run_grpo

    resolved = _recipe(recipe, None, output_dir, set_)
    if data is not None:
        resolved.grpo.data = str(data)
    _train(run_grpo, resolved, "GRPO", "reward curve", "rewards.png")


def _train(run: Callable, resolved: Recipe, stage: str, curve: str, plot: str) -> None:
    """Run a training stage on the resolved recipe and say where its adapter and its `plot` went."""
    with user_errors():
        adapter = run(resolved, callbacks=_progress(), on_skip=_skipped)
    out.print(f"{stage} adapter: {adapter}  ({curve}: {adapter.parent / plot})")
    out.print(f"use it: stealthflow anonymize FILE --model {resolved.base_model} --adapter {adapter}")


@train_app.command()
def merge(
    adapter: Annotated[
        Path, typer.Argument(help="adapter directory (from train sft/grpo)", exists=True, file_okay=False)
    ],
    out_dir: Annotated[Path, typer.Option("--out", help="where the merged checkpoint goes")],
    base_model: Annotated[
        Optional[str], typer.Option(help="base model spec (default: from the adapter's recipe.yaml)")
    ] = None,
) -> None:
    """Fold an adapter into its base model: a plain checkpoint for `--model hf:DIR`."""
    from stealthflow.training import load_recipe, merge_adapter

    recipe_file = adapter.parent / "recipe.yaml"
    if base_model is None:
        if not recipe_file.exists():
            fail(f"no {recipe_file}: pass --base-model")
        base_model = load_recipe(recipe_file).base_model
    with user_errors():
        merged = merge_adapter(base_model, adapter, out_dir)
    out.print(f"merged checkpoint: {merged}  (use it: --model hf:{merged})")


@train_app.command()
def compare(
    evaluations: Annotated[
        list[str], typer.Argument(help="NAME=EVALUATE_OUT_DIR, one per model (e.g. base=runs/eval-base)")
    ],
    method: Annotated[str, typer.Option(help="the anonymization method the evaluations ran")] = "standard",
    output: TableOutputOption = None,
) -> None:
    """One table comparing models evaluated with `stealthflow evaluate` (as attacker and as anonymizer)."""
    from stealthflow.training.compare import comparison_table

    named = {}
    for item in evaluations:
        name, sep, directory = item.partition("=")
        if not sep or not (Path(directory) / "originals.jsonl").exists():
            fail(f"{item!r}: expected NAME=DIR with DIR an evaluate out dir (originals.jsonl)")
        named[name] = Path(directory)
    _show_table(comparison_table(named, method), output)


def _show_table(markdown: str, output: Path | None) -> None:
    """Print a markdown table (and what it was measured on) and write it to `output` (--output) when given."""
    print_markdown(markdown)
    if output:
        output.write_text(markdown, encoding="utf-8")


@train_app.command("attack-eval")
def attack_eval(
    data: LabelledDataOption = split_path("test"),
    limit: Annotated[
        int, typer.Option(min=1, help="first N labelled profiles (or a sample of N, see --sample-seed)")
    ] = 20,
    sample_seed: Annotated[
        Optional[int], typer.Option(help="a seeded random sample of --limit profiles (as evaluate --sample-seed)")
    ] = None,
    output: TableOutputOption = None,
    config: ConfigOption = None,
    model: ModelOption = None,
    adapter: AdapterOption = None,
) -> None:
    """Quick check: the model (+ adapter) as attacker on original texts, top-1/top-3 vs chance."""
    from stealthflow.data import load_labelled
    from stealthflow.llm.pool import LLMPool
    from stealthflow.training.compare import self_attack

    settings = settings_from(config, model, adapter)
    with user_errors():
        profiles = load_labelled(data, limit, sample_seed)
        pool = LLMPool(None)
        try:
            with progress_bar("attacking", len(profiles)) as progress:
                table, well_formed = self_attack(
                    pool.get(settings.model), profiles, on_done=lambda n: progress.advance(0, n)
                )
        finally:
            pool.close()
    summary = f"{settings.model.model}{' + ' + settings.model.adapter if settings.model.adapter else ''}: {well_formed:.0%} of {len(profiles)} answers well-formed"
    _show_table(f"{table}\n\n{summary}\n", output)


@train_app.command("choice-eval")
def choice_eval(
    data: LabelledDataOption = split_path("test"),
    limit: EvalLimitOption = None,
    sample_seed: SampleSeedOption = None,
    model: LocalModelOption = "embedded",
    adapter: AdapterOption = None,
    threads: TorchThreadsOption = 1,
    calibration: Annotated[
        float, typer.Option(min=0.0, help="contextual calibration alpha (attack/choice.py; 0: none)")
    ] = 0.0,
    cue_first: Annotated[
        Optional[int],
        typer.Option(min=1, help="read N words, the sentences the cue tagger marks for the asked attribute first"),
    ] = None,
    output: TableOutputOption = None,
) -> None:
    """The model (+ adapter) as a choice attacker on original texts: top-1 vs majority and uniform chance."""
    import torch

    from stealthflow.data import load_labelled
    from stealthflow.training.compare import choice_attack
    from stealthflow.training.models import load_choice_attacker

    torch.set_num_threads(threads)
    with user_errors():
        profiles = load_labelled(data, limit, sample_seed)
        attacker = load_choice_attacker(model, adapter, calibration=calibration, cue_first=cue_first)
        name = model + (" + adapter" if adapter else "")
        name += f", calibrated {calibration:g}" if calibration else ""
        name += f", cue-first {cue_first} words" if cue_first else ""
        with progress_bar("asking", len(profiles)) as progress:
            table = choice_attack(attacker, name, profiles, on_done=lambda n: progress.advance(0, n))
    summary = f"{name}{f' ({adapter})' if adapter else ''} on {data}: {len(profiles)} labelled profiles"
    _show_table(f"{table}\n\n{summary}\n", output)


@train_app.command("probe-eval")
def probe_eval(
    probe: Annotated[
        Optional[Path],
        typer.Option(
            "--probe",
            help="a probe fitted on this model's states (benchmarks/dual_probe.py fit); default: the shipped "
            "base-model probe",
        ),
    ] = None,
    data: LabelledDataOption = split_path("test"),
    limit: EvalLimitOption = None,
    sample_seed: SampleSeedOption = None,
    model: LocalModelOption = "embedded",
    adapter: AdapterOption = None,
    threads: TorchThreadsOption = 1,
    output: TableOutputOption = None,
) -> None:
    """The model (+ adapter) attacking with a probe on its own hidden states: top-1 vs majority and uniform chance."""
    import torch

    from stealthflow.attack.probe import SHIPPED_PROBE, HiddenStateProbe, ProbeError, load_probe_attacker
    from stealthflow.data import load_labelled
    from stealthflow.training.compare import probe_table

    torch.set_num_threads(threads)
    with user_errors():
        profiles = load_labelled(data, limit, sample_seed)
        probe = probe or SHIPPED_PROBE
        try:
            attacker = load_probe_attacker(model, adapter, HiddenStateProbe.load(probe))
        except ProbeError as exc:
            fail(str(exc))
        name = f"probe on {model}" + (" + adapter" if adapter else "")
        with progress_bar("reading", len(profiles)) as progress:
            states = attacker.states([p.text for p in profiles], on_done=lambda n: progress.advance(0, n))
        table = probe_table(attacker.probe, name, profiles, states)
    _show_table(f"{table}\n\n{name} ({probe}) on {data}: {len(profiles)} labelled profiles\n", output)


@train_app.command("cue-tagger")
def cue_tagger(
    out_dir: Annotated[
        Path, typer.Option("--out", help="where the tagger weights and card go (models/cue-tagger ships)")
    ],
    epochs: Annotated[float, typer.Option(min=0.1, help="passes over the training rows")] = 2.0,
    top_layers: Annotated[
        int, typer.Option(min=1, max=6, help="MiniLM layers trained (and shipped) with the head")
    ] = 3,
    learning_rate: Annotated[float, typer.Option(help="the optimizer's learning rate")] = 2e-4,
    threshold: Annotated[
        Optional[float],
        typer.Option(min=0.0, max=1.0, help="tag a token when P(not O) >= this (default: --init's, else 0.5)"),
    ] = None,
    teacher: Annotated[
        Optional[list[Path]],
        typer.Option(
            "--teacher", help="teacher rewrites whose cues are the labels (repeatable); default: the shipped ones"
        ),
    ] = None,
    evidence: Annotated[
        bool, typer.Option("--evidence", help="learn DeepSeek-V3's evidence spans instead of the teacher's cues")
    ] = False,
    negatives: Annotated[
        Optional[list[Path]],
        typer.Option(
            "--negatives",
            help="text files of posts without cues (one per line); default: the shipped data/teacher-rewrites/*.txt",
        ),
    ] = None,
    whole_phrases: Annotated[
        bool,
        typer.Option(
            "--whole-phrases", help="label the teacher's whole cue phrases, not only the words it changed in them"
        ),
    ] = False,
    threads: Annotated[int, typer.Option(min=1, help="torch threads")] = 1,
    save_steps: Annotated[
        int, typer.Option(min=0, help="checkpoint every N steps under OUT/checkpoints; a rerun resumes (0: none)")
    ] = 0,
    init: Annotated[
        Optional[Path], typer.Option("--init", help="start from this trained cue tagger (e.g. models/cue-tagger)")
    ] = None,
) -> None:
    """Train the local anonymizer's cue tagger (on the teacher's cues, or the evidence spans); score it on the test split."""
    import json
    import time

    from stealthflow.anonymize.cues import CUE_LABELS, cue_metrics, cue_training_set, save_cue_tagger
    from stealthflow.data import load_profiles
    from stealthflow.pii_tagger.training.train import TaggerTrainConfig, train_tagger

    started = time.time()
    config = TaggerTrainConfig(
        labels=CUE_LABELS,
        top_layers=top_layers,
        epochs=epochs,
        learning_rate=learning_rate,
        threshold=threshold,
        threads=threads,
        init=str(init) if init else None,
        extra={"save_strategy": "steps", "save_steps": save_steps, "save_total_limit": 1} if save_steps else {},
    )
    with user_errors():
        examples, trained_on = cue_training_set(teacher, negatives, evidence, whole_phrases, init)
        tagger = train_tagger(examples, config, out_dir, log=console.print)
        seconds = time.time() - started
        metrics = cue_metrics(tagger, load_profiles(split_path("test")))
    table = save_cue_tagger(tagger, out_dir, metrics, config, seconds, trained_on)
    print_markdown(table)
    console.print(f"wrote {out_dir} ({json.dumps({'seconds': round(seconds)})})")
