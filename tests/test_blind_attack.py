"""benchmarks/blind_attack.py: `prepare --profiles FILE` blinds another labelled set than the test split."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "blind_attack.py"


def profile(username: str, posts: list[str], labels: dict[str, str]) -> dict:
    """A labelled profile in data/test.jsonl's format."""
    return {
        "username": username,
        "comments": [{"comments": [{"text": t, "subreddit": "x", "user": username, "timestamp": 1} for t in posts]}],
        "reviews": {"human_evaluated": {a: {"estimate": v, "hardness": 2, "certainty": 3} for a, v in labels.items()}},
    }


def prepare(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    out = tmp_path / "blind"
    return subprocess.run(
        [sys.executable, str(SCRIPT), "prepare", "--methods", "original", "--out", str(out), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def changed(blind: Path, flags: list[tuple[str, int, bool]]) -> str:
    """`blind_attack.py changed` on the directory `blind` with the writer's clue flags (username, post, clue): its table."""
    path = blind / "flags.jsonl"
    path.write_text("".join(json.dumps({"username": u, "comment": i, "clue": c}) + "\n" for u, i, c in flags))
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "changed", str(blind), "--flags", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_prepare_blinds_the_profiles_of_a_given_file(tmp_path):
    path = tmp_path / "profiles.jsonl"
    rows = [
        profile("ann", ["I moved here last spring.", "Gardening again today."], {"age": "34", "gender": "female"}),
        profile("bo", ["Finished the night shift."], {"occupation": "nurse"}),
        profile("cy", ["No labels on this one."], {}),  # unlabelled: never sampled
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = prepare(tmp_path, "--profiles", str(path), "--sample", "5")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "blind"
    texts = [json.loads(line) for line in (out / "texts" / "original.jsonl").read_text("utf-8").splitlines()]
    assert sorted(t["text"] for t in texts) == [
        "Finished the night shift.",
        "I moved here last spring.\nGardening again today.",
    ]
    key = json.loads((out / "key.json").read_text("utf-8"))
    labels = json.loads((out / "labels.json").read_text("utf-8"))
    assert {entry["method"] for entry in key.values()} == {"original"}
    assert sorted(labels.values(), key=len) == [{"occupation": "nurse"}, {"age": "34", "gender": "female"}]
    assert set(labels) == {entry["profile"] for entry in key.values()}


@pytest.mark.parametrize("content", [None, "not json\n"])
def test_prepare_rejects_a_missing_or_broken_file_and_writes_nothing(tmp_path, content):
    path = tmp_path / "profiles.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = prepare(tmp_path, "--profiles", str(path))
    assert done.returncode != 0
    assert str(path) in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "blind").exists()


def test_changed_counts_the_posts_of_each_kind_a_method_changed(tmp_path):
    """Posts are matched by author and position: a method that rewrote the clue post of one author and the clue-free
    post of another changed 1 of 2 of each kind."""
    (tmp_path / "texts").mkdir()
    key = {"o1": "ann", "o2": "bob", "m1": "ann", "m2": "bob"}
    (tmp_path / "key.json").write_text(
        json.dumps({b: {"profile": p, "method": "original" if b[0] == "o" else "m"} for b, p in key.items()})
    )
    texts = {
        "original": [("o2", "nice game\nI live in Leeds"), ("o1", "I live in Cork\nno idea lol")],
        "m": [("m1", "I live here\nno idea lol"), ("m2", "great game\nI live in Leeds")],
    }
    for method, rows in texts.items():
        (tmp_path / "texts" / f"{method}.jsonl").write_text(
            "".join(json.dumps({"id": b, "text": t}) + "\n" for b, t in rows)
        )
    flags = [("ann", 0, True), ("ann", 1, False), ("bob", 0, False), ("bob", 1, True)]
    assert "| m | 1 of 2 (50%) | 1 of 2 (50%) |" in changed(tmp_path, flags)


def test_local_printed_withholds_the_posts_the_local_method_reports_not_protected(tmp_path):
    """The real local method (cue tagger and generalizer) on a post it cannot protect and one without a cue."""
    path = tmp_path / "profiles.jsonl"
    posts = ["Wife says it's distinguished", "Gardening again today."]
    path.write_text(json.dumps(profile("ann", posts, {"gender": "male"})) + "\n", encoding="utf-8")
    out = tmp_path / "blind"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "prepare", "--methods", "local,local-printed", "--out", str(out)]
        + ["--profiles", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    (local,) = [json.loads(line) for line in (out / "texts" / "local.jsonl").read_text("utf-8").splitlines()]
    (shown,) = [json.loads(line) for line in (out / "texts" / "local-printed.jsonl").read_text("utf-8").splitlines()]
    assert local["text"].split("\n")[0].endswith("distinguished")  # what stayed is in the rewrite
    assert shown["text"] == "\nGardening again today."


def test_prepare_reads_a_method_from_a_file_of_rewrites_and_splits_each_method_for_its_readers(tmp_path):
    """`--rewrites teacher=FILE` blinds rewrites written elsewhere (a strong model's) beside the original; `--parts 2`
    gives each method's authors to two files, and `changed` still counts per method, from the key."""
    path = tmp_path / "profiles.jsonl"
    rows = [
        profile("ann", ["I live in Cork.", "Nice game."], {"location": "Cork, Ireland"}),
        profile("bo", ["Night shift at the ER again."], {"occupation": "nurse"}),
        profile("cy", ["Rent in Leeds is mad.", "Tea first."], {"location": "Leeds, UK"}),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    rewrites = [("ann", 0, "I live here."), ("ann", 1, "Nice game."), ("bo", 0, "Night shift again.")]
    rewrites += [("cy", 0, "Rent here is mad."), ("cy", 1, "Tea first.")]
    given = tmp_path / "teacher.jsonl"
    given.write_text("".join(json.dumps({"username": u, "comment": i, "text": t}) + "\n" for u, i, t in rewrites))
    done = prepare(tmp_path, "--profiles", str(path), "--rewrites", f"teacher={given}", "--parts", "2")
    assert done.returncode == 0, done.stderr
    out = tmp_path / "blind"
    assert sorted(p.name for p in (out / "texts").iterdir()) == [
        "original-a.jsonl",
        "original-b.jsonl",
        "teacher-a.jsonl",
        "teacher-b.jsonl",
    ]
    key = json.loads((out / "key.json").read_text("utf-8"))
    teacher = {}
    for name in ("teacher-a.jsonl", "teacher-b.jsonl"):
        for line in (out / "texts" / name).read_text("utf-8").splitlines():
            row = json.loads(line)
            assert key[row["id"]]["method"] == "teacher"
            teacher[key[row["id"]]["profile"]] = row["text"]
    assert teacher == {
        "ann": "I live here.\nNice game.",
        "bo": "Night shift again.",
        "cy": "Rent here is mad.\nTea first.",
    }
    flags = [("ann", 0, True), ("ann", 1, False), ("bo", 0, True), ("cy", 0, True), ("cy", 1, False)]
    assert "| teacher | 0 of 2 (0%) | 3 of 3 (100%) |" in changed(out, flags)


def test_prepare_refuses_rewrites_that_miss_a_post_and_writes_nothing(tmp_path):
    path = tmp_path / "profiles.jsonl"
    path.write_text(json.dumps(profile("ann", ["I live in Cork.", "Nice game."], {"gender": "female"})) + "\n")
    given = tmp_path / "teacher.jsonl"
    given.write_text(json.dumps({"username": "ann", "comment": 0, "text": "I live here."}) + "\n")
    done = prepare(tmp_path, "--profiles", str(path), "--rewrites", f"teacher={given}")
    assert done.returncode != 0
    assert "no rewrite of post 1 of ann" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "blind").exists()
