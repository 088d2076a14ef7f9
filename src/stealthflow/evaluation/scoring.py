"""Score texts: every evaluation attacker's verdicts, lexical utility and the LLM utility judge.

A text whose attacker or judge call still failed after the bounded retries scores `None`:
the runner does not save it, so the next run retries it (failed calls are never cached).
"""

from __future__ import annotations

from stealthflow.attack import Attacker, CorrectnessJudge
from stealthflow.data import Profile
from stealthflow.data.evidence import locate_evidence
from stealthflow.evaluation.evidence import span_survives, words
from stealthflow.evaluation.records import AttackScore, TextScore
from stealthflow.utility import UtilityJudge, lexical_utility


class Scorer:
    def __init__(self, attackers: list[Attacker], correctness: CorrectnessJudge, utility: UtilityJudge):
        self.attackers = attackers
        self.correctness = correctness
        self.utility = utility

    def attack(self, profiles: list[Profile], texts: list[str]) -> list[dict[str, AttackScore] | None]:
        """Per text, attacker name -> guesses and verdicts on the profile's labelled attributes."""
        labels = [p.labelled() for p in profiles]
        asked = [list(label) for label in labels]
        scores: list[dict[str, AttackScore] | None] = [{} for _ in texts]
        for attacker in self.attackers:
            results = attacker.attack_many(texts, asked)
            for index, (result, label) in enumerate(zip(results, labels, strict=True)):
                slot = scores[index]
                if slot is None:
                    continue
                if result.error is not None:
                    scores[index] = None
                    continue
                slot[attacker.name] = AttackScore(
                    guesses={a: g.guesses for a, g in result.guesses.items() if a in label},
                    verdicts=self.correctness.score(result, label),
                    well_formed=result.well_formed,
                )
        return scores

    def score_originals(self, profiles: list[Profile]) -> list[TextScore | None]:
        """Round 0: the attack on the original; utility is 1 by definition (the text is itself)."""
        return [
            None if a is None else TextScore(round=0, attacks=a)
            for a in self.attack(profiles, [p.text for p in profiles])
        ]

    def score_rewrites(self, profiles: list[Profile], texts: list[str], rounds: list[int]) -> list[TextScore | None]:
        """Rewritten texts (one per entry, aligned with `profiles`), scored against each original."""
        attacks = self.attack(profiles, texts)
        judged = self.utility.judge_many([(p.text, t) for p, t in zip(profiles, texts, strict=True)])
        scores: list[TextScore | None] = []
        for profile, text, round_, attack, judgement in zip(profiles, texts, rounds, attacks, judged, strict=True):
            if attack is None or judgement.error is not None:
                scores.append(None)
                continue
            lexical = lexical_utility(profile.text, text)
            spans = [span.text for span in locate_evidence(profile).spans]
            tokens = words(text)
            scores.append(
                TextScore(
                    round=round_,
                    attacks=attack,
                    bleu=lexical.bleu,
                    rouge1=lexical.rouge1,
                    rougel=lexical.rougel,
                    readability=judgement.readability,
                    meaning=judgement.meaning,
                    hallucination=judgement.hallucination,
                    evidence_kept=sum(span_survives(span, tokens) for span in spans),
                    evidence_total=len(spans),
                )
            )
        return scores
