"""When is an attribute protected, and which rounds make a contrastive pair.

An attacker is beaten on an attribute at round k when its top-1 guess is wrong and its
top-3 correctness vector is no better than at round 0 (lexicographically ≤). An answer
that says nothing about the attribute (unparseable, missing block) beats nobody: a weak
attacker's formatting failure must not look like a privacy win. With several attackers
the attribute is protected only if every one of them is beaten.
"""

from __future__ import annotations

from stealthflow.attack import AttributeGuess, Verdict, correctness_vector, top1_correct


def attacker_beaten(guess: AttributeGuess | None, verdicts: list[Verdict], original_verdicts: list[Verdict]) -> bool:
    if guess is None or not (guess.guesses or guess.inference):
        return False
    return not top1_correct(verdicts) and correctness_vector(verdicts) <= correctness_vector(original_verdicts)


def contrastive_pairs(protected_by_round: list[bool]) -> list[tuple[int, int]]:
    """(failed round, first later successful round) for every failed anonymization round.

    Round 0 is the original text, not an attempt, so it is never the failed side of a pair.
    """
    pairs = []
    for failed, ok in enumerate(protected_by_round):
        if failed == 0 or ok:
            continue
        later = next((k for k in range(failed + 1, len(protected_by_round)) if protected_by_round[k]), None)
        if later is not None:
            pairs.append((failed, later))
    return pairs


def first_success(protected_by_round: list[bool]) -> int | None:
    """The first anonymization round that protected an attribute the original exposed."""
    if not protected_by_round or protected_by_round[0]:
        return None
    return next((k for k in range(1, len(protected_by_round)) if protected_by_round[k]), None)
