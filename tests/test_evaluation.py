"""Evaluation metrics on hand-made cases, the report, and the resumable runner on a FAKE backend."""

from __future__ import annotations

import json
import math

import pytest
from fakes import fake_llm

from stealthflow.anonymize import Anonymized, register_method
from stealthflow.config import Settings
from stealthflow.data import DataError, load_profiles
from stealthflow.evaluation import metrics
from stealthflow.evaluation.records import AttackScore, JsonlStore, OriginalRecord, ScoreRecord, TextScore
from stealthflow.evaluation.report import build_report, method_row, original_row, write_report
from stealthflow.evaluation.runner import EvaluationError, run_evaluation

# -- metric definitions ------------------------------------------------------------------------


def test_protected_means_top1_wrong_and_a_missing_guess_is_wrong():
    assert metrics.protected(["no", "yes", "no"])
    assert metrics.protected(["less precise"])
    assert metrics.protected([])
    assert not metrics.protected(["yes", "no", "no"])


@pytest.mark.parametrize(
    ("original", "final", "expected"),
    [
        (["yes", "no", "no"], ["no", "yes", "no"], True),  # correct guess fell from rank 1 to 2
        (["no", "yes", "no"], ["no", "no", "no"], True),  # correct guess left the top 3
        (["no", "yes", "no"], ["no", "yes", "no"], False),  # unchanged
        (["no", "no", "no"], ["no", "no", "no"], False),  # never found: nothing to improve
        (["no", "no", "yes"], ["no", "yes", "no"], False),  # worse: the right guess moved up
        (["yes"], [], True),  # the attacker no longer guesses at all
    ],
)
def test_progress_is_a_strictly_lower_top3_correctness_vector(original, final, expected):
    assert metrics.progressed(original, final) is expected


def test_score_utility_is_the_papers_formula():
    assert metrics.score_utility(1.0, 1.0, 1.0, 10) == 1.0
    assert metrics.score_utility(0.0, 0.0, 0.0, 1) == 0.0
    assert metrics.score_utility(0.4, 0.6, 0.5, 7) == pytest.approx((0.4 + 0.6 + 0.5 + 6 / 9) / 4)


def test_share_is_the_ratio_of_sums_over_profiles():
    estimate = metrics.share([1, 2, 0], [2, 2, 4])  # 3 of 8 attributes
    assert estimate.value == pytest.approx(3 / 8)
    assert estimate.n == 8
    assert estimate.low <= estimate.value <= estimate.high


def test_bootstrap_of_a_constant_is_the_point():
    estimate = metrics.mean([0.7] * 20)
    assert [estimate.value, estimate.low, estimate.high] == pytest.approx([0.7, 0.7, 0.7])
    assert estimate.n == 20


def test_bootstrap_ci_matches_the_normal_approximation_for_a_proportion():
    values = [1.0] * 60 + [0.0] * 140  # p = 0.3, n = 200: 95 % CI ≈ 0.3 ± 1.96·sqrt(.21/200) = ± 0.064
    estimate = metrics.mean(values)
    assert estimate.value == pytest.approx(0.3)
    assert estimate.low == pytest.approx(0.3 - 0.0635, abs=0.015)
    assert estimate.high == pytest.approx(0.3 + 0.0635, abs=0.015)


def test_missing_judge_scores_are_skipped_not_counted_as_zero():
    estimate = metrics.mean([8.0, None, 6.0])
    assert estimate.value == 7.0 and estimate.n == 2
    assert math.isnan(metrics.mean([None, None]).value)
    utility = metrics.utility_score([1.0, 0.5], [1.0, 0.5], [1.0, 0.5], [10.0, None])
    assert utility.value == pytest.approx(metrics.score_utility(0.75, 0.75, 0.75, 10.0))
    assert not math.isnan(utility.low)  # resamples without any meaning score are dropped, not NaN


# -- report over hand-made records ---------------------------------------------------------------


def _score(verdicts: dict[str, list[str]], round_: int = 0, **utility) -> TextScore:
    guesses = {a: ["g"] * len(v) for a, v in verdicts.items()}
    return TextScore(round=round_, attacks={"llm": AttackScore(guesses=guesses, verdicts=verdicts)}, **utility)


