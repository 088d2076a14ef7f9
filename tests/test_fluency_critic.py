"""benchmarks/fluency_critic.py: the critic's features from the embedded model's hidden states, and how shares of
verdicts become weighted rows (the labels and seeds in the unit tests are FAKE: made up here, no reader's judgment)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import numpy as np  # noqa: E402
from fluency_critic import LAYERS, binary, hidden_states, seed_folds  # noqa: E402


def test_a_share_of_verdicts_becomes_an_accepted_and_a_rejected_row_weighed_by_their_verdicts():
    x = np.array([[1.0], [2.0], [3.0]])
    bx, by, bw = binary(x, np.array([1.0, 0.5, 0.0]), np.array([2.0, 2.0, 1.0]))
    rows = sorted(zip(bx[:, 0].tolist(), by.tolist(), bw.tolist(), strict=True))
    assert rows == [(1.0, 1.0, 2.0), (2.0, 0.0, 1.0), (2.0, 1.0, 1.0), (3.0, 0.0, 1.0)]


def test_every_seed_falls_in_one_fold_whole():
    seeds = np.array([2, 2, 3, 5, 7, 11, 11, 13])
    folds = seed_folds(seeds)
    assert all(len(set(folds[seeds == s])) == 1 for s in seeds)
    assert sorted(set(folds.tolist())) == [0, 1, 2]


def test_the_real_model_reads_an_edit_and_padding_changes_no_state():
    """The real embedded SmolLM2-135M: an unchanged sentence differs by nothing; an edit's states differ; texts of
    different lengths batched together (padded) give the states each gives alone."""
    pairs = [
        ("My wife and I moved to Leeds last year.", "My partner and I moved last year."),
        ("I work nights.", "I work nights."),
    ]
    together = hidden_states(pairs, batch=4)
    alone = hidden_states(pairs, batch=1)
    for kind, states in together.items():
        assert states.shape == (2, len(LAYERS), 576)
        assert np.allclose(states, alone[kind], atol=1e-3)
        assert not states[1].any()
        assert np.abs(states[0]).max() > 0.1
