"""Span thresholds chosen on validation: per type the best F1, and 0.5 (no span dropped) unless a higher
one gains enough; per language a higher one where that language's messages show a gain in F0.5."""

from __future__ import annotations

from stealthflow.pii_tagger.model import TaggedSpan
from stealthflow.pii_tagger.training.data import Example
from stealthflow.pii_tagger.training.thresholds import MIN_GAIN, MIN_VALUES, choose, choose_by_language, marked


def _example(text: str, *spans) -> Example:
    return Example(text, list(spans), "t")


def test_a_threshold_that_drops_only_false_alarms_is_chosen_and_a_tie_keeps_the_lowest():
    examples = [_example("Anna Berg at Acme", (0, 9, "REAL_NAME"), (13, 17, "EMPLOYER")), _example("Oh well")]
    predictions = [
        [TaggedSpan(0, 9, "REAL_NAME", 0.9), TaggedSpan(13, 17, "EMPLOYER", 0.9)],
        [TaggedSpan(0, 2, "REAL_NAME", 0.62)],  # a false alarm, less sure than the true name
    ]
    chosen = choose(examples, predictions, ["REAL_NAME", "EMPLOYER"])
    assert chosen["REAL_NAME"]["threshold"] == 0.65 and chosen["REAL_NAME"]["f"] == 1.0
    assert chosen["REAL_NAME"]["f_lowest"] < 1.0 - MIN_GAIN
    assert chosen["EMPLOYER"]["threshold"] == 0.5  # every threshold up to 0.9 gives the same F1


def test_a_gain_smaller_than_the_margin_keeps_today_s_threshold():
    names = [_example(f"Name{i} here", (0, 5, "REAL_NAME")) for i in range(400)] + [_example("Oh well")]
    predictions = [[TaggedSpan(0, 5, "REAL_NAME", 0.9)] for _ in range(400)] + [[TaggedSpan(0, 2, "REAL_NAME", 0.6)]]
    chosen = choose(names, predictions, ["REAL_NAME"])
    assert chosen["REAL_NAME"]["threshold"] == 0.5  # F1 0.9988 -> 1.0 is noise, not a reason to drop spans


def test_natural_messages_join_the_choice_with_their_marked_values_of_the_taggers_types(tmp_path):
    """`tagger thresholds --also`: a natural message without PII counts against every span the tagger
    finds in it; a structured value marked for the whole detector (a phone) is no tagger label."""
    natural = tmp_path / "natural.txt"
    natural.write_text(
        "urlLink Pics from the lake &nbsp; lol\n[Anna Berg](REAL_NAME) ruft an: [0171 2345678](PHONE)\n",
        encoding="utf-8",
    )
    first, second = marked([natural])
    assert (first.text, first.spans) == ("urlLink Pics from the lake &nbsp; lol", [])
    assert (second.text, second.spans) == ("Anna Berg ruft an: 0171 2345678", [(0, 9, "REAL_NAME")])


def test_a_recall_budget_keeps_the_threshold_that_would_drop_true_values():
    """`tagger thresholds --max-recall-loss 0.02`: a threshold that gains F1 by dropping one of ten true
    names (recall 1.0 -> 0.9) does not compete; one that drops false alarms alone still does."""
    names = [_example(f"Name{i} here", (0, 5, "REAL_NAME")) for i in range(10)] + [_example("Oh well")] * 4
    unsure_true = [[TaggedSpan(0, 5, "REAL_NAME", 0.9 if i else 0.6)] for i in range(10)]
    false_alarms = [[TaggedSpan(0, 2, "REAL_NAME", 0.6)]] * 4
    assert choose(names, unsure_true + false_alarms, ["REAL_NAME"])["REAL_NAME"]["threshold"] == 0.65
    budget = choose(names, unsure_true + false_alarms, ["REAL_NAME"], max_recall_loss=0.02)["REAL_NAME"]
    assert (budget["threshold"], budget["recall"]) == (0.5, 1.0)
    sure_true = [[TaggedSpan(0, 5, "REAL_NAME", 0.9)] for _ in range(10)]
    assert (
        choose(names, sure_true + false_alarms, ["REAL_NAME"], max_recall_loss=0.02)["REAL_NAME"]["threshold"] == 0.65
    )
    assert choose([_example("Oh well")], [[]], ["CREDENTIAL"], max_recall_loss=0.02)["CREDENTIAL"]["threshold"] == 0.5


def _names(language: str, sure: int, unsure: int, false_alarms: int, score: float):
    """Examples and predictions (fakes, labelled as such) of one language: `sure` names at 0.9, `unsure` true
    names at `score`, and `false_alarms` messages without PII with a name guessed at `score`."""
    examples = [_example(f"{language} name{i}", (0, 2, "REAL_NAME")) for i in range(sure + unsure)]
    examples += [_example(f"{language} nothing") for _ in range(false_alarms)]
    predictions = [[TaggedSpan(0, 2, "REAL_NAME", 0.9)] for _ in range(sure)]
    predictions += [[TaggedSpan(0, 2, "REAL_NAME", score)] for _ in range(unsure + false_alarms)]
    return examples, predictions, [language] * len(examples)