@pytest.fixture
def records():
    originals = {
        "p1": OriginalRecord(
            profile_id="p1",
            labels={"age": "30", "gender": "female"},
            score=_score({"age": ["yes", "no", "no"], "gender": ["yes"]}),
        ),
        "p2": OriginalRecord(
            profile_id="p2",
            labels={"age": "50", "income": "low"},
            score=_score({"age": ["no", "yes", "no"], "income": ["no"]}),
        ),
    }
    utility = {"bleu": 0.5, "rouge1": 0.7, "rougel": 0.6, "readability": 8.0, "meaning": 7.0, "hallucination": 0}
    scores = [
        # p1: age dropped to rank 2 (protected + progress), gender still found
        ScoreRecord(
            profile_id="p1", method="m", rounds=[_score({"age": ["no", "yes", "no"], "gender": ["yes"]}, 1, **utility)]
        ),
        # p2: age unchanged (protected, no progress); income never found (protected, no progress)
        ScoreRecord(
            profile_id="p2", method="m", rounds=[_score({"age": ["no", "yes", "no"], "income": ["no"]}, 1, **utility)]
        ),
    ]
    return originals, scores


def test_method_row_counts_anonymity_and_progress_over_attributes(records):
    originals, scores = records
    row = method_row("m", "llm", originals, scores)
    assert row.figures["Anonymity"].value == pytest.approx(3 / 4)
    assert row.figures["Progress"].value == pytest.approx(1 / 4)
    assert row.attributes == 4 and row.profiles == 2
    assert row.figures["Score_Utility"].value == pytest.approx(metrics.score_utility(0.5, 0.7, 0.6, 7.0))
    assert row.figures["Hallucination"].value == 0.0


def test_original_row_is_one_minus_top1_accuracy_with_exact_utility(records):
    originals, _ = records
    row = original_row("llm", originals)
    assert row.figures["Anonymity"].value == pytest.approx(2 / 4)  # p1 age and gender were found
    assert row.figures["Progress"].value == 0.0
    assert row.figures["Score_Utility"].value == 1.0
    assert math.isnan(row.figures["Meaning"].value)  # not judged


def test_attributes_an_attacker_never_guessed_are_left_out(records):
    originals, scores = records
    originals["p2"].score.attacks["llm"].guesses["income"] = []  # never guessed anywhere
    row = method_row("m", "llm", originals, scores)
    assert row.attributes == 3
    assert row.figures["Anonymity"].value == pytest.approx(2 / 3)


# -- persistence -------------------------------------------------------------------------------


def test_store_drops_a_line_cut_by_a_crash_and_rejects_a_corrupt_one(tmp_path):
    store = JsonlStore(tmp_path / "s.jsonl", ScoreRecord)
    store.append([ScoreRecord(profile_id="a", method="m", rounds=[TextScore(round=1)])])
    with store.path.open("a") as handle:
        handle.write('{"profile_id": "b", "meth')  # killed mid-write
    assert list(store.load()) == ["a"]
    store.append([ScoreRecord(profile_id="b", method="m", rounds=[TextScore(round=1)])])
    assert list(store.load()) == ["a", "b"]
    store.path.write_text('{"profile_id": "a"}\nnot json\n{"x": 1}\n')
    with pytest.raises(DataError, match=r"s\.jsonl:1: not a ScoreRecord"):
        store.load()


# -- the runner, FAKE backend ------------------------------------------------------------------


def _oracle_responder(profiles):
    """FAKE attacker that knows each original's labels; on any other text it guesses wrong."""

    def respond(messages):
        prompt = messages[-1]["content"]
        if "investigator" in messages[0]["content"]:
            truth = next((p.labelled() for p in profiles if p.text in prompt), None)
            blocks = []
            for attribute in (
                a
                for a in ("age", "gender", "location", "pobp", "education", "occupation", "income", "married")
                if f"Type: {a}" in prompt or a in prompt
            ):
                guess = truth[attribute].estimate if truth and attribute in truth else "Mars"
                blocks.append(f"Type: {attribute}\nInference: clue\nGuess: {guess}; unknown1; unknown2\nCertainty: 3")
            return "\n\n".join(blocks)
        if "judge of text rewriting" in prompt:
            return '{"readability": 9, "meaning": 8, "hallucination": 0}'
        if "ground truth" in prompt.lower():
            return "no"
        return "I removed hints.\n#\n" + prompt.split("Comments:")[-1].strip().upper()

    return respond


