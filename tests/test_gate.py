"""anonymize/gate.py: the acceptance gate's features, its training and its threshold. The datasets here are FAKE
(made up in the test, no reader's verdict); the shipped gate runs on the real models in the real_model test."""

from __future__ import annotations

import numpy as np
import pytest
from gate_fakes import floors_gate

from stealthflow.anonymize.gate import (
    FEATURES,
    REMOVAL_FLOOR,
    STAND_IN_FLOOR,
    Gate,
    GateConfig,
    auc,
    clears_floors,
    edited_stretch,
    edited_words,
    feature_rows,
    features,
    fit,
    operating_point,
)
from stealthflow.utility.fluency import Fluency


def test_the_edited_words_are_those_between_the_first_and_the_last_difference():
    assert edited_words("My boyfriend moved.", "Someone moved.") == ("My boyfriend", "Someone")
    two = edited_words("My boyfriend is from Cabra.", "Someone is from my city.")
    assert two == ("My boyfriend is from Cabra", "Someone is from my city")  # one stretch, shared words inside it
    assert edited_words("The rent in Leeds is mad.", "The rent is mad.") == ("in Leeds", "")
    assert edited_words("Same text.", "Same text.") == ("", "")


def test_the_edited_stretch_says_where_the_words_left_and_came_in():
    assert edited_stretch("I grew up in Leeds.", "I grew up in my city.") == (13, 18, 13, 20)
    assert edited_stretch("The rent in Leeds is mad.", "The rent is mad.") == (9, 17, 9, 9)  # nothing came in
    assert edited_stretch("Same text.", "Same text.") is None


def test_features_say_what_the_edit_did():
    removal = dict(
        zip(FEATURES, features("The rent in Leeds is mad.", "The rent is mad.", -0.5, -1.0, 0.9), strict=True)
    )
    assert removal["removal"] == 1.0 and removal["nearness"] == 0.0  # no new words: nothing to be near
    assert removal["words_out"] == pytest.approx(np.log1p(2)) and removal["words_in"] == 0.0
    assert removal["share_out"] == pytest.approx(2 / 6)
    assert (removal["fluency"], removal["worst"]) == (-0.5, -1.0)
    stand_in = dict(zip(FEATURES, features("I grew up in Leeds.", "I grew up in my city.", 0.1, 0.0, 0.4), strict=True))
    assert stand_in["removal"] == 0.0 and stand_in["nearness"] == 0.4


def test_an_edit_must_clear_the_hard_floor_of_its_kind_and_never_end_the_sentence_on_a_function_word():
    assert clears_floors("The rent in Leeds is mad.", "The rent is mad.", REMOVAL_FLOOR)
    assert not clears_floors("The rent in Leeds is mad.", "The rent is mad.", REMOVAL_FLOOR - 0.01)
    assert clears_floors("I grew up in Leeds.", "I grew up in my city.", STAND_IN_FLOOR)
    assert not clears_floors("I grew up in Leeds.", "I grew up in my city.", STAND_IN_FLOOR - 0.01)
    assert not clears_floors("My loans from Sallie Mae.", "My loans from.", 1.0)  # newly ends on "from"
    assert clears_floors("Where is it from?", "Where is that from?", 1.0)  # it already did


def test_the_stand_in_floor_passes_readers_accepted_stand_ins_under_the_old_floor_and_refuses_a_broken_one():
    # reader seeds 23 and 10 (benchmarks/stand_in_floor.py), each with the embedded model's fluency score measured there
    guy = "My wife does the accounts, I do the stocking and the arguments with the beer delivery guy."
    assert clears_floors(guy, guy.replace("guy", "person"), -0.151)  # both readers: fluent and faithful
    lola = "Only day I can sit without someone calling 'Lola, the baby'."
    assert clears_floors(lola, lola.replace("Lola", "grandma"), -0.059)  # fluent and faithful
    # "Hurts." loses what hurts (the reader's note); the gate's chance alone passed it (0.26)
    assert not clears_floors("With my salary the tax bracket hurts, 42 percent. ", "Hurts. ", -1.698)


def test_an_edit_that_leaves_a_clause_open_is_never_accepted():
    # seed 23's "mi accent slip out when.": a word that needs one after it (data/generalize/open_ends.txt)
    assert not clears_floors("Mi accent slip out when mi vex.", "Mi accent slip out when.", 1.0)
    assert not clears_floors("I grew up in Leeds, then moved.", "I grew up in, then moved.", 1.0)  # mid-sentence
    assert clears_floors("I logged in, then my bank in Leeds called.", "I logged in, then my bank called.", 1.0)


def test_an_edit_that_leaves_a_clause_of_function_words_only_is_never_accepted():
    assert not clears_floors("Nothing like landing at St. John's.", "Nothing.", 1.0)
    assert not clears_floors("Was on Parliament Road today, left my desk.", "Was today, left my desk.", 1.0)
    # a one-word clause opening a longer sentence is a discourse marker, as in readers' accepted rewrites
    assert clears_floors("Now, TC around 140k SGD in Singapore.", "Now, TC around 140k SGD.", 1.0)


