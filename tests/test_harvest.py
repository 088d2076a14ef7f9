import json

import pytest
from datasets import load_from_disk
from trajectory_fixtures import corpus_profiles, profile_rounds, write_run

from stealthflow.attack import parse_attack
from stealthflow.data import DataError
from stealthflow.harvest import HarvestConfig, best_round, collect, format_attack_answer, harvest, load_trajectories
from stealthflow.harvest.examples import reference_guesses


def test_best_round_is_highest_privacy_times_utility():
    profile = corpus_profiles(1)[0]
    rounds = profile_rounds(profile, protected_at=1)  # round 1: privacy 1 x utility .9; round 2: 1 x .8
    assert best_round(rounds).round == 1
    assert best_round(profile_rounds(profile, protected_at=0)) is None  # nothing gained: no example


def test_anonymization_examples_use_the_turns_up_to_the_best_round_with_the_insights_shown(tmp_path):
    profile = corpus_profiles(1)[0]
    trajectories = load_trajectories(write_run(tmp_path / "run", [profile]))
    sft, _ = collect(trajectories, [profile], HarvestConfig(reference_model=None))
    anonymize = [r for r in sft if r["kind"] == "anonymize"]
    assert [r["round"] for r in anonymize] == [1, 2]  # best round is 2 (protected from round 2 on)
    for row in anonymize:
        meta = json.loads(row["meta"])
        assert meta["best_round"] == 2
        rules = meta["insights_shown"]
        assert all(rule == [f"rule {row['round']} for {a}"] for a, rule in rules.items())
        assert f"rule {row['round']} for" in row["messages"][1]["content"]  # the prompt that was shown
        assert row["messages"][-1]["role"] == "assistant" and "\n#\n" in row["messages"][-1]["content"]


def test_attack_examples_keep_only_correct_top1_unless_all(tmp_path):
    profile = corpus_profiles(1)[0]
    trajectories = load_trajectories(write_run(tmp_path / "run", [profile]))
    correct, _ = collect(trajectories, [profile], HarvestConfig(reference_model=None))
    every, _ = collect(trajectories, [profile], HarvestConfig(reference_model=None, attack_keep="all"))
    # the scripted attacker is right at rounds 0 and 1, wrong at round 2
    assert sorted(r["round"] for r in correct if r["kind"] == "attack") == [0, 1]
    assert sorted(r["round"] for r in every if r["kind"] == "attack") == [0, 1, 2]


def test_reference_answers_become_attack_examples_when_judged_correct(tmp_path):
    profiles = corpus_profiles(20)
    trajectories = load_trajectories(write_run(tmp_path / "run", profiles[:1]))
    sft, _ = collect(trajectories, profiles, HarvestConfig(reference_scope="all"))
    reference = [r for r in sft if r["source"] == "reference:deepseek-ai/DeepSeek-V3"]
    assert 0 < len(reference) <= 20
    for row in reference:
        verdicts = json.loads(row["meta"])["verdicts"]
        assert all(v[0] == "yes" for v in verdicts.values())
        # the answer is in the attacker format and parses back to the stored top-1 guesses
        parsed = parse_attack(row["messages"][-1]["content"], row["attributes"])
        assert parsed.well_formed
        profile = next(p for p in profiles if p.id == row["profile_id"])
        stored = reference_guesses(profile.reference_predictions["deepseek-ai/DeepSeek-V3"])
        assert all(parsed.top1(a) == stored[a].guesses[0] for a in row["attributes"])
    run_only, _ = collect(trajectories, profiles, HarvestConfig())
    assert {r["profile_id"] for r in run_only if r["source"].startswith("reference")} <= {profiles[0].id}


def test_harvest_writes_datasets_and_card(tmp_path):
    profiles = corpus_profiles(3)
    summary = harvest(write_run(tmp_path / "run", profiles), tmp_path / "out", profiles)
    sft = load_from_disk(str(tmp_path / "out" / "sft"))
    grpo = load_from_disk(str(tmp_path / "out" / "grpo"))
    assert len(sft) == summary["rows"]["anonymize"] + summary["rows"]["attack"]
    assert len(grpo) == summary["rows"]["grpo"] == 6  # 3 profiles x 2 anonymizer turns
    row = grpo[0]
    assert row["prompt"][-1]["role"] == "user"
    profile = next(p for p in profiles if p.id == row["profile_id"])
    assert {label["attribute"]: label["estimate"] for label in row["labels"]} == {
        a: lab.estimate for a, lab in profile.labelled().items()
    }
    assert row["original_text"] == profile.text
    card = (tmp_path / "out" / "README.md").read_text()
    counts = summary["attribute_counts"]["grpo"]
    for attribute, count in counts.items():
        assert f"| {attribute} |" in card
    assert sum(counts.values()) == sum(len(r["labels"]) for r in grpo)
    assert json.loads((tmp_path / "out" / "harvest.json").read_text())["versions"]["trl"]