class _Pool:
    def __init__(self, llm):
        self.llm = llm

    def get(self, _config):
        return self.llm


class _FakeLoop:
    """FAKE two-round method: round 1 drops the first line, round 2 the second."""

    name = "fake-loop"
    calls = 0

    def anonymize_many(self, profiles, on_progress=None):
        _FakeLoop.calls += len(profiles)
        results = []
        for p in profiles:
            lines = p.text.split("\n")
            rounds = ["\n".join(lines[1:]) or "-", "\n".join(lines[2:]) or "-"]
            results.append(Anonymized(p.id, rounds[-1], rounds))
        if on_progress:
            on_progress(len(profiles))
        return results


register_method("fake-loop", lambda settings, pool, options: _FakeLoop())


def _corpus(repo, tmp_path, n=4):
    path = tmp_path / "profiles.jsonl"
    path.write_text("\n".join((repo / "data" / "test.jsonl").read_text().splitlines()[:n]) + "\n")
    return path


@pytest.fixture
def settings(repo, tmp_path):
    return Settings.model_validate(
        {
            "evaluation": {
                "methods": ["standard", "fake-loop"],
                "data": str(_corpus(repo, tmp_path)),
                "chunk_size": 2,
                "attackers": ["llm"],
            }
        }
    )


@pytest.fixture
def responder(settings):
    return _oracle_responder(load_profiles(settings.evaluation.data))


def test_run_writes_the_table_plots_and_resumes_without_model_calls(tmp_path, settings, responder):
    llm = fake_llm(responder)
    out = tmp_path / "eval"
    evaluation = run_evaluation(settings, _Pool(llm), out)
    report = write_report(evaluation, settings.evaluation.methods)
    for name in (
        "table.md",
        "table.csv",
        "attributes.md",
        "attributes.csv",
        "attack_accuracy.md",
        "tradeoff.csv",
        "tradeoff.png",
        "attack_accuracy.png",
    ):
        assert (out / name).stat().st_size > 0, name
    header = (out / "table.md").read_text().splitlines()[0]
    columns = ["Anonymity", "Progress", "BLEU", "ROUGE-1", "ROUGE-L", "Readability", "Meaning", "Score_Utility"]
    assert [header.index(c) for c in columns] == sorted(header.index(c) for c in columns)  # the paper's order
    rows = {r.method: r for r in report.rows}
    # The oracle attacker is right on every original and wrong on every rewritten text.
    assert rows["original"].figures["Anonymity"].value == 0.0
    assert rows["standard"].figures["Anonymity"].value == 1.0
    assert rows["standard"].figures["Progress"].value == 1.0
    assert rows["standard"].figures["Meaning"].value == 8.0
    assert rows["standard"].figures["Score_Utility"].value == pytest.approx(
        metrics.score_utility(
            rows["standard"].figures["BLEU"].value,
            rows["standard"].figures["ROUGE-1"].value,
            rows["standard"].figures["ROUGE-L"].value,
            8.0,
        )
    )
    assert [c.round for c in report.curves] == [0, 1, 2]  # only the loop method has a curve
    assert report.overall_accuracy["llm"][0].value == 1.0
    assert not report.at_chance("llm") and "NOT above chance" not in (out / "table.md").read_text()
    assert [c.figures["Anonymity"].value for c in report.curves] == [0.0, 1.0, 1.0]
    calls = len(llm.backend.requests)

    again = fake_llm(responder)
    _FakeLoop.calls = 0
    run_evaluation(settings, _Pool(again), out)
    assert again.backend.requests == [] and _FakeLoop.calls == 0  # everything was on disk
    assert calls > 0
    assert len((out / "scores-fake-loop.jsonl").read_text().splitlines()) == 4