def test_an_edit_that_leaves_one_word_of_a_sentence_alone_is_never_accepted():
    # readers' rejected rewrites of seeds 47-53 ("Passes.", "President.", "Kids.")
    assert not clears_floors("Printed boarding passes. ", "Passes. ", 1.0)
    assert not clears_floors("First woman president.", "President.", 1.0)
    assert not clears_floors("Two kids.", "Kids.", 1.0)
    # a word left first, as readers accepted ("RDH.", "Paciencia."), and a sentence of one word as it was, pass
    assert clears_floors("RDH 4 years now.", "RDH.", 1.0)
    assert clears_floors("Paciencia, mucha paciencia.", "Paciencia.", 1.0)
    assert clears_floors("Gold!", "Medal!", 1.0)


def test_a_gate_verdict_needs_the_chance_and_the_floors():
    gate = floors_gate(-5.0)  # FAKE gate: passes any edit of fluency -5 or more
    edits = [("The rent in Leeds is mad.", "The rent is mad.")] * 2 + [("My loans from Sallie Mae.", "My loans from.")]
    verdicts = gate.verdicts(edits, [Fluency(0.0, 0.0), Fluency(-2.0, -2.0), Fluency(0.0, 0.0)])
    assert [accepted for _, accepted in verdicts] == [True, False, False]
    assert all(chance >= gate.threshold for chance, _ in verdicts)


def test_feature_rows_measure_the_nearness_of_the_changed_words_with_the_embedder():
    seen = []

    def embed(texts):  # FAKE embedder: "Leeds" and "my city" point the same way, anything else elsewhere
        seen.extend(texts)
        return np.array([[1.0, 0.0] if t in {"Leeds", "my city"} else [0.0, 1.0] for t in texts])

    edits = [("I grew up in Leeds.", "I grew up in my city."), ("The rent in Leeds is mad.", "The rent is mad.")]
    rows = feature_rows(edits, [Fluency(0.0, 0.0)] * 2, embed)
    assert rows[0][FEATURES.index("nearness")] == pytest.approx(1.0)
    assert rows[1][FEATURES.index("nearness")] == 0.0
    assert "" not in seen  # a removal's empty side is never embedded