def test_a_language_whose_false_alarms_are_less_sure_than_its_names_gets_a_higher_threshold_of_its_own():
    """German false alarms at 0.7 raise German names to 0.75; English, whose names are as sure as its false
    alarms are not, keeps the type's threshold (no entry); Dutch with too few names to judge keeps it too."""
    de = _names("de", sure=20, unsure=0, false_alarms=6, score=0.7)
    en = _names("en", sure=20, unsure=6, false_alarms=1, score=0.7)
    nl = _names("nl", sure=MIN_VALUES - 1, unsure=0, false_alarms=6, score=0.7)
    examples, predictions, languages = (de[i] + en[i] + nl[i] for i in range(3))
    chosen = choose_by_language(examples, predictions, languages, {"REAL_NAME": 0.6}, ["REAL_NAME"], 0.02)
    assert {
        language: {label: row["threshold"] for label, row in rows.items()} for language, rows in chosen.items()
    } == {"de": {"REAL_NAME": 0.75}}
    assert chosen["de"]["REAL_NAME"]["precision"] == 1.0 and chosen["de"]["REAL_NAME"]["values"] == 20


def test_a_language_threshold_keeps_to_the_recall_budget_never_drops_below_its_type_and_leaves_secrets():
    """A threshold that would drop a tenth of a language's true names does not compete under a 0.05 budget;
    the type's threshold is the least a language may have; a secret's label (PL4) is never raised."""
    examples, predictions, languages = _names("de", sure=18, unsure=2, false_alarms=10, score=0.7)
    assert choose_by_language(examples, predictions, languages, {}, ["REAL_NAME"], 0.05) == {}
    assert (
        choose_by_language(examples, predictions, languages, {}, ["REAL_NAME"], 0.2)["de"]["REAL_NAME"]["threshold"]
        == 0.75
    )
    assert choose_by_language(examples, predictions, languages, {"REAL_NAME": 0.8}, ["REAL_NAME"], 0.2) == {}
    secrets = [_example(e.text, *[(s, t, "CREDENTIAL") for s, t, _ in e.spans]) for e in examples]
    guessed = [[TaggedSpan(p.start, p.end, "CREDENTIAL", p.score) for p in spans] for spans in predictions]
    assert choose_by_language(secrets, guessed, languages, {}, ["CREDENTIAL"], 0.2) == {}


def test_a_clean_text_budget_raises_a_language_threshold_past_the_recall_budget_and_only_as_far_as_needed():
    """German messages without PII flagged at 0.7 (10 of 10) stay under a 0.05 recall budget alone; a budget of
    one in ten clean messages flagged raises the threshold to the lowest candidate within it (0.75), not higher.
    Where no candidate is within it and none flags fewer, the type's threshold holds (fakes, labelled by `_names`)."""
    examples, predictions, languages = _names("de", sure=18, unsure=2, false_alarms=10, score=0.7)
    assert choose_by_language(examples, predictions, languages, {}, ["REAL_NAME"], 0.05) == {}
    row = choose_by_language(examples, predictions, languages, {}, ["REAL_NAME"], 0.05, 0.1)["de"]["REAL_NAME"]
    assert (row["threshold"], row["clean_flagged"], row["recall"]) == (0.75, 0.0, 0.9)
    sure_alarms = _names("de", sure=18, unsure=0, false_alarms=10, score=0.99)
    assert choose_by_language(*sure_alarms, {}, ["REAL_NAME"], 0.05, 0.1) == {}


def test_a_type_threshold_off_the_grid_is_its_languages_baseline_and_one_above_the_grid_raises_nothing():
    """Review finding: with the type's threshold between two candidates (0.62), the first candidate above it
    counted as a raise with no gain; above the last candidate the chooser had no row at all."""
    examples, predictions, languages = _names("de", sure=6, unsure=0, false_alarms=0, score=0.99)
    assert choose_by_language(examples, predictions, languages, {"REAL_NAME": 0.62}, ["REAL_NAME"], 0.02) == {}
    assert choose_by_language(examples, predictions, languages, {"REAL_NAME": 0.97}, ["REAL_NAME"], 0.02) == {}


def test_tagger_thresholds_by_language_writes_raised_thresholds_of_the_real_student_into_its_card(repo, tmp_path):
    """`stealthflow tagger thresholds DIR --by-language --write` end to end, with the shipped student on a copy
    of its directory, 50 generated messages and German validation messages: the card gains
    `span_thresholds_by_language`, each entry at or above its type's threshold, none for a secret; the
    per-type thresholds stay as they were."""
    import json
    import shutil

    from typer.testing import CliRunner

    from stealthflow.cli import app
    from stealthflow.pii_tagger.model import shipped_pii_tagger_dir

    student = tmp_path / "student"
    shutil.copytree(shipped_pii_tagger_dir(), student)
    before = json.loads((student / "tagger.json").read_text(encoding="utf-8"))
    german = repo / "data" / "tagger-natural" / "validation-d" / "de.txt"
    args = ["tagger", "thresholds", str(student), "--limit", "50", "--by-language", "--max-recall-loss", "0.02"]
    run = CliRunner().invoke(app, [*args, "--also", str(german), "--write"])
    assert run.exit_code == 0, run.output
    assert "F0.5" in run.output
    card = json.loads((student / "tagger.json").read_text(encoding="utf-8"))
    assert card["span_thresholds"] == before["span_thresholds"]
    by_language = card["span_thresholds_by_language"]
    assert "de" in by_language  # the student's German false alarms are less sure than its German values
    for rows in by_language.values():
        assert "CREDENTIAL" not in rows
        assert all(before["span_thresholds"].get(label, 0.5) < value <= 0.95 for label, value in rows.items())