def test_a_crash_mid_run_resumes_without_duplicates(tmp_path, settings, responder):
    out = tmp_path / "eval"
    chunked = settings.model_copy(update={"evaluation": settings.evaluation.model_copy(update={"chunk_size": 1})})
    ids = [p.id for p in load_profiles(settings.evaluation.data)]
    original = _FakeLoop.anonymize_many

    def dies_on_the_third_profile(self, profiles, on_progress=None):
        if profiles[0].id == ids[2]:
            raise KeyboardInterrupt  # kill -9 stand-in: the process stops mid-method
        return original(self, profiles, on_progress)

    _FakeLoop.anonymize_many = dies_on_the_third_profile
    try:
        with pytest.raises(KeyboardInterrupt):
            run_evaluation(chunked, _Pool(fake_llm(responder)), out)
    finally:
        _FakeLoop.anonymize_many = original
    assert len((out / "anonymized-fake-loop.jsonl").read_text().splitlines()) == 2
    run_evaluation(settings, _Pool(fake_llm(responder)), out)
    for name in (
        "originals.jsonl",
        "anonymized-standard.jsonl",
        "scores-standard.jsonl",
        "anonymized-fake-loop.jsonl",
        "scores-fake-loop.jsonl",
    ):
        saved = [json.loads(line)["profile_id"] for line in (out / name).read_text().splitlines()]
        assert sorted(saved) == sorted(ids), name


def test_a_call_that_keeps_failing_is_not_saved_and_is_retried_next_run(tmp_path, settings, responder):
    out = tmp_path / "eval"

    def judge_down(messages):
        if "judge of text rewriting" in messages[-1]["content"]:
            raise ConnectionError("judge unreachable")
        return responder(messages)

    llm = fake_llm(judge_down)
    llm.max_retries = 1
    evaluation = run_evaluation(settings, _Pool(llm), out)
    assert evaluation.failed["scoring (standard)"] == {p.id for p in load_profiles(settings.evaluation.data)}
    assert not (out / "scores-standard.jsonl").exists() or not (out / "scores-standard.jsonl").read_text().strip()
    evaluation = run_evaluation(settings, _Pool(fake_llm(responder)), out)
    assert evaluation.failed == {}
    assert len((out / "scores-standard.jsonl").read_text().splitlines()) == 4


def test_resuming_with_another_attacker_model_is_refused(tmp_path, settings, responder):
    out = tmp_path / "eval"
    run_evaluation(settings, _Pool(fake_llm(responder)), out)
    changed = settings.model_copy(
        update={"attacker": settings.model.model_copy(update={"model": "deepseek/deepseek-chat"})}
    )
    with pytest.raises(EvaluationError, match="attacker"):
        run_evaluation(changed, _Pool(fake_llm(responder)), out)
    more_methods = settings.model_copy(
        update={"evaluation": settings.evaluation.model_copy(update={"methods": ["standard"]})}
    )
    run_evaluation(more_methods, _Pool(fake_llm(responder)), out)  # choosing methods is fine


def test_report_rebuilds_from_disk_alone(tmp_path, settings, responder):
    out = tmp_path / "eval"
    evaluation = run_evaluation(settings, _Pool(fake_llm(responder)), out)
    first = build_report(evaluation)
    second = build_report(evaluation)
    assert [r.figures["Anonymity"] for r in first.rows] == [r.figures["Anonymity"] for r in second.rows]


def test_limit_takes_the_first_profiles_or_a_seeded_sample(repo):
    from stealthflow.evaluation.config import EvaluationConfig
    from stealthflow.evaluation.runner import labelled_profiles

    data = repo / "data" / "test.jsonl"
    first = [p.id for p in labelled_profiles(EvaluationConfig(data=data, limit=5))]
    sample = [p.id for p in labelled_profiles(EvaluationConfig(data=data, limit=5, sample_seed=0))]
    assert first == [p.id for p in labelled_profiles(EvaluationConfig(data=data))][:5]
    assert len(set(sample)) == 5 and sample != first
    assert sample == [
        p.id for p in labelled_profiles(EvaluationConfig(data=data, limit=5, sample_seed=0))
    ]  # reproducible
