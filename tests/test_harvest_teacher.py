"""The rule-based `quoted-lines` teacher (harvest/teacher.py) and SFT's per-kind subset."""

import json

from trajectory_fixtures import anonymizer_turn, attack_record, corpus_profiles

from stealthflow.anonymize import parse_rewrite
from stealthflow.attack.types import AttributeGuess
from stealthflow.harvest import HarvestConfig, collect
from stealthflow.harvest.teacher import quoted_lines_answer, quoted_snippets, teacher_examples
from stealthflow.training.sft import subset
from stealthflow.workflow.trajectory import RoundRecord

TEXT = "my kids' school run takes forever\nthe hospital shifts as a nurse are long\njust a line about weather today\nwhat a game last night, wow"
LABELS = {"married": "married", "occupation": "nurse", "gender": "female"}


def attacked(text: str, top1: dict[str, str], quotes: dict[str, str]) -> RoundRecord:
    attack = attack_record(text, LABELS, top1)
    for attribute, quote in quotes.items():
        guess = attack.guesses[attribute]
        attack.guesses[attribute] = AttributeGuess(
            attribute=attribute, inference=quote, guesses=guess.guesses, certainty=3
        )
    return RoundRecord(run_id="fixture", profile_id="p1", round=0, text=text, attacks=[attack], labels=LABELS)


def unreadable_round(number: int, source: RoundRecord) -> RoundRecord:
    turn = anonymizer_turn(source.text, {}).model_copy(update={"parsed": False, "raw": "garbled", "explanation": ""})
    return RoundRecord(
        run_id="fixture", profile_id="p1", round=number, text=source.text, anonymizer=turn, labels=LABELS
    )


def test_quotes_are_found_with_either_quote_style_and_cut_quotes_lose_their_ellipsis():
    inference = 'mentions "The hospital shifts  as a nurse…" and “what a game last night” but "short"'
    assert quoted_snippets(inference) == ["the hospital shifts as a nurse", "what a game last night"]


def test_teacher_removes_only_lines_quoted_for_correct_guesses():
    source = attacked(
        TEXT,
        top1={"married": "married", "occupation": "nurse", "gender": "male"},  # gender guessed wrong
        quotes={
            "married": 'the line "my kids\' school run takes forever" shows a family',
            "occupation": 'classifier: P(nurse)=0.8; line pointing most to nurse: "the hospital shifts as a nurse are lo…"',
            "gender": 'from "what a game last night, wow"',  # wrong guess: its evidence stays
        },
    )
    explanation, text, removed = quoted_lines_answer(source)
    assert text == "just a line about weather today\nwhat a game last night, wow" and removed == 2
    assert (
        explanation
        == "I remove the 2 comments that reveal the author's occupation and relationship status and keep the others unchanged."
    )


def test_teacher_declines_when_nothing_or_everything_is_quoted():
    assert quoted_lines_answer(attacked(TEXT, top1=LABELS, quotes={})) is None
    one_line = "the hospital shifts as a nurse are long"
    assert quoted_lines_answer(attacked(one_line, top1=LABELS, quotes={"occupation": f'"{one_line}"'})) is None


def test_teacher_examples_answer_each_distinct_unreadable_turn_in_the_parsed_format():
    source = attacked(TEXT, top1=LABELS, quotes={"occupation": '"the hospital shifts as a nurse are long"'})
    first = unreadable_round(1, source)
    second = unreadable_round(2, first.model_copy(update={"attacks": source.attacks}))  # nothing changed: same prompt
    rows = teacher_examples([source, first, second])
    assert len(rows) == 1 and rows[0]["source"] == "teacher:quoted-lines" and rows[0]["kind"] == "anonymize"
    assert rows[0]["messages"][:-1] == first.anonymizer.messages
    rewrite = parse_rewrite(rows[0]["messages"][-1]["content"], TEXT)
    assert (
        rewrite.parsed
        and rewrite.text
        == "my kids' school run takes forever\njust a line about weather today\nwhat a game last night, wow"
    )
    assert json.loads(rows[0]["meta"])["removed_lines"] == 1
    spaced = attacked(
        TEXT.replace("\n", "\n\n"), top1=LABELS, quotes={"occupation": '"the hospital shifts as a nurse are long"'}
    )
    assert quoted_lines_answer(spaced).removed_lines == 1  # blank lines are dropped, not counted as removed
    readable = first.model_copy(update={"anonymizer": first.anonymizer.model_copy(update={"parsed": True})})
    assert teacher_examples([source, readable]) == []  # the model's own readable turns are not overwritten


def test_harvest_uses_the_teacher_only_when_asked():
    profile = corpus_profiles(1)[0]
    line = profile.text.split("\n")[0]
    source = attacked(profile.text, top1=LABELS, quotes={"occupation": f'"{line}"'})
    trajectories = {"p1": [source, unreadable_round(1, source)]}
    without, _ = collect(trajectories, [profile], HarvestConfig(reference_model=None))
    with_teacher, _ = collect(trajectories, [profile], HarvestConfig(reference_model=None, teacher="quoted-lines"))
    assert [r["source"] for r in with_teacher if r["kind"] == "anonymize"] == ["teacher:quoted-lines"]
    assert not [r for r in without if r["kind"] == "anonymize"]


def test_sft_subset_caps_rows_overall_or_per_named_kind():
    kinds = ["attack", "anonymize", "attack", "attack", "anonymize"]
    assert subset(kinds, None) == [0, 1, 2, 3, 4]
    assert subset(kinds, 2) == [0, 1]
    assert subset(kinds, {"attack": 2}) == [0, 1, 2, 4]  # anonymize not named: all kept
    assert subset(kinds, {"attack": 1, "anonymize": 1}) == [0, 1]


def test_a_recipe_can_leave_a_kind_out_with_a_cap_of_zero(repo):
    from stealthflow.training import load_recipe

    recipe = load_recipe(repo / "training" / "dual-model.yaml", {"sft.max_examples": {"attack": 2, "anonymize": 0}})
    assert subset(["attack", "anonymize", "attack", "attack"], recipe.sft.max_examples) == [0, 2]


def test_harvest_command_takes_the_teacher_and_rejects_an_unknown_one(tmp_path):
    from datasets import load_from_disk
    from typer.testing import CliRunner

    from stealthflow.cli import app

    source = attacked(TEXT, top1=LABELS, quotes={"occupation": '"the hospital shifts as a nurse are long"'})
    run = tmp_path / "run"
    run.mkdir()
    (run / "trajectories.jsonl").write_text(
        "\n".join(r.model_dump_json() for r in [source, unreadable_round(1, source)]) + "\n"
    )
    runner = CliRunner()
    args = ["harvest", str(run), "--out", str(tmp_path / "out"), "--reference-model", ""]
    result = runner.invoke(app, [*args, "--teacher", "quoted-lines"])
    assert result.exit_code == 0, result.output
    sft = load_from_disk(str(tmp_path / "out" / "sft"))
    assert (
        sft["source"].count("teacher:quoted-lines") == 1
        and "teacher:quoted-lines" in (tmp_path / "out" / "README.md").read_text()
    )
    bad = runner.invoke(app, [*args, "--teacher", "oracle"])
    assert bad.exit_code != 0 and "teacher" in bad.output