def test_grpo_rows_carry_the_text_being_anonymized(tmp_path):
    profile = corpus_profiles(1)[0]
    rounds = profile_rounds(profile)
    _, grpo = collect({profile.id: rounds}, [profile], HarvestConfig(reference_model=None))
    assert [r["source_text"] for r in grpo] == [rounds[0].text, rounds[1].text]
    assert all(r["original_text"] == rounds[0].text for r in grpo)


def test_a_round_that_repeats_its_prompt_gives_no_second_grpo_row():
    profile = corpus_profiles(1)[0]
    rounds = profile_rounds(profile)
    # Round 1's rewrite was unreadable: its text stays the original, so round 2 is asked the same.
    rounds[1] = rounds[1].model_copy(update={"text": rounds[0].text})
    rounds[2] = rounds[2].model_copy(update={"anonymizer": rounds[1].anonymizer})
    _, grpo = collect({profile.id: rounds}, [profile], HarvestConfig(reference_model=None))
    assert [r["round"] for r in grpo] == [1]


def test_malformed_trajectory_line_names_file_and_line(tmp_path):
    run = write_run(tmp_path / "run", corpus_profiles(1))
    with (run / "trajectories.jsonl").open("a") as handle:
        handle.write('{"run_id": "x"}\n')
    with pytest.raises(DataError, match=r"trajectories.jsonl:4: not a trajectory line"):
        load_trajectories(run)
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="no trajector"):
        load_trajectories(tmp_path / "empty")


def test_a_rerun_round_replaces_the_earlier_line(tmp_path):
    profile = corpus_profiles(1)[0]
    run = write_run(tmp_path / "run", [profile])
    again = profile_rounds(profile, protected_at=1)[1]
    with (run / "trajectories.jsonl").open("a") as handle:
        handle.write(again.model_dump_json() + "\n")
    rounds = load_trajectories(run)[profile.id]
    assert [r.round for r in rounds] == [0, 1, 2]
    assert rounds[1].protected == again.protected


def test_format_attack_answer_round_trips_through_the_parser():
    from stealthflow.attack.types import AttributeGuess

    guesses = [AttributeGuess(attribute="age", inference="mentions\nretirement", guesses=["65", "70"], certainty=4)]
    parsed = parse_attack(format_attack_answer(guesses), ["age"])
    assert parsed.well_formed and parsed.guesses["age"].guesses == ["65", "70"] and parsed.guesses["age"].certainty == 4


def test_inferences_are_shortened_to_whole_sentences_within_the_word_budget():
    from stealthflow.attack.reading import shorten
    from stealthflow.attack.types import AttributeGuess

    text = "She mentions her husband twice. She also writes about knitting.  And about   her grandchildren."
    assert shorten(text, None) == " ".join(text.split())
    assert shorten(text, 10) == "She mentions her husband twice. She also writes about knitting."
    assert shorten(text, 3) == "She mentions her"  # a first sentence longer than the budget is cut
    guess = AttributeGuess(attribute="gender", inference=text, guesses=["Female", "Male"], certainty=4)
    parsed = parse_attack(format_attack_answer([guess], inference_words=5), ["gender"])
    assert parsed.well_formed and parsed.guesses["gender"].inference == "She mentions her husband twice."


def test_harvest_option_shortens_every_attack_answer():
    profiles = [p for p in corpus_profiles(40) if p.reference_predictions][:10]
    full, _ = collect({}, profiles, HarvestConfig(reference_scope="all"))
    short, _ = collect({}, profiles, HarvestConfig(reference_scope="all", inference_words=8))
    assert len(full) == len(short) > 0
    for row in short:
        for line in row["messages"][-1]["content"].splitlines():
            if line.startswith("Inference: "):
                assert len(line.split()) <= 1 + 8
    assert sum(len(r["messages"][-1]["content"]) for r in short) < sum(len(r["messages"][-1]["content"]) for r in full)
