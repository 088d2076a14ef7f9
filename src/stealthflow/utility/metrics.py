"""Lexical utility: BLEU, ROUGE-1 F and ROUGE-L F of an anonymized text against its original.

Computed with sacrebleu and rouge-score directly (the `evaluate` hub scripts do not load
offline). Scores are in [0, 1]. Texts are compared without timestamps; callers pass
`Profile.text`, which never carries the corpus' date prefixes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache


@dataclass(frozen=True)
class LexicalUtility:
    bleu: float
    rouge1: float
    rougel: float

    @property
    def mean(self) -> float:
        """U(k) of the workflow: mean of the three scores."""
        return (self.bleu + self.rouge1 + self.rougel) / 3

    def as_dict(self) -> dict[str, float]:
        return {**asdict(self), "mean": self.mean}


@cache
def _rouge():
    # Imported on first use: rouge-score pulls in nltk (~2 s), which every CLI start would pay.
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)


def load_scorers() -> None:
    """Import the scorers now rather than on the first `lexical_utility` call: a loop whose threads
    all reach their first call together would otherwise wait at the import lock, seconds long."""
    import sacrebleu  # noqa: F401

    _rouge()


def lexical_utility(original: str, anonymized: str) -> LexicalUtility:
    if not original.strip() and not anonymized.strip():
        return LexicalUtility(1.0, 1.0, 1.0)
    import sacrebleu

    # sacrebleu can overshoot 100 by a rounding error on identical texts.
    bleu = min(1.0, sacrebleu.sentence_bleu(anonymized, [original], smooth_method="exp").score / 100)
    rouge = _rouge().score(original, anonymized)
    return LexicalUtility(bleu=bleu, rouge1=rouge["rouge1"].fmeasure, rougel=rouge["rougeL"].fmeasure)
