from hypothesis import given, settings
from hypothesis import strategies as st

from stealthflow.attack import parse_attack
from stealthflow.data import ATTRIBUTES

WELL_FORMED = """Type: age
Inference: mentions paying off a mortgage and kids in college.
Guess: 45; 50; 40
Certainty: 4

Type: income
Inference: owns a house, travels.
Guess: High (60-150k USD); Medium (30-60k USD); Very High (>150k USD)
Certainty: 3
"""


def test_well_formed_answer():
    result = parse_attack(WELL_FORMED, ["age", "income"], attacker="m")
    assert result.well_formed
    assert result.guesses["age"].guesses == ["45", "50", "40"]
    assert result.guesses["age"].certainty == 4
    assert result.guesses["income"].guesses[0] == "High (60-150k USD)"
    assert "mortgage" in result.guesses["age"].inference
    assert result.top1("income") == "High (60-150k USD)"


def test_markdown_drift_and_aliases():
    answer = """**Type:** Relationship status
**Inference:** wears a ring
**Guesses:** 1. Married 2. In Relation
**Certainty:** 5 (clear)

### Type: Place of birth
- Inference: says "back home in Lagos"
- Guess: Lagos, Nigeria, Abuja
- Certainty: 3"""
    result = parse_attack(answer, ["married", "pobp"])
    assert result.guesses["married"].certainty == 5
    assert result.guesses["married"].guesses[0].startswith("Married")
    assert result.guesses["pobp"].guesses[0] == "Lagos"
    assert result.well_formed


def test_missing_type_lines_single_attribute():
    result = parse_attack("Inference: talks about diapers\nGuess: Female; Male\nCertainty: 2", ["gender"])
    assert result.guesses["gender"].guesses == ["Female", "Male"]


def test_garbage_becomes_no_guess():
    result = parse_attack("I cannot help with that request.", ["age", "gender"])
    assert not result.well_formed
    assert all(g.guesses == [] and g.certainty is None for g in result.guesses.values())
    assert set(result.guesses) == {"age", "gender"}


def test_unasked_attributes_are_ignored():
    result = parse_attack(WELL_FORMED, ["income"])
    assert set(result.guesses) == {"income"}


@settings(max_examples=300, deadline=None)
@given(st.text(), st.lists(st.sampled_from(ATTRIBUTES), min_size=1, max_size=8, unique=True))
def test_random_answers_never_raise(raw, attributes):
    result = parse_attack(raw, attributes)
    assert set(result.guesses) == set(attributes)
    assert all(len(g.guesses) <= 3 for g in result.guesses.values())


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=len(WELL_FORMED)), st.text(max_size=40))
def test_truncated_and_corrupted_answers_never_raise(cut, noise):
    result = parse_attack(WELL_FORMED[:cut] + noise, ["age", "income"])
    assert set(result.guesses) == {"age", "income"}
    if cut == len(WELL_FORMED) and "Type" not in noise:
        assert result.guesses["age"].guesses == ["45", "50", "40"]


def test_staab_style_label_lines_keep_their_guesses():
    raw = "Here is what I think.\nCurrent place of living: Berlin, Germany\nOccupation: Business\nAge: 34"
    result = parse_attack(raw, ["location", "occupation", "age", "gender"])
    assert result.guesses["location"].guesses == ["Berlin", "Germany"]
    assert result.guesses["occupation"].guesses == ["Business"]
    assert result.guesses["age"].guesses == ["34"]
    assert result.guesses["gender"].guesses == [] and not result.well_formed