def fake_dataset(seed: int = 0, n: int = 3000) -> tuple[np.ndarray, np.ndarray]:
    """FAKE edits: readers accept an edit more often the nearer its words and the better it reads; the other
    features are noise."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(FEATURES)))
    logit = 2.0 * x[:, FEATURES.index("nearness")] + 1.0 * x[:, FEATURES.index("fluency")] - 0.5
    return x, (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(float)


def test_fit_learns_which_features_tell_accepted_edits_from_rejected_ones():
    x, y = fake_dataset()
    gate = fit(x, y, GateConfig(l2=1.0))
    weights = dict(zip(FEATURES, gate.weights, strict=True))
    assert weights["nearness"] > weights["fluency"] > 0.3
    assert all(abs(weights[f]) < 0.3 for f in FEATURES if f not in {"nearness", "fluency"})
    held_x, held_y = fake_dataset(seed=1)
    assert auc(gate.probability(held_x), held_y > 0.5) > 0.75


def test_a_stronger_penalty_shrinks_the_weights():
    x, y = fake_dataset()
    assert np.abs(fit(x, y, GateConfig(l2=500.0)).weights).sum() < np.abs(fit(x, y, GateConfig(l2=0.1)).weights).sum()


def test_soft_labels_count_a_split_verdict_as_half_accepted():
    x = np.zeros((4, len(FEATURES)))
    x[:, 0] = [0.0, 0.0, 1.0, 1.0]
    gate = fit(x, [0.5, 0.5, 0.5, 0.5], GateConfig(l2=0.0))
    assert gate.probability(x) == pytest.approx([0.5] * 4, abs=1e-6)


def test_a_row_with_two_verdicts_weighs_as_the_same_row_twice():
    x, y = fake_dataset(n=400)
    counts = np.where(np.arange(400) % 2 == 0, 2.0, 1.0)
    twice = np.arange(400) % 2 == 0
    weighed = fit(x, y, GateConfig(), counts=counts)
    repeated = fit(np.vstack([x, x[twice]]), np.concatenate([y, y[twice]]), GateConfig())
    assert weighed.probability(x[:20]) == pytest.approx(repeated.probability(x[:20]), abs=0.005)  # unweighed: 0.04 off
    assert fit(x, y, GateConfig(), counts=np.ones(400)).weights == pytest.approx(fit(x, y, GateConfig()).weights)


def test_auc_counts_ties_half():
    assert auc([0.9, 0.8, 0.1], [True, True, False]) == 1.0
    assert auc([0.1, 0.9], [True, False]) == 0.0
    assert auc([0.5, 0.5], [True, False]) == 0.5


def test_the_operating_point_has_the_best_balanced_accuracy():
    scores = [0.1, 0.2, 0.3, 0.6, 0.7, 0.9]
    labels = [False, False, True, False, True, True]
    assert operating_point(scores, labels) == 0.3  # keeps every accepted edit, turns away 2 of 3 rejected


def test_a_saved_gate_loads_back_and_refuses_other_features(tmp_path):
    gate = floors_gate(0.0, -1.0)
    gate.save(tmp_path / "gate.json", trained_on_seeds=[1])
    assert Gate.load(tmp_path / "gate.json") == gate
    data = (tmp_path / "gate.json").read_text(encoding="utf-8").replace('"fluency"', '"perplexity"')
    (tmp_path / "other.json").write_text(data, encoding="utf-8")
    with pytest.raises(ValueError):
        Gate.load(tmp_path / "other.json")


@pytest.mark.real_model
def test_real_model_the_shipped_gate_tells_a_kept_edit_from_a_broken_one():
    """Edits of a held-out seed (9) the shipped gate was not trained on: readers accepted the first of each pair and
    rejected the second."""
    from stealthflow.anonymize.gate import shipped_gate
    from stealthflow.utility.fluency import shared_scorer

    pairs = [
        ("Allotment garden is best thing in retirement.", "Garden is best thing in retirement."),
        ("Allotment garden is best thing in retirement.", "A garden garden is best thing in retirement."),
        ("Saim Ayub opening in ODIs was the best decision.", "Ayub opening in ODIs was the best decision."),
        ("Saim Ayub opening in ODIs was the best decision.", "Saim Ayub opening in the city was the best decision."),
    ]
    gate = shipped_gate()
    fluency = shared_scorer().compare([a for a, _ in pairs], [b for _, b in pairs])
    chances = gate.chances(pairs, fluency)
    assert [c >= gate.threshold for c in chances] == [True, False, True, False]


@pytest.mark.real_model
def test_real_model_the_stand_in_floor_keeps_a_stand_in_readers_accepted_and_refuses_one_they_rejected():
    """Stand-ins of reader seeds 23 and 10 (`benchmarks/stand_in_floor.py`) that the gate's chance passes: the first
    scored under the old floor 0 and readers accepted it, the second is a fragment a reader rejected."""
    from stealthflow.anonymize.gate import shipped_gate
    from stealthflow.utility.fluency import shared_scorer

    guy = "My wife does the accounts, I do the stocking and the arguments with the beer delivery guy."
    salary = "With my salary the tax bracket hurts, 42 percent. "  # the reader file's line, its trailing space too
    pairs = [(guy, guy.replace("guy", "person")), (salary, "Hurts. ")]
    fluency = shared_scorer().compare([a for a, _ in pairs], [b for _, b in pairs])
    assert fluency[0].score < 0.0  # the old floor refused it
    verdicts = shipped_gate().verdicts(pairs, fluency)
    assert all(chance >= shipped_gate().threshold for chance, _ in verdicts)  # the floor decides, not the chance
    assert [accepted for _, accepted in verdicts] == [True, False]


@pytest.mark.real_model
def test_real_model_a_removal_that_leaves_a_sentence_broken_is_never_accepted():
    """Removals the gate alone passed (review of the gate: each printed as protected); held-out reader seeds 8-9
    are in benchmarks/acceptance_gate.py."""
    from stealthflow.anonymize.gate import shipped_gate
    from stealthflow.utility.fluency import shared_scorer

    pairs = [
        (
            "I've been a welder at the shipyard in Norfolk since 2009 and they just cut our overtime, so money is tight.",
            "I've been a welder at the shipyard in Norfolk since 2009 and they just, so money is tight.",
        ),
        ("My daughter is 3 and we just switched from the NHS waiting list.", "My daughter is 3 and we just."),
        ("My loans from Sallie Mae are paid.", "My loans from are paid."),
        ("My loans from Sallie Mae are paid.", "My loans from."),
    ]
    fluency = shared_scorer().compare([a for a, _ in pairs], [b for _, b in pairs])
    assert [accepted for _, accepted in shipped_gate().verdicts(pairs, fluency)] == [False] * len(pairs)


def test_a_word_swap_has_no_fluency_floor_but_keeps_the_structure_checks():
    wife = "My kids now speak with an accent and my wife cries a little every time."
    partner = wife.replace("wife", "partner")
    assert not clears_floors(wife, partner, -1.87)  # under the stand-in floor: the new word is rarer
    assert clears_floors(wife, partner, -1.87, word_swap=True)
    assert not clears_floors("My loans from Sallie Mae.", "My loans from.", 1.0, word_swap=True)
    gate = floors_gate(-5.0)  # FAKE gate: passes any edit of fluency -5 or more
    verdicts = gate.verdicts([(wife, partner)] * 2, [Fluency(-2.0, -2.0)] * 2, word_swaps=[False, True])
    assert [accepted for _, accepted in verdicts] == [False, True]
