"""Attack by choice (attack/choice.py): option scoring on a tiny random Llama (tests/tiny_llama.py) against
transformers' own log-probabilities, the always-one-of-the-options answer, contextual calibration, the cue-first
reading (attack/reading.py) and the SFT rows built from DeepSeek-V3's answers; one real_model test scores
options with the embedded SmolLM2."""

from __future__ import annotations

import math

import pytest
from tiny_llama import build_tiny_llama

from stealthflow.attack.choice import (
    CHOICE_ATTRIBUTES,
    CONTENT_FREE,
    Choice,
    ChoiceAttacker,
    as_attack_result,
    choice_messages,
)
from stealthflow.attack.classifier import classes_for
from stealthflow.attack.reading import cue_first, shorten

CORPUS = [
    "My husband and I moved to Toronto in 2019 for a desk job.",
    "Any tips for surviving freshman year at Penn State?",
    "Options: Male; Female; No income; Low (<30k USD); Medium (30-60k USD); High (60-150k USD); <25; 25-34; 55+",
    "Married; In Relation; No relation; Divorced; Widowed; HS Diploma; In College; College Degree; PhD",
] * 30
TEXTS = ["Just finished my shift at the hospital, my wife made dinner.", "lol exams tomorrow, dorm wifi is down again"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = build_tiny_llama(tmp_path_factory.mktemp("tiny"), CORPUS, vocab_size=400)
    model = AutoModelForCausalLM.from_pretrained(str(path), dtype=torch.float32)
    return ChoiceAttacker(model, AutoTokenizer.from_pretrained(str(path)))


def full_sequence_logprob(attacker: ChoiceAttacker, text: str, attribute: str, option: str) -> tuple[float, int]:
    """The option's log-probability from one forward pass over prompt + answer (no cache)."""
    import torch

    messages = choice_messages(text, attribute)
    prompt = attacker._ids(messages, generation_prompt=True)
    answer = attacker.option_ids(messages, option)
    ids = torch.tensor([prompt + answer])
    with torch.no_grad():
        logits = attacker.model(input_ids=ids).logits[0].float()
    steps = torch.log_softmax(logits[len(prompt) - 1 : -1], -1)
    return float(steps[torch.arange(len(answer)), torch.tensor(answer)].sum()), len(answer)


@pytest.mark.parametrize("attribute", CHOICE_ATTRIBUTES)
def test_cached_option_scores_equal_a_full_forward_pass_per_option(tiny, attribute):
    logprobs, lengths = tiny.option_logprobs(TEXTS[0], attribute)
    expected = [full_sequence_logprob(tiny, TEXTS[0], attribute, o) for o in classes_for(attribute)]
    assert lengths == [n for _, n in expected]
    assert logprobs == pytest.approx([lp for lp, _ in expected], abs=1e-4)


def test_questions_on_one_text_share_its_tokens_and_score_as_full_passes(tiny):
    many = tiny.option_logprobs_many(TEXTS[1], list(CHOICE_ATTRIBUTES))
    assert list(many) == list(CHOICE_ATTRIBUTES)
    for attribute, (logprobs, lengths) in many.items():
        expected = [full_sequence_logprob(tiny, TEXTS[1], attribute, o) for o in classes_for(attribute)]
        assert lengths == [n for _, n in expected]
        assert logprobs == pytest.approx([lp for lp, _ in expected], abs=1e-4)


def test_an_option_ends_with_the_end_of_turn_token(tiny):
    end = tiny.tokenizer.convert_tokens_to_ids(tiny.tokenizer.eos_token)
    for option in classes_for("income"):
        ids = tiny.option_ids(choice_messages(TEXTS[1], "income"), option)
        assert ids[-1] == end and end not in ids[:-1]
        assert tiny.tokenizer.decode(ids[:-1]) == option


@pytest.mark.parametrize("normalise", [False, True])
def test_the_choice_attacker_always_answers_one_option_with_probabilities_summing_to_one(tiny, normalise):
    tiny.normalise = normalise
    [first, second] = tiny.choose_many(TEXTS, [list(CHOICE_ATTRIBUTES), ["gender", "occupation"]])
    assert set(first) == set(CHOICE_ATTRIBUTES) and set(second) == {"gender"}  # occupation has no options
    for choice in [*first.values(), *second.values()]:
        assert choice.options == classes_for(choice.attribute)
        assert choice.answer in choice.options
        assert sum(choice.probabilities) == pytest.approx(1.0) and all(0 <= p <= 1 for p in choice.probabilities)
        assert choice.probability(choice.answer) == max(choice.probabilities)
    [result, _] = tiny.attack_many(TEXTS, [list(CHOICE_ATTRIBUTES), ["gender"]])
    assert result.well_formed and all(result.top1(a) == first[a].answer for a in CHOICE_ATTRIBUTES)


def test_summed_and_per_token_scoring_can_choose_differently():
    options = ("Male", "Female")
    # a one-token option at -2 against a three-token one at -3 in all (-1 a token)
    summed = Choice.from_scores("gender", options, [-2.0, -3.0], [1, 3], normalise=False)
    mean = Choice.from_scores("gender", options, [-2.0, -3.0], [1, 3], normalise=True)
    assert summed.answer == "Male" and mean.answer == "Female"
    assert summed.probability("Male") == pytest.approx(1 / (1 + math.exp(-1)))
    assert mean.probability("Female") == pytest.approx(1 / (1 + math.exp(-1)))


@pytest.fixture
def plain(tiny):
    """The tiny attacker as built (no calibration, reads the whole text), restored after each test."""
    yield tiny
    tiny.normalise, tiny.calibration, tiny.read = False, 0.0, None


@pytest.mark.parametrize("alpha", [0.5, 1.0])
def test_calibration_subtracts_alpha_times_the_content_free_log_probabilities(plain, alpha):
    raw, lengths = plain.option_logprobs(TEXTS[0], "income")
    free, _ = plain.option_logprobs(CONTENT_FREE, "income")
    plain.calibration = alpha
    scores, calibrated_lengths = plain.option_scores(TEXTS[0], "income")
    assert calibrated_lengths == lengths
    assert scores == pytest.approx([r - alpha * f for r, f in zip(raw, free, strict=True)], abs=1e-4)


def test_fully_calibrated_the_content_free_text_favours_no_option(plain):
    before = plain.choose(CONTENT_FREE, "married").probabilities
    assert max(before) - min(before) > 1e-3  # the random model prefers some options whatever the text
    plain.calibration = 1.0
    after = plain.choose(CONTENT_FREE, "married").probabilities
    assert after == pytest.approx([1 / len(after)] * len(after))


def test_the_attacker_scores_what_read_shows_of_the_text(plain):
    """`read` is a fake reader here (the cue tagger's is `anonymize.cues.CueFirst`)."""
    plain.read = lambda text, attribute: f"{attribute}: {text.split(',')[0]}"
    scores, _ = plain.option_scores(TEXTS[0], "gender")
    expected, _ = plain.option_logprobs("gender: Just finished my shift at the hospital", "gender")
    assert scores == pytest.approx(expected, abs=1e-4)
    assert plain.choose(TEXTS[0], "gender").probabilities == pytest.approx(
        Choice.from_scores("gender", classes_for("gender"), expected, [1, 1], False).probabilities, abs=1e-4
    )


LONG = "I love hiking. My wife and I met at work. The trail was muddy today. I retired from teaching last year."


def marks_of(flat: str, phrase: str, label: str) -> tuple[int, int, str]:
    return flat.index(phrase), flat.index(phrase) + len(phrase), label


def test_cue_first_puts_the_sentences_marked_for_the_attribute_first_within_the_budget():
    marks = [marks_of(LONG, "My wife", "married"), marks_of(LONG, "retired", "age"), marks_of(LONG, "wife", "gender")]
    assert cue_first(LONG, marks, "age", None) == (
        "I retired from teaching last year. I love hiking. My wife and I met at work. The trail was muddy today."
    )
    assert cue_first(LONG, marks, "married", 12) == "My wife and I met at work. I love hiking."
    assert cue_first(LONG, marks, "age", 4) == "I retired from teaching"  # a first sentence longer than the budget


def test_cue_first_without_a_mark_for_the_attribute_reads_as_the_first_words_do():
    marks = [marks_of(LONG, "retired", "age")]
    for words in (None, 8, 13):
        assert cue_first(LONG, marks, "income", words) == shorten(LONG, words) == cue_first(LONG, [], "age", words)


def test_cue_first_reader_tags_a_text_once_for_all_its_attributes():
    from stealthflow.anonymize.cues import CueFirst
    from stealthflow.pii_tagger.model import TaggedSpan

    class FakeTagger:  # a fake cue tagger: marks "retired" as age, counts its calls
        calls = 0

        def tag_many(self, texts):
            FakeTagger.calls += 1
            return [[TaggedSpan(t.index("retired"), t.index("retired") + 7, "age", 0.9)] for t in texts]

    reader = CueFirst(FakeTagger(), 6)
    messy = LONG.replace(". ", ".\n  ")
    assert reader(messy, "age") == "I retired from teaching last year."
    assert reader(messy, "gender") == "I love hiking."
    assert FakeTagger.calls == 1


def test_as_attack_result_ranks_the_top_three_options():
    choice = Choice("married", classes_for("married"), (0.1, 0.2, 0.4, 0.25, 0.05))
    result = as_attack_result({"married": choice})
    assert result.guesses["married"].guesses == ["Married", "Divorced", "In Relation"]
    assert result.well_formed


def test_choice_rows_answer_the_label_where_deepseeks_top1_maps_to_it():
    from stealthflow.attack.classifier import normalise_label
    from stealthflow.data.evidence import REFERENCE_MODEL
    from stealthflow.data.schema import AttributeLabel, Comment, Profile
    from stealthflow.harvest.examples import choice_attack_examples

    profile = Profile(
        id="p1",
        comments=[Comment(text=TEXTS[0]), Comment(text="been married eleven years now")],
        labels={
            a: AttributeLabel(estimate=e, hardness=2, certainty=3, source="synth")
            for a, e in {
                "gender": "male",
                "age": "41",
                "married": "married",
                "occupation": "nurse",
                "income": "medium",
            }.items()
        },
        reference_predictions={
            REFERENCE_MODEL: {
                "gender": {"inference": "wife", "guess": ["Male", "Female"], "certainty": 4},
                "age": {"inference": "shift work", "guess": ["38", "45", "30"], "certainty": 2},
                "married": {"inference": "my wife", "guess": ["Divorced"], "certainty": 3},  # wrong: no row
                "occupation": {"inference": "hospital", "guess": ["nurse"], "certainty": 4},  # no options: no row
                # income: no answer, no row
            }
        },
    )
    rows = choice_attack_examples(profile, REFERENCE_MODEL)
    assert [row["attributes"] for row in rows] == [["age"], ["gender"]]  # in ATTRIBUTES order
    for row in rows:
        [attribute] = row["attributes"]
        assert row["messages"][:-1] == choice_messages(profile.text, attribute)
        assert row["messages"][-1] == {
            "role": "assistant",
            "content": normalise_label(attribute, profile.labels[attribute].estimate),
        }
        assert row["kind"] == "attack"
    short = choice_attack_examples(profile, REFERENCE_MODEL, max_words=5)
    assert TEXTS[0] not in short[0]["messages"][1]["content"]


@pytest.mark.real_model
def test_real_model_smollm2_scores_every_option_and_answers_one():
    import torch

    from stealthflow.training.models import load_choice_attacker

    torch.set_num_threads(1)
    attacker = load_choice_attacker("embedded")
    text = "My husband and I just had our second baby, and I'm back at my nursing job next month."
    logprobs, lengths = attacker.option_logprobs(text, "gender")
    assert len(logprobs) == 2 and all(lp < 0 for lp in logprobs) and all(n >= 2 for n in lengths)
    assert logprobs[1] == pytest.approx(full_sequence_logprob(attacker, text, "gender", "Female")[0], abs=1e-3)
    choice = attacker.choose(text, "married")
    assert choice.answer in classes_for("married") and sum(choice.probabilities) == pytest.approx(1.0)
