"""The adversarial loop on a scripted FAKE world (no model), plus one real-model `generate` run.

The fake world: the attacker infers age 34 when the text says "34" and Paris when it says
"Paris"; the anonymizer removes one of them per round (Paris first). Markers in a profile's
text script the rest: SHRINK (the rewrite drops most of the text), FAILME (every call about
this profile fails). Run as a script, this module is the `generate` CLI on that world
(used to kill a run with os._exit, like kill -9, and rerun it).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from fakes import FakeBackend
from short_profile import shortest_labelled
from trajectory_fixtures import generate_args
from typer.testing import CliRunner

from stealthflow.attack import AttackResult, AttributeGuess, CorrectnessJudge
from stealthflow.attack.registry import build_attackers
from stealthflow.cli import app
from stealthflow.config import Settings
from stealthflow.data import Profile
from stealthflow.insights import InsightLearner, InsightMemory, Operation
from stealthflow.llm import register_backend
from stealthflow.workflow.config import WorkflowConfig
from stealthflow.workflow.graph import build_graph
from stealthflow.workflow.nodes import Steps
from stealthflow.workflow.runner import GenerateRun, run_profiles
from stealthflow.workflow.trajectory import TrajectoryFile

SECRETS = {"age": ("34", "34"), "location": ("Paris", "Paris, France")}
RULE = "Replace exact numbers with a vague range."
cli = CliRunner()


def world(messages) -> str:
    system, user = messages[0]["content"], messages[-1]["content"]
    if "guessing game" in user:
        text = user.split("Comments:\n\n", 1)[1]
        blocks = []
        for attribute in re.findall(r"^Type: (\w+)", user, re.MULTILINE):
            word, truth = SECRETS.get(attribute, ("\0", "?"))
            guesses = f"{truth}; somewhere; 99" if word in text else "nowhere; 99; unknown place"
            blocks.append(f"Type: {attribute}\nInference: read the text\nGuess: {guesses}\nCertainty: 4")
        return "\n\n".join(blocks)
    if "distil" in system:
        return f"1. **ADD**: {RULE}\nUPVOTE [1]"
    text = user.split("Comments:\n\n", 1)[1].split("\n\nInferences made", 1)[0]
    if "SHRINK" in text:
        return "Shortened.\n#\n" + " ".join(text.split()[:3]).replace("SHRINK", "SHRUNK")
    for word in ("Paris", "34"):
        if word in text:
            return f"Generalised {word}.\n#\n" + text.replace(word, "somewhere")
    return "Nothing left to hide.\n#\n" + text


PRICE_PER_CALL = 0.001  # FAKE price of every answered call, in USD (litellm prices real models)


class WorldBackend(FakeBackend):  # FAKE
    def generate_batch(self, requests):
        log, crash_after = os.environ.get("WORLD_CALL_LOG"), os.environ.get("WORLD_CRASH_AFTER")
        if log and crash_after and os.path.exists(log) and sum(1 for _ in open(log)) >= int(crash_after):
            os._exit(9)  # like kill -9 after `crash_after` answered calls: no cleanup at all
        answers = super().generate_batch(requests)
        for request, answer in zip(requests, answers, strict=True):
            answer.cost = PRICE_PER_CALL
            if "FAILME" in request.messages[-1][1]:
                answer.error, answer.text = "scripted failure", ""
            if log:
                with open(log, "a") as handle:
                    handle.write(request.key("fake") + "\n")
        return answers


BACKENDS: list[WorldBackend] = []


def _world_backend(rest, config):
    BACKENDS.append(WorldBackend(world, batch_size=config.batch_size))
    return BACKENDS[-1]


register_backend("fakeworld", _world_backend)


def record(pid: str, text: str, labels: dict[str, str]) -> str:
    reviews = {a: {"estimate": v, "hardness": 2, "certainty": 4} for a, v in labels.items()}
    comments = [{"text": line, "timestamp": "1722586067.0"} for line in text.split("\n")]
    return json.dumps({"username": pid, "comments": [{"comments": comments}], "reviews": {"human_evaluated": reviews}})


BOTH = {"age": "34", "location": "Paris, France"}


def corpus(tmp_path: Path, *rows: tuple[str, str, dict]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(record(*row) + "\n" for row in rows))
    return path


def three_profiles(tmp_path: Path) -> Path:
    return corpus(
        tmp_path,
        ("u1", "I am 34 and live in Paris.\nNice weather today.", BOTH),
        ("u2", "Paris is home, turning 34 soon.\nLove the river walks.", BOTH),
        ("u3", "Back in Paris after work.\nI feel 34 going on 20.", BOTH),
    )


def generate(data: Path, out: Path, *extra: str):
    """The `generate` CLI on the fake world; strict batch order (`--insight-lag 0`) unless `extra` sets the lag."""
    extra = extra if "--insight-lag" in extra else (*extra, "--insight-lag", "0")
    args = generate_args(data, out, "--model", "fakeworld:x", insights_out=out.parent / f"{out.name}-insights.json")
    return cli.invoke(app, [*args, *extra])


def lines(path: Path) -> list[dict]:
    """Trajectory lines without their wall-clock timestamp."""
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        row.pop("created")
    return rows


def test_generate_records_every_round_and_learns_insights_between_batches(tmp_path):
    result = generate(three_profiles(tmp_path), tmp_path / "run", "--rounds", "3", "--batch-size", "2")
    assert result.exit_code == 0, result.output
    rows = lines(tmp_path / "run/trajectories.jsonl")
    assert [(r["profile_id"], r["round"]) for r in rows] == [(p, k) for p in ("u1", "u2", "u3") for k in range(4)]
    u1 = [r["protected"] for r in rows[:4]]
    assert u1 == [
        {"age": False, "location": False},
        {"age": False, "location": True},
        {"age": True, "location": True},
        {"age": True, "location": True},
    ]
    first, later = rows[1]["anonymizer"], rows[9]["anonymizer"]  # u1 round 1 (batch 1), u3 round 1 (batch 2)
    assert first["insight_version"] == 0 and first["insights_shown"] == {"age": [], "location": []}
    assert "no insights available" in first["messages"][1]["content"]
    assert later["insight_version"] == 1 and later["insights_shown"]["age"] == [RULE]
    assert f"- {RULE}" in later["messages"][1]["content"]
    # Everything a trainer needs is in the line: exact prompts, raw answers, verdicts.
    assert rows[1]["anonymizer"]["raw"].startswith("Generalised Paris.") and rows[1]["attacks"][0]["raw"]
    assert (
        rows[1]["attacks"][0]["verdicts"]["age"] == ["yes", "no", "no"]
        and rows[1]["params"]["anonymizer"]["model"] == "fake-model"
    )
    memory = InsightMemory.load(tmp_path / "run/insights.json")
    assert memory.version == 2 and [h.note for h in memory.history] == ["start", "batch 1", "batch 2"]
    assert InsightMemory.load(tmp_path / "run-insights.json") == memory  # the export under insights/
    summary = json.loads((tmp_path / "run/summary.json").read_text())
    assert [r["protected"] for r in summary["rounds"]] == [0, 3, 6, 6] and summary["insights_added"] == 2
    assert "protected" in result.output and "3/6" in result.output
    assert (tmp_path / "run/summary.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "run/config.yaml").read_text().count("rounds: 3") == 1


def _steps(config: WorkflowConfig, attackers=None, memory=None) -> Steps:
    from fakes import fake_llm

    llm = fake_llm(world)
    return Steps(
        llm,
        attackers or build_attackers(["llm"], Settings(model={"model": "fakeworld:x"}), _Pool(llm)),
        CorrectnessJudge(),
        config,
        memory,
    )


class _Pool:
    def __init__(self, llm):
        self.llm = llm

    def get(self, _config):
        return self.llm


def test_utility_warning_fires_exactly_when_the_drop_exceeds_tau():
    steps = _steps(WorkflowConfig(utility_threshold=0.075))
    profile = Profile(id="p", comments=[{"text": "one two three four five six seven eight"}])
    rewritten = "one two three four five six"
    from stealthflow.utility import lexical_utility

    now = lexical_utility(profile.text, rewritten).mean
    base = {
        "profile": profile,
        "round": 2,
        "text": rewritten,
        "attacks": [],
        "protected": {},
        "truth": {},
        "truth_source": "labels",
        "turn": None,
    }
    assert steps.utility({**base, "utility": now + 0.0751})["warn"] is True
    assert steps.utility({**base, "utility": now + 0.0749})["warn"] is False
    assert steps.utility({**base, "utility": now + 0.075})["warn"] is False  # "exceeds": equal is no warning
    off = _steps(WorkflowConfig(utility_warnings=False))
    assert off.utility({**base, "utility": 1.0})["warn"] is False


def test_the_warned_prompt_shows_the_original_and_the_scores(tmp_path):
    data = corpus(
        tmp_path,
        ("s1", "SHRINK I am 34 and I keep writing many more words here so that shrinking hurts.", {"age": "34"}),
    )
    result = generate(data, tmp_path / "run", "--rounds", "3")
    assert result.exit_code == 0, result.output
    rows = lines(tmp_path / "run/trajectories.jsonl")
    drops = [rows[k - 1]["utility"]["mean"] - rows[k]["utility"]["mean"] for k in range(1, 4)]
    assert drops[0] > 0.075 and drops[1] == pytest.approx(0)  # round 1 shrinks, round 2 keeps the text
    flags = [rows[k]["anonymizer"]["utility_warning"] for k in range(1, 4)]
    assert flags == [False, True, False]
    assert [rows[k]["utility_warning_next"] for k in range(0, 3)] == [False, True, False]
    warned = rows[2]["anonymizer"]
    assert warned["prompt_id"] == "anonymizer+utility_warning"  # age is already hidden: no rules to show
    assert "SHRINK I am 34 and I keep writing" in warned["messages"][1]["content"]  # the original
    assert f"BLEU {rows[1]['utility']['bleu']:.2f}" in warned["messages"][1]["content"]


def test_early_stop_ends_a_profile_once_everything_is_protected():
    steps = _steps(WorkflowConfig(rounds=5, early_stop=True))
    profile = load_profiles_from_rows(("u1", "I am 34 and live in Paris.", BOTH))[0]
    [state] = run_profiles(build_graph(steps), [profile], 1, 5)
    assert [r.round for r in state["records"]] == [0, 1, 2]
    assert state["records"][-1].protected == {"age": True, "location": True}


def load_profiles_from_rows(*rows) -> list[Profile]:
    from stealthflow.data.loader import parse_record

    return [parse_record(json.loads(record(*row))) for row in rows]


class AlwaysRightClassifier:  # FAKE second attacker: covers age only, no reasoning, always guesses 34
    name = "classifier"
    model_id = "fake-classifier"

    def covers(self, attribute):
        return attribute == "age"

    def attack_many(self, texts, attributes):
        def guess(a):
            return (
                AttributeGuess(attribute=a, guesses=["34", "50"], certainty=3)
                if self.covers(a)
                else AttributeGuess(attribute=a)
            )

        return [AttackResult(attacker="fake-classifier", guesses={a: guess(a) for a in attrs}) for attrs in attributes]


def test_an_attribute_is_protected_only_when_every_attacker_fails():
    from fakes import fake_llm

    llm = fake_llm(world)
    from stealthflow.attack import LLMAttacker

    steps = Steps(llm, [LLMAttacker(llm), AlwaysRightClassifier()], CorrectnessJudge(), WorkflowConfig(rounds=2))
    profile = load_profiles_from_rows(("u1", "I am 34 and live in Paris.", BOTH))[0]
    [state] = run_profiles(build_graph(steps), [profile], 1, 2)
    final = state["records"][-1]
    assert [a.attacker for a in final.attacks] == ["llm", "classifier"]
    assert final.attacks[0].verdicts["age"][0] == "no"  # the LLM attacker alone is beaten on age ...
    assert final.protected == {"age": False, "location": True}  # ... but the classifier still names 34
    # location is judged by the LLM attacker alone: the classifier does not cover it
    assert "location (classifier)" not in state["records"][1].anonymizer.messages[1]["content"]
    prompt = state["records"][1].anonymizer.messages[1]["content"]
    assert "age (classifier): no reasoning given; its top guesses follow\nGuesses: 34; 50 (certainty 3/5)" in prompt
    assert "age (llm): read the text" in prompt


def test_a_local_attacker_runs_while_the_llm_attack_is_out():
    """The classifier's pass overlaps the profile's LLM attack request instead of following its answer."""
    import threading

    from fakes import fake_llm

    from stealthflow.attack import LLMAttacker

    classified, overlapped = threading.Event(), []

    class NotingClassifier(AlwaysRightClassifier):  # FAKE: says when it has run
        def attack_many(self, texts, attributes):
            classified.set()
            return super().attack_many(texts, attributes)

    def patient_world(messages):  # FAKE model: answers once the classifier has run (or gives up after 5 s)
        overlapped.append(classified.wait(timeout=5))
        return world(messages)

    llm = fake_llm(patient_world)
    steps = Steps(llm, [LLMAttacker(llm), NotingClassifier()], CorrectnessJudge(), WorkflowConfig(rounds=1))
    profile = load_profiles_from_rows(("u1", "I am 34 and live in Paris.", BOTH))[0]
    state = steps.attack_original({"profile": profile})
    assert overlapped == [True]
    assert [a.attacker for a in state["attacks"]] == ["llm", "classifier"]  # the records keep the attackers' order


def test_a_failing_profile_is_reported_and_the_run_goes_on(tmp_path):
    data = corpus(tmp_path, ("ok", "I am 34.", {"age": "34"}), ("bad", "FAILME I am 34.", {"age": "34"}))
    result = generate(data, tmp_path / "run", "--rounds", "2")
    assert result.exit_code == 0, result.output
    assert "failed: bad" in result.output and "scripted failure" in " ".join(result.output.split())
    assert {r["profile_id"] for r in lines(tmp_path / "run/trajectories.jsonl")} == {"ok"}
    assert list(json.loads((tmp_path / "run/progress.json").read_text())["failed"]) == ["bad"]


def test_a_rerun_with_another_config_is_refused(tmp_path):
    data = corpus(tmp_path, ("ok", "I am 34.", {"age": "34"}))
    assert generate(data, tmp_path / "run", "--rounds", "1").exit_code == 0
    result = generate(data, tmp_path / "run", "--rounds", "2")
    assert result.exit_code == 2 and "different config" in result.output


class InjectedCrash(Exception):
    pass


def _crash_after(monkeypatch, target, name: str, when):
    original = getattr(target, name)

    def crashing(self, *args, **kwargs):
        value = original(self, *args, **kwargs)
        if when(*args, **kwargs):
            raise InjectedCrash
        return value

    monkeypatch.setattr(target, name, crashing)


def role_of(request) -> str:
    """Which workflow role sent a request to the fake world, from its prompt."""
    system, user = request.messages[0][1], request.messages[-1][1]
    if "guessing game" in user:
        return "attacker"
    if "distil" in system:
        return "insight"
    return "anonymizer" if "Inferences made" in user else "judge"


def test_tokens_and_cost_are_counted_per_role_over_the_calls_really_made(tmp_path):
    BACKENDS.clear()
    result = generate(three_profiles(tmp_path), tmp_path / "run", "--rounds", "2", "--batch-size", "2")
    assert result.exit_code == 0, result.output
    progress = json.loads((tmp_path / "run/progress.json").read_text())
    summary = json.loads((tmp_path / "run/summary.json").read_text())
    sent = [role_of(request) for request in BACKENDS[-1].requests]  # one shared model: one backend for every role
    assert summary["usage"] == progress["usage"]
    for role in ("anonymizer", "attacker", "judge", "insight"):
        used = progress["usage"][role]
        assert used["calls"] == sent.count(role), role  # each role counts its own calls, though they share a client
        assert used["prompt_tokens"] == 10 * used["calls"]  # the fake backend's 10 prompt tokens a call
        assert used["cost_usd"] == pytest.approx(PRICE_PER_CALL * used["calls"])
    assert progress["usage"]["anonymizer"]["calls"] == 6 and progress["usage"]["insight"]["calls"] >= 2
    assert summary["cost_usd"] == pytest.approx(PRICE_PER_CALL * len(sent))
    assert "tokens and cost" in result.output and "anonymizer" in result.output


@pytest.mark.parametrize("mode", ["strict", "pipelined"])
def test_max_cost_stops_cleanly_and_a_rerun_with_a_higher_cap_finishes(tmp_path, mode):
    data = three_profiles(tmp_path)
    args = ("--rounds", "2", *(("--batch-size", "1", "--insight-lag", "0") if mode == "strict" else PIPELINED))
    assert generate(data, tmp_path / "clean/run", *args).exit_code == 0
    clean = json.loads((tmp_path / "clean/run/progress.json").read_text())
    clean_calls = sum(u["calls"] for u in clean["usage"].values())
    cap = PRICE_PER_CALL * clean_calls / 2

    BACKENDS.clear()  # from here on, the requests of the capped run and of the runs that resume it
    stopped = generate(data, tmp_path / "capped/run", *args, "--max-cost", str(cap))
    assert stopped.exit_code == 3 and "max cost reached" in stopped.output, stopped.output
    progress = json.loads((tmp_path / "capped/run/progress.json").read_text())
    spent = sum(u["cost_usd"] for u in progress["usage"].values())
    assert cap <= spent < PRICE_PER_CALL * clean_calls and progress["batches_done"] < 3
    rows = lines(tmp_path / "capped/run/trajectories.jsonl")
    assert len(rows) == 3 * progress["batches_done"]  # only whole profiles of committed batches
    assert json.loads((tmp_path / "capped/run/summary.json").read_text())["stopped"].startswith("max cost reached")

    sent = sum(len(backend.requests) for backend in BACKENDS)
    BACKENDS.clear()  # the same cap again: nothing more is spent
    again = generate(data, tmp_path / "capped/run", *args, "--max-cost", str(cap))
    assert again.exit_code == 3 and not BACKENDS[-1].requests

    finished = generate(data, tmp_path / "capped/run", *args, "--max-cost", "1000")  # not a "different config"
    assert finished.exit_code == 0, finished.output
    resumed = json.loads((tmp_path / "capped/run/progress.json").read_text())
    assert resumed["batches_done"] == 3
    sent += sum(len(backend.requests) for backend in BACKENDS)
    # Totals carry over: every call sent over the three processes was counted once ...
    assert sum(u["calls"] for u in resumed["usage"].values()) == sent
    assert sum(u["cost_usd"] for u in resumed["usage"].values()) == pytest.approx(PRICE_PER_CALL * sent)
    if mode == "strict":  # ... and, in strict order, they are the calls of one clean run (nothing paid twice).
        assert (
            sent == clean_calls
        )  # (pipelined, a batch sees the newest memory of the moment: its calls vary with timing)
    capped_rows, clean_rows = (lines(tmp_path / f"{d}/run/trajectories.jsonl") for d in ("capped", "clean"))
    if mode == "strict":
        assert capped_rows == clean_rows
    else:
        assert sorted((r["profile_id"], r["round"]) for r in capped_rows) == sorted(
            (r["profile_id"], r["round"]) for r in clean_rows
        )


@pytest.mark.parametrize("where", ["after trajectories, before insights", "after insights, before progress"])
def test_resume_after_an_injected_crash_gives_the_uninterrupted_result(tmp_path, monkeypatch, where):
    data = three_profiles(tmp_path)
    assert generate(data, tmp_path / "clean/run", "--rounds", "2", "--batch-size", "2").exit_code == 0
    with monkeypatch.context() as patch:
        if where.startswith("after trajectories"):  # batch 2's lines are written, then its update crashes
            _crash_after(
                patch, InsightLearner, "update", lambda memory, trajectories, note, **_: note.startswith("batch 2")
            )
        else:  # memory v1 is saved, progress is not
            _crash_after(patch, GenerateRun, "_save", lambda memory: memory.version == 1)
        crashed = generate(data, tmp_path / "crashed/run", "--rounds", "2", "--batch-size", "2")
    assert isinstance(crashed.exception, InjectedCrash)
    assert generate(data, tmp_path / "crashed/run", "--rounds", "2", "--batch-size", "2").exit_code == 0
    assert lines(tmp_path / "crashed/run/trajectories.jsonl") == lines(tmp_path / "clean/run/trajectories.jsonl")
    resumed, clean = (InsightMemory.load(tmp_path / f"{d}/run/insights.json") for d in ("crashed", "clean"))
    assert resumed.version == clean.version == 2 and resumed.rules == clean.rules


PIPELINED = ("--batch-size", "1", "--insight-lag", "1", "--max-concurrency", "3")


@pytest.mark.parametrize("mode", ["strict", "pipelined"])
def test_kill_9_mid_batch_then_rerun_repeats_no_finished_call(tmp_path, monkeypatch, mode):
    data = three_profiles(tmp_path)
    config = tmp_path / "one-at-a-time.yaml"
    config.write_text("model: {model: 'fakeworld:x', batch_size: 1}\n")  # so every answered call is also cached
    args = [
        "--rounds",
        "2",
        "--config",
        str(config),
        *(("--batch-size", "2", "--insight-lag", "0") if mode == "strict" else PIPELINED),
    ]

    def run_killable(out: Path, crash_after: int | None = None) -> int:
        env = {
            **os.environ,
            "WORLD_CALL_LOG": str(tmp_path / "killed.log"),
            "WORLD_CRASH_AFTER": str(crash_after or ""),
        }
        options = ("--model", "fakeworld:x", *args)
        command = [
            sys.executable,
            __file__,
            *generate_args(data, out, *options, insights_out=out.parent / "insights.json"),
        ]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120).returncode

    with monkeypatch.context() as patch:
        patch.setenv("WORLD_CALL_LOG", str(tmp_path / "clean.log"))
        assert generate(data, tmp_path / "clean/run", *args).exit_code == 0
    clean_calls = (tmp_path / "clean.log").read_text().splitlines()
    assert run_killable(tmp_path / "killed/run", crash_after=len(clean_calls) - 4) == 9  # inside the last batches
    assert run_killable(tmp_path / "killed/run") == 0
    calls = (tmp_path / "killed.log").read_text().splitlines()
    killed, clean = (lines(tmp_path / f"{d}/run/trajectories.jsonl") for d in ("killed", "clean"))
    if mode == "strict":
        assert sorted(calls) == sorted(clean_calls)  # every call made exactly once over both processes
        assert killed == clean
        return
    # Pipelined: which memory version a prompt showed depends on timing, so a resumed prompt may
    # differ from the clean run's; the guarantees are the same: no call twice, no duplicate or lost
    # line, the memory of the last finished batch.
    assert len(calls) == len(set(calls))
    assert sorted((r["profile_id"], r["round"]) for r in killed) == sorted((r["profile_id"], r["round"]) for r in clean)
    assert InsightMemory.load(tmp_path / "killed/run/insights.json").version == 3
    assert json.loads((tmp_path / "killed/run/progress.json").read_text())["batches_done"] == 3
    _assert_memory_versions_within_lag(killed, ["u1", "u2", "u3"], lag=1)


def _assert_memory_versions_within_lag(rows: list[dict], batch_of_profile: list[str], lag: int) -> None:
    """A profile of batch n (batch size 1) sees a memory with batches n-lag.. n-1 applied, never older, never its own."""
    for row in rows:
        if row.get("anonymizer"):
            batch = batch_of_profile.index(row["profile_id"])
            assert max(0, batch - lag) <= row["anonymizer"]["insight_version"] <= batch, row["profile_id"]


@pytest.mark.parametrize(
    ("settings", "lag"),
    [
        ({}, 1),  # max_concurrency defaults to batch_size: one batch runs while the previous one finishes
        ({"max_concurrency": 32}, 4),  # batches of 10: 5 admitted at once hold at least 32 profiles
        ({"max_concurrency": 30}, 3),
        ({"max_concurrency": 5}, 1),
        ({"max_concurrency": 32, "batch_size": 4}, 8),
        ({"max_concurrency": 32, "insight_lag": 0}, 0),  # set explicitly, it wins
        ({"max_concurrency": 32, "insight_lag": 2}, 2),
    ],
)
def test_the_default_insight_lag_follows_max_concurrency_over_batch_size(settings, lag):
    assert WorkflowConfig(**settings).lag == lag


def test_the_run_records_the_insight_lag_in_use(tmp_path):
    """`--max-concurrency` alone sets the lag; config.yaml holds the number, so a rerun must match it."""
    data = corpus(tmp_path, ("ok", "I am 34.", {"age": "34"}))
    args = ["generate", "--data", str(data), "--model", "fakeworld:x", "--rounds", "1", "--batch-size", "2"]
    assert cli.invoke(app, [*args, "--out", str(tmp_path / "run"), "--max-concurrency", "8"]).exit_code == 0
    saved = yaml.safe_load((tmp_path / "run/config.yaml").read_text())
    assert saved["settings"]["workflow"]["insight_lag"] == 4
    result = cli.invoke(app, [*args, "--out", str(tmp_path / "run"), "--max-concurrency", "8", "--insight-lag", "1"])
    assert result.exit_code == 2 and "different config" in result.output


def test_pipelined_batches_follow_the_memory_version_rule(tmp_path):
    profiles = [(f"p{i}", f"I am 34 and live in Paris, note {i}.\nNice weather.", BOTH) for i in range(6)]
    data = corpus(tmp_path, *profiles)
    strict = generate(data, tmp_path / "strict/run", "--rounds", "2", "--batch-size", "1", "--insight-lag", "0")
    pipelined = generate(
        data,
        tmp_path / "piped/run",
        "--rounds",
        "2",
        "--batch-size",
        "1",
        "--insight-lag",
        "2",
        "--max-concurrency",
        "4",
    )
    assert strict.exit_code == 0 and pipelined.exit_code == 0, pipelined.output
    ids = [p[0] for p in profiles]
    strict_rows, piped_rows = (lines(tmp_path / f"{d}/run/trajectories.jsonl") for d in ("strict", "piped"))
    # strict order: exactly the previous batch's memory; pipelined: at most `lag` batches behind
    assert all(
        r["anonymizer"]["insight_version"] == ids.index(r["profile_id"]) for r in strict_rows if r.get("anonymizer")
    )
    _assert_memory_versions_within_lag(piped_rows, ids, lag=2)
    assert [(r["profile_id"], r["round"]) for r in piped_rows] == [(r["profile_id"], r["round"]) for r in strict_rows]
    assert InsightMemory.load(tmp_path / "piped/run/insights.json").version == 6


def test_stealth_method_reports_risk_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    memory = InsightMemory().with_snapshot().apply({"age": [[Operation("ADD", rule=RULE)]]})
    memory.save(tmp_path / "frozen.json")
    posts = tmp_path / "posts.jsonl"
    posts.write_text('{"id": "me", "text": "I am 34 and I love Paris in spring."}\n')
    before = set(tmp_path.rglob("*"))
    BACKENDS.clear()
    result = cli.invoke(
        app,
        [
            "anonymize",
            str(posts),
            "--method",
            "stealth",
            "--insights",
            "frozen.json",
            "--rounds",
            "2",
            "--model",
            "fakeworld:x",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "I am somewhere and I love somewhere in spring." in result.output
    report = result.output.split("before / after")[1]
    assert "│ age        │ llm: 34; somewhere;" in report and "protected" in report
    assert set(tmp_path.rglob("*")) == before  # no trajectories, no cache, no memory update
    prompts = [r.messages[-1][1] for r in BACKENDS[-1].requests if "Inferences made" in r.messages[-1][1]]
    assert f"- {RULE}" in prompts[0]


def test_a_run_from_settings_meters_each_role_and_refuses_an_unknown_attacker(tmp_path):
    from stealthflow.llm.pool import LLMPool
    from stealthflow.workflow.runner import GenerateRun, RunDirectory

    settings = Settings(model={"model": "fakeworld:x"})
    settings.workflow.insights = settings.workflow.insights.model_copy(update={"max_rules": 3})
    run = GenerateRun.from_settings(settings, LLMPool(), RunDirectory(tmp_path / "run"), InsightMemory())
    assert run.memory.max_rules == 3 and run.learner is not None and run.steps.judge.llm is not None
    run.steps.anonymizer.chat([{"role": "system", "content": "s"}, {"role": "user", "content": "Comments:\n\nhello"}])
    assert run.usage.this_process().calls == 1 and run.usage.meters["anonymizer"].total().calls == 1
    assert run.usage.meters["attacker"].total().calls == 0 and run.steps.run_id == "run"
    settings.workflow = settings.workflow.model_copy(update={"llm_judge": False})
    settings.workflow.insights = settings.workflow.insights.model_copy(update={"learn": False})
    frozen = GenerateRun.from_settings(settings, LLMPool(), RunDirectory(tmp_path / "frozen"), InsightMemory())
    assert frozen.learner is None and frozen.steps.judge.llm is None
    settings.workflow = settings.workflow.model_copy(update={"attackers": ["psychic"]})
    with pytest.raises(ValueError, match="psychic"):
        GenerateRun.from_settings(settings, LLMPool(), RunDirectory(tmp_path / "other"), InsightMemory())


def test_aa_method_uses_attacker_feedback_only_and_returns_every_round():
    from stealthflow.anonymize import build_method
    from stealthflow.llm.pool import LLMPool

    BACKENDS.clear()
    settings = Settings(model={"model": "fakeworld:x"})
    method = build_method("aa", settings, LLMPool(), {"rounds": 3})
    profile = Profile(
        id="p", comments=[{"text": "SHRINK I am 34 and I keep writing many more words here so that shrinking hurts."}]
    )
    [result] = method.anonymize_many([profile])
    assert len(result.rounds) == 3 and result.rounds[-1] == result.text
    prompts = [r.messages[-1][1] for r in BACKENDS[-1].requests if "Inferences made" in r.messages[-1][1]]
    assert len(prompts) == 3 and not any("Lessons learned" in p or "Warning:" in p for p in prompts)
    assert result.details["risk"]["age"]["protected"] in (True, False)  # the attacker's own guess stood in for a label
    assert result.details["labels_source"] == "attacker"


@pytest.mark.real_model
def test_generate_on_the_embedded_model(repo, tmp_path):
    config = tmp_path / "tiny.yaml"
    config.write_text(
        "model: {model: embedded, max_new_tokens: 32, batch_size: 8, threads: 1, temperature: 0.0}\n"
        "workflow: {rounds: 1, batch_size: 1, llm_judge: false}\n"
    )
    data = tmp_path / "one.jsonl"
    data.write_text(shortest_labelled(repo / "data/test.jsonl")[1])
    result = cli.invoke(
        app, generate_args(data, tmp_path / "run", "--config", str(config), insights_out=tmp_path / "ins.json")
    )
    assert result.exit_code == 0, result.output
    rows = TrajectoryFile(tmp_path / "run/trajectories.jsonl").read()
    assert [r.round for r in rows] == [0, 1]
    assert all(r.anonymizer.raw for r in rows if r.round == 1)  # the model really answered
    assert all(r.attacks[0].raw and r.params["anonymizer"]["model"].startswith("SmolLM2") for r in rows)
    assert InsightMemory.load(tmp_path / "run/insights.json").version == 1


@pytest.mark.real_model
def test_stealth_method_on_the_embedded_model(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.yaml").write_text(
        "model: {model: embedded, max_new_tokens: 32, threads: 1}\nworkflow: {llm_judge: false}\n"
    )
    (tmp_path / "post.txt").write_text(
        "Just got back from my shift at the hospital in Leeds, my husband made dinner.\n"
    )
    # The 135M model rarely writes a readable rewrite: --allow-unchanged accepts a post it leaves unprotected (the
    # command failing closed without it: test_cli's fake models).
    args = ["anonymize", "post.txt", "--method", "stealth", "--rounds", "1", "--config", "tiny.yaml"]
    result = cli.invoke(app, [*args, "--allow-unchanged"])
    assert result.exit_code == 0, result.output
    assert "attacker guesses before / after" in result.output and "occupation" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["post.txt", "tiny.yaml"]  # nothing of the text kept


if __name__ == "__main__":
    app(sys.argv[1:])
