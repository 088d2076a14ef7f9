"""Trajectory lines built from the schema (`workflow/trajectory.py`) for harvest/training tests.

Texts and labels come from real corpus profiles; the anonymizer/attacker answers are
scripted (these are fixtures, not model output).
"""

from __future__ import annotations

from pathlib import Path

from stealthflow import prompts
from stealthflow.attack import CorrectnessJudge, attack_messages
from stealthflow.attack.types import AttributeGuess
from stealthflow.data import Profile, load_profiles
from stealthflow.workflow.trajectory import AnonymizerTurn, AttackRecord, RoundRecord

REPO = Path(__file__).resolve().parent.parent


def corpus_profiles(n: int = 3) -> list[Profile]:
    return load_profiles(REPO / "data" / "train.jsonl", limit=n)


def attack_record(text: str, labels: dict[str, str], top1: dict[str, str]) -> AttackRecord:
    attributes = list(labels)
    guesses = {
        a: AttributeGuess(attribute=a, inference=f"clues about {a}", guesses=[top1[a], "other"], certainty=3)
        for a in attributes
    }
    judge = CorrectnessJudge()
    return AttackRecord(
        attacker="llm",
        model="fake-model",
        messages=attack_messages(text, attributes),
        raw="(scripted)",
        guesses=guesses,
        verdicts={a: judge.verdicts(a, labels[a], guesses[a].guesses) for a in attributes},
        well_formed=True,
    )


def anonymizer_turn(text: str, insights: dict[str, list[str]]) -> AnonymizerTurn:
    shown = "\n".join(f"{a}: {'; '.join(rules)}" for a, rules in insights.items()) or "no insights available"
    messages = [
        {"role": "system", "content": prompts.render("anonymizer_system")},
        {
            "role": "user",
            "content": prompts.render(
                "anonymizer", text=text, inferences="(scripted)", insights=shown, utility_warning=""
            ),
        },
    ]
    return AnonymizerTurn(
        prompt_id="anonymizer",
        messages=messages,
        raw="explain\n#\nnew",
        explanation="I generalise the details.",
        parsed=True,
        utility_warning=False,
        insights_shown=insights,
        insight_version=1,
        model="fake-model",
    )


def profile_rounds(profile: Profile, run_id: str = "fixture", protected_at: int = 2) -> list[RoundRecord]:
    """Round 0 (attacker right on every attribute), then 2 rewrites; protected from `protected_at` on."""
    labels = {a: label.estimate for a, label in profile.labelled().items()}
    wrong = {"age": "90", "gender": "zzz", "married": "zzz", "income": "zzz", "education": "zzz"}
    rounds = []
    text = profile.text
    for number in range(3):
        protected = 0 < protected_at <= number
        top1 = {a: (wrong.get(a, "Nowhere Qqq") if protected else truth) for a, truth in labels.items()}
        turn = None
        if number:
            turn = anonymizer_turn(text, {a: [f"rule {number} for {a}"] for a in labels})
            text = text.replace(" ", "  ", 1) + f" [edit {number}]"
        rounds.append(
            RoundRecord(
                run_id=run_id,
                profile_id=profile.id,
                round=number,
                text=text,
                anonymizer=turn,
                attacks=[attack_record(text, labels, top1)],
                utility={"mean": 1.0 - 0.1 * number},
                protected={a: protected for a in labels},
                labels=labels,
            )
        )
    return rounds


def write_run(directory: Path, profiles: list[Profile], **kwargs) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    lines = [r.model_dump_json() for p in profiles for r in profile_rounds(p, **kwargs)]
    (directory / "trajectories.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return directory


def generate_args(data: Path, out: Path, *options: str, insights_out: Path | None = None) -> list[str]:
    """The arguments of `stealthflow generate` that run the profiles of `data` into the run folder `out` (the insight
    memory written to `insights_out`, if given), then `options`."""
    insights = ["--insights-out", str(insights_out)] if insights_out else []
    return ["generate", "--data", str(data), "--out", str(out), *insights, *options]
