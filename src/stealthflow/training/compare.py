"""Base vs SFT vs SFT+GRPO side by side, from one `stealthflow evaluate` out dir per model.

Each evaluation ran with `--model embedded [--adapter A]`, so its `llm` attacker is the model
itself; the `classifier` attacker is the same for all. Per model:
- as attacker on the original test texts: top-1 accuracy over every labelled attribute (no
  guess = wrong), and pooled over the categorical attributes beside their chance levels with
  the verdict (above majority / above uniform only / NOT above chance), plus the share of
  answers in the required format;
- as anonymizer (`method`): Anonymity and Score_Utility judged by each attacker.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from stealthflow.attack.strength import AccuracyRow, pooled_categorical
from stealthflow.data.attributes import ATTRIBUTES
from stealthflow.evaluation.report import build_report, labelled_verdicts
from stealthflow.evaluation.runner import Evaluation

SELF = "llm"


def attacker_figures(evaluation: Evaluation, attacker: str = SELF) -> dict:
    """Top-1 over every labelled attribute, the pooled categorical row (with chance levels), well-formed share."""
    originals = list(evaluation.originals().load().values())
    labelled = labelled_verdicts(originals, attacker, ATTRIBUTES)
    top1 = [bool(v) and v[0] == "yes" for _, verdicts in labelled.values() for v in verdicts]
    well_formed = [o.score.attacks[attacker].well_formed for o in originals if attacker in o.score.attacks]
    return {
        "attributes": len(top1),
        "top1": float(np.mean(top1)) if top1 else float("nan"),
        "categorical": pooled_categorical(attacker, labelled),
        "well_formed": float(np.mean(well_formed)) if well_formed else float("nan"),
    }


def comparison_table(evaluations: dict[str, Path], method: str = "standard") -> str:
    """Markdown: one row per model."""
    attackers: list[str] = []
    rows = []
    for name, directory in evaluations.items():
        evaluation = Evaluation(directory)
        report = build_report(evaluation, [method])
        anonymizer = {r.attacker: r for r in report.rows if r.method == method}
        attackers = attackers or sorted(anonymizer)
        rows.append((name, attacker_figures(evaluation), anonymizer, next(iter(anonymizer.values()), None)))
    header = [
        "model",
        "attributes",
        "self-attack top-1 (all)",
        "top-1 categorical [95% CI] / majority / uniform chance",
        "verdict",
        "answers well-formed",
        *(f"{column} ({attacker})" for attacker in attackers for column in ("Anonymity", "Score_Utility")),
        "unparsed rewrites",
    ]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for name, figures, anonymizer, any_row in rows:
        cells = [
            name,
            str(figures["attributes"]),
            f"{figures['top1']:.2f}",
            *_categorical_cells(figures["categorical"]),
            f"{figures['well_formed']:.0%}",
        ]
        for attacker in attackers:
            row = anonymizer.get(attacker)
            cells += [row.figures[c].format(2) if row else "–" for c in ("Anonymity", "Score_Utility")]
        cells.append(f"{any_row.parse_failures}/{any_row.profiles}" if any_row else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _categorical_cells(row: AccuracyRow | None) -> tuple[str, str]:
    if row is None:
        return "–", "no categorical attribute"
    return f"{row.top1} / {row.chance.majority_top1.mean():.2f} / {row.chance.uniform_top1:.2f}", row.verdict


def self_attack(llm, profiles, on_done: Callable[[int], None] | None = None) -> tuple[str, float]:
    """The model as attacker on original texts: (markdown accuracy-vs-chance table, well-formed share).

    For quick checks of an adapter without a full `evaluate` run (one prompt per profile,
    every labelled attribute; a missing guess counts as wrong).
    """
    from stealthflow.attack import LLMAttacker
    from stealthflow.attack.strength import attacker_accuracy, markdown_table

    results = LLMAttacker(llm).attack_many([p.text for p in profiles], [list(p.labelled()) for p in profiles], on_done)
    attributes = list(dict.fromkeys(a for p in profiles for a in p.labelled()))
    rows = attacker_accuracy(llm.info.model_id, profiles, results, attributes)
    well_formed = float(np.mean([r.well_formed for r in results])) if results else float("nan")
    return markdown_table(rows), well_formed


def choice_attack(attacker, name: str, profiles, on_done: Callable[[int], None] | None = None) -> str:
    """The choice attacker on original texts: a markdown accuracy-vs-chance table per way of scoring the
    options (log-probability summed over an option's tokens, and its mean per token; each as the attacker
    reads and calibrates it: `ChoiceAttacker.option_scores_many`), from one pass.

    Every profile labelled with an attribute of `CHOICE_ATTRIBUTES` counts; the attacker always answers."""
    from stealthflow.attack import CorrectnessJudge
    from stealthflow.attack.choice import CHOICE_ATTRIBUTES, Choice, as_attack_result
    from stealthflow.attack.classifier import classes_for
    from stealthflow.attack.strength import attacker_accuracy, markdown_table

    asked = [[a for a in p.labelled() if a in CHOICE_ATTRIBUTES] for p in profiles]
    profiles, asked = zip(*[(p, a) for p, a in zip(profiles, asked, strict=True) if a]) if any(asked) else ((), ())
    scores = []
    for profile, attributes in zip(profiles, asked, strict=True):
        scores.append(attacker.option_scores_many(profile.text, attributes))
        if on_done:
            on_done(1)
    order = [a for a in CHOICE_ATTRIBUTES if any(a in wanted for wanted in asked)]
    tables = []
    for normalise, scoring in ((False, "summed"), (True, "mean per token")):
        results = [
            as_attack_result({a: Choice.from_scores(a, classes_for(a), *s, normalise) for a, s in by.items()})
            for by in scores
        ]
        rows = attacker_accuracy(name, profiles, results, order, judge=CorrectnessJudge())
        tables.append(f"Options scored by log-probability {scoring}:\n\n{markdown_table(rows)}")
    return "\n\n".join(tables)


def probe_table(probe, name: str, profiles, states) -> str:
    """The probe attacker (`attack/probe.py`) on original texts (`states[i]`: profile i's hidden states): the
    markdown accuracy-vs-chance table over every profile labelled with an attribute the probe covers."""
    from stealthflow.attack import CorrectnessJudge
    from stealthflow.attack.choice import as_attack_result
    from stealthflow.attack.strength import attacker_accuracy, markdown_table

    asked = [[a for a in p.labelled() if a in probe.attributes] for p in profiles]
    results = [as_attack_result(choices, name) for choices in probe.choices(states, asked)]
    order = [a for a in probe.attributes if any(a in wanted for wanted in asked)]
    return markdown_table(attacker_accuracy(name, profiles, results, order, judge=CorrectnessJudge()))
