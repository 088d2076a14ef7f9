"""placeholders/automaton.py's `GrowingAutomaton`: words added over time are found as one automaton of them all finds
them (the value last given to a word; its tiers merged or not)."""

from __future__ import annotations

import random

import ahocorasick

from stealthflow.placeholders.automaton import GrowingAutomaton


def _one_automaton(words: dict[str, object], text: str) -> list[tuple[int, object]]:
    automaton = ahocorasick.Automaton()
    for word, value in words.items():
        automaton.add_word(word, value)
    automaton.make_automaton()
    return sorted(automaton.iter(text), key=repr)


def test_growing_automaton_finds_what_one_automaton_of_every_word_finds():
    rng = random.Random(7)
    growing, words = GrowingAutomaton(), {}
    text = " ".join(f"w{rng.randrange(400)}" for _ in range(2000))
    for step in range(60):  # a session's requests: a few new words each, some words again with another value
        for _ in range(rng.randrange(1, 20)):
            word, value = f"w{rng.randrange(400)}", (step, rng.random())
            growing.add_word(word, value)
            words[word] = value
        assert len(growing) == len(words)
        assert all(word in growing and growing.get(word) == value for word, value in words.items())
        assert "w400" not in growing and growing.get("w400", "none") == "none"
        assert sorted(growing.iter(text), key=repr) == _one_automaton(words, text)


def test_a_word_added_again_takes_its_new_value_in_either_tier():
    growing = GrowingAutomaton()
    for word in ("alpha", "beta", "gamma", "delta", "epsilon"):
        growing.add_word(word, 1)
    list(growing.iter("alpha"))  # built: all five settled
    growing.add_word("zeta", 1)  # recent
    growing.add_word("alpha", 2)  # settled, in place
    growing.add_word("zeta", 2)
    assert sorted(growing.iter("alpha zeta beta")) == [(4, 2), (9, 2), (14, 1)]
